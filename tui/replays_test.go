package tui

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"weak"

	"github.com/afinspect/inspect/tui/session"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/window"
)

// sameWindows fails unless r's windows are those of a replay of rec under
// p made from scratch, by a study of its own (the same messages in the
// same order at every call).
func sameWindows(t *testing.T, what string, rec *model.Recording, r *window.Replay, p model.Policy) {
	t.Helper()
	want := viewOf(t, rec).Replay(p, nil)
	if r.Policy != p || len(r.Calls) != len(want.Calls) {
		t.Fatalf("%s: a replay under %v of %d calls, want %v of %d", what, r.Policy, len(r.Calls), p, len(want.Calls))
	}
	for i := range want.Calls {
		a, b := r.Calls[i].Visit.After, want.Calls[i].Visit.After
		if len(a) != len(b) {
			t.Fatalf("%s: call %d sends %d messages, a fresh replay %d", what, i+1, len(a), len(b))
		}
		for j := range a {
			if a[j].Content != b[j].Content || a[j].Role != b[j].Role {
				t.Fatalf("%s: call %d message %d differs from a fresh replay's", what, i+1, j+1)
			}
		}
	}
}

// Going back to a policy the user set shows its replay at once: the key
// itself puts it on screen, with nothing to wait for.
// (With replays made ahead meanwhile, as on a long run: they must not
// push out the ones the user set.)
func TestKnobBackToAKeptReplay(t *testing.T) {
	defer func(was int) { session.AheadMin = was }(session.AheadMin)
	session.AheadMin = 0
	m := press(open(t, fileConfig(demoLog), 120, 40), "G", "]")
	first := m.s.Replay
	k := m.s.Policy
	m = press(m, "]") // K+2: another replay
	next, _ := m.Update(keyMsg("["))
	m = next.(Model)
	if m.s.Replaying || m.s.Replay != first || m.s.Policy != k {
		t.Fatalf("back to %v: replaying %v, the replay shown is the first one: %v", k, m.s.Replaying, m.s.Replay == first)
	}
	sameWindows(t, "the kept replay", m.s.Rec, m.s.Replay, k)
	if m.s.Diff == nil || m.s.Diff.Now != first {
		t.Error("the kept replay came back without its fate diff")
	}
}

// Once the screen has settled, the policy the last knob key gives if
// pressed again is replayed ahead; pressing it shows that replay at once.
// A key pressed while that replay is still under way waits for it, and
// no second replay of the same policy starts.
func TestKnobReplayedAhead(t *testing.T) {
	defer func(was int) { session.AheadMin = was }(session.AheadMin)
	session.AheadMin = 0 // the demo is short: make ahead what a long run would

	m := press(open(t, fileConfig(demoLog), 120, 40), "G", "]")
	want := m.s.Policy
	want.KeepRecentTurns++
	if m.s.MadeFor(want) == nil {
		t.Fatalf("after ] and a settled screen, %v was not replayed ahead", want)
	}
	next, _ := m.Update(keyMsg("]"))
	m = next.(Model)
	if m.s.Replaying || m.s.Policy != want {
		t.Fatalf("] again: replaying %v under %v, want %v at once", m.s.Replaying, m.s.Policy, want)
	}
	sameWindows(t, "the replay made ahead", m.s.Rec, m.s.Replay, want)

	// hold back the replay ahead, press its key meanwhile, then let it in
	m = open(t, fileConfig(demoLog), 120, 40)
	m = press(m, "G")
	next, cmd := m.Update(keyMsg("}"))
	var held []tea.Msg
	m = runCmds(next.(Model), cmd, func(msg tea.Msg) bool {
		if _, ok := msg.(session.AheadMsg); ok {
			held = append(held, msg)
			return true
		}
		return false
	}, nil)
	if len(held) != 1 || m.s.AheadFor == nil {
		t.Fatalf("after } and a settled screen: %d replays ahead sent, one under way: %v", len(held), m.s.AheadFor != nil)
	}
	ahead := *m.s.AheadFor
	next, cmd = m.Update(keyMsg("}"))
	m = next.(Model)
	if !m.s.Replaying || m.s.Policy != ahead {
		t.Fatalf("} while its replay is under way ahead: replaying %v under %v", m.s.Replaying, m.s.Policy)
	}
	replays := 0
	m = runCmds(m, cmd, func(msg tea.Msg) bool {
		if _, ok := msg.(session.ReplayedMsg); ok {
			replays++
		}
		return false
	}, func(m Model) bool { return !m.s.Replaying })
	if replays != 0 || !m.s.Replaying {
		t.Fatalf("a second replay of the policy made ahead ran (%d), or the screen stopped waiting for it", replays)
	}
	next, _ = m.Update(held[0])
	m = next.(Model)
	if m.s.Replaying || m.s.Policy != ahead {
		t.Fatalf("the replay ahead came back: replaying %v", m.s.Replaying)
	}
	sameWindows(t, "the replay waited for", m.s.Rec, m.s.Replay, ahead)
}

// Once the screen has settled, what ] [ } { p would give from it is
// replayed ahead too (the last key's first, at most aheadMax, none of
// them the recorded policy, which is reused, or one the user set, which
// is held): any of those keys shows its replay at once, and the replays
// ahead of the policy before are let go.
func TestKnobNeighboursReplayedAhead(t *testing.T) {
	defer func(was int) { session.AheadMin = was }(session.AheadMin)
	session.AheadMin = 0 // the demo is short: make ahead what a long run would

	m := press(open(t, fileConfig(demoLog), 120, 40), "G", "]")
	p := m.s.Policy
	moved := func(k, l int) model.Policy {
		q := p
		q.KeepRecentTurns, q.KeepLastToolResults = q.KeepRecentTurns+k, q.KeepLastToolResults+l
		return q
	}
	want := []model.Policy{moved(1, 0), moved(0, 1)} // ] again, }; [ is the recorded policy; { and p past aheadMax
	if got := m.aheadPolicies(); !slices.Equal(got, want) {
		t.Fatalf("from %v, replayed ahead: %v, want %v", p, got, want)
	}
	for _, q := range want {
		if m.s.MadeFor(q) == nil {
			t.Errorf("after ] and a settled screen, %v was not replayed ahead", q)
		}
	}
	next, cmd := m.Update(keyMsg("}"))
	m = next.(Model)
	if m.s.Replaying || m.s.Policy != want[1] {
		t.Fatalf("}: replaying %v under %v, want %v at once", m.s.Replaying, m.s.Policy, want[1])
	}
	sameWindows(t, "the replay made ahead for }", m.s.Rec, m.s.Replay, want[1])
	for _, q := range []model.Policy{want[0]} { // the key itself lets it go
		if m.s.MadeFor(q) != nil && !slices.Contains(m.aheadPolicies(), q) {
			t.Errorf("%v, ahead from the policy before }, is still held", q)
		}
	}

	m = settle(m, cmd) // the screen under } settles: its own neighbours are made
	// under }: } again, then ]; { gives p, held as set, so it takes no place
	under := []model.Policy{moved(0, 2), moved(1, 1)}
	if got := m.aheadPolicies(); !slices.Equal(got, under) {
		t.Errorf("under }, replayed ahead: %v, want %v", got, under)
	}
	if k := m.s.MadeFor(p); k == nil || !m.s.SetBefore(p) {
		t.Errorf("%v, set before }, is not held as set", p)
	}
	for _, q := range m.aheadPolicies() {
		if m.s.MadeFor(q) == nil {
			t.Errorf("under }, %v was not replayed ahead", q)
		}
	}
	if len(m.s.Ahead) > session.AheadMax {
		t.Errorf("%d replays ahead held, at most %d", len(m.s.Ahead), session.AheadMax)
	}
}

// A policy the user set is held, not made ahead: it takes no place among
// the aheadMax replays made ahead. After } then ], [ gives the policy of
// }, so the next likeliest, } from here, is made instead.
func TestKnobAheadSkipsAPolicySet(t *testing.T) {
	defer func(was int) { session.AheadMin = was }(session.AheadMin)
	session.AheadMin = 0 // the demo is short: make ahead what a long run would

	m := press(open(t, fileConfig(demoLog), 120, 40), "G", "}")
	set := m.s.Policy
	m = press(m, "]")
	p := m.s.Policy
	moved := func(k, l int) model.Policy {
		q := p
		q.KeepRecentTurns, q.KeepLastToolResults = q.KeepRecentTurns+k, q.KeepLastToolResults+l
		return q
	}
	want := []model.Policy{moved(1, 0), moved(0, 1)} // ] again, then }: [ gives set
	if got := m.aheadPolicies(); !slices.Equal(got, want) {
		t.Fatalf("from %v after %v, replayed ahead: %v, want %v", p, set, got, want)
	}
	for _, q := range want {
		if m.s.MadeFor(q) == nil {
			t.Errorf("%v was not replayed ahead", q)
		}
	}
	if !m.s.SetBefore(set) || len(m.s.Ahead) != len(want) {
		t.Errorf("%v held as set: %v; %d replays ahead held, want %d", set, m.s.SetBefore(set), len(m.s.Ahead), len(want))
	}
	next, _ := m.Update(keyMsg("}"))
	if m = next.(Model); m.s.Replaying || m.s.Policy != want[1] {
		t.Fatalf("}: replaying %v under %v, want %v at once", m.s.Replaying, m.s.Policy, want[1])
	}
	sameWindows(t, "the replay made ahead for }", m.s.Rec, m.s.Replay, want[1])
}

// With nothing kept (the cold benchmarks), every key is a replay.
func TestKnobColdKeepsNothing(t *testing.T) {
	defer coldKnobs()()
	m := press(open(t, fileConfig(demoLog), 120, 40), "G", "]", "]")
	next, _ := m.Update(keyMsg("["))
	if m = next.(Model); !m.s.Replaying || len(m.s.Recent) != 0 {
		t.Fatalf("cold: back to a policy set before, replaying %v with %d kept", m.s.Replaying, len(m.s.Recent))
	}
}

// A knob key while the last key's replay is under way gives that replay
// up (window.RunNearUntil returns nil once told: TestRunNearUntil), and
// the newer one is shown. The replay starts when its key is read, so on
// a run this short it may be done before the next key: then it comes
// back whole, and is kept as a way back, never shown.
func TestKnobGivesUpTheReplayItMadeMoot(t *testing.T) {
	defer coldKnobs()()
	m := press(open(t, fileConfig(demoLog), 120, 40), "G")
	k := m.s.Policy.KeepRecentTurns
	next, first := m.Update(keyMsg("]"))
	told := next.(Model).s.QuitReplay
	next, second := next.(Model).Update(keyMsg("]"))
	m = next.(Model)
	if told == nil || !told.Load() {
		t.Fatal("the second key did not tell the first key's replay to give up")
	}
	var given []session.ReplayedMsg
	m = runCmds(m, first, func(msg tea.Msg) bool {
		if r, ok := msg.(session.ReplayedMsg); ok {
			given = append(given, r)
		}
		return false
	}, nil)
	if len(given) != 1 {
		t.Fatalf("the replay made moot came back %d times", len(given))
	}
	if g := given[0]; g.Replay != nil && g.Replay.Policy.KeepRecentTurns != k+1 {
		t.Fatalf("the replay made moot came back under keepRecentTurns %d, want %d", g.Replay.Policy.KeepRecentTurns, k+1)
	}
	m = runCmds(m, second, nil, func(m Model) bool { return !m.s.Replaying })
	if m.s.Replaying || m.s.Replay.Policy.KeepRecentTurns != k+2 {
		t.Fatalf("the newer key's replay is not on screen: replaying %v, keepRecentTurns %d", m.s.Replaying, m.s.Replay.Policy.KeepRecentTurns)
	}
}

// A knob's replay comes with the timeline's cells, made off the UI
// goroutine at the width the key was pressed at: the frame that shows
// the replay draws them as they are, and a width changed meanwhile has
// them made afresh.
func TestKnobTimelineCellsComeWithTheReplay(t *testing.T) {
	for _, resize := range []bool{false, true} {
		m := press(open(t, fileConfig(demoLog), 120, 40), "G")
		next, cmd := m.Update(keyMsg("]"))
		m = next.(Model)
		if resize { // the terminal narrows before the replay is back
			m = send(m, tea.WindowSizeMsg{Width: 30, Height: 40})
		}
		m, _ = untilShown(m, cmd)
		if m.s.Replaying {
			t.Fatal("the replay did not come back")
		}
		memo := m.timeline.Memo
		if memo.Replay != m.s.Replay {
			t.Fatalf("resized %v: no cells came with the replay", resize)
		}
		if fit := memo.Cells == m.timeline.Cells(); fit == resize {
			t.Fatalf("resized %v: the cells made with the replay fit the screen: %v", resize, fit)
		}
		frame := m.View()
		m.timeline.Memo = session.TimelineCells{} // drawn again from nothing
		if again := m.View(); again != frame {
			t.Fatalf("resized %v: the frame drawn with the replay's cells differs from one drawn afresh", resize)
		}
	}
}

// A knob's frame does not wait for the fates of every turn against the
// recorded policy: it shows the new window and says it is comparing;
// the count follows, the one a row-by-row comparison of the two ledgers
// gives.
func TestKnobFatesFollowTheFrame(t *testing.T) {
	m := press(open(t, fileConfig(demoLog), 120, 40), "G")
	next, cmd := m.Update(keyMsg("]"))
	m, rest := untilShown(next.(Model), cmd)
	if m.s.Replaying || !m.s.Changes.Pending {
		t.Fatalf("the knob's frame: replaying %v, fates pending %v; want the frame, fates pending", m.s.Replaying, m.s.Changes.Pending)
	}
	if status := m.bar.Status(); !strings.Contains(status, "comparing") {
		t.Fatalf("the policy bar says %q while the fates are made", status)
	}
	for _, c := range rest {
		m = settle(m, c)
	}
	if m.s.Changes.Pending || m.s.Diff == nil || m.s.Diff.Now != m.s.Replay {
		t.Fatal("the fates never came")
	}
	want := session.CompareRows(m.s.Recorded.Ledger(m.s.Call), m.s.Replay.Ledger(m.s.Call)).Count()
	if got := m.s.Changes.Count(); got != want || want == 0 {
		t.Fatalf("%d turns differ at the last call, row by row %d (want some)", got, want)
	}
	if status := m.bar.Status(); !strings.Contains(status, fmt.Sprintf("≠ %d turn(s) differ", want)) {
		t.Fatalf("the policy bar says %q once the fates came", status)
	}
}

// A user pressing knob after knob keeps only the replays replays.go holds:
// the replay and book of a policy set long ago are let go, with the
// evidence judgement made of them (at call 50,000 each replay and book
// is some 80 MB; every one kept made the heap grow by that much a key).
func TestKnobKeysLetOldReplaysGo(t *testing.T) {
	defer func(was int) { session.AheadMin = was }(session.AheadMin)
	session.AheadMin = 0 // replays made ahead too, as on a long run
	m := press(open(t, fileConfig(demoLog), 120, 40), "G", "]")
	if m.s.Book == nil || len(m.s.Judgements) == 0 {
		t.Fatal("after ] and a settled screen, the replay has no book or no judgement")
	}
	replay, book := weak.Make(m.s.Replay), weak.Make(m.s.Book)
	for range session.RecentReplays + 2 {
		m = press(m, "]")
	}
	runtime.GC()
	if replay.Value() != nil || book.Value() != nil {
		t.Errorf("%d knob keys later, the first replay is still held: replay %v, book %v",
			session.RecentReplays+2, replay.Value() != nil, book.Value() != nil)
	}
	// what stays is still judged: the screen's, the recorded, the kept
	for _, b := range []*provenance.Book{m.s.Book, m.s.RecordedBook} {
		if _, ok := m.s.Judgements[b]; !ok {
			t.Error("a book still on screen or recorded lost its judgement")
		}
	}
	if n := len(m.s.Judgements); n > session.RecentReplays+2 {
		t.Errorf("%d judgements held, want at most %d (kept, ahead, recorded)", n, session.RecentReplays+2)
	}
}

// While the evidence pass of a long run waits (judgeWait) or was given up
// for a newer key, a screen with fresh garbage is collected: a user
// pressing a knob every second never lets the pass finish, and the next
// replay met a collection half way (PAUSE=1 scripts/pty-knob.py at 50k
// calls: median 82 ms, slowest 324; collected so, 51 and 73). Not while
// the pass runs: it would only slow it.
func TestIdleCollectsBeforeTheEvidencePass(t *testing.T) {
	defer func(was int) { session.AheadMin = was }(session.AheadMin)
	session.AheadMin = 0
	defer coldKnobs()() // nothing to replay ahead: only the collection is left to do
	m := press(open(t, fileConfig(demoLog), 120, 40), "G", "]")
	if m.s.Book == nil {
		t.Fatal("after ] and a settled screen, the replay has no book")
	}
	// as a long run's screen is before its evidence pass: book made, not judged
	delete(m.s.Judgements, m.s.Book)
	delete(m.s.Judging, m.s.Book)
	m.s.Dirty = true
	if ahead, collect := m.idleTask(); ahead != nil || !collect {
		t.Fatalf("before the evidence pass: ahead %v, collect %v; want the heap collected", ahead, collect)
	}
	m.s.Judging[m.s.Book] = true // the pass under way
	if _, collect := m.idleTask(); collect {
		t.Error("the heap is collected while the evidence pass runs")
	}
}

// The book of a knob's replay starts after its frame; a knob key before
// it is done gives it up (provenance.NewUntil), so that it does not take
// a core from the next replay. Back on that policy, its replay is shown
// again and its book asked for afresh.
func TestKnobGivesUpTheBookItLeaves(t *testing.T) {
	m := press(open(t, fileConfig(demoLog), 120, 40), "G")
	next, cmd := m.Update(keyMsg("]"))
	m, rest := untilShown(next.(Model), cmd)
	if m.s.Replaying || m.s.Book != nil {
		t.Fatalf("the knob's frame: replaying %v, book %v; want the frame before its book", m.s.Replaying, m.s.Book != nil)
	}
	told := m.s.QuitBook
	left := m.s.Replay
	if told == nil {
		t.Fatal("no book was asked for with the knob's frame")
	}
	next, cmd2 := m.Update(keyMsg("]"))
	m = next.(Model)
	if !told.Load() {
		t.Fatal("the next knob key did not give up the book of the replay it left")
	}
	for _, c := range rest { // the book given up comes back as none
		m = settle(m, c)
	}
	if made := m.s.MadeFor(left.Policy); made != nil && made.Book != nil {
		t.Fatal("the book given up was kept as the held replay's")
	}
	m = settle(m, cmd2)
	if m.s.Book == nil || m.s.Replay.Policy.KeepRecentTurns != left.Policy.KeepRecentTurns+1 {
		t.Fatal("the newer key's replay has no book once settled")
	}
	m = press(m, "[")
	if m.s.Replay != left || m.s.Book == nil {
		t.Fatalf("back on the policy left: its held replay %v, book %v", m.s.Replay == left, m.s.Book != nil)
	}
}
