package evidence

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/afinspect/inspect/model"
)

// wireFile is the part of a recording's wire.json this test reads: what
// the library sent on each call, and its evidence_checked events.
type wireFile struct {
	Runs []struct {
		Run     int    `json:"run"`
		Message string `json:"message"`
	} `json:"runs"`
	Calls []struct {
		Call         int              `json:"call"`
		Run          int              `json:"run"`
		SystemPrompt string           `json:"systemPrompt"`
		Messages     []*model.Message `json:"messages"`
		Response     struct {
			Content string `json:"content"`
		} `json:"response"`
	} `json:"calls"`
	Evidence []struct {
		Call        int     `json:"call"`
		Candidates  int     `json:"candidates"`
		Unsupported []Value `json:"unsupported"`
	} `json:"evidence"`
}

// Every evidence_checked event of the evidence recordings, reproduced from
// the window the library sent on the judged call, its request and its
// system prompt.
func TestLibraryEventsFromWire(t *testing.T) {
	for _, name := range []string{"demo-evidence", "demo-evidence-k3-pins3", "e03-tokens"} {
		raw, err := os.ReadFile(filepath.Join("..", "testdata", name, "wire.json"))
		if err != nil {
			t.Fatal(err)
		}
		var w wireFile
		if err := json.Unmarshal(raw, &w); err != nil {
			t.Fatal(err)
		}
		if len(w.Evidence) == 0 {
			t.Fatalf("%s: no events", name)
		}
		for _, e := range w.Evidence {
			c := w.Calls[e.Call-1]
			request := ""
			for _, r := range w.Runs {
				if r.Run == c.Run {
					request = r.Message
				}
			}
			r := Check(c.Response.Content, BuildSets(c.Messages, request, []string{c.SystemPrompt}))
			if len(r.Candidates) != e.Candidates || !slices.Equal(r.Listed(), e.Unsupported) {
				t.Errorf("%s call %d: %d candidates, unsupported %v; library %d, %v",
					name, e.Call, len(r.Candidates), r.Listed(), e.Candidates, e.Unsupported)
			}
		}
	}
}

// e03-tokens: all 16 unsupported values (the event lists 12), in order,
// unclipped, as its README lists them.
func TestE03AllUnsupported(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "e03-tokens", "wire.json"))
	if err != nil {
		t.Fatal(err)
	}
	var w wireFile
	if err := json.Unmarshal(raw, &w); err != nil {
		t.Fatal(err)
	}
	c := w.Calls[6]
	r := Check(c.Response.Content, BuildSets(c.Messages, w.Runs[0].Message, []string{c.SystemPrompt}))
	var got []string
	for _, v := range r.Unsupported {
		got = append(got, v.Value)
	}
	want := []string{"06:14:02", "naa.600601601f2045002a5c3e6b9d71ee42",
		"mpath-arr-0417-lun0042-naa600601601f2045002a5c3e6b9d71ee42-esx-fra2-017",
		"6006016012345678901", "esx-fra2-040", "21:00:00:24:ff:4a:12:31", "20:03:00:de:fb:ce:11:80",
		"06:14:55", "1,250/month", "pool-ssd-01", "0x0043", "naa.600601601f2045002a5c3e6b9d71ee43",
		"0x0044", "naa.600601601f2045002a5c3e6b9d71ee44", "0x0045", "naa.600601601f2045002a5c3e6b9d71ee45"}
	if !slices.Equal(got, want) {
		t.Errorf("unsupported:\n got %q\nwant %q", got, want)
	}
	if len(r.Candidates) != 40 {
		t.Errorf("%d candidates, README says 40", len(r.Candidates))
	}
}
