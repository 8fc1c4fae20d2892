package window

import (
	"reflect"
	"testing"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
)

// The ledger view at every call of every recording here, under the
// inferred policy and under others, lists the rows the turn log lists
// when walked whole (ledgerByLog, the walk the view replaced), and its
// counts, stretches and lookups agree with those rows.
func TestLedgerViewIsTheWholeWalk(t *testing.T) {
	paths := recordingPaths(t, true)
	defer func() { indexFromLog = false }()
	for _, path := range paths {
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		inf := Infer(rec)
		policies := []model.Policy{inf.Policy}
		for _, k := range []int{1, 3} {
			p := inf.Policy
			p.KeepRecentTurns, p.KeepLastToolResults = k, k-1
			policies = append(policies, p)
		}
		for i, p := range policies {
			indexFromLog = i%2 == 1 // the index begun with the log, and made from it
			r := RunFolds(rec, lineage.Decide(rec), p, inf.Folds)
			for c := range r.Calls {
				checkView(t, path, r, c)
			}
		}
	}
}

func checkView(t *testing.T, path string, r *Replay, c int) {
	t.Helper()
	want := ledgerByLog(r, c)
	l := r.LedgerAt(c)
	got := l.Rows()
	if len(want) == 0 && len(got) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s call %d: the view lists\n%+v\nthe walk\n%+v", path, c+1, got, want)
	}
	sent, gone := 0, 0
	for i, w := range want {
		if !reflect.DeepEqual(*l.At(i), w) {
			t.Fatalf("%s call %d: At(%d) = %+v, want %+v", path, c+1, i, *l.At(i), w)
		}
		if w.Sent {
			sent++
		}
		if w.Fate == FateGone {
			gone++
		}
		end := i
		for end < len(want) && want[end].Fate == FateGone {
			end++
		}
		if g := l.GoneUntil(i); g != end {
			t.Fatalf("%s call %d: GoneUntil(%d) = %d, want %d", path, c+1, i, g, end)
		}
		last := -1
		for _, x := range want[i:end] {
			last = max(last, x.LeftAt)
		}
		if end > i && l.LastLeft(i, end) != last {
			t.Fatalf("%s call %d: LastLeft(%d, %d) = %d, want %d", path, c+1, i, end, l.LastLeft(i, end), last)
		}
		if t2, ok := r.TurnAt(w.Key, c); c == r.LastOn(c) && (!ok || t2.First != w.First || t2.LeftAt != w.LeftAt || t2.WroteAt != w.WroteAt || t2.Placeholder != w.Placeholder) {
			t.Fatalf("%s: TurnOf(%s) = %+v, the last call's row %+v", path, w.Key, t2, w)
		}
		if got := l.Row(w.Key); got == nil || !reflect.DeepEqual(*got, w) {
			t.Fatalf("%s call %d: Row(%s) = %+v, want %+v", path, c+1, w.Key, got, w)
		}
		if j := l.IndexOf(w.Messages[0]); j != i {
			t.Fatalf("%s call %d: IndexOf(row %d's head) = %d", path, c+1, i, j)
		}
	}
	if l.Len() != len(want) || l.Sent() != sent || l.Gone() != gone {
		t.Fatalf("%s call %d: Len, Sent, Gone = %d, %d, %d; want %d, %d, %d", path, c+1, l.Len(), l.Sent(), l.Gone(), len(want), sent, gone)
	}
}

// ledgerByLog is the ledger as it was made before the view: every log
// entry (of call's chain, where the conversation branches) walked at
// every call.
func ledgerByLog(r *Replay, call int) []Row {
	if call < 0 || call >= len(r.Calls) {
		return nil
	}
	r = r.on(call)
	log := r.turnLog()
	v := &r.Calls[call].Visit
	rows := make([]Row, 0, len(log))
	at := make([]int32, 0, len(log)) // log index → row index (-1: not listed at call)
	for i := range log {
		e := &log[i]
		if int(e.first) > call {
			at = append(at, -1)
			continue
		}
		at = append(at, int32(len(rows)))
		row := Row{Key: e.key, Messages: e.msgs, Fate: FateGone, Turn: -1, LeftAt: int(e.left), First: int(e.first), WroteAt: int(e.wroteAt), Placeholder: e.placeholder}
		if int(e.left) > call {
			row.LeftAt = -1
		}
		if int(e.wroteAt) == call {
			row.Fate, row.Sent = FateNotice, !row.Placeholder
			if e.head().IsFrame() {
				row.Fate = FateSummary
			}
		}
		rows = append(rows, row)
	}
	fates := v.Turns()
	for ti, t := range fates {
		li, ok := r.placeOf(v.Before[t.Start])
		if !ok || at[li] < 0 {
			continue
		}
		row := &rows[at[li]]
		row.Fate, row.Sent, row.Turn = "", false, ti
		r.fateAt(call, fates, ti, row)
	}
	return rows
}
