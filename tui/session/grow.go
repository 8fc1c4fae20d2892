package session

import (
	"os"
	"time"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
	tea "github.com/charmbracelet/bubbletea"
)

// FileLookMsg is sent by lookCmd with what the file is now.
type FileLookMsg struct {
	Info os.FileInfo
	Err  error
}

// ReloadedMsg is sent by reloadCmd and growCmd with the file read
// again; read is the file as it was when the read began (what a writer
// adds during the read is read at the next look), more what reads on
// from there.
type ReloadedMsg struct {
	LoadedMsg
	Read os.FileInfo
	More func() (*Stream, error)
	// grew: it read on from the last read; when that could not be (the
	// file is not the one read), the file is read from the start
	Grew bool
}

// LookCmd looks at the file after d.
func LookCmd(path string, d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg {
		info, err := os.Stat(path)
		return FileLookMsg{Info: info, Err: err}
	})
}

// ReloadCmd reads the whole file again and prepares it, under the policy
// the user set (mine) if any; following, a last line still being written
// is waited for.
func ReloadCmd(from Source, following bool, mine *model.Policy) tea.Cmd {
	return func() tea.Msg {
		info, _ := os.Stat(from.Path)
		open := from.Open
		if following && from.Reopen != nil {
			open = from.Reopen
		}
		src := open()
		rec, err := src.Wait()
		if err != nil {
			return ReloadedMsg{LoadedMsg: LoadedMsg{Err: err}, Read: info}
		}
		return ReloadedMsg{LoadedMsg: Prepare(from, rec, mine), Read: info, More: src.More}
	}
}

// GrowCmd reads on what was appended to the file since the recording on
// screen was read (more), and studies it on from prev, its study.
func GrowCmd(from Source, more func() (*Stream, error), prev *study.Study, mine *model.Policy, was GrownFrom) tea.Cmd {
	return func() tea.Msg {
		info, _ := os.Stat(from.Path)
		src, err := more()
		if err != nil {
			return ReloadedMsg{LoadedMsg: LoadedMsg{Err: err}, Read: info, Grew: true}
		}
		rec, err := src.Wait()
		if err != nil {
			return ReloadedMsg{LoadedMsg: LoadedMsg{Err: err}, Read: info, Grew: true}
		}
		st, _ := study.Grow(prev, rec, from.request())
		return ReloadedMsg{LoadedMsg: PrepareFrom(st, from.View, mine, was), Read: info, More: src.More, Grew: true}
	}
}

// GrownFrom is what the screen had of the last part of a file followed
// as it grows: the recorded replay's book, and its judgement with the
// book that made it when every call was judged.
type GrownFrom struct {
	from   *provenance.Book
	Judged *Judgement
	Walker *provenance.Book
	// the replay on screen under the policy the user set, and its book
	// (nil when the screen shows the recorded one)
	start     *window.Replay
	startFrom *provenance.Book
}

// GrownFromScreen is what s has to grow from. Its walker is handed on:
// s never asks it again.
func GrownFromScreen(s *Session) GrownFrom {
	if s == nil || s.RecordedBook == nil || s.Lent == s.RecordedBook {
		return GrownFrom{} // a book lent to an evidence job is not read here: the grown file's is made anew
	}
	g := GrownFrom{from: s.RecordedBook}
	if j, ok := s.Judgements[s.RecordedBook]; ok && s.Walker != nil {
		g.Judged, g.Walker = &j, s.Walker
		s.Walker = nil
	}
	if s.Replay != s.Recorded && !s.Replaying && s.Lent != s.Book {
		g.start, g.startFrom = s.Replay, s.Book
	}
	return g
}

// Replay is conversation v replayed under p: the replay on screen of the
// last part grown on, where it was under p, else made anew.
func (g GrownFrom) Replay(v *study.View, p model.Policy) *window.Replay {
	if g.start != nil && g.start.Policy == p && p != v.Agent.Recorded {
		if r := v.GrowReplay(g.start); r != nil {
			return r
		}
	}
	return v.Replay(p, nil)
}

// startBook is the book of start, the replay under the user's policy:
// grown from the last part's where start grew from its replay.
func (g GrownFrom) startBook(rec *model.Recording, start *window.Replay) *provenance.Book {
	if b := provenance.Grow(g.startFrom, rec, start); b != nil {
		return b
	}
	return provenance.New(rec, start)
}

// Book is the book of r, a replay of rec: grown from the last part's
// where r grew from its replay, else made anew.
func (g GrownFrom) Book(rec *model.Recording, r *window.Replay) *provenance.Book {
	if b := provenance.Grow(g.from, rec, r); b != nil {
		return b
	}
	return provenance.New(rec, r)
}

// judge is every call of r judged, when the last part's were and r grew
// from its replay: the calls they share keep their judgement (a call's
// values are judged against the windows up to it), the others are
// judged by the walker grown on (provenance.GrowOn), which is returned
// to judge the next part; nil otherwise.
func (g GrownFrom) judge(rec *model.Recording, r *window.Replay) (*Judgement, *provenance.Book) {
	if g.Judged == nil || g.Walker == nil {
		return nil, nil
	}
	w := provenance.GrowOn(g.Walker, rec, r)
	from, ok := w.GrownFrom(g.Walker)
	if w == nil || !ok || from > len(g.Judged.Flags) {
		return nil, nil
	}
	n := len(r.Calls)
	j := Judgement{Flags: make([]bool, n), args: make([]bool, n), Counts: make([]provenance.CallTally, n), Used: make(map[*model.Message][]int, len(g.Judged.Used))}
	copy(j.Flags, g.Judged.Flags[:from])
	copy(j.args, g.Judged.args[:from])
	copy(j.Counts, g.Judged.Counts[:from])
	for m, calls := range g.Judged.Used {
		k := 0
		for k < len(calls) && calls[k] < from {
			k++
		}
		if k > 0 {
			j.Used[m] = calls[:k:k]
		}
	}
	judgeInto(&j, w, from, n, nil)
	return &j, w
}
