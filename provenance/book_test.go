package provenance

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

func book(t *testing.T, name string, k, l int) (*Book, *window.Replay) {
	t.Helper()
	rec, err := loader.StartLimited(filepath.Join("..", "testdata", name, "run.jsonl"), 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	r := window.RunFolds(rec, lineage.Decide(rec), model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: k, KeepLastToolResults: l}, nil)
	return New(rec, r), r
}

// flagged lists call i's judged values (a verdict §10.2 decides on) as "value verdict [tool id run first–last evicted rule; …]".
func flagged(b *Book, i int, in string) []string {
	var out []string
	for _, e := range b.Call(i).Values {
		if !e.Judged() || e.In != in {
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

// A book given up before it starts is nil; one not given up judges every
// call as New's does.
func TestNewUntil(t *testing.T) {
	b, r := book(t, "demo-evidence", 2, 2)
	var quit atomic.Bool
	kept := NewUntil(b.rec, r, &quit)
	if kept == nil {
		t.Fatal("a book never given up came back nil")
	}
	for i := range r.Calls {
		if got, want := values(t, kept.Call(i)), values(t, b.Call(i)); got != want {
			t.Errorf("call %d: %s, New's %s", i+1, got, want)
		}
	}
	quit.Store(true)
	if NewUntil(b.rec, r, &quit) != nil {
		t.Error("a book given up before it started came back")
	}
}
