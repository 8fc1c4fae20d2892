package tui

import (
	"errors"
	"strings"
	"testing"

	"github.com/afinspect/inspect/tui/external"
)

// Inside tmux, y hands the text to tmux (load-buffer), placeholders and
// all, and says so; when tmux will not take it, the footer says what to
// set.
func TestCopyInsideTmux(t *testing.T) {
	t.Setenv("TMUX", "/tmp/tmux-0/default,1,0")
	var loaded []string
	was := external.TmuxLoad
	external.TmuxLoad = func(s string) error { loaded = append(loaded, s); return nil }
	defer func() { external.TmuxLoad = was }()
	m := open(t, fileConfig("../testdata/s01-basic-loop/run.jsonl"), 120, 40)
	m = press(m, "right", "y")
	if len(loaded) != 1 || !strings.HasPrefix(loaded[0], "search_docs {\"q\":\"search_docs-1\",\"n\":1}\n\nsearch_docs#1 q=search_docs-1: alpha bravo") {
		t.Fatalf("tmux was given %q", loaded)
	}
	if f := m.footer(); !strings.Contains(f, "to tmux's paste buffer") {
		t.Errorf("footer %q", f)
	}
	msg := external.CopiedMsg{Chars: 12, TmuxE: errors.New("tmux load-buffer -: exit status 1 no server running")}
	if s := external.CopiedText(msg); !strings.Contains(s, "tmux load-buffer failed") || !strings.Contains(s, "set -g set-clipboard on") {
		t.Errorf("failure: %q", s)
	}
}
