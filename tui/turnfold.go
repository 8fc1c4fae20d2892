package tui

import (
	"maps"
	"slices"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// The turn list's lines: a separator opens each run after the first, and
// when the list is longer than its pane each run's stretches of gone
// turns (foldMin or more in a row) fold into one row that enter opens.

// toggleFold opens the fold under the cursor, or closes the opened
// stretch the cursor is in.
func (l *turnList) toggleFold() {
	if l.cursor >= len(l.items) {
		return
	}
	it := l.items[l.cursor]
	switch {
	case it.kind == foldItem:
		k := l.s.Rows.At(it.row).Key
		l.expanded[k] = true
		l.reselect(k)
	case it.fold != "" && l.expanded[it.fold]:
		delete(l.expanded, it.fold)
		l.build()
		l.cursorTo(func(x listItem) bool { return x.kind == foldItem && l.s.Rows.At(x.row).Key == it.fold })
	}
}

// show puts the cursor on the row with key k, opening its fold.
func (l *turnList) show(k string) bool {
	for _, it := range l.items {
		if it.kind == foldItem {
			for i := it.row; i < it.row+it.n; i++ {
				if l.s.Rows.At(i).Key == k {
					l.expanded[l.s.Rows.At(it.row).Key] = true
				}
			}
		}
	}
	l.build()
	l.chosen = true
	return l.cursorTo(func(it listItem) bool { return it.kind == turnItem && l.s.Rows.At(it.row).Key == k })
}

// build lists the session's rows as items: separators, turns, folds.
func (l *turnList) build() {
	l.items = l.items[:0]
	if l.s == nil {
		return
	}
	starts := runStarts(l.s.Rec)
	rows := l.s.Rows
	breaks := runBreaks(rows, starts)
	at := slices.Sorted(maps.Keys(breaks)) // the break rows in order: at[next] is the first past i
	next := 0
	fold := rows.Len() > l.height
	for i := 0; i < rows.Len(); {
		if run, ok := breaks[i]; ok {
			l.items = append(l.items, listItem{kind: runItem, run: run})
		}
		if rows.At(i).Fate != window.FateGone {
			l.items = append(l.items, listItem{kind: turnItem, row: i})
			i++
			continue
		}
		j := rows.GoneUntil(i)
		for next < len(at) && at[next] <= i {
			next++
		}
		if next < len(at) && at[next] < j { // a run's first turn opens a stretch of its own
			j = at[next]
		}
		k := rows.At(i).Key
		switch {
		case l.hideGone:
		case fold && j-i >= foldMin && !l.expanded[k]:
			l.items = append(l.items, listItem{kind: foldItem, row: i, n: j - i})
		default:
			for x := i; x < j; x++ {
				it := listItem{kind: turnItem, row: x}
				if j-i >= foldMin {
					it.fold = k
				}
				l.items = append(l.items, it)
			}
		}
		i = j
	}
	if l.s.Current() != nil {
		l.items = append(l.items, listItem{kind: responseItem})
	}
	l.cursor = max(0, min(l.cursor, len(l.items)-1))
}

// runStarts maps each later run's request message to the run's index.
func runStarts(rec *model.Recording) map[*model.Message]int {
	m := map[*model.Message]int{}
	if rec == nil {
		return m
	}
	for i, r := range rec.Runs { // the runs of the conversation on screen, numbered as the header does
		if i > 0 && r.RequestMessage != nil {
			m[r.RequestMessage] = i + 1
		}
	}
	return m
}

// runBreaks maps the row of each later run's request to the run's index.
func runBreaks(rows *window.Ledger, starts map[*model.Message]int) map[int]int {
	out := make(map[int]int, len(starts))
	for m, run := range starts {
		if i := rows.IndexOf(m); i >= 0 {
			out[i] = run
		}
	}
	return out
}

// lastLeft is the latest call at which rows i..i+n-1 left.
func lastLeft(rows *window.Ledger, i, n int) int { return max(0, rows.LastLeft(i, i+n)) }
