package export

import "io"

// AdviseSchema names the JSON shape `inspect advise --format json`
// writes.
const AdviseSchema = "inspect.advise.v1"

// AdviseDoc is `inspect advise --format json`: for each agent, every
// policy of the advisor's grid with what it costs and which values of the
// recorded responses it would have had out of view, and the two picks.
type AdviseDoc struct {
	Schema string        `json:"schema"`
	Files  []string      `json:"files"`
	Agents []AdviseAgent `json:"agents"`
}

// AdviseAgent is one agent key's advice, over every file that holds it.
type AdviseAgent struct {
	Agent     string      `json:"agent"`
	Recorded  Policy      `json:"recorded"`
	Calls     int         `json:"calls"`
	NeverRead int         `json:"neverRead"` // answer values never read, under any policy
	Policies  []AdviseRow `json:"policies"`
	Picks     AdvisePicks `json:"picks"`
}

// AdviseRow is one policy of the grid.
type AdviseRow struct {
	Policy          Policy    `json:"policy"`
	Chars           int       `json:"chars"`
	Tokens          int       `json:"tokens"`
	TokensEstimated bool      `json:"tokensEstimated"`
	PeakChars       int       `json:"peakChars"`
	PeakTokens      int       `json:"peakTokens"`
	OutOfView       OutOfView `json:"outOfView"`
	DropNotices     int       `json:"dropNotices"`
	StandDowns      int       `json:"standDowns"`
	Differs         int       `json:"differs"`
	Frontier        bool      `json:"frontier"`
}

// OutOfView counts the values whose verdict is `left`, typed in answers
// and in tool-call arguments, apart.
type OutOfView struct {
	Answers   int `json:"answers"`
	Arguments int `json:"arguments"`
}

// AdvisePicks are the two named policies, null when none qualifies.
type AdvisePicks struct {
	KeepsEverything *Policy `json:"keepsEverything"`
	NoWorse         *Policy `json:"noWorse"`
}

// WriteAdvise writes d as one line of JSON (see writeDoc).
func WriteAdvise(w io.Writer, d AdviseDoc) error { return writeDoc(w, d) }
