package tui

import (
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
)

// session is what every component reads: the conversation on screen,
// its replay under its agent's recorded policy and under the user's, and
// the call on screen. The root model owns it and is the only one that
// changes it. The policies and the replays are the study's: the screen
// asks it, and settles nothing itself.
type session struct {
	name  string
	study *study.Study
	view  *study.View      // the conversation on screen
	agent *study.Agent     // its agent and its settled policy
	rec   *model.Recording // view.Rec: the conversation on screen (the whole file when it holds one)
	views *views           // the file's conversations, for the picker
	// problems are the study's (loader, lineage, replay under the settled
	// policies), as report and export list them; problemCount counts the
	// unlisted too
	problems     []model.Problem
	problemCount int
	recorded     *window.Replay // under agent.Recorded
	replay       *window.Replay // under policy; == recorded while unchanged
	policy       model.Policy
	lastPins     int // keepLastToolResults to restore when pins come back on
	replaying    bool

	// outcomes is what became of each answer of the conversation's runs
	// (docs/rules/evidence.md §9.4); a call that is no answer has none
	outcomes map[*model.Call]string
	// numbersDiffer: the file numbers some call otherwise than the screen
	numbersDiffer bool

	call    int            // 0-based index into replay.Calls
	rows    *window.Ledger // replay.LedgerAt(call)
	changes fateChanges    // rows whose fate differs from the recorded policy's
	diff    *fateDiff      // recorded against replay, once per replay (fateOf)
	// diffing is the replay whose fateDiff is being made (diffCmd): until
	// it comes, the turns on screen are compared one by one and the count
	// of those that differ waits for it
	diffing *window.Replay

	// the values of each response judged against recorded and replay
	// (provenance.Book of each; made with them, off the UI goroutine)
	recordedBook, book *provenance.Book
	// lent is a book an evidence job (evidenceJob) is judging a call with,
	// off the UI goroutine: nothing here touches it until evidenceMsg;
	// wanted is 1 + the call whose values the screen waits for
	lent   *provenance.Book
	wanted int
	// judgements says, for each book, which calls have a value typed,
	// not read, and which used a source out of view (judgeCmd fills it
	// off the UI goroutine); judging: asked for
	judgements map[*provenance.Book]judgement
	judging    map[*provenance.Book]bool
	judgeStops map[*provenance.Book]*atomic.Bool // of the judge jobs under way (dropJudges)
	// walker is the book that judged recordedBook's calls, kept to judge
	// the calls a followed file appends (grownFrom); nil when none.
	// growing: the file is followed, and judged so (provenance.WalkOn)
	walker    *provenance.Book
	growing   bool
	shownAt   time.Time // when a knob's replay came on screen (judgeWait)
	judgeTick bool      // a judgeSoonMsg is on its way

	recent   []madeReplay  // replays under the last policies the user set (replays.go)
	ahead    []madeReplay  // replays made ahead (replays.go), oldest first
	aheadFor *model.Policy // the policy being replayed ahead, nil for none
	dirty    bool          // replays or their books were made since the heap was last collected
	idleTick bool          // an idleMsg is on its way
	// quits give up the replays under way for the screen (replayCmd) and
	// ahead (aheadCmd): set when a newer key makes them moot
	quitReplay, quitAhead *atomic.Bool
}

// loadedMsg is sent by loadCmd once the recording is read, opened and its
// conversation on screen replayed, or the load failed.
type loadedMsg struct {
	study    *study.Study
	view     *study.View
	recorded *window.Replay
	start    *window.Replay      // under the policy the screen opens with (== recorded without knobs)
	books    [2]*provenance.Book // of recorded and start
	views    *views              // the file's conversations
	problems []model.Problem     // the study's
	nprobs   int                 // the study's count, unlisted included
	diff     *fateDiff           // recorded against start, when they differ
	judged   *judgement          // every call of books[0] judged, when the book grew from a judged one
	walker   *provenance.Book    // the book that judged them
	err      error
}

// loadCmd reads the recording and does every slow first step off the UI
// goroutine: inference (many replays) and the recorded-policy replay.
func loadCmd(src Source) tea.Cmd {
	return func() tea.Msg {
		rec, err := src.Load()
		if err != nil {
			return loadedMsg{err: err}
		}
		return prepare(src, rec, nil)
	}
}

// prepare opens rec for the screen and prepares the conversation
// src.View.
func prepare(src Source, rec *model.Recording, mine *model.Policy) loadedMsg {
	st, _ := study.Open(rec, src.request())
	return prepareView(st, src.View, mine)
}

// prepareView replays conversation number under its agent's recorded
// policy, and again under the policy the screen shows: the one the user
// set (mine, when not nil) or the agent's settled one (the knobs given).
func prepareView(st *study.Study, number int, mine *model.Policy) loadedMsg {
	return prepareFrom(st, number, mine, grownFrom{})
}

// prepareFrom is prepareView; was, when it has a book, is what the
// screen had of an earlier part of the file: the recorded replay's book
// grows from it where the replay did (provenance.Grow).
func prepareFrom(st *study.Study, number int, mine *model.Policy, was grownFrom) loadedMsg {
	v := st.View(number)
	r := v.Recorded()
	var books [2]*provenance.Book
	made := make(chan struct{})
	go func() { books[0] = was.book(v.Rec, r); close(made) }() // reads r only
	vs := newViews(st, v)
	p := v.Agent.Policy
	if mine != nil {
		p = *mine
	}
	start := was.replay(v, p)
	var d *fateDiff
	if start != r {
		d = newFateDiff(r, start)
	}
	<-made
	books[1] = books[0]
	if start != r {
		books[1] = was.startBook(v.Rec, start)
	}
	j, walker := was.judge(v.Rec, r)
	return loadedMsg{study: st, view: v, recorded: r, start: start, books: books, views: vs, diff: d,
		problems: st.Problems(), nprobs: st.ProblemCount(), judged: j, walker: walker}
}

// replayedMsg is sent by replayCmd when a replay under a policy the user
// set has finished; gen tells the latest request from stale ones.
type replayedMsg struct {
	gen    int
	view   *study.View
	policy model.Policy
	replay *window.Replay
	cells  *timelineCells // the timeline's, at the width asked for
}

// bookMsg is sent by bookCmd with the book of a replay's values, made
// after the replay is on screen (a long run's takes as long as the
// replay). Until it comes, s.book is nil and the response says judging.
type bookMsg struct {
	replay *window.Replay
	book   *provenance.Book
}

func bookCmd(rec *model.Recording, r *window.Replay) tea.Cmd {
	return func() tea.Msg { return bookMsg{replay: r, book: provenance.New(rec, r)} }
}

// replayCmd replays the conversation on screen under p, the policy the
// user set, and works out the timeline's cells of it (cells wide; 0:
// none). quit, once set, gives the replay up (a newer key made it moot):
// then the message's replay is nil.
//
// The replay starts at once, when the command is made, not when the
// program runs it: a command in a tea.Batch starts only after the frame
// of the key is drawn (a few ms on a wide screen).
func replayCmd(gen int, v *study.View, p model.Policy, cells int, quit *atomic.Bool) tea.Cmd {
	done := make(chan tea.Msg, 1)
	go func() {
		r := v.Replay(p, quit) // a long run on two goroutines
		if r == nil {
			done <- replayedMsg{gen: gen, view: v, policy: p}
			return
		}
		_, tc := screenParts(r, nil, cells) // its fates follow it (show)
		done <- replayedMsg{gen: gen, view: v, policy: p, replay: r, cells: tc}
	}()
	return func() tea.Msg { return <-done }
}

// screenParts works out, off the UI goroutine, what the screen draws of
// a fresh replay r besides the replay itself: the timeline's cells when
// it shows cells of them (0: none), and its fates against recorded
// (none when recorded is nil: a knob's frame does not wait for them,
// diffCmd), on two goroutines.
func screenParts(r, recorded *window.Replay, cells int) (*fateDiff, *timelineCells) {
	var tc *timelineCells
	done := make(chan struct{})
	go func() {
		defer close(done)
		if cells = min(cells, len(r.Calls)); cells > 0 {
			c := makeTimelineCells(r, cells)
			tc = &c
		}
	}()
	var d *fateDiff
	if recorded != nil {
		d = newFateDiff(recorded, r)
	}
	<-done
	return d, tc
}

func newSession(name string, msg loadedMsg) *session {
	v := msg.view
	s := &session{
		name: name, study: msg.study, view: v, agent: v.Agent, rec: v.Rec, views: msg.views,
		recorded: msg.recorded, replay: msg.recorded, policy: v.Agent.Recorded,
		lastPins:     v.Agent.Recorded.KeepLastToolResults,
		recordedBook: msg.books[0], book: msg.books[0],
		diff: msg.diff, problems: msg.problems, problemCount: msg.nprobs,
		outcomes: provenance.OutcomesByCall(v.Rec), numbersDiffer: numbersDiffer(msg.recorded),
	}
	if msg.start != nil {
		s.replay, s.policy, s.book = msg.start, msg.start.Policy, msg.books[1]
	}
	if s.lastPins <= 0 {
		s.lastPins = model.DefaultKeepLastToolResults
	}
	if msg.judged != nil {
		s.file(msg.books[0], *msg.judged)
		s.walker = msg.walker
	}
	s.refresh()
	return s
}

// calls is the number of model calls in the recording.
func (s *session) calls() int {
	if s == nil || s.replay == nil {
		return 0
	}
	return len(s.replay.Calls)
}

// current is the call on screen, nil when the recording has none.
func (s *session) current() *window.CallReplay {
	if s.call < 0 || s.call >= s.calls() {
		return nil
	}
	return &s.replay.Calls[s.call]
}

// changed reports whether the policy on screen is not the recorded one
// (a knob the user moved, or one given on the command line).
func (s *session) changed() bool { return s.policy != s.agent.Recorded }

// moved reports whether the user moved a knob off the policy the screen
// opened with (the agent's settled policy). A larger part of a file
// being read is opened under the policy the user set, or else under its
// own settled policy (which may differ: a threshold none gives is the
// largest input read so far).
func (s *session) moved() bool { return s.policy != s.agent.Policy }

// refresh rereads the ledger at the current call and what differs from
// the recorded policy there.
func (s *session) refresh() {
	s.rows = s.replay.LedgerAt(s.call)
	s.changes = fateChanges{}
	if s.replay == s.recorded {
		return
	}
	if s.diff == nil || s.diff.was != s.recorded || s.diff.now != s.replay {
		if s.diffing == s.replay { // on its way (diffCmd)
			s.changes = fateChanges{was: s.recorded.LedgerAt(s.call), now: s.rows, pending: true}
			return
		}
		s.diff = newFateDiff(s.recorded, s.replay) // made with the replay, but not by this path
	}
	s.changes = s.diff.compareAt(s.recorded.LedgerAt(s.call), s.rows)
}

// diffedMsg is sent by diffCmd with the fates of replay against the
// recorded replay.
type diffedMsg struct {
	replay *window.Replay
	diff   *fateDiff
}

// diffCmd compares the fates of every turn of r with the recorded
// replay's, off the UI goroutine (a knob's frame does not wait for it).
func diffCmd(recorded, r *window.Replay) tea.Cmd {
	return func() tea.Msg { return diffedMsg{replay: r, diff: newFateDiff(recorded, r)} }
}

// diffed keeps d, the fates of r, with r's replay held (recent or
// ahead), and uses it when r is on screen.
func (s *session) diffed(r *window.Replay, d *fateDiff) {
	s.eachMade(r, func(k *madeReplay) { k.diff = d })
	if s.diffing == r {
		s.diffing = nil
	}
	if s.replay == r {
		s.diff = d
		s.refresh()
	}
}
