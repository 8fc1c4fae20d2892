package tui

// A knob key on a long run starts a replay that takes tens of ms at
// call 50,000. The frame of the key itself would say
// "replaying…" over the screen before it, and drawing it (a millisecond
// or more at 200×50) took a core from the replay's two goroutines just
// as they started. So that frame is the one before, unchanged: the
// policy bar still names the policy the screen shows, and nothing on it
// is new. The replay's own frame follows it; if the replay takes longer
// than spinStart, the spinner's first tick draws "replaying…" (any other
// message draws its own frame too).

// lastFrame is the last frame View drew, at its size.
type lastFrame struct {
	s             string
	width, height int
}

// heldFrame is the frame before, when this update only started a replay
// and the terminal has the size it was drawn at.
func (m Model) heldFrame() (string, bool) {
	f := m.frame
	if !m.hold || f == nil || f.s == "" || f.width != m.width || f.height != m.height {
		return "", false
	}
	return f.s, true
}

// drawn notes s as the last frame drawn, and returns it.
func (m Model) drawn(s string) string {
	if m.frame != nil {
		m.frame.s, m.frame.width, m.frame.height = s, m.width, m.height
	}
	return s
}
