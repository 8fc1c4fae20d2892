package provenance

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

func book(t *testing.T, name string, k, l int) (*Book, *window.Replay) {
	t.Helper()
	rec, err := loader.Load(filepath.Join("..", "testdata", name, "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	r := window.Run(rec, model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: k, KeepLastToolResults: l})
	return New(rec, r), r
}

// flagged lists call i's flagged values as "value verdict [tool id run first–last evicted rule; …]".
func flagged(b *Book, i int, in string) []string {
	var out []string
	for _, e := range b.Call(i).Values {
		if !e.Flagged() || e.In != in {
			continue
		}
		var srcs []string
		for _, s := range e.Sources {
			name, id := "user", "-"
			if s.ToolName != nil {
				name, id = *s.ToolName, *s.ToolCallID
			}
			srcs = append(srcs, fmt.Sprintf("%s %s %d %d–%d %d %s", name, id, s.Run, s.SentOn[0], s.SentOn[1], s.EvictedAt, s.Rule))
		}
		out = append(out, e.Value+" "+e.Verdict+" ["+strings.Join(srcs, "; ")+"]")
	}
	return out
}

// The flagged values of demo-evidence's two answers, their sources and
// sent-on calls as its README gives them; evicted-at and the rule as its
// README tells the story (list_hosts yielded at iteration 7; call_0004
// and call_0008 superseded by newer get_metrics results; call_0006 by a
// newer read_logs).
func TestDemoEvidence(t *testing.T) {
	b, _ := book(t, "demo-evidence", 2, 2)
	want13 := []string{
		"us-east-1b left [list_hosts call_0001 1 2–6 7 yielded]",
		"10.12.4.52 left [list_hosts call_0001 1 2–6 7 yielded]",
		"3940 left [get_metrics call_0004 1 4–7 8 superseded]",
		"web-3e6f14 never-read []",
		"web-9d4b27 left [list_hosts call_0001 1 2–6 7 yielded; get_metrics call_0008 1 8–11 12 superseded]",
	}
	if got := flagged(b, 12, InAnswer); !slices.Equal(got, want13) {
		t.Errorf("call 13:\n got %q\nwant %q", got, want13)
	}
	want16 := []string{
		"us-west-2a left [list_hosts call_0001 1 2–6 7 yielded]",
		"eu-west-1c left [list_hosts call_0001 1 2–6 7 yielded]",
		"1284 left [read_logs call_0006 1 6–10 11 superseded]",
		"web-3e6f14 never-read []",
	}
	if got := flagged(b, 15, InAnswer); !slices.Equal(got, want16) {
		t.Errorf("call 16:\n got %q\nwant %q", got, want16)
	}
	// tool-call arguments (README (i), (ii)): web-9d4b27 typed at call 7,
	// the very call list_hosts left at; wrk-8e71c4 never read
	if got, want := flagged(b, 6, InToolCall), []string{"web-9d4b27 left [list_hosts call_0001 1 2–6 7 yielded]"}; !slices.Equal(got, want) {
		t.Errorf("call 7 arguments: %q, want %q", got, want)
	}
	if got, want := flagged(b, 7, InToolCall), []string{"wrk-8e71c4 never-read []"}; !slices.Equal(got, want) {
		t.Errorf("call 8 arguments: %q, want %q", got, want)
	}
	// run 1's request left at the follow-up's first visit: user text,
	// sent on calls 1–13, not pinnable
	if got := flagged(b, 14, InToolCall); len(got) == 0 || got[0] != "14:05 left [user - 1 1–13 14 not-pinnable]" {
		t.Errorf("call 15 arguments: %q", got)
	}
}

// The same script under keepRecentTurns 3, keepLastToolResults 3 (its
// README: list_hosts pinned to the end of turn 1, sent on 2–13), and under
// K=2 L=3, where the README's sweep records a stand-down in turn 1.
func TestOtherPolicies(t *testing.T) {
	b, _ := book(t, "demo-evidence", 3, 3)
	want := []string{"3940 left [get_metrics call_0004 1 4–7 8 superseded]", "web-3e6f14 never-read []"}
	if got := flagged(b, 12, InAnswer); !slices.Equal(got, want) {
		t.Errorf("K3 L3 call 13: %q, want %q", got, want)
	}
	got := flagged(b, 15, InAnswer)
	if len(got) != 4 || got[0] != "us-west-2a left [list_hosts call_0001 1 2–13 14 before-request]" {
		t.Errorf("K3 L3 call 16: %q", got)
	}
	b, _ = book(t, "demo-evidence", 2, 3)
	got = flagged(b, 12, InAnswer)
	if len(got) != 7 || !strings.Contains(strings.Join(got, "\n"), "stand-down") {
		t.Errorf("K2 L3 call 13: 7 unsupported with a stand-down, got %q", got)
	}
}

// e03-tokens: array_luns yielded (two newer tools hold the pins),
// show_interface fc1/3 superseded by fc1/7, both as its README says.
func TestE03Rules(t *testing.T) {
	b, _ := book(t, "e03-tokens", 2, 2)
	got := strings.Join(flagged(b, 6, InAnswer), "\n")
	for _, want := range []string{
		"naa.600601601f2045002a5c3e6b9d71ee42 left [array_luns call_0001 1 2–6 7 yielded]",
		"20:03:00:de:fb:ce:11:80 left [show_interface call_0002 1 3–4 5 superseded]",
		"21:00:00:24:ff:4a:12:31 never-read []",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

// The README of demo-evidence-k3-pins3 found K=3, L=3 the smallest policy
// keeping list_hosts in view at call 13 (its sweep: no K=2 or K=3 with
// L ≤ 2, no L=3 or L=4 with K=2, nor K=4 L=2); 3940 is unsupported in
// every cell of that sweep; across the follow-up no window policy keeps
// anything.
func TestKeep(t *testing.T) {
	b, r := book(t, "demo-evidence", 2, 2)
	s := NewSearcher(r, func(_ string, p model.Policy) *window.Replay { return window.Run(b.rec, p) })
	var got []string
	for _, i := range []int{12, 15} {
		for _, e := range b.Call(i).Values {
			if e.In != InAnswer || e.Verdict != "left" {
				continue
			}
			sug, ok := s.Keep(i, e)
			if !ok {
				sug.Text = NoneText()
			}
			got = append(got, e.Value+": "+sug.Text)
		}
	}
	want := []string{
		"us-east-1b: keepRecentTurns 2→3 and keepLastToolResults 2→3 keep list_hosts call_0001 in view at call 13",
		"10.12.4.52: keepRecentTurns 2→3 and keepLastToolResults 2→3 keep list_hosts call_0001 in view at call 13",
		"3940: " + NoneText(), // the sweep: 3940 stays unsupported for every K ≤ 6, L ≤ 4
		"web-9d4b27: keepRecentTurns 2→3 and keepLastToolResults 2→3 keep list_hosts call_0001 in view at call 13",
		"us-west-2a: " + NoneText(),
		"eu-west-1c: " + NoneText(),
		"1284: " + NoneText(),
	}
	if !slices.Equal(got, want) {
		t.Errorf("suggestions:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Extending the predecessor's list of messages gone gives the list a
// full walk gives, call after call.
func TestGoneExtended(t *testing.T) {
	for _, name := range []string{"demo-evidence", "e03-tokens"} {
		for _, kl := range [][2]int{{2, 2}, {2, 3}, {3, 3}, {1, 0}} {
			b, r := book(t, name, kl[0], kl[1])
			for i := range r.Calls {
				got := slices.Clone(b.goneBefore(i))
				want, _ := listGone(i, r.Calls[i].Window(), b.lives, b.gone[i])
				if !slices.Equal(got, want) {
					t.Errorf("%s K%d L%d call %d: extended %d messages, walked %d", name, kl[0], kl[1], i+1, len(got), len(want))
				}
			}
		}
	}
}

// The search's neighbourhood: one step per knob unit, per strategy
// change, per 500 tokens of threshold; a token-measured strategy only
// from a threshold; fewest steps first, the strategy kept on ties.
func TestNearby(t *testing.T) {
	base := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2, KeepLastToolResults: 2}
	ps := nearby(base, nil)
	if len(ps) == 0 || steps(base, ps[0]) != 1 || ps[len(ps)-1].Strategy != model.SlidingWindow || steps(base, ps[len(ps)-1]) != MaxSteps {
		t.Errorf("K/L only: first %v, last %v", ps[0], ps[len(ps)-1])
	}
	s := &Searcher{strategies: []string{model.SlidingWindow, model.TokenBudget, model.SummarizeOldest}}
	if got := s.others(base); len(got) != 0 {
		t.Errorf("no threshold: no token-measured strategy, got %v", got)
	}
	tb := model.Policy{Strategy: model.TokenBudget, KeepRecentTurns: 2, KeepLastToolResults: 2, ThresholdTokens: 1000}
	if got := s.others(tb); !slices.Equal(got, []string{model.SlidingWindow, model.SummarizeOldest}) {
		t.Errorf("others of token-budget: %v", got)
	}
	ps = nearby(tb, s.others(tb))
	one := 0
	for _, p := range ps {
		if steps(tb, p) == 1 {
			one++
		}
	}
	// K±1 (K=1 allowed), L±1, threshold ±500, two other strategies
	if one != 8 {
		t.Errorf("%d policies one step away, want 8: %v", one, ps[:one])
	}
	if p := (model.Policy{Strategy: model.SummarizeOldest, KeepRecentTurns: 3, KeepLastToolResults: 2, ThresholdTokens: 1500}); steps(tb, p) != 3 {
		t.Errorf("strategy, K and threshold: %d steps", steps(tb, p))
	}
}

// Walked in call order (the list of messages gone extended, each held
// once as it leaves), backwards (listed afresh every call) or one call per
// fresh book, the evidence of every call is the same.
func TestBookWalksAgree(t *testing.T) {
	for _, name := range []string{"demo-evidence", "demo-evidence-k3-pins3", "e03-tokens"} {
		for _, kl := range [][2]int{{2, 2}, {1, 0}, {3, 3}} {
			forward, r := book(t, name, kl[0], kl[1])
			backward, _ := book(t, name, kl[0], kl[1])
			for i := len(r.Calls) - 1; i >= 0; i-- {
				backward.Call(i)
			}
			left := 0
			for i := range r.Calls {
				fresh, _ := book(t, name, kl[0], kl[1])
				want := values(t, fresh.Call(i))
				if got := values(t, forward.Call(i)); got != want {
					t.Errorf("%s K%d L%d call %d in order: %s, alone %s", name, kl[0], kl[1], i+1, got, want)
				}
				if got := values(t, backward.Call(i)); got != want {
					t.Errorf("%s K%d L%d call %d backwards: %s, alone %s", name, kl[0], kl[1], i+1, got, want)
				}
				for _, e := range forward.Call(i).Values {
					if e.Verdict == "left" {
						left++
					}
				}
			}
			if name == "demo-evidence" && left == 0 {
				t.Errorf("%s K%d L%d: no value left the window; the walks compare nothing", name, kl[0], kl[1])
			}
		}
	}
}

func values(t *testing.T, ce *CallEvidence) string {
	b, err := json.Marshal(ce.Values)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
