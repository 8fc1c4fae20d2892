package window_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

func load(t *testing.T, path string) *model.Recording {
	t.Helper()
	rec, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// The demo-evidence script under library 9.56.0 (§17): told from the log
// alone (a plain notice where 9.57.0 would have named the tool results),
// from the envelope's producer, or from the flag, it replays every window
// and record the library made; under the 9.57 rules it does not.
func TestVersion956Replays(t *testing.T) {
	dir := filepath.Join("..", "testdata", "v9.56.0-demo-evidence")
	wire := readWire(t, dir)

	rec := load(t, filepath.Join(dir, "run.jsonl"))
	if err := window.SettleLibrary(rec, nil, ""); err != nil {
		t.Fatal(err)
	}
	if l := rec.Library; l.Rules != "9.55" || l.Source != window.VersionFromLog || l.Version != "" || !strings.Contains(l.Evidence, "call 4 ") {
		t.Fatalf("from the log: %+v; want rules 9.55 shown by call 4", l)
	}
	t.Run("given", func(t *testing.T) { checkWindows(t, rec, wire.policy(), wire, false) })
	t.Run("inferred", func(t *testing.T) {
		inf := window.Infer(rec)
		if inf.Policy.KeepLastToolResults != 0 {
			t.Errorf("inferred %s: 9.56.0 has no pins", inf.Policy)
		}
		checkWindows(t, rec, inf.Policy, wire, false)
	})
	t.Run("envelope", func(t *testing.T) {
		erec := load(t, filepath.Join(dir, "recording.json.gz"))
		if err := window.SettleLibrary(erec, nil, ""); err != nil {
			t.Fatal(err)
		}
		if l := erec.Library; l.Version != "9.56.0" || l.Rules != "9.55" || l.Source != window.VersionFromEnvelope {
			t.Fatalf("from the envelope: %+v", l)
		}
		checkWindows(t, erec, wire.policy(), wire, false)
		checkRecords(t, erec, window.Run(erec, wire.policy()))
	})
	t.Run("the flag wins", func(t *testing.T) {
		erec := load(t, filepath.Join(dir, "recording.json.gz"))
		if err := window.SettleLibrary(erec, nil, "9.62.0"); err != nil {
			t.Fatal(err)
		}
		if l := erec.Library; l.Version != "9.62.0" || l.Rules != "9.57" || l.Source != window.VersionFromFlag {
			t.Fatalf("flag 9.62.0 on a 9.56.0 envelope: %+v", l)
		}
		// under 9.57's rules the follow-up's iteration 3 drops run 1's
		// answer silently, where 9.56.0 vetoed it (the last call)
		r := window.Run(erec, wire.policy())
		last := r.Calls[len(r.Calls)-1]
		if last.Recorded() != window.Differs || last.Visit.Record == nil || last.Visit.Record.RemovedMessageCount != 1 {
			t.Errorf("call 16 under 9.57 rules: %s, record %+v", last.Recorded(), last.Visit.Record)
		}
	})
}

// §17.2: the flag, then the lowest envelope version, then the log's
// evidence (a request that left; a plain notice where a rich one was
// shorter than the span), else the newest rules.
func TestSettleLibrary(t *testing.T) {
	const (
		plain1 = "[dropped history — 2 earlier message(s) were dropped from this window at iteration 2 by the 'sliding-window' window strategy. Your current request is kept — it is still in this window, above this line, and no window strategy may drop it. Nothing was summarized: those turns are simply not being re-sent. They are retained verbatim in this run's commit log.]"
		plain2 = "[dropped history — 3 earlier message(s) were dropped from this window at iteration 2 by the 'sliding-window' window strategy. Nothing was summarized: those turns are simply not being re-sent. They are retained verbatim in this run's commit log.]"
	)
	q := &model.Message{Role: model.RoleUser, Content: "q"}
	long := strings.Repeat("x", 2000)
	said := &model.Message{Role: model.RoleAssistant, Content: long}
	calling := &model.Message{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "c1", Name: "list_hosts"}}}
	result := &model.Message{Role: model.RoleTool, Content: long, ToolCallID: "c1", ToolName: "list_hosts"}
	next := &model.Message{Role: model.RoleAssistant, Content: "next"}
	notice := func(s string) *model.Message { return &model.Message{Role: model.RoleUser, Content: s} }
	// one run: call 1 sends [q] and adds what1; call 2 sends w2
	run := func(what1, w2 []*model.Message) *model.Recording {
		return &model.Recording{Source: "t", Runs: []*model.Run{{
			Index: 1, RunNo: 1, RunID: "r1", HasTurnStart: true, Request: "q", RequestMessage: q, Agent: &model.Agent{Key: "agent"},
			Calls: []*model.Call{
				{Number: 1, Iteration: 1, Recorded: []*model.Message{q}, Appended: what1},
				{Number: 2, Iteration: 2, Recorded: w2},
			},
		}}}
	}
	toolSpan := []*model.Message{calling, result}
	for _, c := range []struct {
		name, flag      string
		producers       []string
		rec             *model.Recording
		rules, source   string
		version, reason string
	}{
		{"a: the request left the window", "", nil, run(append(toolSpan, next), []*model.Message{notice(plain2), next}), "9.54", window.VersionFromLog, "", "call 2 "},
		{"b: a plain notice where the rich one fit", "", nil, run(toolSpan, []*model.Message{q, notice(plain1)}), "9.55", window.VersionFromLog, "", "call 2 "},
		{"b: a plain notice for a span with no tool result", "", nil, run([]*model.Message{said, said}, []*model.Message{q, notice(plain1)}), "9.57", window.VersionByDefault, "", ""},
		{"c: no notice at all", "", nil, run(toolSpan, append([]*model.Message{q}, toolSpan...)), "9.57", window.VersionByDefault, "", ""},
		{"envelopes: the lowest", "", []string{"9.62.0", "9.56.0", "not a version"}, run(toolSpan, nil), "9.55", window.VersionFromEnvelope, "9.56.0", "9.62.0, 9.56.0"},
		{"the flag before the envelope", "9.54.0", []string{"9.62.0"}, run(toolSpan, nil), "9.54", window.VersionFromFlag, "9.54.0", "--library-version 9.54.0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.rec.Library.Producers = c.producers
			if err := window.SettleLibrary(c.rec, nil, c.flag); err != nil {
				t.Fatal(err)
			}
			l := c.rec.Library
			if l.Rules != c.rules || l.Source != c.source || l.Version != c.version || !strings.Contains(l.Evidence, c.reason) {
				t.Errorf("%+v; want rules %s from %s, version %q, evidence naming %q", l, c.rules, c.source, c.version, c.reason)
			}
		})
	}
	if err := window.SettleLibrary(run(nil, nil), nil, "9.56"); err == nil {
		t.Errorf("--library-version 9.56 accepted")
	}
}

// The demo-evidence script logged at tier minimal (§16.3): every window
// but each run's last is read from iteration_end, the last ones are
// computed, and both are the library's; the records are the envelope's.
func TestTierMinimalReplays(t *testing.T) {
	dir := filepath.Join("..", "testdata", "n09-tier-minimal")
	wire := readWire(t, dir)
	rec := load(t, filepath.Join(dir, "run.jsonl"))
	t.Run("given", func(t *testing.T) { checkWindows(t, rec, wire.policy(), wire, false) })
	t.Run("inferred", func(t *testing.T) { checkWindows(t, rec, window.Infer(rec).Policy, wire, false) })
	r := window.Run(rec, wire.policy())
	for _, c := range r.Calls {
		last := c.Call == c.Run.Calls[len(c.Run.Calls)-1]
		if want := map[bool]string{true: window.Unknown, false: window.Match}[last]; c.Recorded() != want {
			t.Errorf("call %d: recorded window %s, want %s", c.Call.Number, c.Recorded(), want)
		}
	}
	checkRecords(t, load(t, filepath.Join(dir, "recording.json.gz")), r)
}

// minimalOf is a standard-tier log as tier minimal would have written it
// (§16.1: agent.* and error.* events only). The library's windows do not
// depend on the tier, so the wire capture is still the judge.
func minimalOf(t *testing.T, name string) *model.Recording {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", name, "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var kept [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if !bytes.Contains(l, []byte(`"agentfootprint.stream.`)) && !bytes.Contains(l, []byte(`"agentfootprint.context.`)) {
			kept = append(kept, l)
		}
	}
	rec, err := loader.StartReader(bytes.NewReader(bytes.Join(kept, []byte("\n"))), name, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Tier != model.TierMinimal {
		t.Fatalf("%s filtered: tier %s", name, rec.Tier)
	}
	return rec
}

// §16.4: at tier minimal a token strategy engages where the log shows a
// window that changed, with its count unknown; a run's last visit is read
// from the follow-up's first window, and where no follow-up tells, it is
// replayed as not engaged and a problem says so.
func TestTokenBudgetAtTierMinimal(t *testing.T) {
	t.Run("follow-ups tell every visit", func(t *testing.T) {
		name := "c09-token-budget-followups"
		wire := readWire(t, filepath.Join("..", "testdata", name))
		rec := minimalOf(t, name)
		checkWindows(t, rec, wire.policy(), wire, false)
		engaged := 0
		for _, c := range window.Run(rec, wire.policy()).Calls {
			if r := c.Visit.Record; r != nil {
				engaged++
				if !r.Unmeasured || r.MeasuredTokens != 0 {
					t.Errorf("call %d: record %+v, want its count unknown", c.Call.Number, r)
				}
			}
		}
		if engaged == 0 {
			t.Fatal("the strategy never engaged")
		}
		inf := window.Infer(rec)
		if inf.Policy.ThresholdTokens != 0 || !strings.Contains(inf.Evidence, "thresholdTokens unknown") {
			t.Errorf("inferred %s: %s", inf.Policy, inf.Evidence)
		}
	})
	t.Run("a last visit no follow-up tells", func(t *testing.T) {
		name := "s09-token-budget"
		wire := readWire(t, filepath.Join("..", "testdata", name))
		rec := minimalOf(t, name)
		r := window.Run(rec, wire.policy())
		if len(r.Calls) != len(wire.Calls) {
			t.Fatalf("%d calls, the library made %d", len(r.Calls), len(wire.Calls))
		}
		for i, w := range wire.Calls[:len(wire.Calls)-1] { // every call but the last
			got := r.Calls[i].Window()
			for j := range max(len(got), len(w.Messages)) {
				if j >= len(got) || j >= len(w.Messages) || !sameAsWire(got[j], w.Messages[j]) {
					t.Fatalf("call %d: window differs at message %d", i+1, j)
				}
			}
		}
		last := r.Calls[len(r.Calls)-1]
		if last.Visit.Record != nil {
			t.Errorf("call %d engaged: the log cannot tell", last.Call.Number)
		}
		told := false
		for _, p := range r.Problems {
			told = told || strings.Contains(p, "cannot tell") && strings.Contains(p, "call(s) 11 ")
		}
		if !told {
			t.Errorf("no problem names call 11: %q", r.Problems)
		}
	})
}
