package study

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// followedLogs are the recordings a log that grows is studied on:
// follow-ups, agents interleaved, a paused tool, an abort then a
// follow-up, a loop, the answer check, and a log of library 9.56 (whose
// rules its windows tell).
var followedLogs = []string{"s05-multi-turn", "c02-interleaved-agents", "c07-paused-tool", "n02-abort-then-followup",
	"n07-loop-conditional", "e01-guard", "v9.56.0-demo-evidence"}

// parts writes the log of recording name in n parts, each cut inside a
// line, and calls fn with the loader's view of each part as the log
// grows (Continue) and with a load of the whole part afresh.
func parts(t *testing.T, name string, n int, fn func(k int, grown, whole *model.Recording)) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", name, "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "live.jsonl")
	os.WriteFile(path, nil, 0o644)
	var l *loader.Loading
	for k := 1; k <= n; k++ {
		from, to := len(data)*(k-1)/n+(k-1)%7, len(data)*k/n+k%7
		if k == 1 {
			from = 0
		}
		if k == n {
			to = len(data)
		}
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		f.Write(data[from:to])
		f.Close()
		if l != nil {
			if l, err = l.Continue(); err != nil {
				t.Fatal(err)
			}
		} else {
			l = loader.StartFollowing(path, 0)
		}
		grown, err := l.Wait()
		if err != nil {
			l = nil // nothing of an event yet: read again from the start
			continue
		}
		whole, err := loader.StartFollowing(path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		fn(k, grown, whole)
	}
}

// replayText is what a replay holds, as text: each call's run, window,
// what left, record and comparison, its problems, and the ledger of
// every call.
func replayText(r *window.Replay) string {
	var b strings.Builder
	msgs := func(ms []*model.Message) {
		for _, m := range ms {
			fmt.Fprintf(&b, "%s/%d/%q ", m.Role, m.ID, m.Content)
		}
		b.WriteString("\n")
	}
	for i := range r.Calls {
		c := &r.Calls[i]
		fmt.Fprintf(&b, "call %d #%d run %d conv %d %s %d\n", c.Index, c.Call.Number, c.Run.Index, c.Conversation, c.Recorded(), c.WindowChars())
		msgs(c.Window())
		msgs(c.Visit.Evicted)
		if c.Visit.Record != nil {
			j, _ := json.Marshal(c.Visit.Record)
			fmt.Fprintf(&b, "record %s\n", j)
		}
		for _, row := range r.Ledger(i) {
			fmt.Fprintf(&b, "%s %s %s %d %d %d|", row.Key, row.Fate, row.Reason, row.First, row.LeftAt, len(row.Messages))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "problems %q\n", r.Problems)
	return b.String()
}

// studyText is what a study answers, as text: its problems, each agent's
// settled policy and how it was found, the conversations and their
// tallies, the replays file-wide, and each conversation's.
func studyText(s *Study) string {
	var b strings.Builder
	fmt.Fprintf(&b, "library %+v\nproblems %+v\n", s.Rec.Library, s.Problems())
	for _, a := range s.Agents {
		fmt.Fprintf(&b, "agent %s: %+v recorded %+v %v %q %d/%d %v %d\n", a.Agent.Key, a.Policy, a.Recorded, a.Inferred, a.Evidence,
			a.Matched, a.Compared, a.Equal, a.LargestInput)
	}
	for _, c := range s.Conversations() {
		fmt.Fprintf(&b, "conversation %d %s %d calls %d/%d:", c.Number, c.Agent.Key, c.Calls, c.Matched, c.Compared)
		for _, r := range c.Runs {
			fmt.Fprintf(&b, " %d %v %d/%d", r.Index, r.Paused, r.Matched, r.Compared)
		}
		b.WriteString("\n")
	}
	b.WriteString("replay\n" + replayText(s.Replay()))
	b.WriteString("recorded\n" + replayText(s.RecordedReplay()))
	for _, c := range s.Lineage.Conversations {
		b.WriteString(fmt.Sprintf("view %d\n", c.Number) + replayText(s.View(c.Number).Recorded()))
	}
	return b.String()
}

// TestGrowIsOpen: a log studied again on each longer part of it as it is
// written (read on from the last part, studied on from the last study)
// answers at every part what a load and a study of the whole part do:
// the same calls, windows, records, problems, conversations, policies.
func TestGrowIsOpen(t *testing.T) {
	for _, name := range followedLogs {
		t.Run(name, func(t *testing.T) {
			var prev *Study
			parts(t, name, 20, func(k int, grown, whole *model.Recording) {
				q := Request{Recorded: true}
				st, err := Grow(prev, grown, q)
				want, werr := Open(whole, q)
				if (err == nil) != (werr == nil) {
					t.Fatalf("part %d: %v, want %v", k, err, werr)
				}
				got, w := studyText(st), studyText(want)
				if got != w {
					at := 0
					for at < len(got) && at < len(w) && got[at] == w[at] {
						at++
					}
					t.Fatalf("part %d: the study grown differs from a study of the whole part at %q, want %q", k,
						got[max(0, at-200):min(len(got), at+200)], w[max(0, at-200):min(len(w), at+200)])
				}
				prev = st
			})
		})
	}
}

// TestGrowReplayIsReplay: the conversation replayed under a policy the
// user set, grown on each longer part of the file from the last part's
// replay, is the replay of the whole part under that policy.
func TestGrowReplayIsReplay(t *testing.T) {
	for _, name := range followedLogs {
		t.Run(name, func(t *testing.T) {
			var prev *Study
			var was *window.Replay
			grown := 0
			parts(t, name, 12, func(k int, rec, _ *model.Recording) {
				st, err := Grow(prev, rec, Request{Recorded: true})
				if err != nil {
					t.Fatal(err)
				}
				v := st.View(0)
				p := v.Agent.Recorded
				p.KeepRecentTurns++
				want := v.Replay(p, nil)
				if was != nil && was.Policy == p { // (the recorded policy, and so p, may change as windows come)
					if got := v.GrowReplay(was); got != nil {
						grown++
						if g, w := replayText(got), replayText(want); g != w {
							at := 0
							for at < len(g) && at < len(w) && g[at] == w[at] {
								at++
							}
							t.Fatalf("part %d: the replay grown differs from a replay of the whole part at %q, want %q", k,
								g[max(0, at-300):min(len(g), at+100)], w[max(0, at-300):min(len(w), at+100)])
						}
						want = got
					}
				}
				prev, was = st, want
			})
			if grown == 0 {
				t.Error("no replay grew")
			}
		})
	}
}

// TestGrowOnSnapshots: what a load in progress has read (Loading.Snapshot,
// the screen's partial loads: runs in the order they became an agent's,
// a run's latest call left out while it may change) is studied on from
// the last snapshot's study with Open's answers too.
func TestGrowOnSnapshots(t *testing.T) {
	for _, name := range followedLogs {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "testdata", name, "run.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			pr, pw := io.Pipe()
			l := loader.StartReader(pr, "pipe", 0)
			var prev *Study
			const n = 12
			for k := 1; k <= n; k++ {
				part := data[len(data)*(k-1)/n : len(data)*k/n]
				pw.Write(part)
				for !l.Progress().Waiting { // (the builder may be at the last block yet: any snapshot will do)
					time.Sleep(time.Millisecond)
				}
				snap := l.Snapshot()
				if len(snap.Runs) == 0 {
					continue
				}
				q := Request{Recorded: true}
				st, err := Grow(prev, snap, q)
				want, werr := Open(snap, q)
				if (err == nil) != (werr == nil) {
					t.Fatalf("part %d: %v, want %v", k, err, werr)
				}
				if studyText(st) != studyText(want) {
					t.Fatalf("part %d: the study grown differs from Open's", k)
				}
				prev = st
			}
			pw.Close()
			l.Wait()
		})
	}
}
