package cli

import (
	"regexp"
	"strings"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// surrogateLines is s01-basic-loop with a lone high surrogate in the user
// prompt and a lone low one in the first tool result, as JavaScript's
// slice leaves them when it cuts an emoji, spelled as JSON.stringify
// writes them.
func surrogateLines(t *testing.T) []string {
	var lines []string
	for _, l := range s01Lines(t) {
		l = strings.ReplaceAll(l, "Find out why", `Find \ud83d out why`)
		l = strings.ReplaceAll(l, "search_docs#1 q=", `search_docs#1 \ude00q=`)
		lines = append(lines, l)
	}
	return lines
}

// firstLiteral is the first JSON string literal (with its quotes) that
// follows key in s.
func firstLiteral(t *testing.T, s, key string) string {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(key) + `("(?:[^"\\]|\\.)*")`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no %s in the output", key)
	}
	return m[1]
}

// A lone surrogate was read as U+FFFD: export wrote \ufffd where the
// library wrote \ud83d, lengths and contentHash counted another unit.
// It is now kept as the UTF-16 unit it is.
func TestLoneSurrogateIsKeptAsItsUTF16Unit(t *testing.T) {
	lines := surrogateLines(t)
	path := writeLines(t, lines)
	log := strings.Join(lines, "\n")

	code, out, errOut := runCLI("export", "--format", "json", path)
	if code != 0 {
		t.Fatalf("export exit %d: %s", code, errOut)
	}
	for _, c := range []struct{ in, out string }{
		{`"userPrompt":`, `"role":"user","content":`},
		{`"result":`, `"role":"tool","content":`},
	} {
		want, got := firstLiteral(t, log, c.in), firstLiteral(t, out, c.out)
		if got != want {
			t.Errorf("exported %.120s\nthe log has  %.120s", got, want)
		}
	}
	if !strings.Contains(out, `Find \ud83d out`) || !strings.Contains(out, `search_docs#1 \ude00q=`) || strings.Contains(out, `\ufffd`) {
		t.Errorf("the export does not spell the surrogates as the log does")
	}

	rec, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	var prompt, result *model.Message
	for _, c := range rec.Runs[0].Calls {
		for _, m := range c.Recorded {
			if m.Role == model.RoleUser && prompt == nil {
				prompt = m
			}
			if m.Role == model.RoleTool && result == nil {
				result = m
			}
		}
	}
	if prompt == nil || result == nil {
		t.Fatal("no user prompt or tool result in the recorded windows")
	}
	// "Find out why the config loader ignores the override file, and
	// confirm with the database." is 88 units; " \ud83d" adds 2.
	if n := model.Len(prompt.Content); n != 90 {
		t.Errorf("prompt length %d, want 90", n)
	}
	// the tool result is the log's text with "\ude00" one unit
	lit := firstLiteral(t, log, `"result":`)
	if n, want := model.Len(result.Content), len(lit)-2-len(`\ude00`)+1; n != want || strings.Contains(lit[1:len(lit)-1], `\`+"\"") {
		t.Errorf("tool result length %d, want %d", n, want)
	}

	// contentHash: FNV-1a over the UTF-16 units of "user:0:" + prompt,
	// the units written out by hand.
	var units []uint16
	for _, c := range []byte("user:0:Find ") {
		units = append(units, uint16(c))
	}
	units = append(units, 0xD83D)
	for _, c := range []byte(" out why the config loader ignores the override file, and confirm with the database.") {
		units = append(units, uint16(c))
	}
	h := uint32(2166136261)
	for _, u := range units {
		h = (h ^ uint32(u)) * 16777619
	}
	if got := window.ContentHash("user", 0, prompt.Content); got != h {
		t.Errorf("contentHash %#x, FNV-1a over the units %#x", got, h)
	}
}
