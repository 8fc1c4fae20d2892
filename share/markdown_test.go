package share

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	nethtml "golang.org/x/net/html"
)

func render(t *testing.T, p *Page, tab Table) *nethtml.Node {
	t.Helper()
	var md bytes.Buffer
	if err := WriteMarkdown(&md, p, "title", tab); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe())).Convert(md.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	doc, err := nethtml.Parse(&out)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func all(n *nethtml.Node, tag string) []*nethtml.Node {
	var out []*nethtml.Node
	if n.Type == nethtml.ElementNode && n.Data == tag {
		out = append(out, n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		out = append(out, all(c, tag)...)
	}
	return out
}

func text(n *nethtml.Node) string {
	if n.Type == nethtml.TextNode {
		return n.Data
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b.WriteString(text(c))
	}
	return b.String()
}

// Every cell reads back as the text put in it, whatever Markdown it
// holds: pipes, backticks, emphasis, links, tags, entities, backslashes.
func TestMarkdownCellsReadBack(t *testing.T) {
	nasty := []string{"a | b", "`x` ``y``", "*em* _u_ **b**", "[l](http://x/) ![i](http://x/i)", "<img src=x onerror=alert(1)>",
		"&amp; &lt; &#60;", `back\slash \| \*`, "# h", "- item", "1. one", "~~s~~", "a\nb", "`", "|", " lead", "trail "}
	var rows [][]string
	var values []Value
	for _, s := range nasty {
		rows = append(rows, []string{s, "1"})
		values = append(values, Value{Call: 1, In: s, Typed: s, Verdict: "left", Explanation: s, Keep: s})
	}
	doc := render(t, &Page{Source: "a|b`c", Values: values}, Table{Head: []string{"A | B", "N"}, Rows: rows})
	tables := all(doc, "table")
	if len(tables) != 2 {
		t.Fatalf("%d tables", len(tables))
	}
	want := func(s string) string { return strings.TrimSpace(strings.ReplaceAll(s, "\n", " ")) }
	body := all(all(tables[0], "tbody")[0], "tr")
	if len(body) != len(nasty) {
		t.Fatalf("%d rows for %d", len(body), len(nasty))
	}
	for i, tr := range body {
		tds := all(tr, "td")
		if len(tds) != 2 || text(tds[0]) != want(nasty[i]) {
			t.Errorf("row %d: %d cells, the first %q, want %q", i, len(tds), text(tds[0]), want(nasty[i]))
		}
	}
	for i, tr := range all(all(tables[1], "tbody")[0], "tr") {
		tds := all(tr, "td")
		if len(tds) != 6 {
			t.Errorf("value %d: %d cells", i, len(tds))
			continue
		}
		for _, k := range []int{1, 4, 5} {
			if text(tds[k]) != want(nasty[i]) {
				t.Errorf("value %d cell %d: %q, want %q", i, k, text(tds[k]), want(nasty[i]))
			}
		}
		if code := all(tds[2], "code"); len(code) != 1 || strings.TrimSpace(text(code[0])) != want(nasty[i]) {
			t.Errorf("value %d: the value cell reads %q, want %q", i, text(tds[2]), want(nasty[i]))
		}
	}
	for _, tag := range []string{"img", "a", "em", "del", "h1", "ol"} {
		if n := len(all(doc, tag)); n > 0 {
			t.Errorf("%d <%s> from the cells", n, tag)
		}
	}
}

// A fenced block outlasts any run of backticks in what it holds, and a
// summary's text is HTML text.
func TestMarkdownFenceAndSummary(t *testing.T) {
	content := "```\n</details>\n````\n<script>x</script>"
	p := &Page{Views: []Call{{Number: 3, Head: "<b>head</b> & more", Recorded: "match", Response: Response{Content: content}}}}
	doc := render(t, p, Table{})
	pres := all(doc, "pre")
	if len(pres) != 1 || text(pres[0]) != content+"\n" {
		t.Fatalf("the answer's block: %d blocks, %q", len(pres), text(pres[0]))
	}
	if s := all(doc, "summary"); len(s) != 1 || !strings.Contains(text(s[0]), "<b>head</b> & more") {
		t.Errorf("summary %q", text(s[0]))
	}
	if n := len(all(doc, "b")) + len(all(doc, "script")); n > 0 {
		t.Errorf("%d elements from the texts", n)
	}
}
