// Command keydoc writes the key reference (docs/keys.md) from the
// terminal UI's key map, so that the page says what the keys do and
// cannot drift from them: `go generate ./tui`, or
// `go run ./tui/keydoc -o docs/keys.md`. Its test fails when the page is
// not what the key map writes.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/afinspect/inspect/tui/keys"
)

func main() {
	out := flag.String("o", "", "write the page to this file (default: standard output)")
	flag.Parse()
	page := render(keys.DefaultKeyMap())
	if *out == "" {
		fmt.Print(page)
		return
	}
	if err := os.WriteFile(*out, []byte(page), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "keydoc:", err)
		os.Exit(1)
	}
}

// render is the key reference of k: one table per column of the full
// help, in its order, then the keys of a prompt.
func render(k keys.KeyMap) string {
	var b strings.Builder
	b.WriteString("<!-- Written by tui/keydoc from tui/keys.DefaultKeyMap: edit the key map, then `go generate ./tui`. -->\n\n")
	b.WriteString("# Keys of the terminal UI\n\n")
	b.WriteString("Every key `inspect` answers in the terminal UI, grouped as its `?` screen\n")
	b.WriteString("groups them, as the screen writes them (`e/E`: `e` next, `E` previous).\n")
	b.WriteString("What each view shows is in [guide.md](guide.md).\n")
	groups := k.HelpGroups()
	for i, col := range k.FullHelp() {
		name := fmt.Sprintf("Group %d", i+1)
		if i < len(groups) {
			name = groups[i]
		}
		table(&b, name, col)
	}
	table(&b, "Inside a prompt (go to call, search)", k.PromptHelp())
	return b.String()
}

func table(b *strings.Builder, name string, bs []key.Binding) {
	fmt.Fprintf(b, "\n## %s\n\n| keys | what they do |\n|---|---|\n", name)
	for _, kb := range bs {
		fmt.Fprintf(b, "| `%s` | %s |\n", kb.Help().Key, kb.Help().Desc)
	}
}
