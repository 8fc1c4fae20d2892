package main

import (
	"fmt"
	"io"
	"os"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/tui"
)

// runUI opens the terminal UI on path (the embedded demo when empty). A
// file that cannot be opened at all is said before the screen is taken.
func runUI(path string, o options, stderr io.Writer) int {
	name := path
	switch path {
	case "":
		name = "demo"
	case "-":
		name = "stdin"
	}
	if err := tui.ApplyTheme(o.theme, os.Getenv("COLORFGBG")); err != nil {
		fmt.Fprintf(stderr, "inspect: %v\n", err)
		return 2
	}
	err := tui.Run(tui.Config{
		Name:   name,
		Open:   func() *tui.Stream { return stream(start(path, o.maxLine())) },
		Start:  o.apply,
		Path:   filePath(path),
		Follow: o.follow,
	})
	if err != nil {
		fmt.Fprintf(stderr, "inspect: %v\n", err)
		return 1
	}
	return 0
}

// filePath is path when it names a file that can be read again, ""
// for the demo and standard input.
func filePath(path string) string {
	if path == "-" {
		return ""
	}
	return path
}

// stream shows a load in progress to the terminal UI.
func stream(l *loader.Loading) *tui.Stream {
	return &tui.Stream{
		Progress: func() (int64, int64, int) {
			p := l.Progress()
			return p.Bytes, p.Total, p.Calls
		},
		Snapshot: l.Snapshot,
		Done:     l.Done(),
		Wait:     l.Wait,
	}
}
