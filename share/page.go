// Package share writes one recording's replay as a single HTML page a
// person can send: no network, no external asset, nothing that runs,
// readable from file://. Its content security policy forbids everything
// but the page's own style sheet (named by its hash), so even a tag that
// slipped through could load and run nothing; and every string of the
// recording goes through html/template, which escapes it for the place
// it lands (a recording is untrusted input).
//
// Like package export, it decides nothing: the caller (cli, asking
// study) fills a Page with the words and numbers report, export and the
// terminal UI give, and this package lays them out.
package share

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"io"
)

// Page is everything the page shows.
type Page struct {
	Source string // the file's name, as given
	// Facts are the recording's lines above the calls: the policy, the
	// library rules, the recorded windows reproduced.
	Facts    []string
	Calls    int    // the calls of the replay
	Shown    string // which of them the page holds, in words
	Problems []string
	Timeline []Tick
	Values   []Value // every flagged value of the calls shown
	Views    []Call
}

// Tick is one call on the timeline.
type Tick struct {
	Call    int
	Height  int  // 0…8, the window's size against the largest
	Evicted bool // something left the window at this call
	Flagged bool // its response holds a flagged value
	Differs bool // the replayed window is not the one the library recorded
	Shown   bool // the page holds the call (a link), or only its tick
	Title   string
}

// Call is one model call's window as the UI shows it.
type Call struct {
	Number   int
	Head     string   // run, conversation, agent, iteration
	Facts    []string // the window's size, the tokens, what left and what stayed
	Recorded string   // match, differs or a word for none to compare
	Turns    []Turn
	Gone     int // turns that left at earlier calls
	NoWindow string
	Response Response
	Values   []Value
	Open     bool
}

// Turn is one turn of the window (or one that left at this call), with
// its fate and the reason for it.
type Turn struct {
	Fate     string // a window.Fate
	Reason   string
	Messages []Message
}

// Message is one message of a turn. Its full text is on the page once,
// at the first call that shows it; later calls show its start and a link
// back (a long run repeats each message in many windows).
type Message struct {
	Anchor   string // the id of its full text on the page
	Role     string
	Tool     string // the tool name and call id of a tool result
	Chars    int
	Full     bool
	Own      string // the text; of a tool result, the tool's own bytes
	Note     string // the library's note after a tool's bytes (toolChars)
	FirstAt  int    // where the full text is, when not here
	Calls    []ToolCall
	Preview  string // the start of the text, where it is not in full
	Ephemera string // the message's marks (ephemeral, placeholder)
}

// ToolCall is one tool call a message or a response made.
type ToolCall struct {
	ID, Name, Args string
}

// Response is what the model answered.
type Response struct {
	Content string
	Calls   []ToolCall
	Usage   string
	Outcome string // what became of the answer, in words
}

// Value is one flagged value and why.
type Value struct {
	Call        int
	In          string
	Typed       string
	Verdict     string
	Explanation string // the verdict in words: where the value was, or why it was not
	Keep        string // the smallest policy change that would have kept it in view
}

// CSP is the page's content security policy: nothing may load or run,
// the page's own style sheet alone applies.
func CSP() string {
	return "default-src 'none'; style-src '" + StyleHash() + "'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}

// StyleHash is the CSP source of the page's one style element.
func StyleHash() string {
	sum := sha256.Sum256([]byte(css))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

var page = template.Must(template.New("page").Funcs(template.FuncMap{
	"fate":    fateClass,
	"verdict": verdictClass,
	"csp":     CSP,
}).Parse(head + css + body))

// Write writes p as one HTML document.
func Write(w io.Writer, p *Page) error { return page.Execute(w, p) }

// fateClass is the CSS class of a fate; a fate the page has no colour for
// is drawn plain (the class never comes from the recording).
func fateClass(f string) string {
	switch f {
	case "anchor", "pinned", "recent", "kept", "evicted", "gone", "notice", "new", "folded", "summary":
		return "fate-" + f
	}
	return "fate-other"
}

// verdictClass is the CSS class of a verdict.
func verdictClass(v string) string {
	switch v {
	case "left", "in-view-text", "never-read", "summary-unsupported":
		return "v-" + v
	}
	return "v-other"
}
