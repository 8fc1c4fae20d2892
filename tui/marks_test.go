package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/afinspect/inspect/tui/external"
)

// m and a letter marks the call on screen; ' and the letter comes back
// to it, from another call and from another conversation (c02: billing's
// conversation 2 holds the file's calls 6–17, its call 6 is the file's
// 11 — the golden of its policy bar); ? lists the marks; a letter never
// marked says so.
func TestMarksGoBack(t *testing.T) {
	m := open(t, fileConfig(c02), 120, 40)
	m = press(m, "w", "j", "enter", ":", "6", "enter", "m", "b")
	if !strings.Contains(m.flash, "mark b: call 6 (file call 11)") {
		t.Fatalf("after mb: %q", m.flash)
	}
	m = press(m, "g", "'", "b")
	if m.s.Call != 5 {
		t.Errorf("'b from call 1 went to call %d, want 6", m.s.Call+1)
	}
	m = press(m, "w", "k", "enter")
	if m.s.View.Number == 2 {
		t.Fatal("still on conversation 2")
	}
	m = press(m, "'", "b")
	if m.s.View.Number != 2 || m.s.Call != 5 {
		t.Errorf("'b from conversation %d went to conversation %d call %d, want 2, 6", 1, m.s.View.Number, m.s.Call+1)
	}
	m = press(m, "?")
	if !strings.Contains(m.screen(), "'b  call 6 (file call 11) of billing") {
		t.Errorf("? does not list mark b:\n%s", m.screen())
	}
	m = press(m, "esc", "'", "z")
	if !strings.Contains(m.screen(), "no mark z") {
		t.Errorf("'z, never marked: %q", m.flash)
	}
	// a key that names no mark is not taken as a command
	m = press(m, "m", "]")
	if m.s.Moved() {
		t.Error("] after m moved a knob")
	}
}

// O hands the turn to $EDITOR as a read-only file, which is gone once
// the editor exits. The fake editor records the file's mode and text;
// $VISUAL wins over $EDITOR, and a file name with a space reaches it as
// one argument.
func TestEditorGetsTheTurnReadOnly(t *testing.T) {
	dir := t.TempDir()
	seen := filepath.Join(dir, "seen")
	fake := filepath.Join(dir, "fake editor")
	script := "#!/bin/sh\nstat -c %a \"$1\" > '" + seen + "'\ncat \"$1\" >> '" + seen + "'\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VISUAL", "'"+fake+"'")
	t.Setenv("EDITOR", "false")
	m := open(t, fileConfig(s01), 120, 40)
	r := m.list.Selected()
	if r == nil {
		t.Fatal("no turn selected")
	}
	msg := external.EditorCmd(m.st, r.Messages)().(external.PagerFileMsg)
	if msg.Err != nil || !msg.Editor {
		t.Fatalf("editorCmd: %+v", msg)
	}
	if err := external.EditorCommand(msg.Path).Run(); err != nil {
		t.Fatalf("the editor: %v", err)
	}
	b, err := os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	mode, text, _ := strings.Cut(string(b), "\n")
	if mode != "400" {
		t.Errorf("the editor's file has mode %s, want 400 (read-only)", mode)
	}
	if want := r.Messages[0].Content; len(want) > 20 && !strings.Contains(text, want[:20]) {
		t.Errorf("the editor's file does not hold the turn %q:\n%s", want[:20], text)
	}
	m = send(m, external.PagerDoneMsg{Path: msg.Path})
	if _, err := os.Stat(msg.Path); !os.IsNotExist(err) {
		t.Errorf("the file is still there after the editor exited: %v", err)
	}
}
