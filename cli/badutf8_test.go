package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// s01 with bytes that are not UTF-8 (a raw 0x9b, the 8-bit CSI; 0xff; a
// surrogate's three bytes) in a tool call's argument value, and a lone
// surrogate escape in the prompt.
func badUTF8Log(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(s01)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.ReplaceAll(data, []byte(`"q":"search_docs-1"`), []byte("\"q\":\"search\x9b\xff\xed\xa0\xbd docs-1\""))
	data = bytes.ReplaceAll(data, []byte(`Find out why`), []byte(`Find \ud83d out why`))
	path := filepath.Join(t.TempDir(), "badutf8.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// export's JSON is UTF-8 whatever bytes the arguments held: each byte
// that is not UTF-8 is U+FFFD, as the problem line on its line says.
func TestExportIsUTF8(t *testing.T) {
	path := badUTF8Log(t)
	code, out, errs := runCLI("export", "-q", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !utf8.ValidString(out) || !json.Valid([]byte(out)) {
		i := strings.IndexFunc(out, func(r rune) bool { return r == utf8.RuneError })
		t.Fatalf("export is not UTF-8 JSON (first bad character at %d)", i)
	}
	var doc struct {
		Problems []struct{ Message string }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	said := 0
	for _, p := range doc.Problems {
		if strings.Contains(p.Message, "invalid UTF-8 (shown as U+FFFD)") {
			said++
		}
	}
	// the argument is in the tool_start, the llm_end and the iteration_end
	// histories that repeat it: every one of its lines says so
	if said == 0 {
		t.Errorf("no problem line names the invalid UTF-8: %v", doc.Problems)
	}
	want := `"q":"search\ufffd\ufffd\ufffd\ufffd\ufffd docs-1"` // five bytes, five U+FFFD
	if n := strings.Count(out, want); n == 0 || strings.Contains(out, `"q":"search_docs-1"`) {
		t.Errorf("the argument is written %d times as %s (and the original %v)", n, want, strings.Contains(out, `"q":"search_docs-1"`))
	}
	if !strings.Contains(out, `Find \ud83d out why`) {
		t.Errorf("the lone surrogate is not exported as the library wrote it")
	}
}

// --strict-json writes a lone surrogate as \ufffd and says how many.
func TestExportStrictJSON(t *testing.T) {
	path := badUTF8Log(t)
	code, out, errs := runCLI("export", "-q", "--strict-json", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(strings.ToLower(out), `\ud8`) || !strings.Contains(out, `Find \ufffd out why`) || !json.Valid([]byte(out)) {
		t.Errorf("--strict-json still writes a lone surrogate, or not \\ufffd for it")
	}
	if !strings.Contains(errs, "lone surrogate(s) written as \\ufffd (--strict-json)") {
		t.Errorf("stderr does not say the surrogates were replaced: %q", errs)
	}
}
