package loader

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// followed are the recordings a log that grows is checked on: follow-ups,
// agents interleaved, a paused tool, an abort then a follow-up, a loop,
// the answer check.
var followed = []string{"s05-multi-turn", "c02-interleaved-agents", "c07-paused-tool", "n02-abort-then-followup", "n07-loop-conditional", "e01-guard"}

// cuts are n places to cut data at, most of them inside a line, then its
// end.
func cuts(data []byte, n int) []int {
	var out []int
	for k := 1; k < n; k++ {
		out = append(out, len(data)*k/n+k%7)
	}
	return append(out, len(data))
}

// appendTo appends data to the file at path.
func appendTo(t *testing.T, path string, data []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
}

// fingerprint is everything a recording holds, message IDs too, as text:
// a recording that changes after it was handed out changes it.
func fingerprint(rec *model.Recording) string {
	var b strings.Builder
	ids := func(ms []*model.Message) {
		for _, m := range ms {
			fmt.Fprintf(&b, "%d:%d ", m.ID, len(m.Content))
		}
	}
	fmt.Fprintf(&b, "%s %s %d %v\n", rec.Tier, dump(rec.Problems), rec.Unlisted, repeatedByID(rec))
	for _, r := range rec.Runs {
		b.WriteString(dump(r) + "\n")
		for _, m := range []*model.Message{r.RequestMessage, r.FinalMessage} {
			if m != nil {
				ids([]*model.Message{m})
			}
		}
		for _, c := range r.Calls {
			ids(c.Recorded)
			ids(c.Appended)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestContinueIsAWholeLoad: a log that grows, read once and then
// continued with what each append added, is at every cut the recording
// a load of the whole file gives (a last line still being written is
// waited for by both); what was handed out before never changes, and a
// segment no line touched is the very one the last view had.
func TestContinueIsAWholeLoad(t *testing.T) {
	for _, sc := range followed {
		t.Run(sc, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(testdata, sc, "run.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "live.jsonl")
			at := cuts(data, 30)
			if err := os.WriteFile(path, data[:at[0]], 0o644); err != nil {
				t.Fatal(err)
			}
			l := StartFollowing(path, 0)
			prev, err := l.Wait()
			if err != nil {
				t.Fatal(err)
			}
			type shown struct {
				rec  *model.Recording
				sent string
			}
			views := []shown{{prev, fingerprint(prev)}}
			for k := 1; k < len(at); k++ {
				appendTo(t, path, data[at[k-1]:at[k]])
				next, err := l.Continue()
				if err != nil {
					t.Fatalf("cut %d: %v", k, err)
				}
				rec, err := next.Wait()
				if err != nil {
					t.Fatalf("cut %d: %v", k, err)
				}
				whole, err := StartFollowing(path, 0).Wait()
				if err != nil {
					t.Fatal(err)
				}
				if d := recordingDiff(rec, whole); d != "" {
					t.Fatalf("cut %d of %d (byte %d): continued and whole loads differ: %.600s", k, len(at)-1, at[k], d)
				}
				for i, r := range rec.Runs {
					if i < len(prev.Runs) && r != prev.Runs[i] && fingerprint(&model.Recording{Runs: []*model.Run{r}}) == fingerprint(&model.Recording{Runs: []*model.Run{prev.Runs[i]}}) && r.Calls[len(r.Calls)-1] == prev.Runs[i].Calls[len(prev.Runs[i].Calls)-1] {
						t.Errorf("cut %d: run %d is unchanged but not shared with the last view", k, i+1)
					}
				}
				views = append(views, shown{rec, fingerprint(rec)})
				prev, l = rec, next
			}
			for k, v := range views {
				if fingerprint(v.rec) != v.sent {
					t.Errorf("the view of cut %d changed after it was handed out", k)
				}
			}
		})
	}
}

// TestContinueSaysWhyNot: a file replaced under its name (even by one of
// the same size), emptied, or deleted is not continued, and says which;
// a load whose file was cut off mid-line without following is read again
// from the start, not continued.
func TestContinueSaysWhyNot(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testdata, "s05-multi-turn", "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path, other := filepath.Join(dir, "f.jsonl"), filepath.Join(dir, "g.jsonl")
	load := func() *Loading {
		t.Helper()
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		l := StartFollowing(path, 0)
		if _, err := l.Wait(); err != nil {
			t.Fatal(err)
		}
		return l
	}
	for _, tc := range []struct {
		name   string
		change func()
		want   error
	}{
		{"replaced by a file of the same size", func() {
			os.WriteFile(other, data, 0o644)
			os.Rename(other, path)
		}, ErrReplaced},
		{"emptied", func() { os.Truncate(path, 0) }, ErrTruncated},
		{"deleted", func() { os.Remove(path) }, fs.ErrNotExist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := load()
			tc.change()
			if _, err := l.Continue(); !errors.Is(err, tc.want) {
				t.Errorf("Continue: %v, want %v", err, tc.want)
			}
		})
	}
	t.Run("cut off, not followed", func(t *testing.T) {
		os.WriteFile(path, data[:len(data)-20], 0o644)
		l := Start(path)
		rec, err := l.Wait()
		if err != nil {
			t.Fatal(err)
		}
		if p := rec.Problems[len(rec.Problems)-1]; !strings.Contains(p.Message, "the last line is cut off") {
			t.Errorf("last problem %q, want the cut line", p.Message)
		}
		if _, err := l.Continue(); err != nil {
			t.Fatalf("a load that waited for nothing goes on: %v", err)
		}
	})
	t.Run("continued twice", func(t *testing.T) {
		l := load()
		if _, err := l.Continue(); err != nil {
			t.Fatal(err)
		}
		if _, err := l.Continue(); !errors.Is(err, ErrNoContinue) {
			t.Errorf("a second Continue: %v", err)
		}
	})
}

// TestLateEvidenceLeavesTheViewAsItWas: an agent.evidence_checked for a
// call the next llm_start has settled already changes that call in the
// next view, not in the one handed out before it.
func TestLateEvidenceLeavesTheViewAsItWas(t *testing.T) {
	second := strings.Replace(llmStart, `"iteration":1`, `"iteration":2`, 1)
	evidence := `{"type":"agentfootprint.agent.evidence_checked","payload":{"iteration":1,"candidates":1,"unsupported":[],"action":"grounded"},"meta":{"runId":"r"}}`
	path := filepath.Join(t.TempDir(), "live.jsonl")
	os.WriteFile(path, []byte(strings.Join([]string{fmt.Sprintf(turnStart, "q"), llmStart, llmEnd, second}, "\n")+"\n"), 0o644)
	l := StartFollowing(path, 0)
	before, err := l.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if c := before.Runs[0].Calls[0]; c.Facts.EvidenceChecked != nil {
		t.Fatal("call 1 judged before its verdict came")
	}
	appendTo(t, path, []byte(evidence+"\n"))
	next, err := l.Continue()
	if err != nil {
		t.Fatal(err)
	}
	after, err := next.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if after.Runs[0].Calls[0].Facts.EvidenceChecked == nil {
		t.Error("the verdict is not on call 1")
	}
	if before.Runs[0].Calls[0].Facts.EvidenceChecked != nil {
		t.Error("the view handed out before the verdict changed")
	}
	whole, _ := StartFollowing(path, 0).Wait()
	if d := recordingDiff(after, whole); d != "" {
		t.Errorf("continued and whole loads differ: %.300s", d)
	}
}
