package advise

import (
	"context"
	"encoding/json"
	"os"
	"testing"
)

// The token fit counts the system prompt where the log holds its length:
// on e01 the prompt grows from 550 to 735 characters when the skill
// arrives, and more in run 2 (memory, instruction). Counted, the fit
// explains more of the recorded usage.input, and the recorded policy's
// peak lands on the largest input recorded (wire.json: 740).
func TestFitCountsTheSystemPrompt(t *testing.T) {
	const dir = "../testdata/request/e01-archive-system-prompt-recorded"
	s := openFile(t, dir+"/run.jsonl")
	ad, err := Advise(context.Background(), s, s.Agents[0].Agent.Key, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(dir + "/wire.json")
	if err != nil {
		t.Fatal(err)
	}
	var wire struct {
		Calls []struct {
			Response struct {
				Usage struct{ Input int } `json:"usage"`
			} `json:"response"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(raw, &wire); err != nil {
		t.Fatal(err)
	}
	largest, sum := 0, 0
	for _, c := range wire.Calls {
		largest, sum = max(largest, c.Response.Usage.Input), sum+c.Response.Usage.Input
	}
	rec := ad.Rows[ad.RecordedRow]
	if !ad.Fit.Prompt || ad.Fit.Calls != 6 {
		t.Fatalf("fit %+v", ad.Fit)
	}
	if rec.Tokens != sum || rec.PeakTokens < largest-5 || rec.PeakTokens > largest+5 {
		t.Errorf("recorded policy: ≈%d tokens (recorded %d), peak ≈%d (recorded %d)", rec.Tokens, sum, rec.PeakTokens, largest)
	}
	// without the prompt the same six calls fit with R² 0.60 (the
	// window alone: 460 + 0.495 a character)
	if ad.Fit.R2 < 0.7 {
		t.Errorf("R² %.2f", ad.Fit.R2)
	}
}
