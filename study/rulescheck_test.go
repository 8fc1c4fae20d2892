package study

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// generated is a log written by rungen under spec, loaded, and its text.
func generated(t *testing.T, spec rungen.Spec) (*model.Recording, string) {
	t.Helper()
	var b bytes.Buffer
	if err := rungen.Write(&b, spec); err != nil {
		t.Fatal(err)
	}
	rec, err := loader.StartReader(bytes.NewReader(b.Bytes()), "generated.jsonl", int64(b.Len())).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return rec, b.String()
}

// A 9.62.0 log with pins off whose drop notices are all plain: the first
// result (420 chars) is longer than the plain notice (357 chars with the
// kept-request sentence) but not than the rich one (489 with one tool
// name), and each later span is the old notice and a result of 20–120
// chars, which the rich notice is not shorter than either. Nothing in it
// shows an older rule (§17.2 3b asks for a rich notice shorter than the
// span), so the 9.57–9.62 rules are told, and they reproduce every window.
func TestPlainNoticesOfA962LogTellTheNewestRules(t *testing.T) {
	rec, text := generated(t, rungen.Spec{Calls: 13, Seed: 2, MinResult: 20, MaxResult: 120, FirstResult: 420, KeepRecent: 2})
	if n := strings.Count(text, `[dropped history — `); n < 10 || strings.Contains(text, "Tool results are among them") {
		t.Fatalf("the log holds %d notices, rich ones among them: not the case", n)
	}
	s, err := Open(rec, Request{})
	if err != nil {
		t.Fatal(err)
	}
	l := rec.Library
	if l.Rules != "9.57" || l.Source != window.VersionByDefault || l.ByReplay || l.Matched != 13 || l.Compared != 13 {
		t.Errorf("library %+v; want the 9.57 rules by default, 13/13", l)
	}
	if m, c := s.Replay().Score(); m != 13 || c != 13 {
		t.Errorf("the replay reproduces %d/%d", m, c)
	}
}

// A log written under the 9.55–9.56 rules in which no plain notice stands
// where the rich one would have been shorter (its results are 5–60
// chars: the veto holds the drop until the span outgrows the plain
// notice) shows no older rule, so §17.2 tells the newest rules — which
// drop silently where 9.56.0 refused, and reproduce fewer windows. Each
// rule set is replayed, the one that reproduces all 13 is taken, and the
// library says so. Under --library-version 9.62.0 nothing is second-
// guessed: the replay differs, and a problem says so.
func TestRulesToldByWhatReproduces(t *testing.T) {
	spec := rungen.Spec{Calls: 13, Seed: 1, MinResult: 5, MaxResult: 60, KeepRecent: 2, Rules: window.Rules955}
	rec, _ := generated(t, spec)
	s, err := Open(rec, Request{})
	if err != nil {
		t.Fatal(err)
	}
	l := rec.Library
	if l.Rules != "9.55" || !l.ByReplay || l.Matched != 13 || l.Compared != 13 || l.Source != window.VersionFromLog {
		t.Fatalf("library %+v; want the 9.55 rules told by the replay, 13/13", l)
	}
	if !strings.HasPrefix(l.Others, "9.57–9.62 rules: ") || strings.HasPrefix(l.Others, "9.57–9.62 rules: 13/13") {
		t.Errorf("others %q: the rules the log told first should reproduce fewer", l.Others)
	}
	if m, c := s.Replay().Score(); m != 13 || c != 13 {
		t.Errorf("the replay reproduces %d/%d", m, c)
	}
	for _, p := range s.Problems() {
		if strings.Contains(p.Message, "differs") {
			t.Errorf("a replay that reproduces all says %q", p.Message)
		}
	}

	// under a flag the rules are the flag's: the replay differs where
	// 9.56.0 refused a drop 9.62.0 makes, and the problem names the first
	// call whose window differs, as the replay's verdicts say, with the
	// count of those that match
	s, err = Open(rec, Request{Library: "9.62.0"})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Library.ByReplay || rec.Library.Rules != "9.57" {
		t.Errorf("a flag was second-guessed: %+v", rec.Library)
	}
	r := s.Replay()
	first, matched := 0, 0
	for i := range r.Calls {
		switch r.Calls[i].Recorded() {
		case window.Differs:
			if first == 0 {
				first = r.Calls[i].Call.Number
			}
		case window.Match:
			matched++
		}
	}
	if first == 0 || matched == 13 {
		t.Fatalf("under the 9.57 rules every window is reproduced: not the case")
	}
	want := "reproduces " + itoa(matched) + "/13 recorded windows; the first that differs is call " + itoa(first) + " "
	found := false
	for _, p := range s.Problems() {
		found = found || strings.Contains(p.Message, want) && strings.Contains(p.Message, "under the 9.57–9.62 rules")
	}
	if !found {
		t.Errorf("no problem saying %q: %v", want, s.Problems())
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
