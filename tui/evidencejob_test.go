package tui

import (
	"strings"
	"testing"

	"github.com/afinspect/inspect/tui/session"

	"github.com/afinspect/inspect/internal/rungen"
)

// The values of a far call of a long conversation are judged off the UI
// goroutine: the first look at a call past evidenceAtOnce lists and
// indexes every message gone before it (a second at the last of 32,000
// calls). The key returns with the response saying it is judging, and
// the values come with the job's answer; the book is not read meanwhile.
func TestFarCallIsJudgedOffTheUIGoroutine(t *testing.T) {
	path, _, err := rungen.CachedConversations(rungen.FollowUpChain(1100)) // 2,200 calls
	if err != nil {
		t.Fatal(err)
	}
	m := press(open(t, fileConfig(path), 160, 50), "G")
	if m.s.Call != m.s.Calls()-1 || m.s.Call < session.EvidenceAtOnce {
		t.Fatalf("on call %d of %d", m.s.Call+1, m.s.Calls())
	}
	next, cmd := m.Update(keyMsg("i"))
	m = next.(Model)
	if m.overlay != responseOverlay || m.s.Lent != m.s.Book || m.s.Book == nil {
		t.Fatalf("overlay %v, book lent %v", m.overlay, m.s.Lent != nil)
	}
	if v := m.View(); !strings.Contains(v, "judging…") {
		t.Errorf("the response while its values are judged:\n%s", v)
	}
	m = settle(m, cmd)
	if m.s.Lent != nil {
		t.Error("the book is still lent after the job answered")
	}
	v := m.View()
	if strings.Contains(v, "judging…") || !strings.Contains(v, "host-") {
		t.Errorf("the response once judged:\n%s", v)
	}
	// the calls just before it were judged on the way: ← is at hand
	next, _ = m.Update(keyMsg("left"))
	if m = next.(Model); m.s.Call != m.s.Calls()-2 || m.s.Lent != nil || m.s.Waits || strings.Contains(m.View(), "judging…") {
		t.Errorf("call %d, the one before the last, not at hand (lent %v, wanted %d)", m.s.Call+1, m.s.Lent != nil, m.s.Wanted)
	}
	// a call below evidenceAtOnce is judged at once
	m = press(m, "esc", "g")
	next, _ = m.Update(keyMsg("i"))
	if m = next.(Model); m.s.Call != 0 || m.s.Lent != nil || m.s.Waits || strings.Contains(m.View(), "judging…") {
		t.Errorf("call %d sent to the background (lent %v, wanted %d)", m.s.Call+1, m.s.Lent != nil, m.s.Wanted)
	}
}
