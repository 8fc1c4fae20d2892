package model

// Recording is everything one file held: its segments (the events of one
// runId and step, docs/rules/runs-and-conversations.md §10.3) in order of first event, the
// agents they belong to (§10.5), and the problems met while reading it.
type Recording struct {
	Source string // the path as given, or "demo"
	// Files are the files read when there were several (the FILE
	// arguments, a directory's files, an archive's recordings), in the
	// order their events were read; nil for one file. Each Run's and
	// Call's File then names the one its line counts in.
	Files    []string
	Format   string    // FormatNDJSON or FormatEnvelope
	Runs     []*Run    // segments, in order of first event; Run.Index counts from 1
	Agents   []*Agent  // in order of the first event of their first segment
	Problems []Problem // lines that could not be used, and why
	// Unlisted counts the problems past the list's bound; the list then
	// ends with one problem that says how many.
	Unlisted int
	// Library is the agentfootprint version the log is replayed as written
	// by, and how that was decided (§17.2). The loader fills in what an
	// envelope's producer names; the rest is settled before the replay.
	Library Library
	// Tier is the observability tier the log was written at (§16.2):
	// TierMinimal, TierStandard or TierFirehose.
	Tier string
	// RepeatedResults maps the tool message of each agentfootprint.tools.
	// repeated_call event to its stream.tool_end result as message text: the
	// tool's own bytes when a proper prefix (docs/rules/evidence.md §6).
	RepeatedResults map[*Message]string
}

// ProblemCount is how many problems the input had, listed or not.
func (r *Recording) ProblemCount() int {
	if r.Unlisted > 0 {
		return len(r.Problems) - 1 + r.Unlisted
	}
	return len(r.Problems)
}

// Library says which agentfootprint version wrote a log, as far as it is
// known, and whose window rules its replay follows (docs/rules/versions-and-tiers.md §17).
type Library struct {
	// Producers are the producer.agentfootprintVersion of each envelope of
	// the file that names one, in order (the loader's).
	Producers []string
	// Version is the version a flag or an envelope names ("" when none
	// does); Rules the window rules replayed ("9.57", "9.55", "9.54"; ""
	// for not settled: the newest); Source is flag, envelope, log or
	// default; Evidence one line saying why.
	Version, Rules, Source, Evidence string
	// Call is the number of the call whose recorded window showed the
	// older rule (Source log), 0 otherwise.
	Call int
	// Matched of Compared recorded windows the replay under these rules
	// and the recorded policies reproduces (Compared 0: not counted).
	Matched, Compared int
	// ByReplay: the log's own evidence told other rules, or none, and
	// these reproduce more of its windows (§17.2 checked by the replay);
	// Others says what each other rule set reproduces ("9.55–9.56 rules:
	// 5/13"), when they were replayed.
	ByReplay bool
	Others   string
}

// Observability tiers (docs/rules/versions-and-tiers.md §16): what the library wrote.
const (
	TierMinimal  = "minimal"  // agent.* and error.* events only
	TierStandard = "standard" // all but stream.token
	TierFirehose = "firehose" // everything
)

// Input formats a Recording can come from.
const (
	FormatNDJSON   = "ndjson"
	FormatEnvelope = "agentfootprint.recording.v1"
	// FormatRecording is a bare recording, {snapshot, events, structure}
	// with no envelope around it (what recordRun(...).toRecording() returns)
	FormatRecording = "agentfootprint.recording"
)

// Problem is one thing in the input that could not be used. Line is the
// 1-based line of the file (0 when the problem is not about one line).
type Problem struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// Agent is one agent key of the log (§10.5): the composition path of its
// segments' first events, with the step.
type Agent struct {
	Key     string   // e.g. "oncall", "pipeline/step-research"
	AgentID string   // run_configured agentId, else the id of an Agent: path entry
	HasID   bool     // AgentID is known (a Sequence step's is not)
	Path    []string // compositionPath entries, then the agent path's entries
	// Step is the agent path inside a composition (§15.1: a Sequence step
	// "step-research", a Loop body "body", a swarm agent "body/triage"),
	// its entries joined with "/"; "" for a plain agent.
	Step string
	// Composition: the key names a composition whose own model calls
	// these are (a Parallel's merge, §15.5), not an agent.
	Composition bool
}

// Strategy names besides the library's: a run configured with no window.
const StrategyNone = "none"

// Run is one agent run: the events of one runId and agent path (a
// segment, §10.3, §15.1), or of one pass when several agent runs share
// the segment (§15.2). A plain agent's run is one segment; a Sequence's
// steps are one segment each, sharing the runId; a Loop's passes are
// one Run each, sharing the runId and agent path.
type Run struct {
	Index int    // 1-based, in order of first event
	RunNo int    // 1-based number of its runId, in order of first event (§10.2)
	RunID string // meta.runId
	Step  string // the agent path ("" for a plain agent), as Agent.Step
	Pass  int    // 1-based number of the agent run within its segment (§15.2)
	Agent *Agent
	// Composition: the segment holds a composition's own model calls
	// (§15.5): no turn_start, no recorded window, no window strategy.
	Composition bool
	// First and Last order the segment's first and last events in the
	// file; TurnEndAt is its turn_end's (0 when none). Line is the line of
	// its first event (0 in an envelope).
	First, Last, TurnEndAt int
	Line                   int
	File                   string // the file of Line when the recording is of several (Recording.Files), else ""

	HasTurnStart bool
	Request      string // agent.turn_start userPrompt: the run's own request text
	// Configured: the segment had an agent.run_configured; Strategy is its
	// window ("none" when it named no window). Unconfigured: "".
	Configured bool
	Strategy   string
	// Caps are the caps of the segment's context.budget_pressure events
	// with unit tokens, in order.
	Caps []int
	// RequestMessage is the user message that opened the run; the replay
	// appends it to the conversation, so its identity is stable.
	RequestMessage *Message
	Calls          []*Call
	// Records are the library's own window records this segment filed,
	// from a recording envelope (sharedState.compactions, or for a step
	// subflowResults[step]…compactions; copies restored from an earlier
	// run are left out). HasRecords is false when the input carries none.
	Records    []Record
	HasRecords bool
	Complete   bool // the run's turn_end was seen
	// Failed: the run has an agentfootprint.error.fatal, it failed for
	// good (§14.1); FatalLine is that event's line (0 in an envelope).
	Failed    bool
	FatalLine int
	FatalFile string // the file of FatalLine when the recording is of several, else ""
	// FinalAnswer is turn_end finalContent (else the last llm_end content);
	// FinalMessage is it as the assistant message turn_end appends.
	FinalAnswer  string
	FinalMessage *Message
	// FirstToolEnd is the toolCallId of the segment's first tool_end, and
	// Opened whether a tool_start of the segment opened it; Unanswered are
	// the ids of tool_starts with no tool_end in the segment (§10.7).
	FirstToolEnd string
	FirstOpened  bool
	Unanswered   []string
	// LeadHistory is an iteration_end history that came before the
	// segment's first llm_start: after a resume() it completes the paused
	// run's last call (§10.6). LeadIteration is its iterIndex.
	LeadHistory   []*Message
	LeadIteration int
}

// Call is one model call (one stream.llm_start) of a run.
type Call struct {
	Number        int    // 1-based over all calls of the file, in llm_start order
	Iteration     int    // the library's iteration number
	MessagesCount int    // llm_start messagesCount: the window size sent
	Usage         Usage  // llm_end usage; zero when the call never ended
	Line          int    // line of the llm_start event (0 in an envelope)
	File          string // the file Line counts in when the recording is of several (Recording.Files), else ""
	// Recorded is the window the library sent on this call, message by
	// message (role and content; §10.6), from its iteration_end history,
	// else from its context.injected events; nil when unknown. Messages
	// are interned: equal role and content is one *Message.
	Recorded []*Message
	// Deliveries counts the trailing messages of Recorded that an
	// injection delivered after the visit (§10.6).
	Deliveries int
	// Appended are the messages this call added to the conversation: the
	// assistant's answer and the results of the tools it called, from its
	// iteration_end history (or rebuilt from the stream when it made tool
	// calls and has none). A final answer is the run's FinalAnswer.
	Appended []*Message
	Ended    bool // llm_end was seen
	// History: an iteration_end with a history completed this call (a
	// failed call, and a run's final call, have none; §14.1).
	History bool
	// Measured: its llm_end usage held a number for input and for
	// output, so the usage is a reading for the next visit (§7).
	Measured bool
	// Facts are the call's response, system prompt and evidence verdict.
	Facts CallFacts
	// Request is what the call received besides its messages: the system
	// prompt, the tools and the slot budgets (not part of the window).
	Request Request
}

// Usage is the provider-reported token count of one call.
type Usage struct {
	Input  int `json:"input"`
	Output int `json:"output"`
}
