package evidence

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/afinspect/inspect/lineage"
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
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		inf := inferred(rec)
		for _, k := range []int{inf.KeepRecentTurns, 1} {
			p := inf
			p.KeepRecentTurns = k
			r := replayed(rec, p)
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
				if g, w := judgedText(got), judgedText(want); g != w {
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
	for _, v := range []string{InView, UserSupplied, LibraryNote, Left, InViewText, NeverRead} {
		if verdicts[v] == 0 {
			t.Errorf("no value judged %s: %v", v, verdicts)
		}
	}
	t.Logf("values judged by verdict: %v", verdicts)
}

// judgedText prints judged values with the tokens their texts name.
func judgedText(js []Judged) string {
	var b strings.Builder
	for _, j := range js {
		fmt.Fprintf(&b, "%s %s %v %v", j.Value.Value, j.Verdict, j.Sources, len(j.Folded))
		for _, h := range j.InText {
			tok := "<nil>"
			if h.Token != nil {
				tok = *h.Token
			}
			fmt.Fprintf(&b, " [%p %s]", h.Msg, tok)
		}
		b.WriteString("; ")
	}
	return b.String()
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
// or without, is not, as the library stops adding there (its characters
// are in view: in-view-text). Text whose
// length bounds more forms than it has pieces is counted: a value after
// widely spaced words is in view; two results whose distinct forms
// together pass FormLimit leave out the second's last value. A value
// whose 0x form has no digit is found by that form too.
func TestAskedPastTheLimit(t *testing.T) {
	var repeated, distinct, words, spaced, half1, half2 strings.Builder
	for i := range FormLimit + 5 {
		repeated.WriteString("word ")
		fmt.Fprintf(&distinct, "v%d ", i)
		w := letters(i)
		words.WriteString(w + " ,"[i%2:i%2+1]) // some cut by a comma
		if i < FormLimit*3/4 {
			spaced.WriteString("ab      ")
			half1.WriteString(w + " ")
			half2.WriteString("x" + w + " ")
		}
	}
	repeated.WriteString("id-4242 0xabc")
	distinct.WriteString("id-4242")
	words.WriteString(" id-4242")
	spaced.WriteString("id-4242")
	half2.WriteString("id-4242")
	for _, c := range []struct {
		texts  []string
		values []Value
		want   []string
	}{
		{[]string{repeated.String()}, []Value{{"id-4242", ShapeIdentifier}, {"v1234", ShapeIdentifier}}, []string{InView, NeverRead}},
		{[]string{distinct.String()}, []Value{{"v1234", ShapeIdentifier}, {"id-4242", ShapeIdentifier}}, []string{InView, InViewText}},
		{[]string{words.String()}, []Value{{"id-4242", ShapeIdentifier}}, []string{InViewText}},
		{[]string{spaced.String()}, []Value{{"id-4242", ShapeIdentifier}}, []string{InView}},
		{[]string{half1.String(), half2.String()}, []Value{{"id-4242", ShapeIdentifier}}, []string{InViewText}},
		{[]string{"see abc"}, []Value{{"0xabc", ShapeIdentifier}, {"id-4242", ShapeIdentifier}}, []string{InView, NeverRead}},
	} {
		window := []*model.Message{{Role: model.RoleUser, Content: "go"}}
		for k, text := range c.texts {
			id := fmt.Sprintf("c%d", k)
			window = append(window, &model.Message{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: id, Name: "dump"}}},
				&model.Message{Role: model.RoleTool, ToolCallID: id, ToolName: "dump", Content: text})
		}
		for _, j := range []*Judger{NewJudger(), NewJudgerFor(c.values)} {
			got := j.Judge(c.values, View{Window: window, Request: "go"}, func() []*model.Message { return nil })
			for i, g := range got {
				if g.Verdict != c.want[i] {
					t.Errorf("restricted %v, %s after %d texts: %s, want %s", j.only != nil, g.Value.Value, len(c.texts), g.Verdict, c.want[i])
				}
			}
		}
	}
}

// letters is the i-th word of lower-case letters (a, b, … z, ba, bb, …).
func letters(i int) string {
	var b []byte
	for n := i; ; n /= 26 {
		b = append(b, byte('a'+n%26))
		if n < 26 {
			return string(b)
		}
	}
}

// indexDigit finds the first digit as a byte-by-byte search does, at
// every place of the eight-byte blocks it reads, beside bytes on either
// side of the digits ('/' and ':') and with their high bit set.
func TestIndexDigit(t *testing.T) {
	for _, s := range []string{"", "abc", "/:/:/:/:/:/:/:/:/:", "\xb0\xb9\xb5\xff\x80 ~ \x00\x7f"} {
		for pos := 0; pos <= len(s); pos++ {
			for _, d := range []string{"", "0", "9", "5"} {
				text := s[:pos] + d + s[pos:]
				want := strings.IndexAny(text, "0123456789")
				if got := indexDigit(text); got != want {
					t.Errorf("indexDigit(%q) = %d, want %d", text, got, want)
				}
			}
		}
	}
}

// An integer literal printed as it is reads as the double JavaScript
// prints: at every length up to 15 digits and past it, signed or not,
// with leading zeros, and the zeros.
func TestPlainInteger(t *testing.T) {
	lits := []string{"0", "-0", "00", "007", "+5", "-", "", "1e3", "12.0"}
	for n := 1; n <= 17; n++ {
		d := strings.Repeat("9", n)
		lits = append(lits, d, "-"+d, "1"+strings.Repeat("0", n-1), "0"+d, d[:n-1]+"7")
	}
	for _, lit := range lits {
		f, err := strconv.ParseFloat(lit, 64)
		want, wantOK := jsFormat(f), err == nil
		got, ok := jsNumberString(lit)
		if ok != wantOK || ok && got != want {
			t.Errorf("jsNumberString(%q) = %q %v, want %q %v", lit, got, ok, want, wantOK)
		}
	}
}

// inferred is the policy rec's first agent was recorded under
// (window.InferAgents).
func inferred(rec *model.Recording) model.Policy {
	return window.InferAgents(rec, lineage.Decide(rec))[0].Policy
}

// replayed is rec replayed under p; summarize-oldest takes its summaries
// from the folds recorded.
func replayed(rec *model.Recording, p model.Policy) *window.Replay {
	lin := lineage.Decide(rec)
	var book *window.FoldBook
	if p.Strategy == model.SummarizeOldest {
		book = window.RecordedFolds(rec, lin, p)
	}
	return window.RunFolds(rec, lin, p, book)
}
