package main

import (
	"fmt"
	"io"
	"time"

	"github.com/afinspect/inspect/loader"
)

// showProgress writes a one-line progress report to w (a terminal) every
// quarter second until l is done, then clears the line. A load that is
// over before the first report prints nothing.
func showProgress(l *loader.Loading, w io.Writer) {
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	shown := false
	for {
		select {
		case <-l.Done():
			if shown {
				fmt.Fprint(w, "\r\x1b[K")
			}
			return
		case <-t.C:
			p := l.Progress()
			pct := ""
			if p.Total > 0 {
				pct = fmt.Sprintf("%3d%% ", p.Bytes*100/p.Total)
			}
			fmt.Fprintf(w, "\r\x1b[Kinspect: loading %s%d MB, %d calls", pct, p.Bytes>>20, p.Calls)
			shown = true
		}
	}
}
