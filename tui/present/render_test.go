package present

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/tui/theme"
)

func TestPrettyJSON(t *testing.T) {
	for _, c := range []struct {
		In   string
		want bool
	}{
		{`{"a":1,"b":[true,null]}`, true},
		{` [1, 2] `, true},
		{`42`, false},
		{`"a string"`, false},
		{`{"cut": `, false},
		{`read_file#1 q=read_file-2: alpha`, false},
		{``, false},
	} {
		if _, ok := prettyJSON(c.In); ok != c.want {
			t.Errorf("prettyJSON(%q) ok=%v, want %v", c.In, ok, c.want)
		}
	}
}

// The highlighted JSON wraps to the width, in colour too, and loses no
// character on the way.
func TestHighlightJSONWraps(t *testing.T) {
	src := `{"host":"web-7f3a2c","message":"cache warmup timed out after 30000ms; every request now pays a cold lookup","p99":968,"ok":false}`
	pretty, _ := prettyJSON(src)
	for _, p := range []termenv.Profile{termenv.Ascii, termenv.TrueColor} {
		lipgloss.SetColorProfile(p)
		for _, w := range []int{1, 7, 20, 80} {
			out := highlightJSON(theme.DefaultStyles(), pretty, w)
			for _, l := range strings.Split(out, "\n") {
				if lw := ansi.StringWidth(l); lw > w {
					t.Errorf("profile %d, width %d: line %q is %d wide", p, w, l, lw)
				}
			}
			if got, want := strings.ReplaceAll(ansi.Strip(out), "\n", ""), strings.ReplaceAll(pretty, "\n", ""); got != want {
				t.Errorf("profile %d, width %d: text changed:\n%s\nwant\n%s", p, w, got, want)
			}
		}
	}
	lipgloss.SetColorProfile(termenv.Ascii)
}

// A tool result with toolChars shows the tool's bytes, then the library's
// note under its own label, never mixed.
func TestToolBytesApartFromNote(t *testing.T) {
	own := `[]`
	note := "\n\n[the call ran with \"2h\", the value the tool's rule assumes]"
	n := float64(model.Len(own))
	m := &model.Message{Role: model.RoleTool, ToolName: "list", Content: own + note, ToolChars: &n}
	out := RenderMessage(theme.DefaultStyles(), m, 60)
	i, j := strings.Index(out, "library note"), strings.Index(out, `ran with "2h"`)
	if i < 0 || j < i || strings.Index(out, own) > i {
		t.Fatalf("the note is not set apart after the tool's bytes:\n%s", out)
	}
	plain := &model.Message{Role: model.RoleTool, ToolName: "list", Content: own + note}
	if out := RenderMessage(theme.DefaultStyles(), plain, 60); strings.Contains(out, "library note") {
		t.Errorf("without toolChars the whole content is the tool's, yet a note is shown:\n%s", out)
	}
}
