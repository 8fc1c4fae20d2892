package session

import (
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
	tea "github.com/charmbracelet/bubbletea"
)

// Source is where the recording on screen comes from and how it is
// read: what the jobs that read it need of the program's Config, given
// to them as a value when they start.
type Source struct {
	Load func() (*model.Recording, error)
	// Open, when set, is used instead of Load; Reopen is Open for a file
	// followed as it is written (Config.Open, Config.Reopen)
	Open, Reopen func() *Stream
	Path         string // the file on disk, "" for the demo or standard input
	Knobs        model.Knobs
	Library      string
	View         int // the conversation on screen, by its number in the file
}

// request is what study is asked to settle the file's policies with.
func (src Source) request() study.Request {
	return study.Request{Knobs: src.Knobs, Recorded: true, Library: src.Library}
}

// Stream is a recording being read in the background, so that what has
// loaded can be shown and stepped through while the rest arrives. cli
// builds one from the loader.
type Stream struct {
	// Progress says how far reading is: bytes read of total (0 when the
	// size is not known) and model calls so far. Cheap; any goroutine.
	Progress func() (read, total int64, calls int)
	// Snapshot is what has loaded so far, safe to replay while reading
	// goes on.
	Snapshot func() *model.Recording
	Done     <-chan struct{} // closed when reading has finished
	Wait     func() (*model.Recording, error)
	// Waiting, when set, says the input has nothing more for now (a pipe
	// whose writer is quiet): what has loaded is shown at once, however
	// few calls it adds.
	Waiting func() bool
	// More, when set, reads on, once reading has finished, what was
	// appended to the file since: a Stream of the whole file as far as
	// it is written, read in the time the new lines take. It fails when
	// the file is not the one read, lost what was read, or is gone;
	// then the file is read from the start.
	More func() (*Stream, error)
}

// PartialMsg is sent by partialCmd with what had loaded when it ran,
// inferred and replayed; calls is how many model calls that was.
type PartialMsg struct {
	LoadedMsg
	Calls int
}

// PartialCmd prepares what has loaded; prev, the study of the last part
// shown, is studied on where the new calls leave it as it was
// (study.Grow): a pipe whose writer trickles has each call it writes on
// screen at the cost of that call.
func PartialCmd(src Source, st *Stream, mine *model.Policy, prev *study.Study) tea.Cmd {
	return func() tea.Msg {
		rec := st.Snapshot()
		n := 0
		for _, r := range rec.Runs {
			n += len(r.Calls)
		}
		s, _ := study.Grow(prev, rec, src.request())
		return PartialMsg{LoadedMsg: PrepareView(s, src.View, mine), Calls: n}
	}
}

// FinalCmd waits for the whole recording and prepares it.
func FinalCmd(src Source, st *Stream, mine *model.Policy) tea.Cmd {
	return func() tea.Msg {
		rec, err := st.Wait()
		if err != nil {
			return LoadedMsg{Err: err}
		}
		return Prepare(src, rec, mine)
	}
}
