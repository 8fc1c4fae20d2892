package cli

import "fmt"

// colorWanted says whether a plain-text writer colours what it writes,
// by the conventions other tools keep: NO_COLOR (set and not empty) never;
// CLICOLOR_FORCE (set and not "0") always, a pipe too; TERM=dumb or
// CLICOLOR=0 never; else only on a terminal.
func colorWanted(terminal bool, getenv func(string) string) bool {
	switch {
	case getenv("NO_COLOR") != "":
		return false
	case getenv("CLICOLOR_FORCE") != "" && getenv("CLICOLOR_FORCE") != "0":
		return true
	case getenv("TERM") == "dumb", getenv("CLICOLOR") == "0":
		return false
	}
	return terminal
}

// dumbTerminal is why the terminal UI cannot run under TERM=dumb (a
// terminal that cannot move the cursor: an editor's shell buffer, say),
// and what to run instead; "" otherwise.
func dumbTerminal(getenv func(string) string) error {
	if getenv("TERM") != "dumb" {
		return nil
	}
	return fmt.Errorf("TERM=dumb: this terminal cannot move the cursor, which the UI needs; inspect report FILE prints the table (or set TERM to your terminal's name)")
}
