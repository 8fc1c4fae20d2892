package main

import (
	"fmt"
	"io"
)

// runUI opens the terminal UI on path (the demo when empty).
func runUI(path string, o options, stderr io.Writer) int {
	fmt.Fprintln(stderr, "inspect: the terminal UI is not built yet; use `inspect report FILE`")
	return 2
}
