package tui

import (
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
		k := l.s.rows[it.row].Key
		l.expanded[k] = true
		l.keep(k)
	case it.fold != "" && l.expanded[it.fold]:
		delete(l.expanded, it.fold)
		l.build()
		l.cursorTo(func(x listItem) bool { return x.kind == foldItem && l.s.rows[x.row].Key == it.fold })
	}
}

// show puts the cursor on the row with key k, opening its fold.
func (l *turnList) show(k string) bool {
	for _, it := range l.items {
		if it.kind == foldItem {
			for _, r := range l.s.rows[it.row : it.row+it.n] {
				if r.Key == k {
					l.expanded[l.s.rows[it.row].Key] = true
				}
			}
		}
	}
	l.build()
	l.chosen = true
	return l.cursorTo(func(it listItem) bool { return it.kind == turnItem && l.s.rows[it.row].Key == k })
}

// build lists the session's rows as items: separators, turns, folds.
func (l *turnList) build() {
	l.items = l.items[:0]
	if l.s == nil {
		return
	}
	starts := runStarts(l.s.rec)
	rows := l.s.rows
	fold := len(rows) > l.height
	for i := 0; i < len(rows); {
		if run, ok := starts[rows[i].Messages[0]]; ok {
			l.items = append(l.items, listItem{kind: runItem, run: run})
		}
		if rows[i].Fate != window.FateGone {
			l.items = append(l.items, listItem{kind: turnItem, row: i})
			i++
			continue
		}
		j := i + 1
		for j < len(rows) && rows[j].Fate == window.FateGone && !isStart(starts, rows[j]) {
			j++
		}
		k := rows[i].Key
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
	if l.s.current() != nil {
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

func isStart(starts map[*model.Message]int, r window.Row) bool {
	_, ok := starts[r.Messages[0]]
	return ok
}

func lastLeft(rs []window.Row) int {
	n := 0
	for _, r := range rs {
		n = max(n, r.LeftAt)
	}
	return n
}
