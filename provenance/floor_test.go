package provenance

import (
	"testing"

	"github.com/afinspect/inspect/evidence"
)

// demo-evidence's answer at call 13 says the checkout requests "failed
// with PoolTimeoutError / 504s": 504 has three digits, so the library's
// §2 reads no value, and its only source, read_logs call_0006 ("POST
// /v2/checkout/confirm 504 after 3002ms"), was sent on calls 6–10 and
// superseded at 11 by the newer read_logs result. inspect judges it
// below the floor: left, never flagged, listed apart so that the values
// stay the library's (its 13 candidates, its 5 unsupported). The same
// answer's 905 ms, 702 ms and 871 ms are in view (get_metrics and
// restart_service results of call 13's window): not listed.
func TestBelowFloorJudgedApart(t *testing.T) {
	b, _ := book(t, "demo-evidence", 2, 2)
	ce := b.Call(12)
	if len(ce.BelowFloor) != 1 {
		t.Fatalf("call 13 below the floor: %+v, want 504 alone", ce.BelowFloor)
	}
	e := ce.BelowFloor[0]
	if e.Value != "504" || e.Verdict != evidence.Left || e.Flagged() || e.Rule != RuleBelowFloor || e.Place != PlaceAnswer {
		t.Errorf("504: %s %s %s (%s)", e.Value, e.Verdict, flagOf(e), e.Place)
	}
	if len(e.Sources) != 1 || *e.Sources[0].ToolName != "read_logs" || *e.Sources[0].ToolCallID != "call_0006" ||
		e.Sources[0].SentOn != [2]int{6, 10} || e.Sources[0].EvictedAt != 11 || e.Sources[0].Rule != "superseded" {
		t.Errorf("504's sources: %+v", e.Sources)
	}
	unsupported := 0
	for _, v := range ce.Values {
		if v.Value == "504" || v.Value == "905" {
			t.Errorf("%s among the library's values", v.Value)
		}
		if v.In == InAnswer && v.Unsupported() {
			unsupported++
		}
	}
	if ce.Candidates != 13 || unsupported != 5 {
		t.Errorf("call 13: %d candidates, %d unsupported; the library's event says 13 and 5", ce.Candidates, unsupported)
	}
}
