package main

import (
	"os"
	"strings"
	"testing"

	"github.com/afinspect/inspect/tui/keys"
)

// The key reference in docs/keys.md is what the key map writes: a key
// added, moved or reworded without `go generate ./tui` fails here.
func TestKeysPageIsTheKeyMap(t *testing.T) {
	page, err := os.ReadFile("../../docs/keys.md")
	if err != nil {
		t.Fatal(err)
	}
	want := render(keys.DefaultKeyMap())
	if string(page) != want {
		t.Errorf("docs/keys.md is not the key map's reference; run `go generate ./tui`.\nfirst difference at byte %d", firstDiff(string(page), want))
	}
	// every key of the full help is on the page, with its words
	for _, col := range keys.DefaultKeyMap().FullHelp() {
		for _, b := range col {
			if row := "| `" + b.Help().Key + "` | " + b.Help().Desc + " |"; !strings.Contains(want, row) {
				t.Errorf("the reference has no row %q", row)
			}
		}
	}
}

func firstDiff(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
