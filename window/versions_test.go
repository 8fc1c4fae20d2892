package window

import (
	"reflect"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// The window rules of older library versions (docs/rules/versions-and-tiers.md §17.1),
// each on the smallest window that shows it. The notices are written out
// by hand from notice.ts at each tag.

const (
	noticeHead  = "[dropped history — "
	noticeTail  = "Nothing was summarized: those turns are simply not being re-sent. They are retained verbatim in this run's commit log.]"
	keptLine    = "Your current request is kept — it is still in this window, above this line, and no window strategy may drop it. "
	searchRead  = "Tool results are among them (search, read) — call the tool again if you need its output; do not reconstruct ids or values from memory. "
	slidingAt5  = " earlier message(s) were dropped from this window at iteration 5 by the 'sliding-window' window strategy. "
	requestText = "find it"
)

func sliding(k, l int) model.Policy {
	return model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: k, KeepLastToolResults: l}
}

// The notice each version writes for the same span: 9.57 names the tool
// results that left; 9.55 has the plain notice only; before 9.55 there is
// no anchor, so the request leaves with the span and no sentence says it
// was kept.
func TestNoticeOfEachVersion(t *testing.T) {
	for _, c := range []struct {
		name   string
		rules  Rules
		policy model.Policy
		after  int    // messages in the window after the visit
		notice string // its notice
		head   string // its first message
	}{
		{"9.57: the rich notice", Rules957, sliding(2, 0), 6,
			noticeHead + "4" + slidingAt5 + keptLine + searchRead + noticeTail, requestText},
		{"9.55: the plain notice only", Rules955, sliding(2, 0), 6,
			noticeHead + "4" + slidingAt5 + keptLine + noticeTail, requestText},
		{"9.54: no anchor, the request leaves", Rules954, Rules954.Knobs(sliding(2, 0)), 5,
			noticeHead + "5" + slidingAt5 + noticeTail, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := loop(requestText, []string{"search", "read", "search", "read"}, 1000)
			v := VisitWindow(w, VisitInput{Policy: c.policy, Request: requestText, Iteration: 5, Rules: c.rules})
			if len(v.After) != c.after || v.Notice == nil {
				t.Fatalf("%d messages after, notice %v; want %d and a notice", len(v.After), v.Notice != nil, c.after)
			}
			if v.Notice.Content != c.notice {
				t.Errorf("notice\n %q\nwant\n %q", v.Notice.Content, c.notice)
			}
			if c.head == "" && v.After[0] != v.Notice || c.head != "" && v.After[0].Content != c.head {
				t.Errorf("the window opens on %.30q", v.After[0].Content)
			}
		})
	}
}

// The notice veto (§17.1(3)), the library's case: a follow-up's
// iteration 3 whose span is the previous answer alone, the new request
// right after it. 9.57 drops the answer silently (the window opens on the
// request, a user turn); 9.55 refuses the drop because the notice is not
// smaller than the answer, and sends it.
func TestNoticeVeto(t *testing.T) {
	w := []*model.Message{
		asst("Restarted web-7f3a2c."), user("next request"),
		asst("", "get_deploy:c1"), tool("get_deploy", "c1", strings.Repeat("d", 900)),
		asst("", "read_logs:c2"), tool("read_logs", "c2", strings.Repeat("l", 900)),
	}
	keep := []model.Refusal{
		ref(model.ReasonCurrentRequest, 1, 1),
		ref(model.ReasonInsideKeepWindow, 2, 2),
		ref(model.ReasonInsideKeepWindow, 3, 4),
	}
	for _, c := range []struct {
		name     string
		rules    Rules
		removed  int
		refusals []model.Refusal
	}{
		{"9.57 drops silently", Rules957, 1, keep},
		{"9.55 refuses", Rules955, 0, append([]model.Refusal{ref(model.ReasonReplacementNotSmaller, 0, 0)}, keep...)},
		{"9.54 refuses too", Rules954, 0, append([]model.Refusal{ref(model.ReasonReplacementNotSmaller, 0, 0)}, keep...)},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := VisitWindow(w, VisitInput{Policy: sliding(2, 0), Request: "next request", Iteration: 3, Rules: c.rules})
			if v.Record == nil || v.Record.RemovedMessageCount != c.removed || v.Notice != nil {
				t.Fatalf("record %+v, notice %v; want %d removed, no notice", v.Record, v.Notice != nil, c.removed)
			}
			if !reflect.DeepEqual(v.Record.Refusals, c.refusals) {
				t.Errorf("refusals %v, want %v", v.Record.Refusals, c.refusals)
			}
			if len(v.After) != len(w)-c.removed {
				t.Errorf("%d messages sent, want %d", len(v.After), len(w)-c.removed)
			}
		})
	}
}

// Before 9.55 a span that starts under the kept request reaches the
// front of nothing: no notice, even with the anchor switched on as a
// counterfactual (drop.ts@v9.54.0 writes one only when the span starts at
// 0). From 9.55 the notice follows the request.
func TestNoKeptRequestNoticeBefore955(t *testing.T) {
	w := loop(requestText, []string{"search", "read", "search", "read"}, 1000)
	for _, c := range []struct {
		rules  Rules
		notice bool
	}{{Rules955, true}, {Rules954, false}} {
		v := VisitWindow(w, VisitInput{Policy: sliding(2, 0), Request: requestText, Iteration: 5, Rules: c.rules})
		if v.Record == nil || v.Record.RemovedMessageCount != 4 || (v.Notice != nil) != c.notice {
			t.Errorf("rules %s: %d removed, notice %v; want 4, %v", c.rules, v.Record.RemovedMessageCount, v.Notice != nil, c.notice)
		}
		if v.After[0] != w[0] {
			t.Errorf("rules %s: the request did not stay first", c.rules)
		}
	}
}

// Records before 9.57 carry no droppedObservations and no observations,
// even with pins switched on as a counterfactual.
func TestRecordShapeOfEachVersion(t *testing.T) {
	w := loop(requestText, []string{"a", "b", "c", "d", "e"}, 1000)
	for _, c := range []struct {
		rules   Rules
		dropped []string
		obs     *model.Observations
	}{
		{Rules957, []string{"a", "b", "c"}, &model.Observations{Pinned: []model.Pin{{ToolName: "d", TurnIndex: 4, MessageIndex: 7, Chars: 1000}}, Yielded: 3, Limit: 1}},
		{Rules955, nil, nil},
	} {
		v := VisitWindow(w, VisitInput{Policy: sliding(1, 1), Request: requestText, Iteration: 6, Rules: c.rules})
		r := v.Record
		if r == nil || r.RemovedMessageCount != 6 {
			t.Fatalf("rules %s: record %+v, want 6 removed", c.rules, r)
		}
		if !reflect.DeepEqual(r.DroppedObservations, c.dropped) || !reflect.DeepEqual(r.Observations, c.obs) {
			t.Errorf("rules %s: droppedObservations %v observations %+v; want %v %+v", c.rules, r.DroppedObservations, r.Observations, c.dropped, c.obs)
		}
	}
}

// The knobs a version's recorded policy can have (§17.3).
func TestKnobsOfEachVersion(t *testing.T) {
	p := sliding(2, 2)
	for _, c := range []struct {
		rules Rules
		want  model.Policy
	}{
		{Rules957, p},
		{Rules955, sliding(2, 0)},
		{Rules954, model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2, NoAnchor: true}},
	} {
		if got := c.rules.Knobs(p); got != c.want {
			t.Errorf("rules %s: %+v, want %+v", c.rules, got, c.want)
		}
	}
}

func TestVersionRules(t *testing.T) {
	for _, c := range []struct {
		in, rules string
		bad       bool
	}{
		{"9.54.0", "9.54", false}, {"9.54.9", "9.54", false}, {"9.55.0", "9.55", false}, {"9.56.0", "9.55", false},
		{"9.57.0", "9.57", false}, {"9.62.0", "9.57", false}, {"10.0.0", "9.57", false}, {"8.14.0", "9.54", false},
		{"v9.56.0", "9.55", false}, {"9.56.0-rc.1", "9.55", false},
		{"9.56", "", true}, {"latest", "", true}, {"9.x.0", "", true}, {"", "", true}, {"9.56.0.1", "", true}, {"-9.56.0", "", true},
	} {
		v, err := ParseVersion(c.in)
		if (err != nil) != c.bad || !c.bad && v.Rules().String() != c.rules {
			t.Errorf("%q: rules %s, error %v; want %q, error %v", c.in, v.Rules(), err, c.rules, c.bad)
		}
	}
}
