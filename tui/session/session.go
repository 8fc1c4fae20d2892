// Package session is the conversation on screen and the work done for it
// off the UI goroutine: the study's replays under the recorded policy
// and the user's, those held and made ahead, the judge, evidence,
// suggestion, follow and stream jobs and the messages they answer with,
// the fates that differ between two replays, the timeline's sums, and
// the knobs' arithmetic (Knob, Step). It is the only room of the screen
// that asks study and advise; it draws nothing, so it imports no
// lipgloss, no style sheet, no words and no keys.
package session

import (
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
)

// Session is what every component reads: the conversation on screen,
// its replay under its agent's recorded policy and under the user's, and
// the call on screen. The root model owns it and is the only one that
// changes it. The policies and the replays are the study's: the screen
// asks it, and settles nothing itself.
type Session struct {
	name  string
	Study *study.Study
	View  *study.View      // the conversation on screen
	Agent *study.Agent     // its agent and its settled policy
	Rec   *model.Recording // view.Rec: the conversation on screen (the whole file when it holds one)
	Views *Views           // the file's conversations, for the picker
	// problems are the study's (loader, lineage, replay under the settled
	// policies), as report and export list them; problemCount counts the
	// unlisted too
	Problems     []model.Problem
	ProblemCount int
	Recorded     *window.Replay // under agent.Recorded
	Replay       *window.Replay // under policy; == recorded while unchanged
	Policy       model.Policy
	LastPins     int // keepLastToolResults to restore when pins come back on
	Replaying    bool

	// outcomes is what became of each answer of the conversation's runs
	// (docs/rules/evidence.md §9.4); a call that is no answer has none
	Outcomes map[*model.Call]string
	// numbersDiffer: the file numbers some call otherwise than the screen
	numbersDiffer bool

	Call    int            // 0-based index into replay.Calls
	Rows    *window.Ledger // replay.LedgerAt(call)
	Changes FateChanges    // rows whose fate differs from the recorded policy's
	Diff    *FateDiff      // recorded against replay, once per replay (fateOf)
	// diffing is the replay whose fateDiff is being made (diffCmd): until
	// it comes, the turns on screen are compared one by one and the count
	// of those that differ waits for it
	Diffing *window.Replay

	// the values of each response judged against recorded and replay
	// (provenance.Book of each; made with them, off the UI goroutine)
	RecordedBook, Book *provenance.Book
	// lent is a book an evidence job (evidenceJob) is judging a call with,
	// off the UI goroutine: nothing here touches it until evidenceMsg;
	// wanted (when waits) is the call whose values the screen waits for
	Lent   *provenance.Book
	Wanted int
	Waits  bool
	// judgements says, for each book, which calls have a value typed,
	// not read, and which used a source out of view (judgeCmd fills it
	// off the UI goroutine); judging: asked for
	Judgements map[*provenance.Book]Judgement
	Judging    map[*provenance.Book]bool
	judgeStops map[*provenance.Book]*atomic.Bool // of the judge jobs under way (dropJudges)
	// walker is the book that judged recordedBook's calls, kept to judge
	// the calls a followed file appends (grownFrom); nil when none.
	// growing: the file is followed, and judged so (provenance.WalkOn)
	Walker    *provenance.Book
	Growing   bool
	ShownAt   time.Time // when a knob's replay came on screen (judgeWait)
	JudgeTick bool      // a judgeSoonMsg is on its way

	Recent   []MadeReplay  // replays under the last policies the user set (replays.go)
	Ahead    []MadeReplay  // replays made ahead (replays.go), oldest first
	AheadFor *model.Policy // the policy being replayed ahead, nil for none
	Dirty    bool          // replays or their books were made since the heap was last collected
	IdleTick bool          // an idleMsg is on its way
	// quits give up the replays under way for the screen (replayCmd) and
	// ahead (aheadCmd): set when a newer key makes them moot
	QuitReplay, QuitAhead *atomic.Bool
	// QuitBook gives up the book under way (BookFor): a knob key leaves
	// the replay it is of
	QuitBook *atomic.Bool
}

// LoadedMsg is sent by loadCmd once the recording is read, opened and its
// conversation on screen replayed, or the load failed.
type LoadedMsg struct {
	Study    *study.Study
	View     *study.View
	Recorded *window.Replay
	start    *window.Replay      // under the policy the screen opens with (== recorded without knobs)
	books    [2]*provenance.Book // of recorded and start
	Views    *Views              // the file's conversations
	Problems []model.Problem     // the study's
	nprobs   int                 // the study's count, unlisted included
	Diff     *FateDiff           // recorded against start, when they differ
	Judged   *Judgement          // every call of books[0] judged, when the book grew from a judged one
	Walker   *provenance.Book    // the book that judged them
	Err      error
}

// LoadCmd reads the recording and does every slow first step off the UI
// goroutine: inference (many replays) and the recorded-policy replay.
func LoadCmd(src Source) tea.Cmd {
	return func() tea.Msg {
		rec, err := src.Load()
		if err != nil {
			return LoadedMsg{Err: err}
		}
		return Prepare(src, rec, nil)
	}
}

// Prepare opens rec for the screen and prepares the conversation
// src.View.
func Prepare(src Source, rec *model.Recording, mine *model.Policy) LoadedMsg {
	st, _ := study.Open(rec, src.request())
	return PrepareView(st, src.View, mine)
}

// PrepareView replays conversation number under its agent's recorded
// policy, and again under the policy the screen shows: the one the user
// set (mine, when not nil) or the agent's settled one (the knobs given).
func PrepareView(st *study.Study, number int, mine *model.Policy) LoadedMsg {
	return PrepareFrom(st, number, mine, GrownFrom{})
}

// PrepareFrom is prepareView; was, when it has a book, is what the
// screen had of an earlier part of the file: the recorded replay's book
// grows from it where the replay did (provenance.Grow).
func PrepareFrom(st *study.Study, number int, mine *model.Policy, was GrownFrom) LoadedMsg {
	v := st.View(number)
	r := v.Recorded()
	var books [2]*provenance.Book
	made := make(chan struct{})
	go func() { books[0] = was.Book(v.Rec, r); close(made) }() // reads r only
	vs := newViews(st, v)
	p := v.Agent.Policy
	if mine != nil {
		p = *mine
	}
	start := was.Replay(v, p)
	var d *FateDiff
	if start != r {
		d = NewFateDiff(r, start)
	}
	<-made
	books[1] = books[0]
	if start != r {
		books[1] = was.startBook(v.Rec, start)
	}
	j, walker := was.judge(v.Rec, r)
	return LoadedMsg{Study: st, View: v, Recorded: r, start: start, books: books, Views: vs, Diff: d,
		Problems: st.Problems(), nprobs: st.ProblemCount(), Judged: j, Walker: walker}
}

// ReplayedMsg is sent by replayCmd when a replay under a policy the user
// set has finished; gen tells the latest request from stale ones.
type ReplayedMsg struct {
	Gen    int
	View   *study.View
	Policy model.Policy
	Replay *window.Replay
	Cells  *TimelineCells // the timeline's, at the width asked for
}

// BookMsg is sent by BookFor's command with the book of a replay's values, made
// after the replay is on screen (a long run's takes as long as the
// replay). Until it comes, s.book is nil and the response says judging.
// Book is nil when it was given up (QuitBook).
type BookMsg struct {
	Replay *window.Replay
	Book   *provenance.Book
}

// BookFor makes the book of r, the replay now on screen, giving up the
// one under way for the replay before it.
func (s *Session) BookFor(r *window.Replay) tea.Cmd {
	if s.QuitBook != nil {
		s.QuitBook.Store(true)
	}
	rec, quit := s.Rec, &atomic.Bool{}
	s.QuitBook = quit
	return func() tea.Msg { return BookMsg{Replay: r, Book: provenance.NewUntil(rec, r, quit)} }
}

// ReplayCmd replays the conversation on screen under p, the policy the
// user set, and works out the timeline's cells of it (cells wide; 0:
// none). quit, once set, gives the replay up (a newer key made it moot):
// then the message's replay is nil.
//
// The replay starts at once, when the command is made, not when the
// program runs it: a command in a tea.Batch starts only after the frame
// of the key is drawn (a few ms on a wide screen).
func ReplayCmd(gen int, v *study.View, p model.Policy, cells int, quit *atomic.Bool) tea.Cmd {
	done := make(chan tea.Msg, 1)
	go func() {
		var tc *TimelineCells
		// a long run on two goroutines; the cells are made while its
		// ledger is, and its fates follow it (show)
		r := v.ReplayWith(p, quit, func(r *window.Replay) { tc = cellsOf(r, cells) })
		if r == nil {
			done <- ReplayedMsg{Gen: gen, View: v, Policy: p}
			return
		}
		done <- ReplayedMsg{Gen: gen, View: v, Policy: p, Replay: r, Cells: tc}
	}()
	return func() tea.Msg { return <-done }
}

// ScreenParts works out, off the UI goroutine, what the screen draws of
// a fresh replay r besides the replay itself: the timeline's cells when
// it shows cells of them (0: none), and its fates against recorded
// (none when recorded is nil: a knob's frame does not wait for them,
// diffCmd), on two goroutines.
func ScreenParts(r, recorded *window.Replay, cells int) (*FateDiff, *TimelineCells) {
	var tc *TimelineCells
	done := make(chan struct{})
	go func() {
		defer close(done)
		tc = cellsOf(r, cells)
	}()
	var d *FateDiff
	if recorded != nil {
		d = NewFateDiff(recorded, r)
	}
	<-done
	return d, tc
}

// cellsOf is the timeline's cells of r when the timeline shows cells
// (nil for none).
func cellsOf(r *window.Replay, cells int) *TimelineCells {
	if cells = min(cells, len(r.Calls)); cells <= 0 {
		return nil
	}
	c := MakeTimelineCells(r, cells)
	return &c
}

func New(name string, msg LoadedMsg) *Session {
	v := msg.View
	s := &Session{
		name: name, Study: msg.Study, View: v, Agent: v.Agent, Rec: v.Rec, Views: msg.Views,
		Recorded: msg.Recorded, Replay: msg.Recorded, Policy: v.Agent.Recorded,
		LastPins:     v.Agent.Recorded.KeepLastToolResults,
		RecordedBook: msg.books[0], Book: msg.books[0],
		Diff: msg.Diff, Problems: msg.Problems, ProblemCount: msg.nprobs,
		Outcomes: provenance.OutcomesByCall(v.Rec), numbersDiffer: numbersDiffer(msg.Recorded),
	}
	if msg.start != nil {
		s.Replay, s.Policy, s.Book = msg.start, msg.start.Policy, msg.books[1]
	}
	if s.LastPins <= 0 {
		s.LastPins = model.DefaultKeepLastToolResults
	}
	if msg.Judged != nil {
		s.File(msg.books[0], *msg.Judged)
		s.Walker = msg.Walker
	}
	s.Refresh()
	return s
}

// Calls is the number of model calls in the recording.
func (s *Session) Calls() int {
	if s == nil || s.Replay == nil {
		return 0
	}
	return len(s.Replay.Calls)
}

// Current is the call on screen, nil when the recording has none.
func (s *Session) Current() *window.CallReplay {
	if s.Call < 0 || s.Call >= s.Calls() {
		return nil
	}
	return &s.Replay.Calls[s.Call]
}

// Changed reports whether the policy on screen is not the recorded one
// (a knob the user moved, or one given on the command line).
func (s *Session) Changed() bool { return s.Policy != s.Agent.Recorded }

// Moved reports whether the user moved a knob off the policy the screen
// opened with (the agent's settled policy). A larger part of a file
// being read is opened under the policy the user set, or else under its
// own settled policy (which may differ: a threshold none gives is the
// largest input read so far).
func (s *Session) Moved() bool { return s.Policy != s.Agent.Policy }

// Refresh rereads the ledger at the current call and what differs from
// the recorded policy there.
func (s *Session) Refresh() {
	s.Rows = s.Replay.LedgerAt(s.Call)
	s.Changes = FateChanges{}
	if s.Replay == s.Recorded {
		return
	}
	if s.Diff == nil || s.Diff.was != s.Recorded || s.Diff.Now != s.Replay {
		if s.Diffing == s.Replay { // on its way (diffCmd)
			s.Changes = FateChanges{was: s.Recorded.LedgerAt(s.Call), Now: s.Rows, Pending: true}
			return
		}
		s.Diff = NewFateDiff(s.Recorded, s.Replay) // made with the replay, but not by this path
	}
	s.Changes = s.Diff.CompareAt(s.Recorded.LedgerAt(s.Call), s.Rows)
}

// DiffedMsg is sent by diffCmd with the fates of replay against the
// recorded replay.
type DiffedMsg struct {
	Replay *window.Replay
	Diff   *FateDiff
}

// DiffCmd compares the fates of every turn of r with the recorded
// replay's, off the UI goroutine (a knob's frame does not wait for it).
func DiffCmd(recorded, r *window.Replay) tea.Cmd {
	return func() tea.Msg { return DiffedMsg{Replay: r, Diff: NewFateDiff(recorded, r)} }
}

// Diffed keeps d, the fates of r, with r's replay held (recent or
// ahead), and uses it when r is on screen.
func (s *Session) Diffed(r *window.Replay, d *FateDiff) {
	s.eachMade(r, func(k *MadeReplay) { k.Diff = d })
	if s.Diffing == r {
		s.Diffing = nil
	}
	if s.Replay == r {
		s.Diff = d
		s.Refresh()
	}
}
