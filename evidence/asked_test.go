package evidence

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// A Judger told the values ahead (NewJudgerFor) judges as one that was
// not: every value of every response and window message of the
// recordings here, under two policies, the values of the even calls asked
// ahead and those of the odd ones not (so both the restricted indexes and
// the whole ones a value not asked needs are compared).
func TestAskedJudgerIsTheJudger(t *testing.T) {
	logs, _ := filepath.Glob("../testdata/*/run.jsonl")
	if len(logs) < 10 {
		t.Fatalf("only %d recordings", len(logs))
	}
	verdicts := map[string]int{}
	for _, path := range logs {
		rec, err := loader.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		inf := window.Infer(rec).Policy
		for _, k := range []int{inf.KeepRecentTurns, 1} {
			p := inf
			p.KeepRecentTurns = k
			r := window.Run(rec, p)
			values := make([][]Value, len(r.Calls))
			var asked []Value
			for i := range r.Calls {
				values[i] = callValues(&r.Calls[i])
				if i%2 == 0 {
					asked = append(asked, values[i]...)
				}
			}
			whole, restricted := NewJudger(), NewJudgerFor(asked)
			sent := map[*model.Message]bool{}
			var order []*model.Message
			for i := range r.Calls {
				c := &r.Calls[i]
				view := View{Window: c.Window(), Request: c.Run.Request, SystemPrompt: c.Call.Facts.SystemPrompt}
				gone := func() []*model.Message {
					var out []*model.Message
					for _, m := range order {
						if !slices.Contains(view.Window, m) {
							out = append(out, m)
						}
					}
					return out
				}
				want := whole.Judge(values[i], view, gone)
				got := restricted.Judge(values[i], view, gone)
				if g, w := fmt.Sprint(got), fmt.Sprint(want); g != w {
					t.Errorf("%s K%d call %d:\n got %s\nwant %s", filepath.Base(filepath.Dir(path)), k, i+1, g, w)
				}
				for _, j := range want {
					verdicts[j.Verdict]++
				}
				for _, m := range view.Window {
					if !sent[m] {
						sent[m] = true
						order = append(order, m)
					}
				}
			}
		}
	}
	for _, v := range []string{InView, UserSupplied, LibraryNote, Left, NeverRead} {
		if verdicts[v] == 0 {
			t.Errorf("no value judged %s: %v", v, verdicts)
		}
	}
	t.Logf("values judged by verdict: %v", verdicts)
}

// callValues are the values asked about at call c: its response's, those
// of its window's messages and its request, and one found nowhere.
func callValues(c *window.CallReplay) []Value {
	resp := c.Call.Facts.Response
	out := Candidates(resp.Content + " zz-404-nowhere " + c.Run.Request)
	for _, tc := range resp.ToolCalls {
		out = append(out, ArgValues(tc.Args)...)
	}
	for _, m := range c.Window() {
		out = append(out, Candidates(m.Content)...)
	}
	return out
}

// Text past FormLimit forms, counted with repeats, is indexed whole: a
// value after FormLimit repeated words is in view (the whole index holds
// few distinct forms), one after FormLimit distinct words, with digits
// or without, is not, as the library stops adding there. A value whose 0x form has no digit is
// found by that form too.
func TestAskedPastTheLimit(t *testing.T) {
	var repeated, distinct, words strings.Builder
	for i := range FormLimit + 5 {
		repeated.WriteString("word ")
		fmt.Fprintf(&distinct, "v%d ", i)
		for n := i; ; n /= 26 { // distinct words of letters, some cut by a comma
			words.WriteByte(byte('a' + n%26))
			if n < 26 {
				break
			}
		}
		words.WriteString(" ,"[i%2 : i%2+1])
	}
	repeated.WriteString("id-4242 0xabc")
	distinct.WriteString("id-4242")
	words.WriteString(" id-4242")
	for _, c := range []struct {
		text   string
		values []Value
		want   []string
	}{
		{repeated.String(), []Value{{"id-4242", ShapeIdentifier}, {"v1234", ShapeIdentifier}}, []string{InView, NeverRead}},
		{distinct.String(), []Value{{"v1234", ShapeIdentifier}, {"id-4242", ShapeIdentifier}}, []string{InView, NeverRead}},
		{words.String(), []Value{{"id-4242", ShapeIdentifier}}, []string{NeverRead}},
		{"see abc", []Value{{"0xabc", ShapeIdentifier}, {"id-4242", ShapeIdentifier}}, []string{InView, NeverRead}},
	} {
		window := []*model.Message{
			{Role: model.RoleUser, Content: "go"},
			{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "c1", Name: "dump"}}},
			{Role: model.RoleTool, ToolCallID: "c1", ToolName: "dump", Content: c.text},
		}
		for _, j := range []*Judger{NewJudger(), NewJudgerFor(c.values)} {
			got := j.Judge(c.values, View{Window: window, Request: "go"}, func() []*model.Message { return nil })
			for i, g := range got {
				if g.Verdict != c.want[i] {
					t.Errorf("restricted %v, %s: %s, want %s", j.only != nil, g.Value.Value, g.Verdict, c.want[i])
				}
			}
		}
	}
}
