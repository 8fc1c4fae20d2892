package model

// Recording is everything one file held: its runs in file order, and the
// problems met while reading it.
type Recording struct {
	Source   string    // the path as given, or "demo"
	Format   string    // FormatNDJSON or FormatEnvelope
	Runs     []*Run    // in file order; Run.Index counts from 1
	Problems []Problem // lines that could not be used, and why
	// Unlisted counts the problems past the list's bound; the list then
	// ends with one problem that says how many.
	Unlisted int
	// RepeatedResults maps the tool message of each agentfootprint.tools.
	// repeated_call event to its stream.tool_end result as message text: the
	// tool's own bytes when a proper prefix (EVIDENCE-SEMANTICS §6).
	RepeatedResults map[*Message]string
}

// ProblemCount is how many problems the input had, listed or not.
func (r *Recording) ProblemCount() int {
	if r.Unlisted > 0 {
		return len(r.Problems) - 1 + r.Unlisted
	}
	return len(r.Problems)
}

// Input formats a Recording can come from.
const (
	FormatNDJSON   = "ndjson"
	FormatEnvelope = "agentfootprint.recording.v1"
)

// Problem is one thing in the input that could not be used. Line is the
// 1-based line of the file (0 when the problem is not about one line).
type Problem struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// Run is one agent run (one user turn of the conversation, with its ReAct
// iterations), as the library recorded it.
type Run struct {
	Index    int    // 1-based, in file order
	RunID    string // meta.runId
	Request  string // agent.turn_start userPrompt: the run's own request text
	Strategy string // agent.run_configured window ("" when none was named)
	// ThresholdTokens is the token threshold seen in
	// context.budget_pressure events with unit "tokens"; 0 when none.
	ThresholdTokens int
	// RequestMessage is the user message that opened the run; the replay
	// appends it to the conversation, so its identity is stable.
	RequestMessage *Message
	Calls          []*Call
	// Records are the library's own window records for this run, from a
	// recording envelope (snapshot.sharedState.compactions). HasRecords is
	// false when the input carries none (an NDJSON log).
	Records     []Record
	HasRecords  bool
	Complete    bool // the run's turn_end was seen
	FinalAnswer string
}

// Call is one model call (one stream.llm_start) of a run.
type Call struct {
	Iteration     int   // the library's iteration number, from 1 in each run
	MessagesCount int   // llm_start messagesCount: the window size sent
	Usage         Usage // llm_end usage; zero when the call never ended
	Line          int   // line of the llm_start event (0 in an envelope)
	// RecordedHashes are the contentHash values (FNV-1a of
	// role:index:content) of the window the library sent on this call, by
	// position: from the call's iteration_end history, else from its
	// context.injected events; nil when the input holds neither.
	RecordedHashes []uint32
	// RecordedFrames are the compaction frames of that window (user
	// messages starting "[compacted history"), by position: the one text
	// of a recorded window the replay cannot make itself (a summary).
	RecordedFrames map[int]string
	// Appended are the messages this call added to the conversation: the
	// assistant's answer and the results of the tools it called.
	Appended []*Message
	Ended    bool // llm_end was seen
	// Facts are the call's response, system prompt and evidence verdict.
	Facts CallFacts
}

// Usage is the provider-reported token count of one call.
type Usage struct {
	Input  int `json:"input"`
	Output int `json:"output"`
}
