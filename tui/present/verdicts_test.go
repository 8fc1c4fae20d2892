package present

import (
	"testing"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/provenance"
)

// A never-read value the screen explains says what the evidence report
// says of it: a Loop pass that was never sent what an earlier pass read
// (n07's third pass naming pass 1's get_metrics p99), and an absence
// frame in view that looked for it (e03's WWPN, flogi_lookup call_0003).
// The expected sentences are written by hand from those two cases; a
// control byte in a tool name is drawn as its picture (termtext).
func TestNeverReadSaysTheEarlierPassAndTheAbsenceFrame(t *testing.T) {
	s := func(v string) *string { return &v }
	cases := []struct {
		name string
		e    provenance.Entry
		want string
	}{
		{"plain", provenance.Entry{Verdict: evidence.NeverRead},
			"in no message this conversation sent: typed, not read"},
		{"earlier pass", provenance.Entry{Verdict: evidence.NeverRead, EarlierPass: &provenance.EarlierPass{
			Pass: 1, ToolName: s("get_metrics"), ToolCallID: s("call_0002"), SentOn: [2]int{3, 4}}},
			"never read in this pass; pass 1 read it in get_metrics call_0002 (sent on calls 3–4); only a pass's answer reaches the next"},
		{"absence frame", provenance.Entry{Verdict: evidence.NeverRead, LookedFor: &provenance.LookedFor{
			ToolName: s("flogi_lookup"), ToolCallID: s("call_0003")}},
			"in no message this conversation sent: typed, not read — flogi_lookup call_0003's absence frame looked for it and found nothing"},
		{"hostile tool name", provenance.Entry{Verdict: evidence.NeverRead, LookedFor: &provenance.LookedFor{
			ToolName: s("x\x1b]52;c;AAAA\x07y")}},
			"in no message this conversation sent: typed, not read — x␛]52;c;AAAA␇y's absence frame looked for it and found nothing"},
	}
	for _, c := range cases {
		if got := VerdictSentence(c.e, false); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
