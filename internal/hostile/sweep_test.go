package hostile

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

// The attack goes after every text string and every argument's string,
// never into an identifier, a type or a number; members keep their order.
func TestSweepByHand(t *testing.T) {
	in := `{"type":"agentfootprint.stream.tool_start","payload":{"toolName":"grep","toolCallId":"call_1","args":{"q":"a","n":1,"deep":{"p":"b"}},"content":"","ok":true,"x":null},"meta":{"runId":"r1"}}`
	a := escaped(Escapes + Name + Paste + "\x00")
	want := `{"type":"agentfootprint.stream.tool_start","payload":{"toolName":"grep` + a + `","toolCallId":"call_1","args":{"q":"a` + a + `","n":1,"deep":{"p":"b` + a + `"}},"content":"","ok":true,"x":null},"meta":{"runId":"r1"}}`
	if got := string(Sweep([]byte(in), "terminal")); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	enc := Sweep([]byte(`{"content":"hi"}`+"\n"+`not json`), "encoding")
	if want := "{\"content\":\"hi\xff\xc0\xaf\xe2\x82\x9b31m\\ud83d\\udc00x\\udbff\"}\nnot json"; string(enc) != want {
		t.Errorf("encoding: %q, want %q", enc, want)
	}
}

// A real log keeps its lines and events: every line is still one JSON
// object of the same type, and the attack is in it.
func TestSweepKeepsTheLog(t *testing.T) {
	run, err := os.ReadFile("../../testdata/demo-evidence/run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	out := Sweep(run, "terminal")
	a, b := bytes.Split(bytes.TrimSpace(run), []byte("\n")), bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	if len(a) != len(b) {
		t.Fatalf("%d lines became %d", len(a), len(b))
	}
	attacked := 0
	for i := range a {
		var x, y struct{ Type string }
		if json.Unmarshal(a[i], &x) != nil || json.Unmarshal(b[i], &y) != nil || x.Type != y.Type {
			t.Fatalf("line %d: %q became %q", i+1, x.Type, y.Type)
		}
		if bytes.Contains(b[i], []byte("PWNED")) {
			attacked++
		}
	}
	if attacked < len(a)/4 {
		t.Errorf("the attack is in %d of %d lines", attacked, len(a))
	}
}
