// Package lineage decides, from the log alone, which run continues which
// (docs/rules/runs-and-conversations.md §10.7) and which runs make one conversation (§10.8).
// Nothing in an event names the run a follow-up continues or the
// conversation it belongs to: a resumed run is linked by the tool call it
// answers, a new conversation is a first window that is only its request,
// and a follow-up continues the earlier run of the same agent whose final
// state explains its first window. It sits between loader (which states
// what each segment recorded) and window (which replays each agent from
// the seeds this package names); it decides nothing about windows.
package lineage

import (
	"fmt"
	"sort"

	"github.com/afinspect/inspect/model"
)

// Kind is how a segment starts.
type Kind uint8

// How a segment can start (§10.7).
const (
	None        Kind = iota // no calls: part of no conversation
	New                     // a new conversation: its first window is its request
	FollowUp                // continues Pred's history, as Form says
	Resume                  // continues Pred's state at the paused call
	Orphan                  // continues something the log does not hold; replayed from its first recorded window
	Composition             // a composition's own model calls (§15.5): no window, part of no conversation
)

var kindNames = [...]string{None: "none", New: "new", FollowUp: "follow-up", Resume: "resume", Orphan: "orphan",
	Composition: "composition"}

func (k Kind) String() string { return kindNames[k] }

// Form is the history a follow-up starts from (§10.7, §14).
type Form uint8

const (
	// Answered: Pred ended (turn_end): its last window, its final
	// answer, then the request (followUp(), §10.7).
	Answered Form = iota
	// Unfinished: Pred failed or was aborted: its last window, no
	// answer, then the request (followUp() after a failure, §14.2).
	Unfinished
	// Reentered: Pred failed: the history of its last iteration_end,
	// nothing appended (resumeOnError(), §14.3).
	Reentered
)

var formNames = [...]string{Answered: "answered", Unfinished: "unfinished", Reentered: "reentered"}

func (f Form) String() string { return formNames[f] }

// Link says how one segment starts. Pred is the index in Recording.Runs
// of the segment it continues (-1 for none).
type Link struct {
	Kind         Kind
	Form         Form // a follow-up's
	Pred         int
	Score        int // a follow-up's explanation score (§10.7)
	Conversation int // 1-based; 0 for None and Composition
}

// Conversation is a new or orphan segment and every follow-up and resume
// that continues it, transitively (§10.8).
type Conversation struct {
	Number int
	Agent  *model.Agent
	Runs   []int // indices in Recording.Runs, in order of first event
}

// Lineage is the answer for one recording.
type Lineage struct {
	Links         []Link // by index in Recording.Runs
	Conversations []Conversation
	Problems      []model.Problem // orphans, unrecorded first windows, ambiguous links

	grow *grower // what Grow goes on from (grow.go)
}

// Decide links every segment of rec (§10.7, §14) and groups them
// (§10.8). rec.Runs must be in order of first event, as the loader leaves
// them. Candidates are looked up by index (index.go): the time is linear
// in the runs.
func Decide(rec *model.Recording) *Lineage {
	return decide(rec, (*decider).bestExplanation)
}

// decide is Decide with the way a follow-up's predecessor is found (the
// tests compare the index with testing every earlier run).
func decide(rec *model.Recording, explain func(*decider, int, *model.Run, []*model.Message) (int, Form, int)) *Lineage {
	d := &decider{rec: rec, resumed: map[int]bool{}, continued: map[int]bool{}, x: newIndex(),
		request: make([]string, len(rec.Runs)), explain: explain, unfiled: map[*model.Agent][]int{}}
	d.out = &Lineage{Links: make([]Link, len(rec.Runs))}
	for i, r := range rec.Runs {
		d.next(i, r)
	}
	d.number()
	d.out.grow = &grower{d: d, rec: rec}
	return d.out
}

// next links run i, the next in order, and makes it findable by the
// runs after it.
func (d *decider) next(i int, r *model.Run) {
	d.x.ready(r.First, func(k int) { a := d.rec.Runs[k].Agent; d.unfiled[a] = append(d.unfiled[a], k) })
	d.out.Links[i] = d.link(i, r)
	d.group(i)
	d.queue(i, r)
}

// number gives the conversations their numbers in order of first
// appearance, read as the fidelity judge reads it: by the smallest run
// number (§10.2) among their segments, then by their first call. §10.8
// says "the first event of the first segment"; the two orders differ only
// when another run starts between two steps of one Sequence, whose step
// conversations share the runId of the first step.
func (d *decider) number() {
	convs := d.out.Conversations
	type key struct{ run, call int }
	first := make([]key, len(convs))
	for ci, c := range convs {
		k := key{int(^uint(0) >> 1), int(^uint(0) >> 1)}
		for _, i := range c.Runs {
			r := d.rec.Runs[i]
			if r.RunNo < k.run || (r.RunNo == k.run && len(r.Calls) > 0 && r.Calls[0].Number < k.call) {
				k.run = r.RunNo
				if len(r.Calls) > 0 {
					k.call = r.Calls[0].Number
				}
			}
		}
		first[ci] = k
	}
	order := make([]int, len(convs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ka, kb := first[order[a]], first[order[b]]
		return ka.run < kb.run || (ka.run == kb.run && ka.call < kb.call)
	})
	renum := make([]int, len(convs)+1)
	sorted := make([]Conversation, len(convs))
	for n, old := range order {
		sorted[n] = convs[old]
		sorted[n].Number = n + 1
		renum[old+1] = n + 1
	}
	d.out.Conversations = sorted
	for i := range d.out.Links {
		d.out.Links[i].Conversation = renum[d.out.Links[i].Conversation]
	}
}

type decider struct {
	rec       *model.Recording
	out       *Lineage
	resumed   map[int]bool // paused segments a resume already continues
	continued map[int]bool // segments a follow-up already continues
	x         *index
	request   []string // each segment's request text: a resumed chain's is its paused run's (§10.7 rule 1)
	explain   func(*decider, int, *model.Run, []*model.Message) (int, Form, int)
	// unfiled are the runs that ended before the run being linked, by
	// agent, in order of their end, not yet in the index: an agent's are
	// filed when one of its runs is first looked up (fileAgent), so that
	// a file of independent conversations indexes nothing
	unfiled map[*model.Agent][]int
}

func (d *decider) problem(r *model.Run, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	file := d.rec.Source
	if r.File != "" { // one of several files: the run's own
		file = r.File
	}
	if r.Line > 0 {
		msg = fmt.Sprintf("%s:%d: %s", file, r.Line, msg)
	} else {
		msg = fmt.Sprintf("%s: %s", file, msg)
	}
	d.out.Problems = append(d.out.Problems, model.Problem{Line: r.Line, Message: msg})
}

// group files segment i in its conversation.
func (d *decider) group(i int) {
	l := &d.out.Links[i]
	switch l.Kind {
	case None, Composition:
		return
	case FollowUp, Resume:
		l.Conversation = d.out.Links[l.Pred].Conversation
		c := &d.out.Conversations[l.Conversation-1]
		c.Runs = append(c.Runs, i)
		return
	}
	n := len(d.out.Conversations) + 1
	l.Conversation = n
	d.out.Conversations = append(d.out.Conversations, Conversation{Number: n, Agent: d.rec.Runs[i].Agent, Runs: []int{i}})
}

// link decides how segment i starts.
func (d *decider) link(i int, r *model.Run) Link {
	none := Link{Kind: None, Pred: -1}
	if len(r.Calls) == 0 {
		return none
	}
	if r.Composition {
		return Link{Kind: Composition, Pred: -1}
	}
	if !r.HasTurnStart {
		if p := d.pausedOn(i, r); p >= 0 {
			d.resumed[p] = true
			d.x.continued(p, true)
			return Link{Kind: Resume, Pred: p}
		}
		d.problem(r, "run %s%s starts with no turn_start and resumes no paused run in this file: an orphan, replayed from its first recorded window", r.RunID, stepNote(r))
		return Link{Kind: Orphan, Pred: -1}
	}
	w1 := FirstWindow(r)
	switch {
	case w1 == nil:
		d.problem(r, "run %s%s: its first window was not recorded; taken as a new conversation", r.RunID, stepNote(r))
		return Link{Kind: New, Pred: -1}
	case len(w1) == 1 && w1[0].Role == model.RoleUser && w1[0].Content == r.Request:
		return Link{Kind: New, Pred: -1}
	}
	p, form, score := d.explain(d, i, r, w1)
	if p < 0 {
		d.problem(r, "run %s%s: no earlier run of agent %s explains its first window of %d messages: an orphan, replayed from that window", r.RunID, stepNote(r), r.Agent.Key, len(w1))
		return Link{Kind: Orphan, Pred: -1}
	}
	d.continued[p] = true
	d.x.continued(p, false)
	return Link{Kind: FollowUp, Form: form, Pred: p, Score: score}
}

func stepNote(r *model.Run) string {
	if r.Step == "" {
		return ""
	}
	return " step " + r.Step
}

// FirstWindow is a segment's first recorded window without that call's
// deliveries (W1 of §10.7), nil when not recorded.
func FirstWindow(r *model.Run) []*model.Message {
	if len(r.Calls) == 0 || r.Calls[0].Recorded == nil {
		return nil
	}
	c := r.Calls[0]
	return c.Recorded[:len(c.Recorded)-c.Deliveries]
}

// pausedOn is the segment r resumes (§10.7 rule 1), -1 for none: among
// the earlier segments of its agent paused on the tool call its first
// tool_end answers, and not resumed yet, the one whose last event is
// latest.
func (d *decider) pausedOn(i int, r *model.Run) int {
	if r.FirstToolEnd == "" || r.FirstOpened {
		return -1
	}
	best := -1
	for _, k := range d.x.paused[textKey{r.Agent, r.FirstToolEnd}] {
		if k >= i || d.resumed[k] {
			continue
		}
		if best < 0 || d.rec.Runs[k].Last > d.rec.Runs[best].Last {
			best = k
		}
	}
	return best
}

// queue makes segment i, once linked, findable by the runs after it: a
// paused run by the tool calls it waits on; a run that ended, failed or
// stopped, once its end is before a later run's first event (file).
func (d *decider) queue(i int, r *model.Run) {
	d.request[i] = r.Request
	if l := d.out.Links[i]; l.Kind == Resume {
		d.request[i] = d.request[l.Pred]
	}
	if len(r.Calls) == 0 || r.Composition {
		return
	}
	switch {
	case r.Complete:
		d.x.wait(i, r.TurnEndAt)
	case len(r.Unanswered) == 0 || r.Failed:
		d.x.wait(i, r.Last) // §14.4: no turn_end, not waiting on a pause
	}
	if !r.Complete {
		for _, id := range r.Unanswered {
			k := textKey{r.Agent, id}
			d.x.paused[k] = append(d.x.paused[k], i)
		}
	}
}

// fileAgent files the runs of agent a that ended before the run being
// linked.
func (d *decider) fileAgent(a *model.Agent) {
	for _, i := range d.unfiled[a] {
		d.file(i)
	}
	delete(d.unfiled, a)
}

// file puts segment i among the candidates of the follow-ups after it,
// in the form or forms it offers (§10.7 rule 2, §14.4).
func (d *decider) file(i int) {
	r := d.rec.Runs[i]
	if d.resumed[i] {
		return
	}
	last := r.Calls[len(r.Calls)-1].Recorded
	if r.Complete {
		final := r.FinalMessage
		if final == nil {
			final = &model.Message{Role: model.RoleAssistant, Content: r.FinalAnswer}
		}
		if last != nil {
			d.x.file(i, r.Agent, Answered, append(last[:len(last):len(last)], final), "", r.TurnEndAt)
		} else if h := historyBeforeLast(r); h != nil {
			d.x.fileTwo(i, r.Agent, append(h, final), r.TurnEndAt) // §16.3
		}
		return
	}
	if last != nil {
		d.x.file(i, r.Agent, Unfinished, last, "", r.Last)
	}
	if h := LastHistory(r); h != nil {
		d.x.file(i, r.Agent, Reentered, h, d.request[i], r.Last)
	}
}

// historyBeforeLast is what a run hands its last call when that call's
// window is not in the log (tier minimal, §16.3): the window of the call
// before it and what that call added; nil when that is not known either.
func historyBeforeLast(r *model.Run) []*model.Message {
	n := len(r.Calls)
	if n < 2 || r.Calls[n-2].Recorded == nil || len(r.Calls[n-2].Appended) == 0 {
		return nil
	}
	prev := r.Calls[n-2]
	h := make([]*model.Message, 0, len(prev.Recorded)+len(prev.Appended)+1)
	return append(append(h, prev.Recorded...), prev.Appended...)
}

// LastHistory is the history of a segment's last iteration_end: the
// window of its last call that an iteration_end completed, then what
// that call added (§14.3); nil when no call has one.
func LastHistory(r *model.Run) []*model.Message {
	for k := len(r.Calls) - 1; k >= 0; k-- {
		if c := r.Calls[k]; c.History && c.Recorded != nil {
			return append(c.Recorded[:len(c.Recorded):len(c.Recorded)], c.Appended...)
		}
	}
	return nil
}
