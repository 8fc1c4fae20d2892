package evidence

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/afinspect/inspect/loader"
)

// Each of §2's rules, with §7's examples (e03-tokens' README) and
// hand-checked ones.
func TestClassify(t *testing.T) {
	for _, c := range []struct {
		tok   string
		want  Value
		value bool
	}{
		{"iops", Value{}, false},                                   // 1: no digit
		{"24/7", Value{}, false},                                   // 2: ratio
		{"12/31", Value{}, false},                                  // 2
		{"123/4", Value{"123/4", ShapeIdentifier}, true},           // not a ratio, no tail: 7
		{"32g", Value{}, false},                                    // 3: 32 has 2 digits
		{"48-port", Value{}, false},                                // 3
		{"100mb", Value{}, false},                                  // 3
		{"2h", Value{}, false},                                     // 3
		{"47th", Value{}, false},                                   // 3
		{"20/month", Value{}, false},                               // 3
		{"41200iops", Value{"41200", ShapeNumber}, true},           // 3: the number alone
		{"1822/min", Value{"1822", ShapeNumber}, true},             // 3
		{"0007ms", Value{}, false},                                 // 3: 7 has one digit
		{"4812-rates/total", Value{"4812", ShapeNumber}, true},     // 3 with the second tail
		{"4812abcdef", Value{"4812abcdef", ShapeIdentifier}, true}, // 6 letters: no tail
		{"3940", Value{"3940", ShapeNumber}, true},                 // 4
		{"212", Value{}, false},                                    // 4: short
		{"38.5", Value{}, false},                                   // 4: 3 digits
		{"99.99", Value{"99.99", ShapeNumber}, true},               // 4
		{"-1234", Value{"-1234", ShapeNumber}, true},               // 4
		{"a1b", Value{}, false},                                    // 5: shorter than 4
		{"1,2,3", Value{}, false},                                  // 6: no letter, none of :_-/.
		{"12%5", Value{}, false},                                   // 6
		{"1e-7", Value{"1e-7", ShapeIdentifier}, true},             // 7
		{"1,250/month", Value{"1,250/month", ShapeIdentifier}, true},
		{"06:14:02", Value{"06:14:02", ShapeIdentifier}, true},
		{"2.42.0", Value{"2.42.0", ShapeIdentifier}, true},
		{"10.12.4.52", Value{"10.12.4.52", ShapeIdentifier}, true},
		{"checkout#2291", Value{"checkout#2291", ShapeIdentifier}, true},
	} {
		got, ok := classify(c.tok)
		if ok != c.value || got != c.want {
			t.Errorf("classify(%q) = %v %v, want %v %v", c.tok, got, ok, c.want, c.value)
		}
	}
}

func TestCandidates(t *testing.T) {
	got := Candidates("41,200 IOPS (41200iops), 98,304 MB; 41200 again; web-7f3a2c and WEB-7F3A2C. 32G 48-port 24/7 VSAN 20 2.1")
	want := []Value{{"41200", ShapeNumber}, {"98304", ShapeNumber}, {"web-7f3a2c", ShapeIdentifier}}
	if !slices.Equal(got, want) {
		t.Errorf("Candidates = %v, want %v", got, want)
	}
	// only the first TokenLimit tokens are looked at
	text := strings.Repeat("a ", TokenLimit-1) + "abc-1 def-2"
	if got := Candidates(text); len(got) != 1 || got[0].Value != "abc-1" {
		t.Errorf("token limit: %v", got)
	}
}

func TestArgValues(t *testing.T) {
	got := ArgValues([]byte(`{"host":"web-9d4b27","window":"14:00-14:30Z","n":1822,"big":6006016012345678901,"flag":true,"list":["wrk-8e71c4",{"web-9d4b27":"x"}],"empty":null}`))
	want := []Value{
		{"web-9d4b27", ShapeIdentifier}, {"14:00-14:30z", ShapeIdentifier},
		{"1822", ShapeNumber}, {"6006016012345679000", ShapeNumber}, {"wrk-8e71c4", ShapeIdentifier},
	}
	if !slices.Equal(got, want) {
		t.Errorf("ArgValues = %v, want %v", got, want)
	}
	if got := ArgValues([]byte(`not json web-1234`)); got != nil {
		t.Errorf("arguments that are not JSON give nothing: %v", got)
	}
}

// Below TokenLimit tokens, Candidates skips the pieces without a digit:
// the values of every message, response and request of the recordings
// here are those of every token classified in turn, first TokenLimit.
func TestCandidatesSkipNoDigit(t *testing.T) {
	logs, _ := filepath.Glob("../testdata/*/run.jsonl")
	texts := []string{"", "Q3 x", "0xabc ,,1,2,, 1,234 $5 #7 a1b2 --9--", "\u0130 \u212a9 web-7F3A2C."}
	for _, path := range logs {
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		for _, run := range rec.Runs {
			texts = append(texts, run.Request)
			for _, c := range run.Calls {
				texts = append(texts, c.Facts.Response.Content)
				for _, m := range append(c.Recorded, c.Appended...) {
					texts = append(texts, m.Content)
				}
			}
		}
	}
	for _, text := range texts {
		var want []Value
		c, n := newCollector(), 0
		eachToken(text, func(tok string) bool {
			c.add(tok)
			n++
			return n < TokenLimit
		})
		want = c.out
		if got := Candidates(text); !slices.Equal(got, want) {
			t.Errorf("Candidates(%.60q) = %v, want %v", text, got, want)
		}
	}
}
