package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/afinspect/inspect/internal/hostile"
	"github.com/afinspect/inspect/internal/rungen"
)

// sharePageOf runs `inspect share` on args and parses the page it wrote.
func sharePageOf(t *testing.T, args ...string) (*html.Node, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "page.html")
	code, _, stderr := runCLI(append([]string{"share", "-q", "-o", out}, args...)...)
	if code != 0 {
		t.Fatalf("share %v: exit %d: %s", args, code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return doc, string(b)
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func hasClass(n *html.Node, class string) bool {
	v, _ := attr(n, "class")
	return slices.Contains(strings.Fields(v), class)
}

// elements are the elements under n that match, in document order.
func elements(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func byClass(n *html.Node, class string) []*html.Node {
	return elements(n, func(e *html.Node) bool { return hasClass(e, class) })
}

func byTag(n *html.Node, tag string) []*html.Node {
	return elements(n, func(e *html.Node) bool { return e.Data == tag })
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// The page's own elements and attributes: anything else on a page came
// from the recording.
var (
	pageTags  = []string{"html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "span", "p", "ul", "li", "nav", "a", "table", "thead", "tbody", "tr", "th", "td", "code", "details", "summary", "div", "pre", "footer"}
	pageAttrs = []string{"lang", "charset", "http-equiv", "content", "name", "id", "class", "title", "href", "open", "aria-label", "data-calls", "data-call", "data-fate", "data-verdict"}
)

// checkPageShape holds a page to what it promises whatever it shows: one
// policy that lets nothing load or run, one style element whose hash the
// policy names, no script, no element or attribute the page does not
// write itself, and links only within the page.
func checkPageShape(t *testing.T, doc *html.Node) {
	t.Helper()
	metas := elements(doc, func(n *html.Node) bool {
		v, _ := attr(n, "http-equiv")
		return n.Data == "meta" && strings.EqualFold(v, "content-security-policy")
	})
	if len(metas) != 1 {
		t.Fatalf("%d CSP meta elements, want 1", len(metas))
	}
	csp, _ := attr(metas[0], "content")
	if !strings.HasPrefix(csp, "default-src 'none';") {
		t.Errorf("CSP %q does not start with default-src 'none'", csp)
	}
	if head := byTag(doc, "head"); len(head) != 1 || metas[0].Parent != head[0] {
		t.Error("the CSP meta is not in the head")
	}
	styles := byTag(doc, "style")
	if len(styles) != 1 {
		t.Fatalf("%d style elements, want 1", len(styles))
	}
	sum := sha256.Sum256([]byte(textOf(styles[0])))
	if want := "style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(csp, want) {
		t.Errorf("CSP %q does not name the style element's hash (%s)", csp, want)
	}
	for _, n := range elements(doc, func(*html.Node) bool { return true }) {
		if n.Data == "meta" && n.Parent.Data != "head" {
			t.Error("a <meta> outside the head (a refresh there navigates, whatever the policy)")
		}
		if !slices.Contains(pageTags, n.Data) {
			t.Errorf("element <%s> the page does not write", n.Data)
		}
		for _, a := range n.Attr {
			if !slices.Contains(pageAttrs, a.Key) || a.Namespace != "" {
				t.Errorf("<%s> has attribute %q the page does not write", n.Data, a.Key)
			}
			if a.Key == "href" && !strings.HasPrefix(a.Val, "#") {
				t.Errorf("<%s> links out of the page: %q", n.Data, a.Val)
			}
			if strings.Contains(a.Val, hostile.MarkupMark) && a.Key != "title" {
				t.Errorf("<%s %s=%q>: the recording's markup in an attribute", n.Data, a.Key, a.Val)
			}
		}
	}
}

// exportFacts are what the export says of each call: its number, and
// how many turns left at it.
type exportFacts struct {
	Calls []struct {
		Call  int `json:"call"`
		Turns []struct {
			Fate string `json:"fate"`
		} `json:"turns"`
	} `json:"calls"`
}

func TestSharePageOfEveryRecording(t *testing.T) {
	for _, path := range everyRecording(t) {
		t.Run(strings.TrimPrefix(path, "../testdata/"), func(t *testing.T) {
			doc, _ := sharePageOf(t, path)
			checkPageShape(t, doc)
			code, out, stderr := runCLI("export", "-q", path)
			if code != 0 {
				t.Fatalf("export: exit %d: %s", code, stderr)
			}
			var ex exportFacts
			if err := json.Unmarshal([]byte(out), &ex); err != nil {
				t.Fatal(err)
			}
			calls := byClass(doc, "call")
			if len(calls) != len(ex.Calls) {
				t.Fatalf("%d calls on the page, the export has %d", len(calls), len(ex.Calls))
			}
			if n, _ := attr(elements(doc, func(n *html.Node) bool { _, ok := attr(n, "data-calls"); return ok })[0], "data-calls"); n != strconv.Itoa(len(ex.Calls)) {
				t.Errorf("the page says %s calls, the export has %d", n, len(ex.Calls))
			}
			if ticks := byClass(doc, "tick"); len(ticks) != len(ex.Calls) {
				t.Errorf("%d ticks on the timeline for %d calls", len(ticks), len(ex.Calls))
			}
			for k, c := range calls {
				num, _ := attr(c, "data-call")
				if num != strconv.Itoa(ex.Calls[k].Call) {
					t.Fatalf("call %d of the page is number %s, the export's %d", k, num, ex.Calls[k].Call)
				}
				// the page's turns come from the replay's ledger, the
				// export's from the visit: they must agree on what left
				for _, fate := range []string{"evicted", "folded"} {
					want := 0
					for _, tu := range ex.Calls[k].Turns {
						if tu.Fate == fate {
							want++
						}
					}
					got := len(elements(c, func(n *html.Node) bool { v, _ := attr(n, "data-fate"); return v == fate }))
					if got != want {
						t.Errorf("call %s: %d %s turns on the page, the export has %d", num, got, fate, want)
					}
				}
			}
			code, out, _ = runCLI("evidence", "-q", "--format", "json", path)
			var ev struct{ Values []struct{ Flagged bool } }
			if code != 0 || json.Unmarshal([]byte(out), &ev) != nil {
				t.Fatalf("evidence: exit %d", code)
			}
			flagged := 0 // evidence lists every judged value; the page the flagged ones
			for _, v := range ev.Values {
				if v.Flagged {
					flagged++
				}
			}
			rows := elements(doc, func(n *html.Node) bool { _, ok := attr(n, "data-verdict"); return n.Data == "tr" && ok })
			if len(rows) != flagged {
				t.Errorf("%d flagged values on the page, evidence flags %d", len(rows), flagged)
			}
		})
	}
}

// The demo as a person reads it (demo-evidence/README.txt): 16 calls; at
// call 7 the inventory (list_hosts call_0001, asked for in the first
// assistant turn) leaves and a notice takes its place; call 13's answer
// names web-3e6f14, which no tool ever returned.
func TestShareDemoFacts(t *testing.T) {
	doc, _ := sharePageOf(t, "../testdata/demo-evidence/run.jsonl")
	if got := textOf(elements(doc, func(n *html.Node) bool { v, _ := attr(n, "id"); return v == "calls" })[0]); got != "16 model calls" {
		t.Errorf("the head says %q", got)
	}
	call := func(n int) *html.Node {
		for _, c := range byClass(doc, "call") {
			if v, _ := attr(c, "data-call"); v == strconv.Itoa(n) {
				return c
			}
		}
		t.Fatalf("no call %d", n)
		return nil
	}
	evicted := byClass(call(7), "fate-evicted")
	if len(evicted) != 1 {
		t.Fatalf("call 7: %d evicted turns, want 1 (the list_hosts turn)", len(evicted))
	}
	heads := byClass(evicted[0], "mhead")
	var said []string
	for _, h := range heads {
		said = append(said, textOf(h))
	}
	if len(said) < 3 || !strings.HasPrefix(said[0], "assistant") || said[1] != "→ list_hosts call_0001" || !strings.HasPrefix(said[2], "tool list_hosts call_0001") {
		t.Errorf("call 7's evicted turn: %q", said)
	}
	if r := textOf(byClass(evicted[0], "reason")[0]); !strings.HasPrefix(r, "evicted here:") || !strings.Contains(r, "a drop notice took the place of the 2 messages") {
		t.Errorf("call 7's evicted turn's reason: %q", r)
	}
	if n := len(byClass(call(7), "fate-notice")); n != 1 {
		t.Errorf("call 7: %d notices, want 1", n)
	}
	var never []string
	for _, li := range elements(call(13), func(n *html.Node) bool { v, _ := attr(n, "data-verdict"); return n.Data == "li" && v == "never-read" }) {
		never = append(never, textOf(byClass(li, "value")[0]))
	}
	if !slices.Equal(never, []string{"web-3e6f14"}) {
		t.Errorf("call 13's never-read values: %q", never)
	}
	for _, c := range byClass(doc, "call") {
		if _, open := attr(c, "open"); open {
			t.Errorf("call %v is open on the page of every call", c.Attr)
		}
	}
}

// A tool result with a library note (t01: toolChars 2611) shows the
// tool's bytes and the note apart, the note under its label.
func TestShareToolBytesApartFromNote(t *testing.T) {
	doc, _ := sharePageOf(t, "../testdata/t01-toolchars/run.jsonl")
	notes := byClass(doc, "note")
	if len(notes) != 1 {
		t.Fatalf("%d notes, want 1 (the message is shown in full once)", len(notes))
	}
	note := textOf(notes[0])
	pres := byClass(notes[0].Parent, "own")
	if len(pres) != 1 {
		t.Fatalf("the noted message has %d own blocks", len(pres))
	}
	own := textOf(pres[0])
	if n := utf16Len(own); n != 2611 {
		t.Errorf("the tool's own bytes are %d UTF-16 units, toolChars says 2611", n)
	}
	if note == "" || strings.Contains(own, note) {
		t.Errorf("note %q not apart from the tool's bytes", note)
	}
	if label := byClass(notes[0].Parent, "notelabel"); len(label) != 1 || !strings.Contains(textOf(label[0]), "library note") {
		t.Error("the note has no label")
	}
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

func TestShareCallRange(t *testing.T) {
	doc, _ := sharePageOf(t, "--call", "7", "../testdata/demo-evidence/run.jsonl")
	calls := byClass(doc, "call")
	if len(calls) != 1 {
		t.Fatalf("--call 7: %d calls on the page", len(calls))
	}
	if _, open := attr(calls[0], "open"); !open {
		t.Error("--call 7: the call is not open")
	}
	if got := len(elements(doc, func(n *html.Node) bool { return n.Data == "a" && hasClass(n, "tick") })); got != 1 {
		t.Errorf("--call 7: %d linked ticks, want 1", got)
	}
	if got := len(byClass(doc, "tick")); got != 16 {
		t.Errorf("--call 7: %d ticks, want every call's 16", got)
	}
	doc, _ = sharePageOf(t, "--call", "13-14", "../testdata/demo-evidence/run.jsonl")
	if n := len(byClass(doc, "call")); n != 2 {
		t.Errorf("--call 13-14: %d calls", n)
	}
	// one agent of c02 (calls 2, 3, 5, … 21 of the file): its calls, by
	// the file's numbers
	doc, _ = sharePageOf(t, "--agent", "billing", "--call", "1-100", "../testdata/c02-interleaved-agents/run.jsonl")
	if got := textOf(elements(doc, func(n *html.Node) bool { v, _ := attr(n, "id"); return v == "shown" })[0]); got != "12 model calls · this page holds calls 2–21 (12 calls) of them" {
		t.Errorf("--agent billing --call 1-100: %q", got)
	}
	var nums []string
	for _, c := range byClass(doc, "call") {
		n, _ := attr(c, "data-call")
		nums = append(nums, n)
	}
	if strings.Join(nums, ",") != "2,3,5,7,9,11,13,14,16,18,20,21" {
		t.Errorf("--agent billing: calls %v", nums)
	}
	// call 14 is a follow-up: every message was shown in full at call 13
	// or is new; on a page of call 14 alone all are in full
	doc, _ = sharePageOf(t, "--call", "14", "../testdata/demo-evidence/run.jsonl")
	if n := len(byClass(doc, "preview")); n != 0 {
		t.Errorf("--call 14: %d messages not in full", n)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"share", "--call", "17", "-o", "-", "../testdata/demo-evidence/run.jsonl"}, "no call replayed has that number (they are 1–16, the file's numbers)"},
		{[]string{"share", "--agent", "billing", "--call", "1", "-o", "-", "../testdata/c02-interleaved-agents/run.jsonl"}, "(they are 2–21, the file's numbers)"},
		{[]string{"share", "--call", "9-3", "-o", "-", "../testdata/demo-evidence/run.jsonl"}, "is not a call N or a range"},
		{[]string{"share", "--call", "x", "-o", "-", "../testdata/demo-evidence/run.jsonl"}, "is not a call N or a range"},
		{[]string{"share", "../testdata/demo-evidence/run.jsonl"}, "-o PAGE.html"},
	} {
		code, _, stderr := runCLI(c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// Messages a later call holds again are shown in full once, and linked.
func TestShareFullTextOnce(t *testing.T) {
	doc, _ := sharePageOf(t, "../testdata/demo-evidence/run.jsonl")
	ids := map[string]bool{}
	for _, m := range byClass(doc, "msg") {
		if id, ok := attr(m, "id"); ok {
			if ids[id] {
				t.Errorf("id %s twice", id)
			}
			ids[id] = true
		}
	}
	links := elements(doc, func(n *html.Node) bool { return n.Data == "a" && n.Parent != nil && hasClass(n.Parent, "preview") })
	if len(links) == 0 {
		t.Fatal("no message shown twice: the demo's windows repeat their turns")
	}
	for _, a := range links {
		href, _ := attr(a, "href")
		if !ids[strings.TrimPrefix(href, "#")] {
			t.Errorf("link %s to no message", href)
		}
	}
}

// hostileCopies are the attacker's recordings: the terminal attacks the
// tmux test uses, and markup in the request, the tool results, the
// answer, the strategy and every kind of name.
func hostileCopies(t *testing.T, payload string) []string {
	t.Helper()
	dir := t.TempDir()
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("../testdata", name, "run.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	copies := map[string][]byte{
		"escapes.jsonl":  hostile.PasteAfter(hostile.Strategy(hostile.Recording(read("s01-basic-loop"))), "alpha"),
		"names.jsonl":    hostile.C02(read("c02-interleaved-agents")),
		"evidence.jsonl": hostile.Evidence(read("demo-evidence")),
		"markup.jsonl":   hostile.MarkupDemo(read("demo-evidence"), payload),
		"markup-s01.jsonl": hostile.MarkupAfter(read("s01-basic-loop"), payload, []string{"Find out why", "alpha"},
			[]string{"read_file"}),
		"markup-c02.jsonl": hostile.MarkupAfter(read("c02-interleaved-agents"), payload, nil,
			[]string{"billing", "run-1796029387850-2", "get_invoice", "call_0003"}),
	}
	var out []string
	for name, b := range copies {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// No tag, attribute or script of a hostile recording reaches the page:
// it is there as text.
func TestShareHostileRecordings(t *testing.T) {
	payload := hostile.Markup("")
	for _, path := range hostileCopies(t, payload) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			doc, raw := sharePageOf(t, path)
			checkPageShape(t, doc)
			if strings.Contains(filepath.Base(path), "markup") {
				if !strings.Contains(textOf(doc), "<script class=\"pwn3d\">") {
					t.Error("the markup is not on the page as text")
				}
				if strings.Contains(raw, "<script") || strings.Contains(raw, "<img") {
					t.Error("a tag of the recording is in the page's bytes")
				}
			}
			if strings.ContainsAny(raw, "\x1b\u009b\u202e") {
				t.Error("a terminal or bidi control reached the page")
			}
		})
	}
}

// countingWriter counts what is written to it.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// A long run's page holds each message in full once: it stays well under
// twice the export, which writes every window whole (on 16,000 calls:
// 200 MB against 514 MB).
func TestSharePageOfALongRunAgainstTheExport(t *testing.T) {
	path, _, err := rungen.Cached(rungen.Default(400))
	if err != nil {
		t.Fatal(err)
	}
	var page, exp countingWriter
	if code := run([]string{"share", "-q", "-o", "-", path}, &page, io.Discard); code != 0 {
		t.Fatalf("share: exit %d", code)
	}
	if code := run([]string{"export", "-q", path}, &exp, io.Discard); code != 0 {
		t.Fatalf("export: exit %d", code)
	}
	if page.n >= 2*exp.n {
		t.Errorf("the page of 400 calls is %d bytes, the export %d: not under twice", page.n, exp.n)
	}
	t.Logf("page %d bytes, export %d (%.2f×)", page.n, exp.n, float64(page.n)/float64(exp.n))
}

// BenchmarkShare is `inspect share` on a generated run of 1,600 calls
// (~100 MB), the page discarded.
func BenchmarkShare(b *testing.B) {
	path, size := generatedLog(b, 1600)
	b.SetBytes(size)
	for b.Loop() {
		if code := run([]string{"share", "-q", "-o", "-", path}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
