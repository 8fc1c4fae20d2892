package loader

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// A lone surrogate ("\ud83d", JavaScript's slice cutting an emoji) was
// read as U+FFFD. Both decoders now keep it as the UTF-16 unit, in WTF-8:
// U+D83D is ED A0 BD, U+DE00 is ED B8 80.
func TestLoneSurrogateIsKeptByBothDecoders(t *testing.T) {
	var lines []string
	for _, l := range s01Lines(t) {
		l = strings.ReplaceAll(l, "Find out why", `Find \ud83d out why`)
		l = strings.ReplaceAll(l, "search_docs#1 q=", `search_docs#1 \uDE00q=`)
		lines = append(lines, l)
	}
	data := []byte(strings.Join(lines, "\n") + "\n")
	checkSameWays(t, data)
	checkSameWays(t, []byte(surrogatesEverywhere(string(data))))
	for _, w := range ways {
		rec, err := readWith(data, w.opts)
		if err != nil {
			t.Fatal(err)
		}
		var prompt, result string
		for _, m := range rec.Runs[0].Calls[1].Recorded {
			switch m.Role {
			case model.RoleUser:
				prompt = m.Content
			case model.RoleTool:
				result = m.Content
			}
		}
		if !strings.HasPrefix(prompt, "Find \xed\xa0\xbd out why") || !strings.HasPrefix(result, "search_docs#1 \xed\xb8\x80q=") {
			t.Errorf("%s: prompt %.20q, tool result %.20q", w.name, prompt, result)
		}
	}
}

// surrogatesEverywhere puts lone surrogates in a run id, a tool call id, a
// tool name and a role that is no role, beside those in the content.
func surrogatesEverywhere(log string) string {
	return strings.NewReplacer(`"run-`, `"run-\udbff`, `"call_0001"`, `"call_\udc000001"`,
		`"search_docs"`, `"search\uD800_docs"`, `"role":"system"`, `"role":"sys\udfff"`).Replace(log)
}

// The reference decoder's marks never leak: a line that already holds
// private-use characters, in either spelling, next to lone surrogates in
// keys, raw values and strings.
func TestSurrogateMarksAreChosenAbsent(t *testing.T) {
	raw := []byte(`{"a\ud800":"\ue000 \uE001 ` + "\ue002" + ` \udc00 x\ud83d\ude00","r":["\\ue003",{"k":"\udbff"}]}`)
	var got map[string]any
	if err := unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	want := "\ue000 \ue001 \ue002 \xed\xb0\x80 x😀"
	if got["a\xed\xa0\x80"] != want {
		t.Errorf("got %q", got)
	}
	var r struct {
		R json.RawMessage `json:"r"`
	}
	if err := unmarshal(raw, &r); err != nil || string(r.R) != `["\\ue003",{"k":"\udbff"}]` {
		t.Errorf("raw value %s, %v", r.R, err)
	}
}
