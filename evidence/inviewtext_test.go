package evidence

import (
	"testing"

	"github.com/afinspect/inspect/model"
)

// §9.2.2's examples: a value is held where neither of its ends cuts a run
// of letters or of digits, and each lookup form is tried.
func TestAtomBoundaries(t *testing.T) {
	for _, c := range []struct {
		text, value string
		held        bool
	}{
		{`"restarted_at":"2025-03-18T14:31:07Z"`, "14:31", true},
		{"fw_activated_at 2026-03-18T06:14:02Z", "06:14:02", true},
		{"10.12.4.52", "10.12.4.5", false},
		{"12345", "1234", false},
		{"web-3e6f14", "web-3e6f1", false},
		{"web-3e6f41", "web-3e6f14", false},
		{"us-east-1b", "us-east-1", true},
		{`"lun_uid": 6006016012345678901`, "6006016012345678901", true},
		{"Logged-in FCID is ee0a17", "0xee0a17", true}, // its 0x-less form
		{"magic DEAD beef", "0xdead", true},            // a 0x-less form without a digit
		{"WEB-7F3A2C", "web-7f3a2c", true},             // lower-cased
		{"", "1234", false},
	} {
		if got := newAtomText(c.text, nil).holds(c.value); got != c.held {
			t.Errorf("%q holds %q: %v, want %v", c.text, c.value, got, c.held)
		}
		if got := holdsBounded(jsLower(c.text), c.value); got != c.held {
			t.Errorf("holdsBounded(%q, %q): %v, want %v", c.text, c.value, got, c.held)
		}
	}
}

// The texts searched (§9.2.3): the request, the system prompt, tool
// results (an absence frame by the lists the library walks only, its
// looked_for not), user text but the library's re-asks, never the
// model's own words; in that order, each with the first token that holds
// the value, or none (0.5000 is read as the token 0.5).
func TestInViewTextSearchesWhatTheCheckReads(t *testing.T) {
	frame := `{"af_absent":true,"looked_for":"a FLOGI login of 21:00:00:24:ff:4a:12:31","checked":["mds-fra2-a01 fabric A"],"not_checked":null,"cannot_cover":["mds-fra2-b02"]}`
	window := []*model.Message{
		{Role: model.RoleUser, Content: "since run-7 began at 2025-03-18T09:00Z"},
		{Role: model.RoleAssistant, Content: "host ab-1234x", ToolCalls: []model.ToolCall{{ID: "c1", Name: "flogi"}}},
		{Role: model.RoleTool, ToolCallID: "c1", ToolName: "flogi", Content: frame},
		{Role: model.RoleTool, ToolCallID: "c2", ToolName: "logs", Content: "at 2025-03-18T09:00:12Z fa2-b02x ratio 0.5000"},
		{Role: model.RoleUser, Content: "[evidence check]\n\n`yy-77771x`"},
	}
	view := View{Window: window, Request: "since 09:00Z on host zz-99991", SystemPrompt: []string{"fabric fa2-b02x"}}
	values := Candidates("09:00 21:00:00:24:ff:4a:12:31 ab-1234 zz-9999 fa2-b02 5000 yy-7777")
	got := NewJudger().Judge(values, view, func() []*model.Message { return nil })
	want := map[string]string{
		"09:00":                   "text:09:00z window0:2025-03-18t09:00z window3:2025-03-18t09:00:12z",
		"21:00:00:24:ff:4a:12:31": "", // only in the frame's looked_for
		"ab-1234":                 "", // only in the model's own words
		"zz-9999":                 "", // zz-99991 ends inside the atom 99991
		"yy-7777":                 "", // only in a re-ask
		"fa2-b02":                 "text:fa2-b02x window3:fa2-b02x",
		"5000":                    "window3:-",
	}
	where := func(m *model.Message) string {
		for k, w := range window {
			if w == m {
				return "window" + string(rune('0'+k))
			}
		}
		return "text" // the request or the system prompt
	}
	if len(got) != len(want) {
		t.Fatalf("%d values, want %d", len(got), len(want))
	}
	for _, j := range got {
		var s string
		for k, h := range j.InText {
			if k > 0 {
				s += " "
			}
			tok := "-"
			if h.Token != nil {
				tok = *h.Token
			}
			s += where(h.Msg) + ":" + tok
		}
		w := want[j.Value.Value]
		verdict := InViewText
		if w == "" {
			verdict = NeverRead
		}
		if j.Verdict != verdict || s != w {
			t.Errorf("%s: %s [%s], want %s [%s]", j.Value.Value, j.Verdict, s, verdict, w)
		}
	}
}
