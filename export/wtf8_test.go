package export

import (
	"encoding/json"
	"testing"
)

// withSurrogates writes each lone surrogate as its escape wherever the
// string is (a pointer, a slice, a map key), a byte that is not UTF-8 as
// \ufffd, U+FFFD and private-use characters as they are, raw JSON as is.
func TestLoneSurrogateIsExportedAsItsEscape(t *testing.T) {
	type inner struct {
		S    string            `json:"s"`
		M    map[string]string `json:"m"`
		Raw  json.RawMessage   `json:"raw"`
		hide string
	}
	v := struct {
		P  *inner   `json:"p"`
		L  []string `json:"l"`
		OK string   `json:"ok"`
	}{
		P:  &inner{S: "a\xed\xa0\xbdb", M: map[string]string{"k\xed\xb8\x80": "\xff"}, Raw: json.RawMessage(`"\ud800"`), hide: "x"},
		L:  []string{"\ue000\xed\xa0\x80", "\ufffd"},
		OK: "plain",
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := withSurrogates(v, append(b, '\n'))
	want := `{"p":{"s":"a\ud83db","m":{"k\ude00":"\ufffd"},"raw":"\ud800"},"l":["` + "\ue000" + `\ud800","` + "\ufffd" + `"],"ok":"plain"}` + "\n"
	if err != nil || string(got) != want {
		t.Errorf("got  %s\nwant %s (%v)", got, want, err)
	}
}
