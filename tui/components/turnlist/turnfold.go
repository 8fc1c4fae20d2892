package turnlist

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
func (l *TurnList) toggleFold() {
	if l.Cursor >= len(l.Items) {
		return
	}
	it := l.Items[l.Cursor]
	switch {
	case it.Kind == FoldItem:
		k := l.c.Session.Rows.At(it.Row).Key
		l.expanded[k] = true
		l.Reselect(k)
	case it.fold != "" && l.expanded[it.fold]:
		delete(l.expanded, it.fold)
		l.build()
		l.cursorTo(func(x Item) bool { return x.Kind == FoldItem && l.c.Session.Rows.At(x.Row).Key == it.fold })
	}
}

// Show puts the cursor on the row with key k, opening its fold.
func (l *TurnList) Show(k string) bool {
	for _, it := range l.Items {
		if it.Kind == FoldItem {
			for i := it.Row; i < it.Row+it.N; i++ {
				if l.c.Session.Rows.At(i).Key == k {
					l.expanded[l.c.Session.Rows.At(it.Row).Key] = true
				}
			}
		}
	}
	l.build()
	l.Chosen = true
	return l.cursorTo(func(it Item) bool { return it.Kind == TurnItem && l.c.Session.Rows.At(it.Row).Key == k })
}

// build lists the session's rows as items: separators, turns, folds.
func (l *TurnList) build() {
	l.Items = l.Items[:0]
	if l.c.Session == nil {
		return
	}
	starts := runStarts(l.c.Session.Rec)
	rows := l.c.Session.Rows
	breaks := runBreaks(rows, starts)
	at := slices.Sorted(maps.Keys(breaks)) // the break rows in order: at[next] is the first past i
	next := 0
	fold := rows.Len() > l.height
	for i := 0; i < rows.Len(); {
		if run, ok := breaks[i]; ok {
			l.Items = append(l.Items, Item{Kind: RunItem, Run: run})
		}
		if rows.At(i).Fate != window.FateGone {
			l.Items = append(l.Items, Item{Kind: TurnItem, Row: i})
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
		case fold && j-i >= FoldMin && !l.expanded[k]:
			l.Items = append(l.Items, Item{Kind: FoldItem, Row: i, N: j - i})
		default:
			for x := i; x < j; x++ {
				it := Item{Kind: TurnItem, Row: x}
				if j-i >= FoldMin {
					it.fold = k
				}
				l.Items = append(l.Items, it)
			}
		}
		i = j
	}
	if l.c.Session.Current() != nil {
		l.Items = append(l.Items, Item{Kind: ResponseItem})
	}
	l.Cursor = max(0, min(l.Cursor, len(l.Items)-1))
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

// LastLeft is the latest call at which rows i..i+n-1 left.
func LastLeft(rows *window.Ledger, i, n int) int { return max(0, rows.LastLeft(i, i+n)) }
