package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	nethtml "golang.org/x/net/html"

	"github.com/afinspect/inspect/internal/hostile"
)

// renderedMarkdown is `inspect report --format markdown` on args as a
// GitHub-flavoured renderer turns it into HTML (raw HTML let through, as
// GitHub's renderer does before it sanitizes), parsed.
func renderedMarkdown(t *testing.T, args ...string) (*nethtml.Node, string) {
	t.Helper()
	code, out, stderr := runCLI(append([]string{"report", "-q", "--format", "markdown"}, args...)...)
	if code != 0 {
		t.Fatalf("report --format markdown %v: exit %d: %s", args, code, stderr)
	}
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	var b bytes.Buffer
	if err := md.Convert([]byte(out), &b); err != nil {
		t.Fatal(err)
	}
	doc, err := nethtml.Parse(&b)
	if err != nil {
		t.Fatal(err)
	}
	return doc, out
}

// The Markdown's own elements: anything else came from the recording.
var mdTags = []string{"html", "head", "body", "h3", "h4", "p", "ul", "li", "code", "pre", "strong", "table", "thead", "tbody", "tr", "th", "td", "details", "summary"}

func checkMarkdownShape(t *testing.T, doc *nethtml.Node) {
	t.Helper()
	for _, n := range elements(doc, func(*nethtml.Node) bool { return true }) {
		if !slices.Contains(mdTags, n.Data) {
			t.Errorf("element <%s> the report does not write", n.Data)
		}
		for _, a := range n.Attr {
			ok := (a.Key == "class" && a.Val == "language-text") || (a.Key == "style" && strings.HasPrefix(a.Val, "text-align:"))
			if !ok {
				t.Errorf("<%s %s=%q>: an attribute the report does not write", n.Data, a.Key, a.Val)
			}
		}
	}
}

func TestReportMarkdownDemo(t *testing.T) {
	doc, _ := renderedMarkdown(t, "../testdata/demo-evidence/run.jsonl")
	checkMarkdownShape(t, doc)
	tables := byTag(doc, "table")
	if len(tables) != 2 {
		t.Fatalf("%d tables, want the calls' and the flagged values'", len(tables))
	}
	rows := byTag(byTag(tables[0], "tbody")[0], "tr")
	if len(rows) != 16 {
		t.Fatalf("%d rows in the calls' table, want 16", len(rows))
	}
	// call 7: list_hosts left and a notice took its place (report's LEFT)
	cells := byTag(rows[6], "td")
	if got := textOf(cells[9]); got != "list_hosts +notice" {
		t.Errorf("call 7 LEFT %q", got)
	}
	if got := textOf(cells[len(cells)-1]); got != "-" {
		t.Errorf("call 7 FLAGGED %q", got)
	}
	if got := textOf(byTag(rows[12], "td")[len(cells)-1]); got != "5: us-east-1b (left), 10.12.4.52 (left), 3,940 (left), web-3e6f14 (never-read), web-9d4b27 (left)" {
		t.Errorf("call 13 FLAGGED %q", got)
	}
	values := byTag(byTag(tables[1], "tbody")[0], "tr")
	// call 16's web-3e6f14 is named only to be refuted ("… not
	// web-3e6f14", §10.2 rule 7): listed by evidence, not flagged
	if len(values) != 8 {
		t.Errorf("%d flagged values, want 8 (5 at call 13, 3 at call 16)", len(values))
	}
	var fourth []string
	for _, td := range byTag(values[3], "td") {
		fourth = append(fourth, textOf(td))
	}
	if !slices.Equal(fourth, []string{"13", "answer", "web-3e6f14", "never-read", "in no message this conversation sent: typed, not read — nearest: web-3e6f41 (get_deploy call_0005, in view)", ""}) {
		t.Errorf("the fourth value: %q", fourth)
	}
	details := byTag(doc, "details")
	if len(details) != 16 {
		t.Fatalf("%d collapsible windows, want 16", len(details))
	}
	if s := textOf(byTag(details[6], "summary")[0]); !strings.HasPrefix(s, "call 7 · run 1 · conversation 1") {
		t.Errorf("call 7's summary %q", s)
	}
	if !strings.Contains(textOf(details[6]), "EVICTED evicted here:") {
		t.Error("call 7's window does not say what was evicted")
	}
	if code, _, stderr := runCLI("report", "--format", "html", "../testdata/demo-evidence/run.jsonl"); code != exitUsage || !strings.Contains(stderr, "table or markdown") {
		t.Errorf("--format html: exit %d %q", code, stderr)
	}
}

// A recording's markup, backticks and pipes stay text: no element, no
// attribute, no link, no column of its own.
func TestReportMarkdownHostile(t *testing.T) {
	payload := hostile.Markup("") + " | a | b | ``` ```` `x` *em* _u_ [l](http://127.0.0.1:9/pwn3d-md) ![i](http://127.0.0.1:9/pwn3d-mdimg) https://example.org/pwn3d www.pwn3d.example @someone #12 ~~s~~\n\n</details>\n\n# heading\n"
	for _, path := range append(hostileCopies(t, payload), "../testdata/c02-interleaved-agents/run.jsonl") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			doc, out := renderedMarkdown(t, path)
			checkMarkdownShape(t, doc)
			tables := byTag(doc, "table")
			if len(tables) == 0 {
				t.Fatal("no table")
			}
			want := len(byTag(byTag(tables[0], "thead")[0], "th"))
			for _, tr := range byTag(tables[0], "tr") {
				if n := len(byTag(tr, "td")) + len(byTag(tr, "th")); n != want {
					t.Errorf("a row of %d cells in a table of %d columns", n, want)
				}
			}
			if strings.Contains(filepath.Base(path), "markup") && !strings.Contains(textOf(doc), `<script class="pwn3d">`) {
				t.Error("the markup is not in the report as text")
			}
			if strings.ContainsAny(out, "\x1b\u009b\u202e") {
				t.Error("a terminal or bidi control reached the Markdown")
			}
		})
	}
}

// Every recording's Markdown renders to the report's own elements: one
// row and one collapsible window a call, as many as the export has.
func TestReportMarkdownOfEveryRecording(t *testing.T) {
	for _, path := range everyRecording(t) {
		t.Run(strings.TrimPrefix(path, "../testdata/"), func(t *testing.T) {
			doc, _ := renderedMarkdown(t, path)
			checkMarkdownShape(t, doc)
			_, out, _ := runCLI("export", "-q", path)
			var ex exportFacts
			if err := json.Unmarshal([]byte(out), &ex); err != nil {
				t.Fatal(err)
			}
			tables := byTag(doc, "table")
			if len(tables) == 0 {
				t.Fatal("no table")
			}
			if rows := byTag(byTag(tables[0], "tbody")[0], "tr"); len(rows) != len(ex.Calls) {
				t.Errorf("%d rows for %d calls", len(rows), len(ex.Calls))
			}
			if d := byTag(doc, "details"); len(d) != len(ex.Calls) {
				t.Errorf("%d windows for %d calls", len(d), len(ex.Calls))
			}
		})
	}
}
