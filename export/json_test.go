package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/termtext"
)

// stdJSON is v as encoding/json writes it in an export (no HTML escaping),
// without the newline.
func stdJSON(t testing.TB, v any) ([]byte, error) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// checkMessage: what jsonOut writes for m is encoding/json's bytes, or it
// says it is not sure (bad) only for what it must hand over: a string
// that is not UTF-8, a number JSON cannot hold, raw JSON that is not.
func checkMessage(t *testing.T, m *model.Message) {
	t.Helper()
	var o jsonOut
	o.message(m)
	want, err := stdJSON(t, m)
	mustHandOver := err != nil
	for _, s := range []string{m.Role, m.Content, m.ToolCallID, m.ToolName} {
		mustHandOver = mustHandOver || !utf8.ValidString(s)
	}
	for _, tc := range m.ToolCalls {
		mustHandOver = mustHandOver || !utf8.ValidString(tc.ID) || !utf8.ValidString(tc.Name)
	}
	if o.bad {
		if !mustHandOver {
			t.Errorf("%+v: handed over to encoding/json, which writes %s", m, want)
		}
		return
	}
	if err != nil {
		t.Errorf("%+v: written %s, encoding/json fails: %v", m, o.b, err)
	} else if !bytes.Equal(o.b, want) {
		t.Errorf("%+v:\n got %s\nwant %s", m, o.b, want)
	}
}

func TestJSONOutMessages(t *testing.T) {
	var every []byte
	for c := range 0x80 {
		every = append(every, byte(c))
	}
	// each character that needs care at each place of the eight-byte
	// blocks plainJSON reads
	for pos := range 18 {
		for _, c := range []string{`"`, `\`, "\x00", "\x01", "\x1f", " ", "~", "\x7f", "é", "\u2028", "\xff"} {
			checkMessage(t, &model.Message{Role: "user", Content: strings.Repeat("a", pos) + c + strings.Repeat("b", 17-pos) + c})
		}
	}
	f := func(v float64) *float64 { return &v }
	for _, content := range []string{"", string(every), "<a & b>", "line\u2028para\u2029end", "C1 \u0085 bidi \u202e\u2066 DEL \x7f",
		"emoji 😀 é 中", "literal \ufffd", `back\slash "quoted" \ufffd`, "bad \xff byte", "surrogate \xed\xa0\xbd alone"} {
		checkMessage(t, &model.Message{Role: "user", Content: content})
	}
	for _, tc := range []*float64{f(0), f(25), f(1.5), f(1e-7), f(0.000001), f(1e21), f(123456789012), f(math.Copysign(0, -1)), f(-2.5e-9), f(math.NaN()), f(math.Inf(1))} {
		checkMessage(t, &model.Message{Role: "tool", Content: "r", ToolCallID: "c1", ToolName: "get", ToolChars: tc})
	}
	for _, args := range []string{`{"a": [1, 2 ,"x y"],  "b":{}}`, `{"n":1}`, `not json`, ``, `"\u00e9 \ud83d"`, "{\"a\":\"\x7f\"}"} {
		m := &model.Message{Role: "assistant", ToolCalls: []model.ToolCall{{ID: "c1", Name: "n", Args: json.RawMessage(args)}, {ID: "c2"}}}
		if args == "" {
			m.ToolCalls[0].Args = json.RawMessage{} // not nil, empty: omitted
		}
		checkMessage(t, m)
	}
	checkMessage(t, &model.Message{Role: "user", Content: "x", Ephemeral: true, Placeholder: true, InjectedBy: `{"k":1}`, ID: 7})
}

// The head and tail of a call, every field filled and every null, as
// encoding/json writes them.
func TestJSONOutCall(t *testing.T) {
	reason, stop, id, name, delivered := "inside-keep-window", "end_turn", "call_1", "list_hosts", "delivered"
	token, number, shape, verdict := "2025-03-18t14:31:07z", "3727", "number", "in-view-text"
	rec := &model.Record{Strategy: model.SlidingWindow, Iteration: 3, KeepRecentTurns: 2, RemovedMessageCount: 1,
		Refusals: []model.Refusal{{Reason: reason, TurnIndex: 1}}, DroppedObservations: []string{"a<b"},
		Observations: &model.Observations{Pinned: []model.Pin{{ToolName: "x&y", TurnIndex: 1, Chars: 9}}, Limit: 2}}
	full := CallTail{
		Turns:  []Turn{{Index: 0, Length: 1, Fate: "kept", Reason: &reason, Notice: true, PinTool: "p"}, {Index: 1, Start: 1, Fate: "evicted"}},
		Record: rec, RecordedWindow: "match", Usage: &model.Usage{Input: 10, Output: 2},
		Response: Response{Response: model.Response{Content: "answer\n", ToolCalls: []model.ToolCall{{ID: "c", Name: "n", Args: json.RawMessage(`{ "n" : 1 }`)}},
			Usage: &model.Usage{Input: 1}, StopReason: &stop}, Outcome: &delivered},
		Evidence: Evidence{Candidates: 2, Library: json.RawMessage(`{"action": "flag"}`), Values: []provenance.Entry{
			{Value: "web-1", Shape: "identifier", In: "toolCall", ToolCallID: &id, Verdict: "left", Sources: []provenance.Source{
				{ToolName: &name, ToolCallID: &id, Run: 1, SentOn: [2]int{2, 6}, EvictedAt: 7, Rule: "yielded"}, {Run: 2}}},
			{Value: "1234", Shape: "number", In: "answer", Verdict: "never-read", Sources: []provenance.Source{}},
			{Value: "14:31", Shape: "identifier", In: "answer", Verdict: "in-view-text", Sources: []provenance.Source{},
				InText: []provenance.InText{{ToolName: &name, ToolCallID: &id, Token: &token}, {}}},
			{Value: "10.12.4.25", Shape: "identifier", In: "answer", Verdict: "summary-unsupported", Sources: []provenance.Source{},
				Near: &provenance.Near{Value: "10.12.4.52", Distance: 1, ToolName: &name, ToolCallID: &id}},
			{Value: "10.12.4.99", Verdict: "summary-unsupported", Near: &provenance.Near{}},
			{Value: ":3727", Shape: "identifier", In: "answer", Verdict: "never-read", Sources: []provenance.Source{},
				Read: &provenance.Read{Value: number, Shape: &shape, Verdict: &verdict, Sources: []provenance.Source{},
					InText: []provenance.InText{{Token: &token}}}},
			{Value: ":874", Read: &provenance.Read{Value: "874"}},
			{Value: "nil sources"}}},
	}
	recorded := false
	summary := &model.Record{Strategy: model.SummarizeOldest, Iteration: 4, MeasuredTokens: 900, ThresholdTokens: 800, SummaryRecorded: &recorded}
	for _, tail := range []CallTail{full, {Record: summary, Evidence: Evidence{Library: json.RawMessage("null")}}, {}} {
		var o jsonOut
		o.tail(&tail)
		want, err := stdJSON(t, tail)
		if o.bad || err != nil {
			t.Fatalf("tail: bad %v, encoding/json error %v", o.bad, err)
		}
		if !bytes.Equal(append([]byte{'{'}, o.b...), want) {
			t.Errorf("tail:\n got {%s\nwant %s", o.b, want)
		}
	}
	conv := 1
	for _, head := range []CallHead{
		{Call: 12, Run: 2, RunID: "run-\"1\"", Conversation: &conv, Agent: "pipeline/step-a", Iteration: 5, Pass: 2},
		{Call: 13, Run: 2, RunID: "run-2", Agent: "triage", Iteration: 1, Pass: 1, Composition: true},
	} {
		var o jsonOut
		o.head(&head)
		if want, _ := stdJSON(t, head); !bytes.Equal(append(o.b, '}'), want) {
			t.Errorf("head:\n got %s}\nwant %s", o.b, want)
		}
	}
}

// FuzzJSONOut: any content, tool name and arguments are written as
// encoding/json writes them, or handed over to it.
func FuzzJSONOut(f *testing.F) {
	f.Add("hello \u2028 \x01 \"q\" \\", "get", `{"a": 1}`)
	f.Add("\xed\xa0\xbd", "\x7f", `[1, "\u2028"]`)
	f.Fuzz(func(t *testing.T, content, name, args string) {
		checkMessage(t, &model.Message{Role: "tool", Content: content, ToolName: name, ToolCallID: "c"})
		m := &model.Message{Role: "assistant", Content: content, ToolCalls: []model.ToolCall{{ID: name, Name: name, Args: json.RawMessage(args)}}}
		var o jsonOut
		o.message(m)
		want, err := stdJSON(t, m)
		if !o.bad && (err != nil || !bytes.Equal(o.b, want)) {
			t.Errorf("%q %q %q:\n got %s\nwant %s (%v)", content, name, args, o.b, want, err)
		}
	})
}

// fill sets every exported field v reaches, so that a field added to a
// type later is written, and seen missing here if jsonOut does not write
// it: strings with what is escaped, numbers, true, two elements a slice.
// With zero, the leaves are left zero (pointers and slices still made):
// what omitempty omits.
func fill(v reflect.Value, zero bool) {
	switch v.Kind() {
	case reflect.String, reflect.Int, reflect.Float64, reflect.Bool:
		if zero {
			return
		}
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("s<&>\u2028é\n")
	case reflect.Int:
		v.SetInt(7)
	case reflect.Float64:
		v.SetFloat(2.5)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), zero)
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			v.SetBytes([]byte(`{"k": [1, "v"]}`))
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), zero)
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i), zero)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), zero)
			}
		}
	}
}

// Every field of a message and of a call's head and tail filled, the
// record under both its shapes: encoding/json's bytes.
func TestJSONOutEveryField(t *testing.T) {
	for _, zero := range []bool{false, true} {
		var m model.Message
		fill(reflect.ValueOf(&m).Elem(), zero)
		checkMessage(t, &m)
		for _, strategy := range []string{model.SlidingWindow, model.SummarizeOldest} {
			var tail CallTail
			fill(reflect.ValueOf(&tail).Elem(), zero)
			tail.Record.Strategy = strategy
			var o jsonOut
			o.tail(&tail)
			want, err := stdJSON(t, tail)
			if o.bad || err != nil {
				t.Fatalf("tail: bad %v, encoding/json error %v", o.bad, err)
			}
			if !bytes.Equal(append([]byte{'{'}, o.b...), want) {
				t.Errorf("tail (%s, zero %v):\n got {%s\nwant %s", strategy, zero, o.b, want)
			}
		}
		var head CallHead
		fill(reflect.ValueOf(&head).Elem(), zero)
		var o jsonOut
		o.head(&head)
		if want, _ := stdJSON(t, head); !bytes.Equal(append(o.b, '}'), want) {
			t.Errorf("head:\n got %s}\nwant %s", o.b, want)
		}
	}
}

// encodeCall writes each message, kept from call to call or not, plain or
// not, as encoding the whole call at once does (encoding/json, then the
// lone surrogates written back, then termtext.JSON): over two calls that
// share messages.
func TestEncodeCallMessages(t *testing.T) {
	var ms []*model.Message
	for pos := range 10 {
		for _, c := range []string{"", "a", `"`, `\`, "\x01", "\x7f", "é", "\u2028", "\u0085", "\xed\xa0\xbd", "\xff"} {
			ms = append(ms, &model.Message{Role: "tool", ToolName: "t", ToolCallID: "c", Content: strings.Repeat("x", pos) + c + strings.Repeat("y", 9-pos)})
		}
	}
	ms = append(ms, &model.Message{Role: "assistant", ToolCalls: []model.ToolCall{{ID: "c", Name: "n\u202e", Args: json.RawMessage(`{"a": "\u0085"}`)}}})
	var e, ref jsonEncoder
	for k, window := range [][]*model.Message{ms[:70], ms[40:]} {
		c := Call{CallHead: CallHead{Call: k + 1}, Window: window, Evicted: ms[:k*3]}
		var got bytes.Buffer
		w := bufio.NewWriter(&got)
		if err := e.encodeCall(w, c); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		want, err := ref.encode(c)
		if err != nil {
			t.Fatal(err)
		}
		if want = termtext.JSON(bytes.TrimSuffix(want, []byte("\n"))); !bytes.Equal(got.Bytes(), want) {
			t.Errorf("call %d:\n got %s\nwant %s", k+1, got.Bytes(), want)
		}
	}
}

// plainJSON reads eight bytes at a time what its byte loop would read one
// at a time: every byte at every place of two blocks, DEL taken or not.
func TestPlainJSONIsItsByteLoop(t *testing.T) {
	plain := func(s string, del bool) int {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || del && c == 0x7f {
				return i
			}
		}
		return len(s)
	}
	for c := range 0x100 {
		for pos := range 17 {
			s := strings.Repeat("a", pos) + string([]byte{byte(c)}) + strings.Repeat("b", 16-pos)
			for _, del := range []bool{false, true} {
				if got, want := plainJSON(s, del), plain(s, del); got != want {
					t.Fatalf("plainJSON(%q, %v) = %d, want %d", s, del, got, want)
				}
			}
		}
	}
}
