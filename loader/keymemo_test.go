package loader

import (
	"fmt"
	"strings"
	"testing"

	"github.com/afinspect/inspect/internal/jsonlex"
)

// rememberedKeyLines teach the decoder's memo of keys (keymemo.go) each
// place's key, then put at those places what only a full read tells
// apart: a key that folds into a field's name, a duplicate, white space,
// an escape, a skipped key where a field was, elements that alternate.
func rememberedKeyLines() []string {
	const tail = `,"meta":{"wallClockMs":1,"runId":"r","subflowPath":[]}}`
	tool := func(i int) string {
		return fmt.Sprintf(`{"type":"agentfootprint.stream.tool_start","payload":{"toolName":"t","toolCallId":"c%d","args":{}}`, i) + tail
	}
	out := []string{tool(1), tool(2)}
	for i, meta := range []string{
		`{"wallClockMs":1,"RunId":"x","subflowPath":[]}`,    // folds into runId at a remembered place
		`{"wallClockMs":1,"runId":"r","runId":"y"}`,         // a duplicate where subflowPath was
		`{"wallClockMs":1, "runId":"z","subflowPath":[]}`,   // white space before a remembered key
		`{"wallClockMs":1,"runId" :"w","subflowPath":[]}`,   // and after it
		`{"wallClockMs":1,"r\u0075nId":"v"}`,                // an escape
		`{"runId":"u","wallClockMs":1,"subflowPath":["a"]}`, // a field where a skipped key was, and back
		`{"wallClockMs":1,"runId":"r","subflowPath":[]}`,
	} {
		out = append(out, fmt.Sprintf(`{"type":"agentfootprint.stream.tool_start","payload":{"toolName":"t","toolCallId":"d%d","args":{}},"meta":%s}`, i, meta))
	}
	var elems []string
	for i := range 14 { // past the places remembered
		if i%3 == 0 {
			elems = append(elems, fmt.Sprintf(`{"role":"assistant","content":"","toolCalls":[{"id":"c%d","name":"t","args":{}}]}`, i))
			continue
		}
		elems = append(elems, fmt.Sprintf(`{"role":"tool","content":"r%d","toolCallId":"c%d","toolName":"t"}`, i, i))
	}
	hist := `{"type":"agentfootprint.agent.iteration_end","payload":{"history":[` + strings.Join(elems, ",") + `]}` + tail
	out = append(out, hist, hist,
		strings.Replace(hist, `"toolName":"t"}]`, `"toolName":"t","toolCallId":"again"}]`, 1),
		strings.Replace(hist, `{"role":"tool","content":"r1",`, `{"role":"tool","Content":"r1",`, 1),
		strings.Replace(hist, `{"role":"tool","content":"r2",`, `{"role":"tool","content":"r2","toolcalls":[],`, 1))
	// elements alike in their first bytes (elemmemo.go finds them by those),
	// in their text, or in all but their last byte: each read as itself
	x := strings.Repeat("x", 300)
	var alike []string
	for i, e := range []string{
		`{"role":"tool","content":"` + x + `","toolCallId":"c1","toolName":"t"}`,
		`{"role":"tool","content":"` + x + `","toolCallId":"c2","toolName":"t"}`,
		`{"role":"tool","content":"` + x + `y","toolCallId":"c1","toolName":"t"}`,
		`{"role":"tool","content":"` + x[:200] + `","toolCallId":"c1","toolName":"t"}`,
		`{"role":"tool","content":"` + x[:200] + `","toolCallId":"c1","toolName":"u"}`,
		`{"role":"tool","content":"` + x + `\n","toolCallId":"c1","toolName":"t"}`,
		`{"role":"user","content":"` + x + `"}`,
		`{"role":"user","content":"` + x + `","injectedBy":{"iteration":1}}`,
		`{"role":"user","content":"` + x + `","injectedBy":null}`,
		`{"role":"user","content":"` + x + `","injectedBy":true}`, // as long as the one before
	} {
		alike = append(alike, e)
		// a call that sent them all: each is in its window, as the
		// builder files it (its role, text and delivery)
		out = append(out, fmt.Sprintf(`{"type":"agentfootprint.stream.llm_start","payload":{"iteration":%d,"messagesCount":%d}`, i+2, len(alike))+tail,
			`{"type":"agentfootprint.agent.iteration_end","payload":{"history":[`+strings.Join(alike, ",")+`],"iterIndex":`+fmt.Sprint(i+2)+`}`+tail)
	}
	many := `{"type":"agentfootprint.stream.llm_start","payload":{"a1":1,"a2":2,"a3":3,"a4":4,"a5":5,"a6":6,"a7":7,"a8":8,"a9":9,"a10":10,"a11":11,"a12":12,"a13":13,"iteration":1,"messagesCount":%d}` + tail
	out = append(out, fmt.Sprintf(many, 0), fmt.Sprintf(many, 1),
		strings.Replace(fmt.Sprintf(many, 1), `"a13":13,"iteration"`, `"a13":13,"Iteration"`, 1))
	return out
}

// TestRememberedKeys reads rememberedKeyLines each way, twice over, after
// the start of a call.
func TestRememberedKeys(t *testing.T) {
	base := []string{fmt.Sprintf(turnStart, "go"), llmStart}
	lines := append(append(base, rememberedKeyLines()...), rememberedKeyLines()...)
	checkSameWays(t, []byte(strings.Join(lines, "\n")))
}

// TestKeyMemoReadsAtOnce: once taught, a place's key is read from the memo
// (known) with its field number, and a near-miss of it is not.
func TestKeyMemoReadsAtOnce(t *testing.T) {
	var m keyMemo
	m.learn([]byte(`"runId":`), shapeMeta, 1, 0)
	m.learn([]byte(`"wallClockMs":`), shapeMeta, 1, -1)
	m.learn([]byte(`"abcdefghijklm":`), shapeMeta, 3, 2)  // 16 bytes: the last a word holds
	m.learn([]byte(`"abcdefghijklmn":`), shapeMeta, 4, 1) // 17: compared as text
	for _, c := range []struct {
		in    string
		place int
		field int
		ok    bool
		at    int
	}{
		{`"runId":"r"`, 1, 0, true, 8},
		{`"wallClockMs":1`, 1, -1, true, 14},
		{`"runId" :"r"`, 1, 0, false, 0},
		{`"RunId":"r"`, 1, 0, false, 0},
		{`"runId"`, 1, 0, false, 0},
		{`"abcdefghijklm":1`, 3, 2, true, 16},
		{`"abcdefghijklm";1`, 3, 0, false, 0},
		{`"abcdefghijklM":1`, 3, 0, false, 0},
		{`"bbcdefghijklm":1`, 3, 0, false, 0},
		{`"abcdefghijklmn":1`, 4, 1, true, 17},
		{`"abcdefghijklmn";1`, 4, 0, false, 0},
	} {
		// each as it is and with more of a line after it (a key is
		// compared as words when 16 bytes follow it)
		for _, in := range []string{c.in, c.in + `,"and":"more of the line"`} {
			s := scanner{b: []byte(in)}
			field, ok := m.known(&s, shapeMeta, c.place)
			if ok != c.ok || ok && (field != c.field || s.i != c.at) {
				t.Errorf("%s: field %d, %v, at %d; want %d, %v, at %d", in, field, ok, s.i, c.field, c.ok, c.at)
			}
			if _, ok := m.known(&s, shapeMeta, 2); ok {
				t.Errorf("%s: known at a place never taught", in)
			}
		}
	}
	// a place whose key alternates: each read as itself, turn by turn
	for i, c := range []struct {
		in    string
		field int
	}{{`"runId":`, 0}, {`"runId":`, 0}, {`"wallClockMs":`, -1}, {`"runId":`, 0}, {`"wallClockMs":`, -1}} {
		s := scanner{b: []byte(c.in)}
		if field, ok := m.known(&s, shapeMeta, 1); !ok || field != c.field {
			t.Errorf("turn %d, %s: field %d, %v; want %d", i, c.in, field, ok, c.field)
		}
	}
}

// TestNumberAsJsonlex: the scanner's own read of plain digits ends where
// jsonlex.Number, the grammar, ends, and accepts what it accepts.
func TestNumberAsJsonlex(t *testing.T) {
	for _, in := range []string{"1", "12", "1796000000001,", "7}", "12.5", "1e3", "1E3", "12.", "1e", "10.0e-2]",
		"0", "01", "-1", "-", "9x", "123456789012345678901234567890", "5 ", "5\t"} {
		s := scanner{b: []byte(in)}
		num, ok := s.number()
		end, want := jsonlex.Number(in, 0)
		if ok != want || ok && (string(num) != in[:end] || s.i != end) {
			t.Errorf("%q: %q %v at %d; jsonlex: %q %v", in, num, ok, s.i, in[:end], want)
		}
	}
}
