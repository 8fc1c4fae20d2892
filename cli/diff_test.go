package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/afinspect/inspect/termtext"
)

// schema is the subset of JSON Schema the diff's schema file uses: type
// (one or a list), const, enum, required, properties, additionalProperties
// false, items, minItems, maxItems, oneOf and $ref into $defs.
type schema struct {
	Type                 any                `json:"type"`
	Const                any                `json:"const"`
	Enum                 []any              `json:"enum"`
	Required             []string           `json:"required"`
	Properties           map[string]*schema `json:"properties"`
	AdditionalProperties *bool              `json:"additionalProperties"`
	Items                *schema            `json:"items"`
	MinItems             *int               `json:"minItems"`
	MaxItems             *int               `json:"maxItems"`
	OneOf                []*schema          `json:"oneOf"`
	Ref                  string             `json:"$ref"`
	Defs                 map[string]*schema `json:"$defs"`
}

func (s *schema) UnmarshalJSON(b []byte) error {
	type plain schema
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	for k := range raw { // a keyword the validator does not know would pass unchecked
		switch k {
		case "$schema", "$id", "title", "description", "type", "const", "enum", "required", "properties",
			"additionalProperties", "items", "minItems", "maxItems", "oneOf", "$ref", "$defs":
		default:
			return fmt.Errorf("schema keyword %q not supported by the test's validator", k)
		}
	}
	*s = schema(p)
	return nil
}

// validate lists where v breaks s (root holds the $defs).
func validate(root, s *schema, v any, at string) []string {
	if s.Ref != "" {
		return validate(root, root.Defs[strings.TrimPrefix(s.Ref, "#/$defs/")], v, at)
	}
	var errs []string
	if len(s.OneOf) > 0 {
		n := 0
		for _, o := range s.OneOf {
			if len(validate(root, o, v, at)) == 0 {
				n++
			}
		}
		if n != 1 {
			errs = append(errs, fmt.Sprintf("%s: matches %d of oneOf", at, n))
		}
	}
	if s.Type != nil {
		var types []string
		switch t := s.Type.(type) {
		case string:
			types = []string{t}
		case []any:
			for _, x := range t {
				types = append(types, x.(string))
			}
		}
		if !slices.Contains(types, jsonType(v)) && !(jsonType(v) == "integer" && slices.Contains(types, "number")) {
			errs = append(errs, fmt.Sprintf("%s: %s, want %v", at, jsonType(v), types))
		}
	}
	if s.Const != nil && fmt.Sprint(s.Const) != fmt.Sprint(v) {
		errs = append(errs, fmt.Sprintf("%s: %v, want %v", at, v, s.Const))
	}
	if s.Enum != nil && !slices.ContainsFunc(s.Enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		errs = append(errs, fmt.Sprintf("%s: %v not in %v", at, v, s.Enum))
	}
	switch x := v.(type) {
	case map[string]any:
		for _, r := range s.Required {
			if _, ok := x[r]; !ok {
				errs = append(errs, fmt.Sprintf("%s: no %q", at, r))
			}
		}
		for k, val := range x {
			ps, ok := s.Properties[k]
			if !ok {
				if s.AdditionalProperties != nil && !*s.AdditionalProperties {
					errs = append(errs, fmt.Sprintf("%s: %q not in the schema", at, k))
				}
				continue
			}
			errs = append(errs, validate(root, ps, val, at+"."+k)...)
		}
	case []any:
		if s.MinItems != nil && len(x) < *s.MinItems || s.MaxItems != nil && len(x) > *s.MaxItems {
			errs = append(errs, fmt.Sprintf("%s: %d items", at, len(x)))
		}
		if s.Items != nil {
			for k, val := range x {
				errs = append(errs, validate(root, s.Items, val, fmt.Sprintf("%s[%d]", at, k))...)
			}
		}
	}
	return errs
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "?"
}

func loadSchema(t *testing.T) *schema {
	t.Helper()
	b, err := os.ReadFile("../docs/inspect.diff.v1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

// The validator refuses what breaks the schema: a test that cannot fail
// proves nothing.
func TestDiffSchemaValidatorRefuses(t *testing.T) {
	s := loadSchema(t)
	for _, doc := range []string{
		`{}`,
		`{"format": "inspect.diff.v2"}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatal(err)
		}
		if len(validate(s, s, v, "$")) == 0 {
			t.Errorf("%s validates", doc)
		}
	}
	_, out, _ := runCLI("diff", "-q", "--format", "json", "../testdata/demo-evidence/run.jsonl", "../testdata/demo-evidence/run.jsonl")
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	v["pairs"].([]any)[0].(map[string]any)["state"] = "moved"
	v["totals"].(map[string]any)["extra"] = 1
	if errs := validate(s, s, v, "$"); len(errs) != 2 {
		t.Errorf("two faults, found %v", errs)
	}
}

var diffPairs = []struct {
	a, b  string
	knobs []string // B's
}{
	{"demo-evidence", "demo-evidence-k3-pins3", nil},
	{"demo-evidence", "v9.56.0-demo-evidence", nil},
	{"c01-two-conversations", "demo-evidence", nil},
	{"demo-evidence", "demo-evidence", []string{"--keep-recent-turns", "3", "--keep-last-tool-results", "3"}},
	{"s10-summarize", "s10-summarize", nil},
}

func diffJSON(t *testing.T, a, b string, knobs []string) (string, map[string]any) {
	t.Helper()
	args := []string{"diff", "-q", "--format", "json", "../testdata/" + a + "/run.jsonl", "../testdata/" + b + "/run.jsonl"}
	for k := 0; k < len(knobs); k += 2 {
		args = append(args, "--b-"+strings.TrimPrefix(knobs[k], "--"), knobs[k+1])
	}
	code, out, errOut := runCLI(args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	return out, v
}

func TestDiffJSONValidates(t *testing.T) {
	s := loadSchema(t)
	for _, p := range diffPairs {
		_, v := diffJSON(t, p.a, p.b, p.knobs)
		if errs := validate(s, s, v, "$"); len(errs) > 0 {
			t.Errorf("%s vs %s: %d faults, the first %v", p.a, p.b, len(errs), errs[:min(5, len(errs))])
		}
	}
}

// exportSide is what `inspect export` says of each call of one file
// alone: its window's characters and each value's own verdict.
func exportSide(t *testing.T, file string, knobs []string) map[int]struct {
	chars  int
	values []string
} {
	t.Helper()
	code, out, errOut := runCLI(append([]string{"export", "-q", "../testdata/" + file + "/run.jsonl"}, knobs...)...)
	if code != 0 {
		t.Fatalf("export %s: %d %s", file, code, errOut)
	}
	var doc struct {
		Calls []struct {
			Call   int `json:"call"`
			Window []struct {
				Content string `json:"content"`
			} `json:"window"`
			Evidence struct {
				Values []struct {
					Value, In, Verdict string
					Read               *struct {
						Verdict *string
					}
				} `json:"values"`
			} `json:"evidence"`
		} `json:"calls"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	res := map[int]struct {
		chars  int
		values []string
	}{}
	for _, c := range doc.Calls {
		n := 0
		for _, m := range c.Window {
			n += len(utf16.Encode([]rune(m.Content)))
		}
		var vs []string
		for _, v := range c.Evidence.Values {
			own := v.Verdict
			if v.Read != nil {
				own = ""
				if v.Read.Verdict != nil {
					own = *v.Read.Verdict
				}
			}
			vs = append(vs, v.In+" "+v.Value+" "+own)
		}
		slices.Sort(vs)
		res[c.Call] = struct {
			chars  int
			values []string
		}{n, vs}
	}
	return res
}

// Each side's windows and verdicts are what export says of that file
// alone, call for call.
func TestDiffSidesAreExports(t *testing.T) {
	for _, p := range diffPairs {
		_, v := diffJSON(t, p.a, p.b, p.knobs)
		ex := map[string]map[int]struct {
			chars  int
			values []string
		}{"a": exportSide(t, p.a, nil), "b": exportSide(t, p.b, p.knobs)}
		seen := map[string]int{}
		for _, pr := range v["pairs"].([]any) {
			pm := pr.(map[string]any)
			for _, side := range []string{"a", "b"} {
				sd, _ := pm["sides"].(map[string]any)[side].(map[string]any)
				if sd == nil {
					continue
				}
				seen[side]++
				call := int(sd["call"].(float64))
				want := ex[side][call]
				if got := int(sd["windowChars"].(float64)); got != want.chars {
					t.Errorf("%s vs %s: %s call %d: %d chars, export %d", p.a, p.b, side, call, got, want.chars)
				}
				var got []string
				for _, val := range pm["values"].([]any) {
					vm := val.(map[string]any)
					if verdict, ok := vm[side].(string); ok {
						got = append(got, vm["in"].(string)+" "+vm["value"].(string)+" "+verdict)
					}
				}
				var wantV []string
				for _, s := range want.values { // a read that is no value has no verdict; the diff leaves it out
					if !strings.HasSuffix(s, " ") {
						wantV = append(wantV, s)
					}
				}

				slices.Sort(got)
				if !slices.Equal(got, wantV) {
					t.Errorf("%s vs %s: %s call %d: values %v, export %v", p.a, p.b, side, call, got, wantV)
				}
			}
		}
		if seen["a"] != len(ex["a"]) || seen["b"] != len(ex["b"]) {
			t.Errorf("%s vs %s: pairs hold %v calls, the exports %d and %d", p.a, p.b, seen, len(ex["a"]), len(ex["b"]))
		}
	}
}

// The totals, written from the READMEs: demo-evidence's answers have 9
// values out of view (5 at call 13, 4 at call 16), k3-pins3's 6 (2 and
// 4), 9.56.0's 13 (7 and 4, and web-7f3a2c at calls 7 and 10, which
// wire.json shows only in an assistant message of those windows).
func TestDiffTotalsFromREADMEs(t *testing.T) {
	for _, c := range []struct {
		b          string
		outA, outB int
		same       []int // from wire.json: the calls sent the same messages
		first      int   // the first call sent other messages
	}{
		{"demo-evidence-k3-pins3", 9, 6, []int{1, 2, 3, 4, 6}, 5},
		{"v9.56.0-demo-evidence", 9, 13, []int{1, 2, 3, 15}, 4},
	} {
		_, v := diffJSON(t, "demo-evidence", c.b, nil)
		tot := v["totals"].(map[string]any)
		if a, b := tot["a"].(map[string]any)["outOfView"], tot["b"].(map[string]any)["outOfView"]; a != float64(c.outA) || b != float64(c.outB) {
			t.Errorf("%s: out of view %v, %v; want %d, %d", c.b, a, b, c.outA, c.outB)
		}
		if v["parted"] != nil {
			t.Errorf("%s: parted %v: the script is the same", c.b, v["parted"])
		}
		var same []int
		for _, p := range v["pairs"].([]any) {
			pm := p.(map[string]any)
			if pm["a"] != pm["b"] {
				t.Errorf("%s: pair %v holds calls %v and %v", c.b, pm["pair"], pm["a"], pm["b"])
			}
			if pm["state"] == "same" {
				same = append(same, int(pm["a"].(float64)))
			}
		}
		if !slices.Equal(same, c.same) {
			t.Errorf("%s: same at %v, want %v", c.b, same, c.same)
		}
		if fc := v["firstChanged"].(map[string]any); fc["a"] != float64(c.first) || fc["b"] != float64(c.first) {
			t.Errorf("%s: first changed %v, want call %d", c.b, fc, c.first)
		}
	}
}

// --fail-on more-out-of-view gates a change: exit 4 when B has more
// answer values out of view than A (the codes of evidence --fail-on).
func TestDiffFailOn(t *testing.T) {
	f := func(n string) string { return "../testdata/" + n + "/run.jsonl" }
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"--fail-on", "more-out-of-view", f("demo-evidence"), f("demo-evidence-k3-pins3")}, 0}, // 9 then 6
		{[]string{"--fail-on", "more-out-of-view", f("demo-evidence-k3-pins3"), f("demo-evidence")}, 4}, // 6 then 9
		{[]string{"--fail-on", "more-out-of-view", f("demo-evidence"), f("v9.56.0-demo-evidence")}, 4},  // 9 then 13
		{[]string{"--fail-on", "more-out-of-view", f("demo-evidence"), f("demo-evidence")}, 0},
		{[]string{"--fail-on", "more-out-of-view", "--b-keep-recent-turns", "3", "--b-keep-last-tool-results", "3", f("demo-evidence"), f("demo-evidence")}, 0},
		{[]string{"--fail-on", "more-out-of-view", "--a-keep-recent-turns", "3", "--a-keep-last-tool-results", "3", f("demo-evidence"), f("demo-evidence")}, 4},
		{[]string{"--fail-on", "parted", f("c01-two-conversations"), f("demo-evidence")}, 4},
		{[]string{"--fail-on", "parted", f("demo-evidence"), f("demo-evidence-k3-pins3")}, 0},
		{[]string{"--fail-on", "fewer", f("demo-evidence"), f("demo-evidence")}, 2},
		{[]string{f("demo-evidence")}, 2},
		{[]string{"--format", "yaml", f("demo-evidence"), f("demo-evidence")}, 2},
		{[]string{"--b-keep-recent-turns", "-1", f("demo-evidence"), f("demo-evidence")}, 2},
		{[]string{f("demo-evidence"), "../testdata/no-such/run.jsonl"}, 1},
		{[]string{"--conversation", "3", f("c01-two-conversations"), f("c01-two-conversations")}, 2},
		{[]string{"--fail-on", "parted", "--conversation", "2", f("c01-two-conversations"), f("c01-two-conversations")}, 0},
		{[]string{"--fail-on", "parted", "--a-conversation", "1", "--b-conversation", "2", f("c01-two-conversations"), f("c01-two-conversations")}, 4},
	} {
		code, _, errOut := runCLI(append([]string{"diff", "-q"}, c.args...)...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (%s)", c.args, code, c.code, errOut)
		}
	}
}

// The table: one row per pair, the parting marked, no line past 120
// columns when piped, and two scripts said to be different tasks.
func TestDiffTable(t *testing.T) {
	code, out, errOut := runCLI("diff", "-q", "../testdata/c01-two-conversations/run.jsonl", "../testdata/demo-evidence/run.jsonl")
	if code != 0 {
		t.Fatal(errOut)
	}
	if !strings.Contains(out, "different tasks") {
		t.Errorf("no different tasks line:\n%s", out)
	}
	rows := 0
	for _, l := range strings.Split(out, "\n") {
		if termtext.Width(l) > 120 {
			t.Errorf("line of %d columns: %s", termtext.Width(l), l)
		}
		f := strings.Fields(l)
		if len(f) > 4 && slices.Contains([]string{"same", "changed", "a-only", "b-only"}, f[stateAt(f)]) {
			rows++
		}
		if strings.HasPrefix(l, ">") && f[1] != "1" {
			t.Errorf("parted marked on %q, want pair 1 (another request)", l)
		}
	}
	// c01: 8 + 7 calls, demo-evidence 16: conversation 1 pairs 16 rows,
	// conversation 2 of c01 has no partner: 7
	if rows != 23 {
		t.Errorf("%d rows, want 23:\n%s", rows, out)
	}
	_, out, _ = runCLI("diff", "-q", "../testdata/demo-evidence/run.jsonl", "../testdata/demo-evidence/run.jsonl")
	if !strings.Contains(out, "16 pairs: 16 same") || strings.Contains(out, "\n>") {
		t.Errorf("a recording against itself:\n%s", out)
	}
}

// stateAt is where a table row's state is: after the mark, when there
// is one, the pair and the two calls.
func stateAt(f []string) int {
	if f[0] == ">" {
		return 4
	}
	return 3
}

// A hostile recording against s01, both ways: no control reaches the
// terminal from the table or stderr, and the attack is shown.
func TestDiffTableHostile(t *testing.T) {
	h, s01 := hostileRun(t), "../testdata/s01-basic-loop/run.jsonl"
	for _, args := range [][]string{{h, s01}, {s01, h}, {h, h}} {
		code, out, errOut := runCLI(append([]string{"diff"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if hasRaw(out) || hasRaw(errOut) {
			t.Errorf("%v: a control reached the terminal:\nstdout %q\nstderr %q", args, out, errOut)
		}
		if !strings.Contains(out+errOut, "␛]0;PWNED␇") {
			t.Errorf("%v: the escape is not shown:\n%s", args, out)
		}
	}
}

// compare takes two files and diff's flags; what it refuses, it refuses
// before the screen is taken.
func TestCompareRefuses(t *testing.T) {
	f := "../testdata/demo-evidence/run.jsonl"
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"compare", f}, 2, "two files, A and B"},
		{[]string{"compare", "--theme", "pink", f, f}, 2, "theme"},
		{[]string{"compare", "--b-keep-recent-turns", "-2", f, f}, 2, "--b-keep-recent-turns must be 0 or more"},
		{[]string{"compare", "--conversation", "9", f, f}, 2, "A has no conversation 9 (its conversations: 1)"},
		{[]string{"compare", f, "../testdata/no-such/run.jsonl"}, 1, "no-such"},
	} {
		code, _, errOut := runCLI(c.args...)
		if code != c.code || !strings.Contains(errOut, c.says) {
			t.Errorf("%v: exit %d, %q; want %d saying %q", c.args, code, errOut, c.code, c.says)
		}
	}
}

// The diff's JSON of a hostile recording holds no control a terminal
// would act on (a C1 CSI, a bidi override): they are \u escapes, as in
// every document of ours, and the JSON still reads.
func TestDiffJSONHostile(t *testing.T) {
	h, s01 := hostileRun(t), "../testdata/s01-basic-loop/run.jsonl"
	code, out, errOut := runCLI("diff", "--format", "json", h, s01)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, r := range out {
		if r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069) {
			t.Fatalf("%U is raw in the JSON", r)
		}
	}
	if !json.Valid([]byte(out)) || !strings.Contains(out, `\u009b`) || !strings.Contains(out, `\u202e`) {
		t.Errorf("the JSON does not read, or the CSI is not escaped: %.300s", out)
	}
}
