package tui

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/afinspect/inspect/internal/hostile"
	"github.com/afinspect/inspect/tui/external"
)

// copied is the text of the OSC 52 sequence y wrote to clip.
func copied(t *testing.T, clip *bytes.Buffer) string {
	t.Helper()
	out := clip.String()
	if !strings.HasPrefix(out, "\x1b]52;c;") || !strings.HasSuffix(out, "\x07") {
		t.Fatalf("y wrote %.80q, not an OSC 52 sequence", out)
	}
	text, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(strings.TrimPrefix(out, "\x1b]52;c;"), "\x07"))
	if err != nil {
		t.Fatal(err)
	}
	return string(text)
}

// A tool result that ends a bracketed paste and types a command, with
// the other escapes of internal/hostile: y copies it as the screen shows
// it — placeholders, no escape, C1, CR, BS or bidi control —, so a paste
// into a shell cannot end early and run `touch`.
func TestCopyHoldsWhatTheScreenShows(t *testing.T) {
	b, err := os.ReadFile(s01)
	if err != nil {
		t.Fatal(err)
	}
	b = hostile.Recording(b)
	b = hostile.PasteAfter(b, "alpha")
	p := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var clip bytes.Buffer
	cfg := fileConfig(p)
	cfg.Clipboard = &clip
	m := open(t, cfg, 120, 40)
	found := false
	for call := 0; call < m.s.Calls() && !found; call++ {
		for range listRows(m) {
			if r := m.list.Selected(); r != nil && strings.Contains(external.PlainText(r.Messages), "\x1b[201~") {
				found = true
				break
			}
			m = press(m, "down")
		}
		if !found {
			m = press(m, "right")
		}
	}
	if !found {
		t.Fatal("no turn holds the paste marker")
	}
	m = press(m, "y")
	text := copied(t, &clip)
	if bad, ok := rawControl(strings.ReplaceAll(text, "\n", " ")); ok {
		t.Errorf("the copy holds %q: %.300q", bad, text)
	}
	if strings.Contains(text, "\x1b[201~") || strings.Contains(text, "\x1b[200~") {
		t.Errorf("the copy holds a bracketed-paste marker: %.300q", text)
	}
	if !strings.Contains(text, "␛[201~\ntouch /tmp/x") || !strings.Contains(text, "␛]0;PWNED␇") {
		t.Errorf("the copy does not show what the screen shows: %.300q", text)
	}
	if !strings.Contains(m.footer(), "copied") {
		t.Errorf("footer %q", m.footer())
	}
}

// A 6.7 MB tool result is more than terminals take by OSC 52: y does not
// say it copied.
func TestCopyTooLargeForTheTerminalSaysSo(t *testing.T) {
	b, err := os.ReadFile(s01)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(p, hostile.BigResult(b, 6_700_000), 0o644); err != nil {
		t.Fatal(err)
	}
	var clip bytes.Buffer
	cfg := fileConfig(p)
	cfg.Clipboard = &clip
	m := open(t, cfg, 120, 40)
	m = press(m, "right")
	for range listRows(m) {
		if r := m.list.Selected(); r != nil && len(external.PlainText(r.Messages)) > 6_000_000 {
			break
		}
		m = press(m, "down")
	}
	if r := m.list.Selected(); r == nil || len(external.PlainText(r.Messages)) < 6_000_000 {
		t.Fatal("the big result is not selected")
	}
	m = press(m, "y")
	if f := m.footer(); strings.Contains(f, "copied") || !strings.Contains(f, "likely did not change") {
		t.Errorf("footer %q", f)
	}
}
