package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/afinspect/inspect/tui/external"
	"github.com/afinspect/inspect/tui/session"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/provenance"
)

// following opens the first lines of s01 (calls 1–4, no turn_end) at
// path, followed, on its last call.
func following(t *testing.T, path string, lines int) Model {
	t.Helper()
	appendLines(t, path, s01Lines(t)[:lines])
	m := press(open(t, growingConfig(path, true), 160, 40), "G")
	if m.s == nil || m.s.Calls() == 0 {
		t.Fatal("nothing on screen")
	}
	return m
}

// headerOf is the header's text: the frame's first lines.
func headerOf(m Model) string {
	lines := strings.SplitN(m.View(), "\n", 5)
	return strings.Join(lines[:min(4, len(lines))], "\n")
}

// TestFollowSaysTheFileWasDeleted: a followed file that is deleted does
// not go on saying "following" as if it were there: the header says it
// is gone and what the screen shows; when it comes back it is read.
func TestFollowSaysTheFileWasDeleted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.jsonl")
	m := following(t, path, 96)
	os.Remove(path)
	m = send(m, look(path))
	if h := m.View(); !strings.Contains(h, "was deleted") || !strings.Contains(h, "as it was read") {
		t.Fatalf("a deleted file: the header should say so:\n%s", h)
	}
	appendLines(t, path, s01Lines(t))
	if m = send(m, look(path)); m.s.Calls() != 9 || strings.Contains(m.View(), "was deleted") {
		t.Errorf("the file back: %d calls, still said deleted: %v", m.s.Calls(), strings.Contains(m.View(), "was deleted"))
	}
}

// TestFollowNoticesASameSizeReplacement: `mv g.jsonl f.jsonl` with a file
// of the same size is noticed (another file under the name, not only
// another size): following, the new one is read; not following, the
// header says so and R reads it.
func TestFollowNoticesASameSizeReplacement(t *testing.T) {
	ls := s01Lines(t)
	for _, follow := range []bool{true, false} {
		t.Run(fmt.Sprint("follow ", follow), func(t *testing.T) {
			dir := t.TempDir()
			path, other := filepath.Join(dir, "f.jsonl"), filepath.Join(dir, "g.jsonl")
			appendLines(t, path, ls)
			m := open(t, growingConfig(path, follow), 120, 40)
			// the same log with another request, of the same size
			data, _ := os.ReadFile(path)
			changed := strings.ReplaceAll(string(data), m.s.Rec.Runs[0].Request, strings.ToUpper(m.s.Rec.Runs[0].Request))
			if len(changed) != len(data) || changed == string(data) {
				t.Fatal("no same-size change")
			}
			os.WriteFile(other, []byte(changed), 0o644)
			st, _ := os.Stat(path)
			os.Chtimes(other, st.ModTime(), st.ModTime()) // the same time too: only the inode tells
			if err := os.Rename(other, path); err != nil {
				t.Fatal(err)
			}
			m = send(m, look(path))
			if !follow {
				if !strings.Contains(m.View(), "was replaced") {
					t.Fatalf("not following: the header should say the file was replaced:\n%s", m.View())
				}
				m = press(m, "R")
			}
			if got := m.s.Rec.Runs[0].Request; got != strings.ToUpper(ls0Request(t)) {
				t.Errorf("the new file is not on screen: request %.40q", got)
			}
			if strings.Contains(m.View(), "was replaced") {
				t.Error("the new file is read, yet the header says it was replaced")
			}
		})
	}
}

func ls0Request(t *testing.T) string {
	rec := open(t, fileConfig(s01), 80, 20).s.Rec
	return rec.Runs[0].Request
}

// TestTruncatedFileIsNotShownAsCurrent: after `: > file` the screen does
// not go on showing the old calls as the file's: the header says the
// file no longer holds them; a later good read puts the new calls on
// screen and the message goes.
func TestTruncatedFileIsNotShownAsCurrent(t *testing.T) {
	for _, follow := range []bool{true, false} {
		t.Run(fmt.Sprint("follow ", follow), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "live.jsonl")
			appendLines(t, path, s01Lines(t))
			m := open(t, growingConfig(path, follow), 160, 40)
			os.Truncate(path, 0)
			m = send(m, look(path))
			h := headerOf(m)
			if !strings.Contains(h, "what it held") {
				t.Fatalf("an emptied file: the header should say the screen shows what it held:\n%s", h)
			}
			appendLines(t, path, s01Lines(t)[:96])
			m = send(m, look(path))
			if !follow {
				m = press(m, "R")
			}
			if m.s.Calls() != 4 || strings.Contains(m.View(), "what it held") || strings.Contains(m.View(), "failed") {
				t.Errorf("written again: %d calls, want 4, and no word of the emptied file:\n%s", m.s.Calls(), headerOf(m))
			}
		})
	}
}

// TestStuckReloadSaysSo: R or F while a read of the file again has not
// come back (a named pipe waits for its writer) says so, instead of
// doing nothing; after a second the header says it too.
func TestStuckReloadSaysSo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.jsonl")
	m := following(t, path, 96)
	next, _ := m.Update(keyMsg("R")) // the read never comes back: its command is not run
	m = next.(Model)
	if !m.watch.reloading {
		t.Fatal("R did not start a read")
	}
	m = press(m, "R")
	if !strings.Contains(m.flash, "still reading") {
		t.Errorf("R again: %q, want it to say the read is under way", m.flash)
	}
	m = press(m, "F", "F")
	if !strings.Contains(m.flash, "still reading") {
		t.Errorf("F: %q, want it to say the read is under way", m.flash)
	}
	m.watch.reloadAt = time.Now().Add(-3 * time.Second)
	if h := headerOf(send(m, tea.WindowSizeMsg{Width: 160, Height: 40})); !strings.Contains(h, "still reading") {
		t.Errorf("a read of 3 s: the header should say it is still at it:\n%s", h)
	}
}

// TestMouseComesBackAfterThePager: the pager gets the terminal without
// the mouse, and the terminal comes back without it: the mouse is given
// back when the screen has it on, not when the user gave it away (m).
func TestMouseComesBackAfterThePager(t *testing.T) {
	m := open(t, fileConfig(s01), 120, 40)
	on := fmt.Sprintf("%T", tea.EnableMouseCellMotion())
	_, cmd := m.Update(external.PagerDoneMsg{Path: filepath.Join(t.TempDir(), "none")})
	if cmd == nil || !batchHas(cmd, on) {
		t.Error("back from the pager with the mouse on: the mouse is not asked for again")
	}
	m = press(m, "M")
	if _, cmd = m.Update(external.PagerDoneMsg{Path: filepath.Join(t.TempDir(), "none")}); cmd != nil && batchHas(cmd, on) {
		t.Error("back from the pager with the mouse given away: it is taken back")
	}
}

// batchHas: running cmd yields a message of type typ, itself or in a
// batch.
func batchHas(cmd tea.Cmd, typ string) bool {
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			if c != nil && batchHas(c, typ) {
				return true
			}
		}
		return false
	}
	return fmt.Sprintf("%T", msg) == typ
}

// TestHalfWrittenLineIsWaitedFor: following, a last line the writer is
// in the middle of is no problem: it is waited for, and read once its
// line end is written.
func TestHalfWrittenLineIsWaitedFor(t *testing.T) {
	ls := s01Lines(t)
	path := filepath.Join(t.TempDir(), "live.jsonl")
	half := ls[96][:len(ls[96])/2] // call 5's llm_start, half of it
	m := following(t, path, 96)
	appendLines(t, path, []string{half})
	m = send(m, look(path))
	if n := m.s.Rec.ProblemCount(); n != 0 {
		t.Fatalf("a line being written counts as %d problems: %v", n, m.s.Rec.Problems)
	}
	appendLines(t, path, append([]string{ls[96][len(half):]}, ls[97:173]...))
	if m = send(m, look(path)); m.s.Calls() != 7 || m.s.Rec.ProblemCount() != 0 {
		t.Errorf("its end written: %d calls, want 7; problems %v", m.s.Calls(), m.s.Rec.Problems)
	}
}

// TestFollowReadsOnWhatWasAppended: following, a file that grows is read
// on from where the last read stopped, not from the start.
func TestFollowReadsOnWhatWasAppended(t *testing.T) {
	ls := s01Lines(t)
	path := filepath.Join(t.TempDir(), "live.jsonl")
	appendLines(t, path, ls[:96])
	cfg, opens := countedConfig(path, true)
	m := open(t, cfg, 120, 40)
	for _, to := range []int{120, 173, len(ls)} {
		appendLines(t, path, ls[:to][len(ls[:to])-(to-map[int]int{120: 96, 173: 120, len(ls): 173}[to]):])
		m = send(m, look(path))
	}
	if m.s.Calls() != 9 || *opens != 1 {
		t.Errorf("%d calls, the file read %d times from the start; want 9 calls, read once", m.s.Calls(), *opens)
	}
}

// TestGrownJudgementIsTheWholeOne: following, every call stays judged as
// the file grows (x, X, the timeline's marks), the calls read before
// keeping their judgement and the new ones judged: the same judgement a
// pass over the whole run makes.
func TestGrownJudgementIsTheWholeOne(t *testing.T) {
	ls := s01Lines(t)
	path := filepath.Join(t.TempDir(), "live.jsonl")
	m := following(t, path, 96)
	read := func() {
		m.watch.now, _ = os.Stat(path)
		var again tea.Cmd
		m, again = m.readAgain()
		next, _ := m.Update(again()) // no judge pass after it is run
		m = next.(Model)
	}
	read() // a load that can be read on
	m = send(m, judgedOf(m))
	for _, cut := range [][2]int{{96, 120}, {120, 173}, {173, len(ls)}} {
		appendLines(t, path, ls[cut[0]:cut[1]])
		read()
		got, ok := m.s.Judgements[m.s.Book]
		if !ok || m.s.Walker == nil {
			t.Fatalf("after line %d: the calls are not judged as the file grew (judged %v)", cut[1], ok)
		}
		want := session.JudgeAll(provenance.New(m.s.Rec, m.s.Replay), m.s.Calls())
		if fmt.Sprint(got.Flags, got.Counts) != fmt.Sprint(want.Flags, want.Counts) || len(got.Used) != len(want.Used) {
			t.Errorf("after line %d: judged %v %v, a whole pass %v %v", cut[1], got.Flags, got.Counts, want.Flags, want.Counts)
		}
	}
}

// judgedOf is the judge pass of the replay on screen of a followed file,
// done.
func judgedOf(m Model) session.JudgedMsg {
	return session.JudgeCmdUntil(m.s.Book, m.s.Rec, m.s.Replay, nil, true)().(session.JudgedMsg)
}

// TestGrowingWhileTheScreenReads: the file read on and studied on in the
// background while the screen goes on drawing the last part, its ledger
// and its values (run with -race: the two share what did not change, and
// neither writes what the other reads).
func TestGrowingWhileTheScreenReads(t *testing.T) {
	ls := s01Lines(t)
	path := filepath.Join(t.TempDir(), "live.jsonl")
	m := following(t, path, 96)
	m.watch.now, _ = os.Stat(path)
	m, again := m.readAgain()
	next, _ := m.Update(again()) // a load that reads on
	m = next.(Model)
	m = send(m, judgedOf(m))
	for _, cut := range [][2]int{{96, 120}, {120, 173}, {173, len(ls)}} {
		appendLines(t, path, ls[cut[0]:cut[1]])
		m.watch.now, _ = os.Stat(path)
		var cmd tea.Cmd
		m, cmd = m.readAgain()
		done := make(chan tea.Msg)
		go func() { done <- cmd() }()
		var msg tea.Msg
		for msg == nil {
			select {
			case msg = <-done:
			default:
				_ = m.View()
				for i := range m.s.Calls() {
					m.s.Replay.LedgerAt(i)
				}
				m.s.RecordedBook.Call(m.s.Calls() - 1)
			}
		}
		next, _ := m.Update(msg)
		m = next.(Model)
	}
	if m.s.Calls() != 9 {
		t.Errorf("%d calls, want 9", m.s.Calls())
	}
}
