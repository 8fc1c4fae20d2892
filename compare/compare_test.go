package compare

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/afinspect/inspect/study"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// compareFiles opens the two recordings under testdata as the command
// line does (every knob inferred) and lines them up.
func compareFiles(t *testing.T, a, b string, kb model.Knobs) *Comparison {
	t.Helper()
	open := func(name string, k model.Knobs) *study.Study {
		rec, err := loader.StartLimited("../testdata/"+name+"/run.jsonl", 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		s, err := study.Open(rec, study.Request{Knobs: k})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	return Runs(open(a, model.Knobs{}), open(b, kb), Only{})
}

// outOfView lists, by call number, the answer values a side had out of
// view.
func outOfView(s *Side) map[int][]string {
	out := map[int][]string{}
	for i, vs := range s.Values {
		for _, v := range vs {
			if v.OutOfView() {
				n := s.Replay.Calls[i].Call.Number
				out[n] = append(out[n], v.Value)
			}
		}
	}
	for _, vs := range out {
		sort.Strings(vs)
	}
	return out
}

// checkOneToOne checks that every pair holds the same call number on both
// sides, 1 to n, and none is one side only or parts.
func checkOneToOne(t *testing.T, c *Comparison, n int) {
	t.Helper()
	if len(c.Pairs) != n {
		t.Fatalf("%d pairs, want %d", len(c.Pairs), n)
	}
	for k, p := range c.Pairs {
		a, b := c.CallA(&p), c.CallB(&p)
		if a == nil || b == nil || a.Call.Number != k+1 || b.Call.Number != k+1 {
			t.Fatalf("pair %d: %+v, want call %d on both sides", k, p, k+1)
		}
		if p.Parts {
			t.Errorf("call %d: the runs part ways, but the script is the same", k+1)
		}
	}
	if c.Parted != -1 || !c.SameTask {
		t.Errorf("parted %d, same task %v: want -1, true", c.Parted, c.SameTask)
	}
}

// windowsDiffer lists the call numbers whose windows differ.
func windowsDiffer(c *Comparison) []int {
	var out []int
	for _, p := range c.Pairs {
		if p.Window {
			out = append(out, c.CallA(&p).Call.Number)
		}
	}
	return out
}

func seq(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

// The same script under keepRecentTurns 3 and keepLastToolResults 3: the
// expected values are the READMEs' (the library's answer check at calls 13
// and 16) and wire.json's (the windows each side sent).
func TestCompareAnotherPolicy(t *testing.T) {
	c := compareFiles(t, "demo-evidence", "demo-evidence-k3-pins3", model.Knobs{})
	checkOneToOne(t, c, 16)
	// wire.json: the messages sent differ from call 5 on, except call 6
	want := append([]int{5}, seq(7, 16)...)
	if got := windowsDiffer(c); !slices.Equal(got, want) {
		t.Errorf("windows differ at %v, want %v", got, want)
	}
	wantA := map[int][]string{
		13: {"10.12.4.52", "3940", "us-east-1b", "web-3e6f14", "web-9d4b27"},
		16: {"1284", "eu-west-1c", "us-west-2a", "web-3e6f14"},
	}
	wantB := map[int][]string{
		13: {"3940", "web-3e6f14"},
		16: {"1284", "eu-west-1c", "us-west-2a", "web-3e6f14"},
	}
	if got := outOfView(c.A); fmt.Sprint(got) != fmt.Sprint(wantA) {
		t.Errorf("A out of view %v, want %v", got, wantA)
	}
	if got := outOfView(c.B); fmt.Sprint(got) != fmt.Sprint(wantB) {
		t.Errorf("B out of view %v, want %v", got, wantB)
	}
	if c.A.OutOfView != 9 || c.B.OutOfView != 6 {
		t.Errorf("out of view %d, %d; want 9, 6", c.A.OutOfView, c.B.OutOfView)
	}
	// "B kept 10.12.4.52 in view where A had lost it"
	p := c.Pairs[12]
	found := false
	for _, v := range p.Values {
		if v.Value == "10.12.4.52" && v.In == "answer" {
			found = v.A == "left" && v.B == "in-view"
		}
	}
	if !found {
		t.Errorf("call 13: 10.12.4.52 not left on A and in view on B: %+v", p.Values)
	}
	// call 5 (wire.json): B's window has 3 messages more, none edited
	p = c.Pairs[4]
	if len(p.AOnly) != 0 || len(p.BOnly) != 3 || len(p.Edited) != 0 {
		t.Errorf("call 5: a-only %d, b-only %d, edited %d; want 0, 3, 0", len(p.AOnly), len(p.BOnly), len(p.Edited))
	}
	if c.Pairs[0].State != Same || c.Pairs[5].State != Same || c.Pairs[4].State != Changed {
		t.Errorf("states of calls 1, 6, 5: %s %s %s", c.Pairs[0].State, c.Pairs[5].State, c.Pairs[4].State)
	}
}

// The same script under agentfootprint 9.56.0: its README's verdicts at
// calls 13 and 16; at calls 7 and 10 (wire.json) the answer names
// web-7f3a2c, which only an assistant message of the window holds.
func TestCompareAnotherLibrary(t *testing.T) {
	c := compareFiles(t, "demo-evidence", "v9.56.0-demo-evidence", model.Knobs{})
	checkOneToOne(t, c, 16)
	want := append(seq(4, 14), 16)
	if got := windowsDiffer(c); !slices.Equal(got, want) {
		t.Errorf("windows differ at %v, want %v", got, want)
	}
	wantB := map[int][]string{
		7:  {"web-7f3a2c"},
		10: {"web-7f3a2c"},
		13: {"10.12.4.52", "3940", "checkout#2291", "us-east-1b", "web-3e6f14", "web-9d4b27", "web-b81d09"},
		16: {"1284", "eu-west-1c", "us-west-2a", "web-3e6f14"},
	}
	if got := outOfView(c.B); fmt.Sprint(got) != fmt.Sprint(wantB) {
		t.Errorf("B out of view %v, want %v", got, wantB)
	}
	if c.A.OutOfView != 9 || c.B.OutOfView != 13 {
		t.Errorf("out of view %d, %d; want 9, 13", c.A.OutOfView, c.B.OutOfView)
	}
	if a, b := c.A.Study.Rec.Library.Rules, c.B.Study.Rec.Library.Rules; a == b {
		t.Errorf("both sides replayed under rules %q", a)
	}
}

// Two scripts: they line up without a crash, and say they are different
// tasks; c01's second conversation has no partner.
func TestCompareDifferentTasks(t *testing.T) {
	c := compareFiles(t, "c01-two-conversations", "demo-evidence", model.Knobs{})
	if c.SameTask {
		t.Error("two scripts taken for the same task")
	}
	if len(c.Convs) != 2 || c.Convs[1].BNumber != 0 || c.Convs[1].ANumber != 2 {
		t.Fatalf("conversations %+v", c.Convs)
	}
	if c.Parted != 0 {
		t.Errorf("parted at %d, want the first pair (another request)", c.Parted)
	}
	a, b := 0, 0
	for _, p := range c.Pairs {
		if p.A >= 0 {
			a++
		}
		if p.B >= 0 {
			b++
		}
	}
	if a != 15 || b != 16 {
		t.Errorf("pairs hold %d calls of A and %d of B, want 15 and 16", a, b)
	}
}

// A recording against itself: all same.
func TestCompareItself(t *testing.T) {
	for _, name := range []string{"demo-evidence", "c01-two-conversations", "s10-summarize", "n06-parallel-composition"} {
		c := compareFiles(t, name, name, model.Knobs{})
		if c.Totals.Differing() != 0 || c.Parted != -1 || c.FirstChanged != -1 || !c.SameTask {
			t.Errorf("%s against itself: %+v, parted %d", name, c.Totals, c.Parted)
		}
		if len(c.Pairs) != len(c.A.Replay.Calls) {
			t.Errorf("%s: %d pairs of %d calls", name, len(c.Pairs), len(c.A.Replay.Calls))
		}
	}
}

// Under another policy on one side, a recording is compared with itself:
// the calls stay one to one and only the windows change.
func TestCompareItselfUnderAnotherPolicy(t *testing.T) {
	c := compareFiles(t, "demo-evidence", "demo-evidence", model.Knobs{KeepRecentTurns: study.Int(3), KeepLastToolResults: study.Int(3)})
	checkOneToOne(t, c, 16)
	// the k3-pins3 recording is this script under that policy: its README
	// has call 13 with 2 values out of view
	if c.Pairs[12].OutA != 5 || c.Pairs[12].OutB != 2 {
		t.Errorf("call 13 out of view %d, %d; want 5, 2", c.Pairs[12].OutA, c.Pairs[12].OutB)
	}
}

// An extra call on one side shifts nothing after it.
func TestAlignExtraCall(t *testing.T) {
	c := compareFiles(t, "demo-evidence", "demo-evidence", model.Knobs{})
	// drop call 8 of B: the 404'd worker id
	r := &window.Replay{Calls: slices.Delete(slices.Clone(c.B.Replay.Calls), 7, 8)}
	b := &Side{Study: c.B.Study, Replay: r, Values: slices.Delete(slices.Clone(c.B.Values), 7, 8)}
	d := alignOnly(c.A, b, Only{})
	if len(d.Pairs) != 16 || d.Pairs[7].State != AOnly || d.Parted != 7 {
		t.Fatalf("pairs %d, pair 8 %s, parted %d", len(d.Pairs), d.Pairs[7].State, d.Parted)
	}
	for k, p := range d.Pairs {
		if k == 7 {
			continue
		}
		if d.CallA(&p).Call.Number != d.CallB(&p).Call.Number {
			t.Errorf("pair %d: call %d with call %d", k, d.CallA(&p).Call.Number, d.CallB(&p).Call.Number)
		}
	}
}

// One conversation of each side: c01's two conversations (wire.json: a
// duplicate charge, 8 calls; a late parcel, 7) are different tasks; each
// against itself is all same.
func TestCompareOnlyConversations(t *testing.T) {
	rec, err := loader.StartLimited("../testdata/c01-two-conversations/run.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	s, err := study.Open(rec, study.Request{})
	if err != nil {
		t.Fatal(err)
	}
	c := Runs(s, s, Only{A: 1, B: 2})
	if c.SameTask || len(c.Convs) != 1 || c.Convs[0].ANumber != 1 || c.Convs[0].BNumber != 2 {
		t.Errorf("conversation 1 against 2: same task %v, %+v", c.SameTask, c.Convs)
	}
	for n, calls := range map[int]int{1: 8, 2: 7} {
		c = Runs(s, s, Only{A: n, B: n})
		if len(c.Pairs) != calls || c.Totals.Same != calls || !c.SameTask {
			t.Errorf("conversation %d against itself: %d pairs, %+v", n, len(c.Pairs), c.Totals)
		}
	}
	if c.A.Has(3) || !c.A.Has(2) || fmt.Sprint(c.A.Numbers()) != "[1 2]" {
		t.Errorf("numbers %v", c.A.Numbers())
	}
}

// Another argument at one call (B asked get_metrics for another host at
// call 9): that pair parts, by its arguments; every other call stays
// paired with its twin.
func TestAlignOtherArgument(t *testing.T) {
	c := compareFiles(t, "demo-evidence", "demo-evidence", model.Knobs{})
	calls := slices.Clone(c.B.Replay.Calls)
	call := *calls[8].Call
	resp := call.Facts.Response
	resp.ToolCalls = slices.Clone(resp.ToolCalls)
	if len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Name != "get_metrics" {
		t.Fatalf("call 9 asked %+v, not get_metrics alone (README: wrk-8e17c4)", resp.ToolCalls)
	}
	resp.ToolCalls[0].Args = []byte(`{"host":"wrk-0000aa"}`)
	call.Facts.Response = resp
	calls[8].Call = &call
	b := &Side{Study: c.B.Study, Replay: &window.Replay{Calls: calls}, Values: c.B.Values}
	d := alignOnly(c.A, b, Only{})
	if len(d.Pairs) != 16 || d.Parted != 8 || d.Why(&d.Pairs[8]) != "other arguments to get_metrics" {
		t.Fatalf("%d pairs, parted %d: %q", len(d.Pairs), d.Parted, d.Why(&d.Pairs[d.Parted]))
	}
	for k, p := range d.Pairs {
		if d.CallA(&p).Call.Number != k+1 || d.CallB(&p).Call.Number != k+1 {
			t.Errorf("pair %d: calls %d and %d", k+1, d.CallA(&p).Call.Number, d.CallB(&p).Call.Number)
		}
		if (p.State == Changed) != (k == 8) {
			t.Errorf("pair %d: %s", k+1, p.State)
		}
	}
}

// Every recording of testdata against itself and against the next one:
// no panic, every call of each side in exactly one pair, each side's
// calls of a conversation in order, and the totals add up; against itself
// every pair is the same.
func TestCompareEveryRecording(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/*/run.jsonl")
	if len(paths) < 20 {
		t.Fatalf("%d recordings", len(paths))
	}
	studies := make([]*study.Study, len(paths))
	for i, p := range paths {
		rec, err := loader.StartLimited(p, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		studies[i], _ = study.Open(rec, study.Request{})
	}
	for i := range paths {
		for _, j := range []int{i, (i + 1) % len(paths)} {
			c := Runs(studies[i], studies[j], Only{})
			name := filepath.Base(filepath.Dir(paths[i])) + " vs " + filepath.Base(filepath.Dir(paths[j]))
			seen := [2]map[int]bool{{}, {}}
			last := [2]map[int]int{{}, {}} // by conversation pair, the last call index
			for _, p := range c.Pairs {
				for k, x := range [2]int{p.A, p.B} {
					if x < 0 {
						continue
					}
					if seen[k][x] {
						t.Errorf("%s: side %d call index %d in two pairs", name, k, x)
					}
					seen[k][x] = true
					if l, ok := last[k][p.Conv]; ok && x <= l {
						t.Errorf("%s: side %d: call index %d after %d", name, k, x, l)
					}
					last[k][p.Conv] = x
				}
			}
			if len(seen[0]) != len(c.A.Replay.Calls) || len(seen[1]) != len(c.B.Replay.Calls) {
				t.Errorf("%s: pairs hold %d and %d calls of %d and %d", name, len(seen[0]), len(seen[1]), len(c.A.Replay.Calls), len(c.B.Replay.Calls))
			}
			tt := c.Totals
			if tt.Same+tt.Differing() != len(c.Pairs) {
				t.Errorf("%s: totals %+v of %d pairs", name, tt, len(c.Pairs))
			}
			if i == j && (tt.Differing() != 0 || !c.SameTask) {
				t.Errorf("%s: against itself %+v, same task %v", name, tt, c.SameTask)
			}
		}
	}
}

// Forty calls B alone made after each of A's first twelve (480 in all,
// each asking get_metrics something else): A's sixteen calls stay paired
// with their twins, the rest is B's alone. (go-udiff's lcs alone, cut at
// 50 differences, paired nine of them wrong.)
func TestAlignManyCallsOneSide(t *testing.T) {
	c := compareFiles(t, "demo-evidence", "demo-evidence", model.Knobs{})
	var calls []window.CallReplay
	var values [][]Value
	for i, cr := range c.B.Replay.Calls {
		calls = append(calls, cr)
		values = append(values, c.B.Values[i])
		for k := range 40 * boolInt(i < 12) {
			x := cr
			call := *cr.Call
			call.Facts.Response.ToolCalls = []model.ToolCall{{Name: "get_metrics", Args: []byte(fmt.Sprintf(`{"n":%d,"after":%d}`, k, i))}}
			x.Call = &call
			calls, values = append(calls, x), append(values, nil)
		}
	}
	d := alignOnly(c.A, &Side{Study: c.B.Study, Replay: &window.Replay{Calls: calls}, Values: values}, Only{})
	if d.Totals.Same != 16 || d.Totals.BOnly != 480 || d.Totals.Changed+d.Totals.AOnly != 0 || d.Parted != 1 {
		t.Errorf("totals %+v, parted %d", d.Totals, d.Parted)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// matches on names written as letters, the matches worked out by hand.
func TestMatches(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"abcd", "abcd", "[[0 0] [1 1] [2 2] [3 3]]"},
		{"abcd", "axbcyd", "[[0 0] [1 2] [2 3] [3 5]]"},
		{"axbcyd", "abcd", "[[0 0] [2 1] [3 2] [5 3]]"},
		{"aaab", "ab", "[[0 0] [3 1]]"},
		{"", "ab", "[]"},
		{"abab", "baba", "[[0 1] [1 2] [2 3]]"},
	} {
		if got := fmt.Sprint(nonNil(matches([]rune(c.a), []rune(c.b)))); got != c.want {
			t.Errorf("%s against %s: %s, want %s", c.a, c.b, got, c.want)
		}
	}
	// abc against cba: any one letter is a longest match
	if m := matches([]rune("abc"), []rune("cba")); len(m) != 1 || "abc"[m[0][0]] != "cba"[m[0][1]] {
		t.Errorf("abc against cba: %v", m)
	}
}

func nonNil(m [][2]int) [][2]int {
	if m == nil {
		return [][2]int{}
	}
	return m
}
