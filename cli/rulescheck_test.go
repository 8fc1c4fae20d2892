package cli

import (
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/pflag"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/tui"
	"github.com/afinspect/inspect/window"
)

// A log written under the 9.55–9.56 rules that shows no older rule (its
// results are too short for the rich notice to have fitted) is told the
// newest rules by §17.2, which reproduce fewer of its windows; the
// replay under each rule set takes 9.55–9.56, which reproduce all 13 —
// in the report's footer and on the UI's policy bar, the file streamed
// in as the UI reads it.
func TestRulesCheckedByTheReplayEverywhere(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if _, err := rungen.WriteFile(path, rungen.Spec{Calls: 13, Seed: 1, MinResult: 5, MaxResult: 60, KeepRecent: 2, Rules: window.Rules955}); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI("report", "-q", path)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	for _, want := range []string{"recorded windows reproduced: 13/13", "library: the 9.55–9.56 window rules", "the 9.55–9.56 rules reproduce 13/13 recorded windows"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}

	var o options
	fs := pflag.NewFlagSet("inspect", pflag.ContinueOnError)
	o.policyFlags(fs)
	o.inputFlags(fs)
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	cfg := (&app{}).uiConfig("run.jsonl", []string{path}, o)
	cfg.Path = ""
	var m tea.Model = tui.New(cfg)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 240, Height: 40})
	m = drive(m, m.Init())
	screen := ansiCode.ReplaceAllString(m.View(), "")
	if want := "rules 9.55–9.56 (told from the log: reproduces 13/13; 9.57–9.62 rules: "; !strings.Contains(screen, want) {
		t.Errorf("the policy bar does not say %q:\n%s", want, screen)
	}
}
