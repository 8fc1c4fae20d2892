package lineage_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
)

// A log written at tier minimal keeps no run's last window, so each
// follow-up is linked across two visits (§16.3), by candidates found
// through the messages they carry. Three conversations of 41 runs over
// two agents, written by the generator at both tiers: the minimal log's
// links are the full log's, whose last windows are all there.
func TestMinimalFollowUpsLinkAsTheFullLogDoes(t *testing.T) {
	c := rungen.Conversations{Count: 3, FollowUps: 40, Agents: 2, Seed: 9, KeepRecent: 2, KeepPins: 2}
	full, minimal := decide(t, c), decide(t, c.AtTierMinimal())
	if len(full.Links) != 123 || len(minimal.Links) != len(full.Links) {
		t.Fatalf("%d runs in the full log, %d at tier minimal; want 123 each", len(full.Links), len(minimal.Links))
	}
	for i, want := range full.Links {
		got := minimal.Links[i]
		if got.Kind != want.Kind || got.Pred != want.Pred || got.Conversation != want.Conversation {
			t.Errorf("run %d: at tier minimal %+v, in the full log %+v", i+1, got, want)
		}
	}
	if len(minimal.Conversations) != 3 {
		t.Errorf("%d conversations at tier minimal, want 3", len(minimal.Conversations))
	}
	for _, p := range minimal.Problems {
		t.Errorf("problem: %v", p)
	}
}

func decide(t *testing.T, c rungen.Conversations) *lineage.Lineage {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := rungen.WriteConversations(f, c); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if c.Minimal != (rec.Tier == model.TierMinimal) {
		t.Fatalf("tier %q, written minimal %v", rec.Tier, c.Minimal)
	}
	return lineage.Decide(rec)
}
