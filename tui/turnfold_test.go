package tui

import (
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/tui/components/turnlist"
	"github.com/afinspect/inspect/window"
)

// A fold of gone turns that all left at one call names that call once
// ("left@12"), not as a range of one ("left@12–12"); a fold over several
// calls names the range. c04 (its README): run 1 folds at iterations 6,
// 8, 9 and 10, and run 2's visit at its iteration 2 — call 12 — folds
// everything before its request; so at call 10 the turns gone left at
// calls 6 to 9, and at call 13 every gone turn left at call 12. (A
// screen 22 lines high folds them.)
func TestFoldOfOneCallNamesItOnce(t *testing.T) {
	m := open(t, fileConfig(c04), 120, 22)
	for _, c := range []struct {
		call int
		want string
	}{{10, "turns left@6–9 ·"}, {13, "turns left@12 ·"}} {
		m.goTo(c.call - 1)
		var folds []string
		for _, it := range m.list.Items {
			if it.Kind == turnlist.FoldItem {
				folds = append(folds, ansiFree(m.list.Line(it, false)))
			}
		}
		if len(folds) != 1 || !strings.Contains(folds[0], c.want) {
			t.Errorf("call %d: folds %q, want one saying %q", c.call, folds, c.want)
		}
	}
}

// The help names every fate a row can show, summarize-oldest's too.
func TestHelpNamesEveryFate(t *testing.T) {
	m := press(open(t, fileConfig("../testdata/s01-basic-loop/run.jsonl"), 200, 60), "?")
	v := strings.Join(strings.Fields(ansiFree(m.View())), " ")
	for _, f := range []window.Fate{window.FateAnchor, window.FatePinned, window.FateRecent, window.FateKept, window.FateEvicted,
		window.FateGone, window.FateNotice, window.FateNew, window.FateFolded, window.FateSummary} {
		if !strings.Contains(v, string(f)+" (") {
			t.Errorf("the help does not say what %q is", f)
		}
	}
}

// s01 is a sliding-window run (README) with no threshold: s takes it
// through token-budget and summarize-oldest and back to sliding-window,
// which is the recorded policy again — not a "changed" one whose only
// change is a threshold nothing uses. The threshold s starts from is the
// one `--strategy token-budget` gets (§13.2): the largest input the log
// recorded, 2226 (the llm_end on line 201).
func TestStrategyCycleComesBackToTheRecordedPolicy(t *testing.T) {
	m := open(t, fileConfig("../testdata/s01-basic-loop/run.jsonl"), 120, 40)
	if m = press(m, "s"); m.s.Policy.Strategy != model.TokenBudget || m.s.Policy.ThresholdTokens != 2226 || !m.s.Changed() {
		t.Fatalf("s: %+v, want token-budget at thresholdTokens 2226", m.s.Policy)
	}
	if m = press(m, "s", "s"); m.s.Changed() || m.s.Replay != m.s.Recorded {
		t.Errorf("after a whole cycle: %+v, recorded %+v", m.s.Policy, m.s.Agent.Recorded)
	}
}

// A value is never cut to line the values up: c06b's research step
// answers at its call 6 with src/tax/rateCache.ts:12 (wire.json), a value
// the check normalizes to src/tax/ratecache.ts:12 (docs/rules/evidence.md:
// lowercased), longer than a third of a 100-column screen's detail pane.
func TestResponseValuesAreWhole(t *testing.T) {
	m := press(open(t, fileConfig("../testdata/c06b-composition-sequence/run.jsonl"), 100, 24), "A")
	if v := ansiFree(m.View()); !strings.Contains(v, "src/tax/ratecache.ts:12") {
		t.Errorf("the value is cut:\n%s", v)
	}
}

// n and N with no search say so, rather than nothing at all.
func TestNextHitWithoutASearchSaysSo(t *testing.T) {
	m := press(open(t, fileConfig("../testdata/s01-basic-loop/run.jsonl"), 120, 40), "n")
	if m.flash != "no search to step through: / starts one" || m.s.Call != 0 {
		t.Errorf("n: %q at call %d", m.flash, m.s.Call+1)
	}
}

// K on a call whose response was never opened still applies what would
// have kept its values (the demo's call 13, README: keepRecentTurns 2→3
// and keepLastToolResults 2→3 keep list_hosts in view), once the search
// it starts has answered — not "no suggestion"; it says what the policy
// costs: the demo's recorded input was 26,036 tokens (its llm_end usage),
// and under it 4 answer values and 2 arguments' still leave (those the
// K=3 L=3 recording, demo-evidence-k3-pins3, has left; study's
// TestCostOfASuggestion checks the estimate against that recording's).
func TestApplyKeepSearchesFirst(t *testing.T) {
	m := press(open(t, fileConfig("../testdata/demo-evidence/run.jsonl"), 120, 40), ":", "1", "3", "enter", "K")
	if p := m.s.Policy; p.KeepRecentTurns != 3 || p.KeepLastToolResults != 3 || !strings.HasPrefix(m.flash, "applied (≈") ||
		!strings.Contains(m.flash, " tok vs 26,036 recorded, +") || !strings.Contains(m.flash, "; 6 values still out of view, 4 in answers): keepRecentTurns 2→3 and keepLastToolResults 2→3") {
		t.Errorf("K at call 13: policy %v, %q", p, m.flash)
	}
}
