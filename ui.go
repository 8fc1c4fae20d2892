package main

import (
	"fmt"
	"io"
	"os"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/tui"
	"github.com/afinspect/inspect/window"
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
		Open:   func() *tui.Stream { return stream(start(path, o.maxLine()), o.library) },
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

// stream shows a load in progress to the terminal UI, each recording it
// hands over settled on the library version whose rules it replays under
// (library: --library-version, validated already; "" to tell it from the
// file).
func stream(l *loader.Loading, library string) *tui.Stream {
	settled := func(rec *model.Recording) *model.Recording {
		if rec != nil {
			_ = window.SettleLibrary(rec, nil, library)
		}
		return rec
	}
	return &tui.Stream{
		Progress: func() (int64, int64, int) {
			p := l.Progress()
			return p.Bytes, p.Total, p.Calls
		},
		Snapshot: func() *model.Recording { return settled(l.Snapshot()) },
		Done:     l.Done(),
		Wait: func() (*model.Recording, error) {
			rec, err := l.Wait()
			return settled(rec), err
		},
	}
}
