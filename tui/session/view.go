package session

import tea "github.com/charmbracelet/bubbletea"

// ViewMsg is sent by ViewCmd: the conversation asked for, prepared.
type ViewMsg struct {
	Gen int
	LoadedMsg
}

// ViewCmd prepares conversation number of the recording on screen: its
// agent's policy was settled with the rest of the file's.
func ViewCmd(gen int, s *Session, number int) tea.Cmd {
	st := s.Study
	return func() tea.Msg { return ViewMsg{Gen: gen, LoadedMsg: PrepareView(st, number, nil)} }
}
