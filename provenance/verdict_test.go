package provenance

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// replayAs loads a recording of the repo's testdata and replays it under
// p (a summarize-oldest policy reads the recorded folds).
func replayAs(t *testing.T, name string, p model.Policy) (*model.Recording, *window.Replay) {
	t.Helper()
	rec, err := loader.StartLimited(filepath.Join("..", "testdata", name, "run.jsonl"), 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return rec, replayUnder(rec, p)
}

// replayUnder replays rec under p, its lineage decided, a
// summarize-oldest policy's summaries the recorded folds.
func replayUnder(rec *model.Recording, p model.Policy) *window.Replay {
	lin := lineage.Decide(rec)
	var book *window.FoldBook
	if p.Strategy == model.SummarizeOldest {
		book = window.RecordedFolds(rec, lin, p)
	}
	return window.RunFolds(rec, lin, p, book)
}

// entry is call i's value v typed in in ("" for any), or fails.
func entry(t *testing.T, b *Book, i int, in, v string) Entry {
	t.Helper()
	for _, e := range b.Call(i).Values {
		if e.Value == v && (in == "" || e.In == in) {
			return e
		}
	}
	t.Fatalf("call %d: no value %s", i+1, v)
	return Entry{}
}

// inTexts prints an entry's inText as "tool id token; …" ("-" for null).
func inTexts(e Entry) string {
	var out []string
	for _, h := range e.InText {
		name, id, tok := "-", "-", "-"
		if h.ToolName != nil {
			name, id = *h.ToolName, *h.ToolCallID
		}
		if h.Token != nil {
			tok = *h.Token
		}
		out = append(out, name+" "+id+" "+tok)
	}
	return strings.Join(out, "; ")
}

// Characters in view inside a longer token are in view, not "typed, not
// read" (docs/rules/evidence.md §9.2.6): e03-tokens' answer (call 7) holds
// 06:14:02 and 6006016012345678901 (array_perf call_0005, an ISO
// timestamp and a 19-digit JSON literal) and 06:14:55 (show_interface
// call_0004); the WWPN its absence frame quotes only in looked_for,
// esx-fra2-040 and 1,250/month were never read. The demo's call 12
// argument 14:31 is held by restart_service call_0011's restarted_at,
// pinned in that window.
func TestInViewTextNotTypedNotRead(t *testing.T) {
	b, _ := book(t, "e03-tokens", 2, 2)
	for _, c := range []struct{ value, verdict, inText string }{
		{"06:14:02", evidence.InViewText, "array_perf call_0005 2025-03-18t06:14:02z"},
		{"6006016012345678901", evidence.InViewText, "array_perf call_0005 6006016012345678901"},
		{"06:14:55", evidence.InViewText, "show_interface call_0004 2025-03-18t06:14:55z"},
		{"21:00:00:24:ff:4a:12:31", evidence.NeverRead, ""},
		{"esx-fra2-040", evidence.NeverRead, ""},
		{"1,250/month", evidence.NeverRead, ""},
	} {
		e := entry(t, b, 6, InAnswer, c.value)
		if e.Verdict != c.verdict || inTexts(e) != c.inText || len(e.Sources) != 0 || !e.Judged() || !e.Unsupported() {
			t.Errorf("e03 %s: %s [%s] sources %v, want %s [%s]", c.value, e.Verdict, inTexts(e), e.Sources, c.verdict, c.inText)
		}
	}
	b, _ = book(t, "demo-evidence", 2, 2)
	e := entry(t, b, 11, InToolCall, "14:31")
	if e.Verdict != evidence.InViewText || inTexts(e) != "restart_service call_0011 2025-03-18t14:31:07z" {
		t.Errorf("demo call 12 14:31: %s [%s]", e.Verdict, inTexts(e))
	}
}

// A summary that transposed two digits of an IP (e05b: 10.12.4.25 for
// list_hosts' 10.12.4.52) is summary-unsupported and names the value
// list_hosts held, at distance 1; the same summary's correct copies of
// the inventory (us-east-1b, 10.12.4.17) are summary with list_hosts as
// their source, folded at call 7 (§9.3, the README: folds at 5 and 7).
func TestSummaryUnsupportedNamesNearest(t *testing.T) {
	p := model.Policy{Strategy: model.SummarizeOldest, KeepRecentTurns: 2, KeepLastToolResults: 2, ThresholdTokens: 1500}
	rec, r := replayAs(t, "e05b-summary-invented-value", p)
	b := New(rec, r)
	e := entry(t, b, 6, InAnswer, "10.12.4.25")
	if e.Verdict != evidence.SummaryUnsupported || e.Near == nil || !e.Flagged() || e.Unsupported() ||
		fmt.Sprintf("%s %d %s %s", e.Near.Value, e.Near.Distance, *e.Near.ToolName, *e.Near.ToolCallID) != "10.12.4.52 1 list_hosts call_0001" {
		t.Errorf("10.12.4.25: %s near %+v", e.Verdict, e.Near)
	}
	for _, v := range []string{"us-east-1b", "10.12.4.17"} {
		e := entry(t, b, 6, InAnswer, v)
		if e.Verdict != evidence.Summary || e.Flagged() || len(e.Sources) != 1 || *e.Sources[0].ToolCallID != "call_0001" ||
			e.Sources[0].EvictedAt != 7 || e.Near != nil {
			t.Errorf("%s: %s %+v", v, e.Verdict, e.Sources)
		}
	}
}

// c04-summarize-multi (§9.3.5): call 13's argument che-b74f is in view only
// in the summary, and five tool results the conversation read hold it;
// call 18's 15:00-15:30 is held by get_metrics call_0012.
func TestSummaryBackedByWhatItFolded(t *testing.T) {
	p := model.Policy{Strategy: model.SummarizeOldest, KeepRecentTurns: 2, KeepLastToolResults: 2, ThresholdTokens: 1000}
	rec, r := replayAs(t, "c04-summarize-multi", p)
	b := New(rec, r)
	ids := func(e Entry) string {
		var out []string
		for _, s := range e.Sources {
			out = append(out, *s.ToolName+" "+*s.ToolCallID)
		}
		return strings.Join(out, ", ")
	}
	e := entry(t, b, 12, InToolCall, "che-b74f")
	if want := "list_hosts call_0002, get_metrics call_0003, read_logs call_0005, read_logs call_0008, get_metrics call_0009"; e.Verdict != evidence.Summary || ids(e) != want {
		t.Errorf("call 13 che-b74f: %s [%s], want summary [%s]", e.Verdict, ids(e), want)
	}
	e = entry(t, b, 17, InToolCall, "15:00-15:30")
	if e.Verdict != evidence.Summary || ids(e) != "get_metrics call_0012" {
		t.Errorf("call 18 15:00-15:30: %s [%s]", e.Verdict, ids(e))
	}
}

// Answers and arguments are counted apart (§9.1.2, the demo): 9 judged
// values in answers (7 left, 2 never-read, both web-3e6f14), 9 in
// arguments (5 never-read, 3 left, 1 in-view-text).
func TestArgumentsCountedApart(t *testing.T) {
	b, r := book(t, "demo-evidence", 2, 2)
	counts := map[string]map[string]int{InAnswer: {}, InToolCall: {}}
	for i := range r.Calls {
		for _, e := range b.Call(i).Values {
			if e.Judged() {
				counts[e.In][e.Own()]++
			}
		}
	}
	want := map[string]map[string]int{
		InAnswer:   {evidence.Left: 7, evidence.NeverRead: 2},
		InToolCall: {evidence.Left: 3, evidence.NeverRead: 5, evidence.InViewText: 1},
	}
	if fmt.Sprint(counts) != fmt.Sprint(want) {
		t.Errorf("flagged by where typed: %v, want %v", counts, want)
	}
}

// A number in a JSON answer is read as the number (§9.5): the library's
// token `:3940` stays as it judged it, and its read 3940 is judged like
// any value — left, as the demo's README says of the p99 of get_metrics
// call_0004 at call 13; `:1822` reads 1822, in view (get_metrics
// call_0011); `:874` reads no value. The demo's final answer is given
// as JSON for the test.
func TestJSONNumberIsTheNumber(t *testing.T) {
	rec, err := loader.StartLimited(filepath.Join("..", "testdata", "demo-evidence", "run.jsonl"), 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	rec.Runs[0].Calls[12].Facts.Response.Content = `{"p99_ms":3940,"requests_per_min":1822,"errors":874}`
	b := New(rec, replayUnder(rec, model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2, KeepLastToolResults: 2}))
	for _, c := range []struct{ value, verdict, read, shape, own string }{
		{":3940", evidence.NeverRead, "3940", evidence.ShapeNumber, evidence.Left},
		{":1822", evidence.InViewText, "1822", evidence.ShapeNumber, evidence.InView},
		{":874", evidence.NeverRead, "874", "", ""},
	} {
		e := entry(t, b, 12, InAnswer, c.value)
		r := e.Read
		if e.Verdict != c.verdict || r == nil || r.Value != c.read || e.Own() != c.own ||
			(r.Shape == nil) != (c.shape == "") || r.Shape != nil && *r.Shape != c.shape {
			t.Errorf("%s: %s, read %+v, own %q; want %s, read %s %q, own %q", c.value, e.Verdict, r, e.Own(), c.verdict, c.read, c.shape, c.own)
		}
	}
	if e := entry(t, b, 12, InAnswer, ":3940"); len(e.Read.Sources) != 1 || *e.Read.Sources[0].ToolCallID != "call_0004" {
		t.Errorf(":3940 read sources %+v", e.Read.Sources)
	}
	// the JSON says the verdict the table shows beside the library's
	// reading: ownVerdict, where the two differ (:874 reads no value)
	for v, own := range map[string]string{":3940": evidence.Left, ":1822": evidence.InView, ":874": ""} {
		if e := entry(t, b, 12, InAnswer, v); e.OwnVerdict != own {
			t.Errorf("%s: ownVerdict %q, want %q", v, e.OwnVerdict, own)
		}
	}
	for _, e := range b.Call(12).Values {
		if e.Read != nil && !strings.HasPrefix(e.Value, ":") {
			t.Errorf("%s has a read", e.Value)
		}
	}
}

// outcomesOf is every call's outcome in a recording, "-" for none.
func outcomesOf(t *testing.T, name string, strip bool) []string {
	t.Helper()
	rec, err := loader.StartLimited(filepath.Join("..", "testdata", name, "run.jsonl"), 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, run := range rec.Runs {
		if strip {
			for _, c := range run.Calls {
				c.Facts.EvidenceChecked = nil
			}
		}
		for _, o := range Outcomes(run) {
			if o == "" {
				o = "-"
			}
			out = append(out, o)
		}
	}
	return out
}

// e02-rails: the first answer (call 7) is revision-asked, the revision
// (call 9) is refused: run() threw, the caller got nothing, though the
// log ends as a finished run. Nothing is delivered, and the run's final
// answer is call 9 (§9.4).
func TestRefusedAnswerDeliversNothing(t *testing.T) {
	got := outcomesOf(t, "e02-rails", false)
	want := []string{"-", "-", "-", "-", "-", "-", RevisionAsked, "-", Refused}
	if !slices.Equal(got, want) {
		t.Errorf("e02-rails outcomes %v, want %v", got, want)
	}
	rec, _ := loader.StartLimited(filepath.Join("..", "testdata", "e02-rails", "run.jsonl"), 0).Wait()
	if k := FinalAnswer(rec.Runs[0]); k != 8 {
		t.Errorf("final answer: call %d, want 9", k+1)
	}
}

// e01-guard: a revision asked at call 7, the revised answer delivered at
// call 9; the demo's two runs deliver their last calls (13, 16); tool
// turns have no outcome.
func TestRevisedAnswerDelivered(t *testing.T) {
	for _, c := range []struct {
		name string
		want []string
	}{
		{"e01-guard", []string{"-", "-", "-", "-", "-", "-", RevisionAsked, "-", Delivered}},
		{"demo-evidence", append(append(slices.Repeat([]string{"-"}, 12), Delivered), "-", "-", Delivered)},
	} {
		if got := outcomesOf(t, c.name, false); !slices.Equal(got, c.want) {
			t.Errorf("%s outcomes %v, want %v", c.name, got, c.want)
		}
	}
	rec, _ := loader.StartLimited(filepath.Join("..", "testdata", "e01-guard", "run.jsonl"), 0).Wait()
	if k := FinalAnswer(rec.Runs[0]); k != 8 {
		t.Errorf("e01 final answer from call 7: call %d, want 9", k+1)
	}
}

// Without its evidence_checked events a revision still shows (the next
// window ends with the [evidence check correction) but a refusal does
// not: e02 then reads as delivered (§9.4.5).
func TestRevisionSeenWithoutItsEvent(t *testing.T) {
	if got := outcomesOf(t, "e01-guard", true); got[6] != RevisionAsked || got[8] != Delivered {
		t.Errorf("e01 without events: %v", got)
	}
	if got := outcomesOf(t, "e02-rails", true); got[6] != RevisionAsked || got[8] != Delivered {
		t.Errorf("e02 without events: %v", got)
	}
}

// At tier minimal there is no llm_end: the iteration_end that stands for
// a call ends it (§9.6.1), so each answer's outcome is what the same run
// logged at tier standard gives. The log is e01-guard with its stream and
// context events taken out, as tier minimal writes it: call 7's answer is
// still revision-asked, call 9's delivered.
func TestOutcomesAtTierMinimal(t *testing.T) {
	path := filepath.Join("..", "testdata", "e01-guard", "run.jsonl")
	standard, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.Contains(l, `"agentfootprint.stream.`) && !strings.Contains(l, `"agentfootprint.context.`) {
			kept = append(kept, l)
		}
	}
	minimal, err := loader.StartReader(strings.NewReader(strings.Join(kept, "\n")), "minimal.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if minimal.Tier != model.TierMinimal || len(minimal.Runs) != 1 {
		t.Fatalf("tier %s, %d runs", minimal.Tier, len(minimal.Runs))
	}
	byIteration := func(run *model.Run) map[int]string {
		out := map[int]string{}
		for k, o := range Outcomes(run) {
			out[run.Calls[k].Iteration] = o
		}
		return out
	}
	want, got := byIteration(standard.Runs[0]), byIteration(minimal.Runs[0])
	if fmt.Sprint(got) != fmt.Sprint(want) || want[7] != RevisionAsked || want[9] != Delivered {
		t.Errorf("tier minimal %v, tier standard %v", got, want)
	}
}

// A composition's own model call has no window in the log
// (docs/rules/compositions.md §15.5): n06's merge calls (file calls 12 and 21, the
// README's mergeWithLLM) answer "web-6a8afa", which no message of theirs
// the log holds could ground or fail to ground. The value is unknown —
// not never-read — and flagged by nothing; New and Walk agree.
func TestCompositionCallValuesAreUnknown(t *testing.T) {
	rec, r := replayAs(t, "n06-parallel-composition", model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2, KeepLastToolResults: 2})
	walk := Walk(rec, r)
	defer walk.Stop()
	books := map[string]*Book{"New": New(rec, r), "Walk": walk}
	for name, b := range books {
		seen := 0
		for i := range r.Calls {
			c := &r.Calls[i]
			ce := b.Call(i)
			if !c.Run.Composition {
				continue
			}
			seen++
			if !Unjudged(c) || len(ce.Values) != 1 {
				t.Fatalf("%s: call %d: unjudged %v, values %+v", name, c.Call.Number, Unjudged(c), ce.Values)
			}
			e := ce.Values[0]
			if e.Value != "web-6a8afa" || e.Verdict != evidence.Unknown || e.Flagged() || e.Unsupported() || len(e.Sources) != 0 {
				t.Errorf("%s: call %d: %+v", name, c.Call.Number, e)
			}
		}
		if seen != 2 {
			t.Errorf("%s: %d composition calls, want 2 (calls 12 and 21)", name, seen)
		}
	}
}
