package advise

import (
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/toolbytes"
	"github.com/afinspect/inspect/window"
)

// adviseBase is what one agent's sweep reads once from one file, whatever
// the policy: the agent's calls and the run chains they are on, the values
// of their responses, and what each message of the file holds of those
// values — every message tokenized once (evidence.Asked). A policy then
// changes only which messages are in which window (advise_walk.go).
type adviseBase struct {
	s     *study.Study
	agent *study.Agent
	shape *window.Replay // under the settled policies: every replay lists the same calls in this order
	steps []walkStep     // the calls of the agent's chains, depth first, each entered then left
	// others are the other agents' runs the steps enter (a sweep's replay
	// holds only them and the agent's)
	others map[*model.Run]bool
	calls  []adviseCall // the agent's calls, in replay order

	values  []string // the values asked about, by id
	shapes  []string // and their shapes
	asked   *evidence.Asked
	formIDs map[string][]int32 // lookup form → the values that have it
	known   map[*model.Message]*held
	byMsgID []knownSlot // known, by model.Message.ID where that numbers one message: no hashing
	holders int32       // known messages that hold a value have ids 0..holders-1
	held    int         // the messages the agent's windows hold under the settled policies, in all
}

// The sweep gives up a policy whose windows hold more than AdviseGrowth
// times the messages the settled policy's do (and more than adviseFloor):
// a token threshold that a replay seldom engages keeps whole histories,
// and over thousands of follow-ups that is quadratic in the conversation
// (16,000 follow-ups: minutes and tens of gigabytes). Such a policy is
// listed as left out (Advice.Unbounded).
const AdviseGrowth = 32

var adviseFloor = 4 << 20 // a var: a test lowers it

// budget is the most messages a policy's windows may hold in all.
func (b *adviseBase) budget() int { return max(AdviseGrowth*b.held, adviseFloor) }

// knownSlot is a known message and what it holds.
type knownSlot struct {
	m *model.Message
	h *held
}

// knownOf is what a known message holds; false for a message the
// replays wrote (or one the file has not).
func (b *adviseBase) knownOf(m *model.Message) (*held, bool) {
	if id := m.ID; id > 0 && id < len(b.byMsgID) && b.byMsgID[id].m == m {
		return b.byMsgID[id].h, true
	}
	h, ok := b.known[m]
	return h, ok
}

// walkStep enters or leaves one call of the chains.
type walkStep struct {
	call  int32
	own   int32 // its place in the base's calls, -1 for another agent's call
	leave bool
}

// adviseCall is one call of the agent: the values of its response, and
// those of them its request text or system prompt hold (exempt text that
// grounds them under every policy).
type adviseCall struct {
	index   int
	values  []valueAt
	exempt  []int32
	bound   int // the request's and system prompt's forms, at least (evidence.Holding.Bound)
	request string
	prompt  []string
}

// valueAt is one value a response typed, as inspect's own verdict counts
// it (the number a JSON `:NNNN` token stands for, §9.5.3), and whether it
// was typed in a tool call's arguments rather than the answer (§9.1).
type valueAt struct {
	id  int32
	arg bool
}

// held is what one message holds of the asked values (evidence.Holding,
// by value id).
type held struct {
	id         int32 // -1 for a message that holds none
	in, gone   []int32
	tool       bool
	bound, own int

	exact        bool // bound and own are the distinct forms, not more
	once         sync.Once
	dBound, dOwn int // else those, counted when first asked (distinct)
}

// distinct is h's bound and own counted exactly (evidence.Distinct),
// once; m is the message h is of.
func (h *held) distinct(m *model.Message, own func(*model.Message) string) (int, int) {
	if h.exact {
		return h.bound, h.own
	}
	h.once.Do(func() { h.dBound, h.dOwn = evidence.Distinct(m, own) })
	return h.dBound, h.dOwn
}

// agentCalls are the places in the replay r of each agent's calls (of
// its own runs, not a composition's), in order: one pass over the file's
// calls for every agent, where each agent's base looked at all of them.
func agentCalls(r *window.Replay) map[*model.Agent][]int {
	out := map[*model.Agent][]int{}
	for i := range r.Calls {
		if run := r.Calls[i].Run; !run.Composition {
			out[run.Agent] = append(out[run.Agent], i)
		}
	}
	return out
}

// readBase reads agent a of s, whose calls are mine (agentCalls): what
// it reads of the file is those calls and the chains they are on.
func readBase(s *study.Study, a *study.Agent, mine []int) *adviseBase {
	b := &adviseBase{s: s, agent: a, shape: s.Replay(), formIDs: map[string][]int32{}}
	preds := b.shape.Preds()
	for _, i := range mine {
		b.calls = append(b.calls, adviseCall{index: i})
		b.held += len(b.shape.Calls[i].Window())
	}
	chain := onChains(b.calls, preds)
	b.steps = chainSteps(b.calls, chain, preds)
	b.others = map[*model.Run]bool{}
	for _, st := range b.steps {
		if run := b.shape.Calls[st.call].Run; run.Agent != a.Agent {
			b.others[run] = true
		}
	}
	b.readValues(chain, preds)
	b.readMessages()
	return b
}

// onChains are the calls of the chains the agent's calls are on (their
// predecessors included), ascending.
func onChains(calls []adviseCall, preds []int) []int {
	on := map[int]bool{}
	var out []int
	for _, c := range calls {
		for i := c.index; i >= 0 && !on[i]; i = preds[i] {
			on[i] = true
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return out
}

// chainSteps walks the calls of the chains the agent's calls are on
// (chain, ascending) depth first, so that each call is entered with the
// state of its own chain only (never a sibling branch's) and left again;
// each step names the call's place in calls (-1 for another agent's).
func chainSteps(calls []adviseCall, chain, preds []int) []walkStep {
	own := make(map[int]int32, len(calls))
	for k, c := range calls {
		own[c.index] = int32(k)
	}
	place := func(i int) int32 {
		if k, ok := own[i]; ok {
			return k
		}
		return -1
	}
	children := map[int][]int{}
	var roots []int
	for _, i := range chain { // ascending: children in call order
		if preds[i] < 0 {
			roots = append(roots, i)
		} else {
			children[preds[i]] = append(children[preds[i]], i)
		}
	}
	var steps []walkStep
	type frame struct{ call, next int }
	for _, r := range roots {
		stack := []frame{{r, 0}}
		steps = append(steps, walkStep{call: int32(r), own: place(r)})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if kids := children[top.call]; top.next < len(kids) {
				k := kids[top.next]
				top.next++
				steps = append(steps, walkStep{call: int32(k), own: place(k)})
				stack = append(stack, frame{k, 0})
				continue
			}
			steps = append(steps, walkStep{call: int32(top.call), own: -1, leave: true})
			stack = stack[:len(stack)-1]
		}
	}
	return steps
}

// readValues reads the values of the agent's responses, and what each
// call's request text and system prompt hold of them.
func (b *adviseBase) readValues(chain, preds []int) {
	ids := map[string]int32{}
	var all []evidence.Value
	for k := range b.calls {
		c := &b.calls[k]
		typed(&b.shape.Calls[c.index].Call.Facts.Response, func(v evidence.Value, arg bool) {
			id, ok := ids[v.Value]
			if !ok {
				id = int32(len(b.values))
				ids[v.Value] = id
				b.values, b.shapes = append(b.values, v.Value), append(b.shapes, v.Shape)
				all = append(all, v)
				for _, f := range evidence.LookupForms(v.Value) {
					b.formIDs[f] = append(b.formIDs[f], id)
				}
			}
			c.values = append(c.values, valueAt{id: id, arg: arg})
		})
	}
	b.asked = evidence.NewAsked(all)
	texts := map[string]*held{}
	text := func(t string) *held {
		h, ok := texts[t]
		if !ok {
			h = b.holding(b.asked.Text(t))
			h.exact = true
			texts[t] = h
		}
		return h
	}
	requests, prompts := b.requestsAndPrompts(chain, preds)
	for k := range b.calls {
		c := &b.calls[k]
		if len(c.values) == 0 {
			continue
		}
		c.request, c.prompt = requests[c.index], prompts[c.index]
		hs := []*held{text(c.request)}
		for _, p := range c.prompt {
			hs = append(hs, text(p))
		}
		for _, h := range hs {
			c.bound += h.bound
			for _, v := range h.in {
				if slices.ContainsFunc(c.values, func(x valueAt) bool { return x.id == v }) && !slices.Contains(c.exempt, v) {
					c.exempt = append(c.exempt, v)
				}
			}
		}
	}
}

// typed gives each value of a response as the export's evidence lists it
// (docs/rules/evidence.md §6.2): the answer's, then each tool call's
// arguments'; an answer value `:NNNN` stands for its number (§9.5), and
// is no value when that number has too few digits.
func typed(resp *model.Response, each func(v evidence.Value, arg bool)) {
	for _, v := range evidence.Candidates(resp.Content) {
		if num, ok := evidence.JSONNumber(v.Value); ok {
			if num.Shape == "" {
				continue
			}
			v = num
		}
		each(v, false)
	}
	for _, tc := range resp.ToolCalls {
		for _, v := range evidence.ArgValues(tc.Args) {
			each(v, true)
		}
	}
}

// requestsAndPrompts are each call's of the chains' (chain, ascending)
// request text — its run's own, or for a run that opened with none (made
// by resume()), the run it continues' — and the system prompt it was
// built from: its own, else its chain predecessor's (as provenance reads
// them), in one pass.
func (b *adviseBase) requestsAndPrompts(chain, preds []int) (map[int]string, map[int][]string) {
	requests, prompts := make(map[int]string, len(chain)), make(map[int][]string, len(chain))
	for _, i := range chain { // a predecessor comes before its calls
		c := &b.shape.Calls[i]
		if run := c.Run; run.RequestMessage != nil {
			requests[i] = run.Request
		} else if p := preds[i]; p >= 0 {
			requests[i] = requests[p]
		}
		if sp := c.Call.Facts.SystemPrompt; sp != nil {
			prompts[i] = sp
		} else if p := preds[i]; p >= 0 {
			prompts[i] = prompts[p]
		}
	}
	return requests, prompts
}

// readMessages indexes every message the file's replays can hold on the
// chains — the recorded ones, the same in every replay — on every core.
func (b *adviseBase) readMessages() {
	seen := map[*model.Message]bool{}
	var msgs []*model.Message
	add := func(ms ...*model.Message) {
		for _, m := range ms {
			if m != nil && !seen[m] {
				seen[m] = true
				msgs = append(msgs, m)
			}
		}
	}
	for _, st := range b.steps {
		if st.leave {
			continue
		}
		c := &b.shape.Calls[st.call]
		add(c.Visit.Before...)
		add(c.Window()...)
		add(c.Visit.Evicted...)
		add(c.Call.Recorded...)
		add(c.Call.Appended...)
		add(c.Run.RequestMessage, c.Run.FinalMessage)
		add(c.Run.LeadHistory...)
	}
	hs := make([]*held, len(msgs))
	var wg sync.WaitGroup
	n := runtime.GOMAXPROCS(0)
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(msgs); i += n {
				hs[i] = b.holding(b.asked.Message(msgs[i], b.ownBytes))
				hs[i].exact = true
			}
		}()
	}
	wg.Wait()
	b.known = make(map[*model.Message]*held, len(msgs))
	for i, m := range msgs {
		h := hs[i]
		if h.id >= 0 {
			h.id = b.holders
			b.holders++
		}
		b.known[m] = h
	}
	top := 0
	for _, m := range msgs {
		top = max(top, m.ID)
	}
	if top <= 4*len(msgs)+1024 { // the loader numbers its messages 1, 2, …
		b.byMsgID = make([]knownSlot, top+1)
		for _, m := range msgs {
			if m.ID > 0 && b.byMsgID[m.ID].m == nil {
				b.byMsgID[m.ID] = knownSlot{m, b.known[m]}
			}
		}
	}
}

// holding is h by value id; its id is 0 when it holds a value (to be
// numbered), -1 when not.
func (b *adviseBase) holding(h evidence.Holding) *held {
	out := &held{}
	b.fill(out, h)
	return out
}

func (b *adviseBase) fill(out *held, h evidence.Holding) {
	out.id, out.tool, out.bound, out.own, out.in, out.gone = -1, h.Tool, h.Bound, h.Own, b.idsOf(h.In), b.idsOf(h.Gone)
	if len(out.in) > 0 || len(out.gone) > 0 {
		out.id = 0
	}
}

func (b *adviseBase) idsOf(forms []string) []int32 {
	var out []int32
	for _, f := range forms {
		out = append(out, b.formIDs[f]...)
	}
	if len(out) > 1 {
		slices.Sort(out)
		out = slices.Compact(out)
	}
	return out
}

// written fills h with what a message a replay wrote holds (a drop
// notice, a compaction frame: new objects in every replay, most of them
// with a text of their own), by the asked forms alone: short texts, and
// many, read faster than their texts could be looked up.
func (b *adviseBase) written(h *held, m *model.Message) {
	*h = held{}
	b.fill(h, b.asked.Quick(m, b.ownBytes))
}

// ownBytes is a tool message's own bytes (docs/rules/evidence.md §6 "Tool
// bytes"), as provenance reads them.
func (b *adviseBase) ownBytes(m *model.Message) string {
	if cut, ok := toolbytes.Cut(m.Content, m.ToolChars); ok {
		return m.Content[:cut]
	}
	if res, ok := b.s.Rec.RepeatedResults[m]; ok && len(res) < len(m.Content) && strings.HasPrefix(m.Content, res) {
		return res
	}
	return m.Content
}

// align maps the base's call indexes to r's: the same when r lists the
// same calls in the same order, as every replay of the file does.
func (b *adviseBase) align(r *window.Replay) func(int) int {
	same := len(r.Calls) == len(b.shape.Calls)
	for k := 0; same && k < len(b.calls); k++ {
		i := b.calls[k].index
		same = r.Calls[i].Call == b.shape.Calls[i].Call
	}
	if same {
		return func(i int) int { return i }
	}
	at := make(map[*model.Call]int, len(r.Calls))
	for i := range r.Calls {
		at[r.Calls[i].Call] = i
	}
	return func(i int) int { return at[b.shape.Calls[i].Call] }
}
