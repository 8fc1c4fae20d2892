package loader

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// covered is how many wire calls each input holds when it is not all of
// them. s90-truncated's README: the log stops inside call 6's tool_end;
// its envelope is frozen at call 6's iteration_start, before its llm_start.
var covered = map[string]struct{ ndjson, envelope int }{
	"s90-truncated": {ndjson: 6, envelope: 5},
}

func TestNDJSONMatchesWire(t *testing.T) {
	for _, sc := range scenarios(t) {
		if minimalLogs[sc] {
			continue
		}
		t.Run(sc, func(t *testing.T) {
			w := readWire(t, sc)
			rec := mustLoad(t, filepath.Join(testdata, sc, "run.jsonl"))
			if rec.Format != model.FormatNDJSON {
				t.Errorf("format %q", rec.Format)
			}
			want := len(w.Calls)
			if c, ok := covered[sc]; ok {
				want = c.ndjson
			} else if len(rec.Problems) > 0 {
				t.Errorf("problems in a whole recording: %v", rec.Problems)
			}
			checkAgainstWire(t, rec, w, want)
			checkRuns(t, rec, w)
			checkIDs(t, rec)
			for _, r := range rec.Runs {
				if r.HasRecords || r.Records != nil {
					t.Errorf("run %d: an NDJSON log carries no window records", r.Index)
				}
			}
		})
	}
}

func TestEnvelopeMatchesWire(t *testing.T) {
	for _, sc := range scenarios(t) {
		path := filepath.Join(testdata, sc, "recording.json.gz")
		if _, err := os.Stat(path); err != nil {
			continue // t01-toolchars is derived and has no envelope
		}
		t.Run(sc, func(t *testing.T) {
			w := readWire(t, sc)
			rec := mustLoad(t, path)
			if rec.Format != model.FormatEnvelope {
				t.Errorf("format %q", rec.Format)
			}
			if len(rec.Problems) > 0 {
				t.Errorf("problems: %v", rec.Problems)
			}
			want := len(w.Calls)
			if c, ok := covered[sc]; ok {
				want = c.envelope
			}
			checkAgainstWire(t, rec, w, want)
			checkRuns(t, rec, w)
			checkIDs(t, rec)
			checkRecords(t, rec, path)
		})
	}
}

// TestEnvelopeMatchesNDJSON: the envelope and the log of one scenario give
// the same runs, calls and messages (the envelope may stop earlier).
func TestEnvelopeMatchesNDJSON(t *testing.T) {
	for _, sc := range scenarios(t) {
		path := filepath.Join(testdata, sc, "recording.json.gz")
		if _, err := os.Stat(path); err != nil || minimalLogs[sc] {
			continue // a minimal log holds less than its envelope
		}
		t.Run(sc, func(t *testing.T) {
			env := mustLoad(t, path)
			log := mustLoad(t, filepath.Join(testdata, sc, "run.jsonl"))
			if len(env.Runs) != len(log.Runs) {
				t.Fatalf("%d runs from the envelope, %d from the log", len(env.Runs), len(log.Runs))
			}
			for k, r := range env.Runs {
				l := log.Runs[k]
				if r.RunID != l.RunID || r.Request != l.Request || r.Strategy != l.Strategy ||
					!slices.Equal(r.Caps, l.Caps) || r.Complete != l.Complete {
					t.Errorf("run %d differs: envelope %+v, log %+v", r.Index, r, l)
				}
			}
			ec, lc := flatten(env), flatten(log)
			if len(ec) > len(lc) {
				t.Fatalf("envelope has %d calls, log %d", len(ec), len(lc))
			}
			for i := range ec {
				e, l := ec[i].call, lc[i].call
				if e.Iteration != l.Iteration || e.MessagesCount != l.MessagesCount || e.Usage != l.Usage ||
					e.Ended != l.Ended || !slices.EqualFunc(e.Recorded, l.Recorded, model.SameText) ||
					!sameMessages(e.Appended, l.Appended) {
					t.Errorf("call %d differs between the envelope and the log", i+1)
				}
				if e.Line != 0 || l.Line == 0 {
					t.Errorf("call %d: line %d in the envelope, %d in the log", i+1, e.Line, l.Line)
				}
			}
		})
	}
}

func sameMessages(a, b []*model.Message) bool {
	return slices.EqualFunc(a, b, func(x, y *model.Message) bool {
		x2, y2 := *x, *y
		x2.ID, y2.ID = 0, 0
		return sameMessageJSON(&x2, &y2)
	})
}

func sameMessageJSON(x, y *model.Message) bool {
	jx, _ := json.Marshal(x)
	jy, _ := json.Marshal(y)
	return bytes.Equal(jx, jy)
}

// checkIDs: every message has its own ID, increasing in creation order,
// which is file order: a run's request, then what each call appended
// (recorded windows and final answers are numbered in between); what was
// made for a run's last call, which the input left open, is numbered
// below 0, apart.
func checkIDs(t testing.TB, rec *model.Recording) {
	t.Helper()
	last := 0
	open := map[int]bool{}
	next := func(m *model.Message, what string, lastCall bool) {
		if lastCall && m.ID < 0 && !open[m.ID] {
			open[m.ID] = true
			return
		}
		if m.ID <= last {
			t.Fatalf("%s: ID %d, want more than %d", what, m.ID, last)
		}
		last = m.ID
	}
	for _, r := range rec.Runs {
		if r.RequestMessage != nil {
			next(r.RequestMessage, "request", false)
		}
		for i, c := range r.Calls {
			for _, m := range c.Appended {
				next(m, "appended", i == len(r.Calls)-1)
			}
		}
	}
}

// checkRecords compares each run's records with the envelope decoded here
// by encoding/json, independently of the loader.
func checkRecords(t *testing.T, rec *model.Recording, path string) {
	t.Helper()
	type compaction struct {
		Strategy            string            `json:"strategy"`
		Iteration           int               `json:"iteration"`
		RemovedMessageCount int               `json:"removedMessageCount"`
		Refusals            []json.RawMessage `json:"refusals"`
	}
	type envelope struct {
		Recording struct {
			Snapshot struct {
				SharedState struct {
					Compactions []compaction `json:"compactions"`
				} `json:"sharedState"`
			} `json:"snapshot"`
		} `json:"recording"`
	}
	envs := envelopesAt[envelope](t, path)
	if len(envs) != len(rec.Runs) {
		t.Fatalf("%d envelopes, %d runs", len(envs), len(rec.Runs))
	}
	for k, e := range envs {
		r, want := rec.Runs[k], e.Recording.Snapshot.SharedState.Compactions
		if !r.HasRecords || len(r.Records) != len(want) {
			t.Errorf("run %d: %d records (has=%v), envelope %d", r.Index, len(r.Records), r.HasRecords, len(want))
			continue
		}
		for i, w := range want {
			g := r.Records[i]
			if g.Strategy != w.Strategy || g.Iteration != w.Iteration || g.RemovedMessageCount != w.RemovedMessageCount || len(g.Refusals) != len(w.Refusals) {
				t.Errorf("run %d record %d: %+v, envelope %+v", r.Index, i, g, w)
			}
		}
	}
}

// TestTokenBudget checks s09 against its README: threshold 3000, records
// filed at iterations 6, 8, 10 and 11 only.
func TestTokenBudget(t *testing.T) {
	for _, name := range []string{"run.jsonl", "recording.json.gz"} {
		rec := mustLoad(t, filepath.Join(testdata, "s09-token-budget", name))
		r := rec.Runs[0]
		if r.Strategy != model.TokenBudget || len(r.Caps) == 0 || r.Caps[0] != 3000 {
			t.Errorf("%s: strategy %q caps %v", name, r.Strategy, r.Caps)
		}
		var its []int
		for _, rc := range r.Records {
			its = append(its, rc.Iteration)
		}
		if name == "recording.json.gz" && !slices.Equal(its, []int{6, 8, 10, 11}) {
			t.Errorf("record iterations %v, README says 6, 8, 10, 11", its)
		}
	}
}

// TestTruncated: s90's log is cut inside line 126 (README: 125 whole lines,
// then half of call 6's tool_end). Everything before it loads.
func TestTruncated(t *testing.T) {
	path := filepath.Join(testdata, "s90-truncated", "run.jsonl")
	rec := mustLoad(t, path)
	if len(rec.Problems) != 1 {
		t.Fatalf("problems %v, want exactly one", rec.Problems)
	}
	p := rec.Problems[0]
	if p.Line != 126 || !strings.Contains(p.Message, "cut off") || !strings.Contains(p.Message, path+":126") {
		t.Errorf("problem %+v, want line 126, cut off, naming %s", p, path)
	}
	r := rec.Runs[0]
	if r.Complete || r.FinalAnswer != "" || len(r.Calls) != 6 {
		t.Fatalf("complete=%v final=%q calls=%d", r.Complete, r.FinalAnswer, len(r.Calls))
	}
	// Call 6 ended and asked for call_0006, whose tool_end is the cut line.
	c := r.Calls[5]
	if !c.Ended || len(c.Appended) != 1 || len(c.Appended[0].ToolCalls) != 1 || c.Appended[0].ToolCalls[0].ID != "call_0006" {
		t.Errorf("call 6: ended=%v appended=%+v", c.Ended, c.Appended)
	}
}

// BenchmarkLongRunAgainstWire checks s08 (201 calls, from the shared
// recordings beside the clone: too big to copy here) in both formats
// against its wire.json, and the fast decoder against the reference one
// on its log, while timing their loads.
func BenchmarkLongRunAgainstWire(b *testing.B) {
	if _, err := os.Stat(s08 + "wire.json"); err != nil {
		b.Skipf("%s not present", s08)
	}
	w := readWireAt(b, s08+"wire.json")
	data, err := os.ReadFile(s08 + "run.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	checkSameWays(b, data)
	for b.Loop() {
		for _, name := range []string{"run.jsonl", "recording.json.gz"} {
			rec := mustLoad(b, s08+name)
			if len(rec.Problems) != 0 {
				b.Errorf("%s: problems %v", name, rec.Problems)
			}
			checkAgainstWire(b, rec, w, len(w.Calls))
			checkRuns(b, rec, w)
			checkIDs(b, rec)
		}
	}
}

// envelopesAt reads a gzipped recording.json, one envelope or an array
// of them, each into a T (the parts of an envelope a test reads).
func envelopesAt[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var raw json.RawMessage
	if err := json.NewDecoder(zr).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	var envs []T
	if raw[0] == '[' {
		err = json.Unmarshal(raw, &envs)
	} else {
		envs = make([]T, 1)
		err = json.Unmarshal(raw, &envs[0])
	}
	if err != nil {
		t.Fatal(err)
	}
	return envs
}
