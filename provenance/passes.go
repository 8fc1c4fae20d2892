package provenance

import (
	"fmt"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
)

// A Loop runs its body again per pass, and a swarm may run one agent
// twice: each pass is a fresh agent run whose only text from the pass
// before is that pass's answer, as its request (docs/rules/compositions.md
// §15.2). A value a pass never read is `never-read` there, truthfully —
// but when an earlier pass of the same agent read it, "in no message this
// conversation sent" leaves out what a reader wants next: where the value
// came from, and that no window policy would have kept it (only the
// pass's answer crosses to the next pass).

// EarlierPass is a message an earlier pass of the same agent was sent
// that holds a value this pass never read, by the library's rules (§3):
// a tool result (named), or with both null user or system text — that
// pass's request, a frame, a notice. SentOn is the first and the last
// call of that pass (export numbers) whose window held it. The value
// stays flagged (§10.2 rule 8): nothing in this pass's window holds it.
type EarlierPass struct {
	Pass       int     `json:"pass"`
	ToolName   *string `json:"toolName"`
	ToolCallID *string `json:"toolCallId"`
	SentOn     [2]int  `json:"sentOn"`

	request bool // the message is that pass's request
	msg     *model.Message
}

// Message is the message of the earlier pass that holds the value.
func (p EarlierPass) Message() *model.Message { return p.msg }

// Who names the message as a source is named ("get_metrics call_0002"),
// and an earlier pass's request as its request.
func (p EarlierPass) Who() string {
	if p.request {
		return "its request"
	}
	return Source{ToolName: p.ToolName, ToolCallID: p.ToolCallID, msg: p.msg}.Who()
}

// Words says it for a reader: "never read in this pass; pass 1 read it in
// get_metrics call_0002 (sent on calls 3–4); only a pass's answer
// reaches the next" (so no window policy would have kept it). Pure, for
// every front end.
func (p EarlierPass) Words() string {
	on := fmt.Sprintf("call %d", p.SentOn[0])
	if p.SentOn[0] != p.SentOn[1] {
		on = fmt.Sprintf("calls %d–%d", p.SentOn[0], p.SentOn[1])
	}
	return p.Say(on)
}

// Say is Words with the calls it was sent on said by the caller ("calls
// 3–4", "conversation 2's calls 3–4, the file's 8–9").
func (p EarlierPass) Say(calls string) string {
	verb := "read it in"
	if p.ToolName == nil {
		verb = "held it in"
	}
	return fmt.Sprintf("never read in this pass; pass %d %s %s (sent on %s); only a pass's answer reaches the next",
		p.Pass, verb, p.Who(), calls)
}

// passMessage is one message an earlier pass was sent, with the replay
// calls of that pass that held it.
type passMessage struct {
	m           *model.Message
	run         *model.Run
	first, last int
}

// earlierPass is the message of the latest earlier pass of call i's
// agent (same run id, agent path and agent; another conversation) that
// holds the never-read v, the first such message of that pass; nil for
// none, and for a call of a first pass.
func (f *flagCall) earlierPass(v string) *EarlierPass {
	cur := f.c.Run
	if cur == nil || cur.Pass < 2 {
		return nil
	}
	var best *passMessage
	for _, pm := range f.b.passMessages(cur, f.c.Conversation) {
		if best != nil && pm.run.Pass <= best.run.Pass {
			continue
		}
		if f.b.passHolds(pm, v) {
			best = pm
		}
	}
	if best == nil {
		return nil
	}
	p := &EarlierPass{Pass: best.run.Pass, SentOn: [2]int{f.b.number(best.first), f.b.number(best.last)},
		request: best.m == best.run.RequestMessage, msg: best.m}
	if best.m.Role == model.RoleTool {
		name, id := f.b.toolName(best.first, best.m), best.m.ToolCallID
		p.ToolName, p.ToolCallID = &name, &id
	}
	return p
}

// passMessages is every message sent on a call of an earlier pass of
// run cur's agent whose conversation is not conv, the evidence a value
// could be held in (tool results, user and system text but the
// library's re-asks), in order of the first call sent it; made once per
// run.
func (b *Book) passMessages(cur *model.Run, conv int) []*passMessage {
	if out, ok := b.passes[cur]; ok {
		return out
	}
	if b.passes == nil {
		b.passes = map[*model.Run][]*passMessage{}
	}
	var out []*passMessage
	at := map[*model.Message]*passMessage{}
	for k := range b.r.Calls {
		c := &b.r.Calls[k]
		run := c.Run
		if run == cur || run.Pass >= cur.Pass || run.RunID != cur.RunID || run.Step != cur.Step || run.Agent != cur.Agent || c.Conversation == conv {
			continue
		}
		for _, m := range c.Window() {
			if m.Role != model.RoleTool && (m.Role != model.RoleUser && m.Role != model.RoleSystem || evidence.IsReask(m.Content)) {
				continue
			}
			if pm := at[m]; pm != nil {
				pm.last = k
				continue
			}
			pm := &passMessage{m: m, run: run, first: k, last: k}
			at[m] = pm
			out = append(out, pm)
		}
	}
	b.passes[cur] = out
	return out
}

// passHolds reports whether pm's message holds v by the library's rules:
// a tool result's whole content or its own bytes indexed as §3 indexes
// them, other text tokenized (each message indexed once: every later
// pass asks of the same ones).
func (b *Book) passHolds(pm *passMessage, v string) bool {
	x, ok := b.passHeld[pm.m]
	if !ok {
		x = evidence.NewIndex()
		if pm.m.Role == model.RoleTool {
			x.AddToolResult(pm.m.Content)
			if own := b.OwnBytes(pm.m); own != pm.m.Content {
				x.AddToolResult(own)
			}
		} else {
			x.AddText(pm.m.Content)
		}
		if b.passHeld == nil {
			b.passHeld = map[*model.Message]*evidence.Index{}
		}
		b.passHeld[pm.m] = x
	}
	return x.Has(v)
}
