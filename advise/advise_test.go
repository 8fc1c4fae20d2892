package advise

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
)

func openFile(t *testing.T, path string) *study.Study {
	t.Helper()
	rec, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	s, err := study.Open(rec, study.Request{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// walkOne tallies one policy of agent a of s as the sweep does, keeping
// which values are left and which neither grounded nor left, by call.
func walkOne(s *study.Study, a *study.Agent, p model.Policy) (*adviseBase, *sweepTally, Lost) {
	b := readBase(s, a, agentCalls(s.Replay())[a.Agent])
	r := replayWith(s, a.Agent.Key, p)
	t := &sweepTally{wantLeft: true, wantUnread: true}
	newWalker(b).walk(r, t)
	return b, t, b.neverRead(r, t.unread)
}

// demo-evidence-k3-pins3 is demo-evidence's script run by the library
// under keepRecentTurns 3 and keepLastToolResults 3: the same responses,
// judged by the library's own answer check in THOSE windows. The
// advisor's K 3 / L 3 row of demo-evidence (recorded under K 2, L 2) must
// say what that check recorded: for each answer the library judged, its
// unsupported values (wire.json `evidence`) are the advisor's `left`
// values and its never-read ones, and the `left` ones are exactly those
// the variant's README, computed with the library's own index functions,
// calls "(a) read earlier and evicted before this call" (the others, "(b)
// never in any tool result").
func TestAdviceUnderTheLibrarysOtherPolicy(t *testing.T) {
	type judged struct {
		Call        int `json:"call"`
		Unsupported []struct {
			Value string `json:"value"`
		} `json:"unsupported"`
	}
	var wire struct {
		Evidence []judged `json:"evidence"`
	}
	raw, err := os.ReadFile("../testdata/demo-evidence-k3-pins3/wire.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &wire); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../testdata/demo-evidence-k3-pins3/README.txt")
	if err != nil {
		t.Fatal(err)
	}
	evicted := map[int][]string{} // by call: the README's (a) values
	call := 0
	for _, line := range strings.Split(string(readme), "\n") {
		if m := regexp.MustCompile(`^- call (\d+) `).FindStringSubmatch(line); m != nil {
			call = atoi(m[1])
		} else if m := regexp.MustCompile(`^\s+(\S+) \((?:number|identifier)\): \(a\)`).FindStringSubmatch(line); m != nil {
			evicted[call] = append(evicted[call], m[1])
		}
	}
	if len(evicted[13]) != 1 || len(evicted[16]) != 3 {
		t.Fatalf("README read as %v", evicted)
	}

	s := openFile(t, "../testdata/demo-evidence/run.jsonl")
	a := &s.Agents[0]
	if r := a.Recorded; r.Strategy != model.SlidingWindow || r.KeepRecentTurns != 2 || r.KeepLastToolResults != 2 {
		t.Fatalf("demo-evidence recorded under %v", r)
	}
	b, tl, never := walkOne(s, a, model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 3, KeepLastToolResults: 3})
	valuesAt := func(m map[int][]valueAt, number int) []string {
		var out []string
		for k, vs := range m {
			if b.shape.Calls[b.calls[k].index].Call.Number != number {
				continue
			}
			for _, v := range vs {
				if !v.arg {
					out = append(out, b.values[v.id])
				}
			}
		}
		slices.Sort(out)
		return out
	}
	unsupported := 0
	for _, j := range wire.Evidence {
		want := slices.Clone(evicted[j.Call])
		slices.Sort(want)
		if got := valuesAt(tl.left, j.Call); !slices.Equal(got, want) {
			t.Errorf("call %d: left %v under K 3 L 3, the library's evicted %v", j.Call, got, want)
		}
		unsupported += len(j.Unsupported)
	}
	if got := tl.lost.Answers + never.Answers; got != unsupported || tl.lost.Answers != 4 {
		t.Errorf("K 3 L 3: %d answer values left + %d never read, the library's check %d unsupported (4 evicted)", tl.lost.Answers, never.Answers, unsupported)
	}

	// and the row the advice gives is that walk's
	ad, err := Advise(context.Background(), s, a.Agent.Key, nil)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ad.Rows, func(r Row) bool {
		return r.Policy == model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 3, KeepLastToolResults: 3}
	})
	if i < 0 || ad.Rows[i].OutOfView != tl.lost {
		t.Fatalf("the advice's K 3 L 3 row %+v, the walk's %+v", ad.Rows[max(i, 0)], tl.lost)
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = 10*n + int(c-'0')
	}
	return n
}

// Several files are summed per agent key: the same file twice is every
// count twice, the largest window the same, the grid the same, the tokens
// fitted on both (the same line).
func TestFilesAreSummed(t *testing.T) {
	const path = "../testdata/c02-interleaved-agents/run.jsonl"
	one, err := Files(context.Background(), []*study.Study{openFile(t, path)}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	two, err := Files(context.Background(), []*study.Study{openFile(t, path), openFile(t, path)}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(one) != 2 || len(two) != 2 {
		t.Fatalf("%d and %d agents, want c02's 2", len(one), len(two))
	}
	for k := range one {
		a, b := one[k], two[k]
		if b.Files != 2 || b.Calls != 2*a.Calls || b.NeverRead.Answers != 2*a.NeverRead.Answers || len(b.Rows) != len(a.Rows) ||
			b.Fit.Calls != 2*a.Fit.Calls || math.Abs(b.Fit.PerChar-a.Fit.PerChar) > 1e-9 || math.Abs(b.Fit.Base-a.Fit.Base) > 1e-6 {
			t.Fatalf("%s: twice the file is %d files, %d calls, %d rows, fit %+v; once %d calls, %d rows, fit %+v",
				a.Agent, b.Files, b.Calls, len(b.Rows), b.Fit, a.Calls, len(a.Rows), a.Fit)
		}
		for i, r := range a.Rows {
			w := r
			w.Chars, w.Tokens = 2*r.Chars, 2*r.Tokens
			w.OutOfView = Lost{2 * r.OutOfView.Answers, 2 * r.OutOfView.Arguments}
			w.DropNotices, w.StandDowns, w.Differs = 2*r.DropNotices, 2*r.StandDowns, 2*r.Differs
			got := b.Rows[i]
			if d := got.Tokens - w.Tokens; d == -1 || d == 1 { // rounded once, not twice
				w.Tokens = got.Tokens
			}
			if got != w {
				t.Errorf("%s %v: twice %+v, want %+v", a.Agent, r.Policy, got, w)
			}
		}
	}
}

// A sweep given up stops with the context's error; progress counts up to
// the grid, one report at a time; the answer, once made, is kept.
func TestAdviseCancelsAndReports(t *testing.T) {
	s := openFile(t, "../testdata/demo-evidence/run.jsonl")
	key := s.Agents[0].Agent.Key
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	seen := 0
	_, err := Advise(ctx, s, key, func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if done != seen+1 || total < 70 {
			t.Errorf("progress %d/%d after %d", done, total, seen)
		}
		seen = done
		if done == 3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || seen >= 70 {
		t.Fatalf("given up after %d: %v", seen, err)
	}
	var wg sync.WaitGroup
	got := make([]*Advice, 2)
	for i := range got {
		wg.Go(func() {
			a, err := Advise(context.Background(), s, key, nil)
			if err != nil {
				t.Error(err)
			}
			got[i] = a
		})
	}
	wg.Wait()
	again, _ := Advise(context.Background(), s, key, func(int, int) { t.Error("swept again") })
	if again != got[0] && again != got[1] {
		t.Error("the advice was not kept")
	}
}
