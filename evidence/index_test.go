package evidence

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// §3: what one tool result grounds and what it does not.
func TestToolResultIndex(t *testing.T) {
	for _, c := range []struct {
		name, content string
		has, hasNot   []string
	}{
		{"keys whole, never split", `{"ARR-0417 primary": 1, "21:00:00:24:FF:4A:12:03": {"port": "fc1/3"}}`,
			[]string{"arr-0417 primary", "21:00:00:24:ff:4a:12:03", "fc1/3", "1"}, []string{"arr-0417", "primary"}},
		{"strings whole and as tokens", `{"pr": "checkout#2291 \"Warm cache\""}`,
			[]string{"checkout#2291 \"warm cache", "checkout#2291", "warm", "cache"}, nil},
		{"numbers as JS prints the double", `{"a": 98304.0, "b": 6006016012345678901, "c": 1e21, "d": 0.00000015, "e": true, "f": null}`,
			[]string{"98304", "6006016012345679000", "1e+21", "1.5e-7", "true"}, []string{"6006016012345678901", "null", "98304.0"}},
		{"digit strings stay digits", `{"serial": "20001738051234567"}`, []string{"20001738051234567"}, nil},
		{"0x indexed both ways", `{"fcid": "0xef0101"}`, []string{"0xef0101", "ef0101"}, nil},
		{"bare value found through 0x", `Logged-in FCID is ee0a17`, []string{"0xee0a17", "ee0a17"}, nil},
		{"no substrings", `{"at": "2025-03-18T06:14:02Z"}`, []string{"2025-03-18t06:14:02z"}, []string{"06:14:02"}},
		{"JSON then a note: text", "{\"id\": 6006016012345678901}\n[note: filled]",
			[]string{"6006016012345678901", "note"}, []string{"6006016012345679000"}},
		{"escapes glue in text", `"a\nweb-1" [`, []string{"nweb-1"}, []string{"web-1"}},
		{"trailing comma is not JSON", `{"a": "web-1234",}`, []string{"web-1234"}, nil},
		{"leading zero is not JSON", `[0123, "x-1234"]`, []string{"123", "x-1234"}, nil}, // the token 0123 normalizes to 123
		{"NaN is not JSON", `[NaN, "x-1234"]`, []string{"nan", "x-1234"}, nil},
		{"trimmed before the test", " \u00a0\n{\"k\": \"v-1234\"} ", []string{"v-1234", "k"}, nil},
		{"repeated key keeps its last value", `{"a": "old-1234", "a": "new-5678"}`, []string{"new-5678", "a"}, []string{"old-1234"}},
		{"escaped unicode", `{"k": "caf\u00e9-1234 \ud83d\ude00x-99"}`, []string{"caf", "-1234", "x-99"}, []string{"1234"}},
		{"absence frame: only its lists", `{"af_absent": true, "looked_for": "a FLOGI login of 21:00:00:24:ff:4a:12:31", "checked": ["mds-fra2-a01"], "not_checked": null, "cannot_cover": ["mds-fra2-b02"], "note": "note-1234", "try_instead": "show_flogi"}`,
			[]string{"mds-fra2-a01", "mds-fra2-b02"}, []string{"21:00:00:24:ff:4a:12:31", "note-1234", "looked_for", "af_absent", "show_flogi", "checked"}},
		{"absence with an empty checked is data", `{"af_absent": true, "looked_for": "x-1234", "checked": []}`,
			[]string{"x-1234", "looked_for"}, nil},
		{"af_absent must be the boolean true", `{"af_absent": "true", "looked_for": "x-1234", "checked": ["a"]}`,
			[]string{"x-1234"}, nil},
		{"absence nested deeper is data", `[{"af_absent": true, "looked_for": "x-1234", "checked": ["a-1"]}]`,
			[]string{"x-1234", "a-1"}, nil},
		{"coverage ledger around an absence", `{"af_coverage": {"fabric-a": "full"}, "result": {"af_absent": true, "looked_for": "x-1234", "checked": ["sw-1"], "cannot_cover": ["sw-2"]}, "other": "o-1234"}`,
			[]string{"fabric-a", "full", "sw-1", "sw-2"}, []string{"x-1234", "o-1234", "af_coverage", "result"}},
		{"ledger whose result is not an absence", `{"af_coverage": {"c": 1}, "result": {"rows": ["r-1234"]}}`,
			[]string{"r-1234", "af_coverage", "rows"}, nil},
		{"ledger whose coverage is an array", `{"af_coverage": ["c"], "result": {"af_absent": true, "looked_for": "x-1234", "checked": ["s"]}}`,
			[]string{"x-1234"}, nil},
	} {
		x := NewIndex()
		x.AddToolResult(c.content)
		for _, v := range c.has {
			if !x.Has(v) {
				t.Errorf("%s: %q not grounded", c.name, v)
			}
		}
		for _, v := range c.hasNot {
			if x.Has(v) {
				t.Errorf("%s: %q grounded", c.name, v)
			}
		}
	}
}

func TestIndexLimit(t *testing.T) {
	var b strings.Builder
	for i := range FormLimit + 10 {
		b.WriteString("v" + strconv.Itoa(i) + " ")
	}
	x := NewIndex()
	x.AddText(b.String())
	if x.Len() != FormLimit || !x.Truncated() || !x.Has("v199999") || x.Has("v200000") {
		t.Errorf("limit: len %d truncated %v", x.Len(), x.Truncated())
	}
	y := NewIndex()
	y.AddText("0xab")
	if y.Len() != 2 {
		t.Errorf("a lookup form counts one: %d", y.Len())
	}
}

// §3 exempt set: request, user and system messages but re-asks, system
// prompt — tokenized only; assistant text and tool-call arguments never.
func TestSets(t *testing.T) {
	w := []*model.Message{
		{Role: model.RoleUser, Content: "old request BD-2026-118843"},
		{Role: model.RoleAssistant, Content: "I typed web-3e6f14", ToolCalls: []model.ToolCall{{ID: "c1", Name: "get", Args: []byte(`{"host":"wrk-8e71c4"}`)}}},
		{Role: model.RoleTool, ToolCallID: "c1", ToolName: "get", Content: `{"host": "web-7f3a2c"}`},
		{Role: model.RoleUser, Content: "[evidence check] unsupported: `us-east-1b` (identifier)"},
		{Role: model.RoleUser, Content: "[dropped history — 2 earlier message(s) (list_hosts) ITER-0007]"},
		{Role: model.RoleSystem, Content: "system note SYS-1234"},
		{Role: model.RoleUser, Content: `{"json": "not-walked-1"}`},
	}
	s := BuildSets(w, "INC-20931 now", []string{"contract SC-20931-EU"})
	for _, v := range []string{"inc-20931", "sc-20931-eu", "bd-2026-118843", "web-7f3a2c", "iter-0007", "sys-1234", "not-walked-1"} {
		if !s.Grounded(v) {
			t.Errorf("%q should be grounded", v)
		}
	}
	for _, v := range []string{"web-3e6f14", "wrk-8e71c4", "us-east-1b", "json\": \"not-walked-1"} {
		if s.Grounded(v) {
			t.Errorf("%q should not be grounded", v)
		}
	}
	if s.Exempt.Has("web-7f3a2c") || s.Evidence.Has("inc-20931") {
		t.Error("tool results are evidence, user text is exempt: not the other way round")
	}
}

// A long text is indexed as its tokens one at a time are: the same
// forms in the same order, however often and in whatever case or
// grouping a token comes back.
func TestLongTextIndexesAsItsTokens(t *testing.T) {
	words := []string{"Alpha", "alpha", "ALPHA", "1,000", "1000", "01000", "0x1F", "0x1f", "web-3E6F14.", "(web-3e6f14)", "$42", "42", "É", "é", "alpine", "1001", "web-9d4b27", "0x20"}
	var b strings.Builder
	for b.Len() < 4*memoText {
		for _, w := range words {
			b.WriteString(w + " ")
		}
	}
	long := NewIndex()
	long.ordered = true
	long.AddText(b.String())
	one := NewIndex()
	one.ordered = true
	eachPiece(b.String(), func(p string) bool {
		one.AddText(p)
		return true
	})
	if !slices.Equal(long.order, one.order) || long.Len() != one.Len() {
		t.Errorf("the long text gives %q, its tokens one at a time %q", long.order, one.order)
	}
	if len(one.order) < 6 {
		t.Errorf("%q: the words gave too few forms to compare", one.order)
	}
}
