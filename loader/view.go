package loader

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/afinspect/inspect/model"
)

// The recording is a view of the builder: what the events so far make
// if the input ends there. Each segment's open call is settled as it
// would be, the tool calls nothing answered are named, the segments are
// in order of first event; and the builder is left as it was, so that
// the events of a file that grows can be applied to it and the next view
// made (Continue). A view is never changed once made: what the builder
// goes on to change (a segment's latest call, its tool calls, the
// problem list) is copied into it, and the next view shares with it
// every segment and call that did not change since.

// inputRead is how far into the input the builder has applied its
// lines: offset is the byte after the last line applied (from the start
// of the input), lines their count; held is a last line the input ends
// inside of, not applied (a writer may still be writing it); the rest as
// cutEnd says.
type inputRead struct {
	offset       int64
	lines        int
	held         []byte
	unterminated bool
	clean        bool
}

// read notes how the cutter's input ended, after lines lines.
func (in *inputRead) read(end cutEnd, lines int) {
	in.offset += end.consumed
	in.lines = lines
	in.held, in.unterminated, in.clean = end.held, end.unterminated, end.clean
}

// heldProblems says what is wrong with the last line the input ends
// inside of, as a load that read it as a line says it: when the input is
// not followed, nothing more will come for it.
func (b *builder) heldProblems(p *viewProblems) {
	ln := bytes.TrimRight(b.input.held, "\r\n")
	if len(ln) == 0 || ln[0] != '{' && len(bytes.TrimSpace(ln)) == 0 {
		return
	}
	var ev parsed
	at := loc{line: b.input.lines + 1}
	decodeReference(ln, at, true, &ev)
	for _, msg := range ev.problems {
		p.add(at, "%s", msg)
	}
}

// viewState is what the builder keeps of the views it made.
type viewState struct {
	sorted   []*runState // b.order by first event (stable), kept as segments are adopted
	inserted bool        // a segment went before one already sorted since the last view
	agents   []*model.Agent
	// open are the tool_starts no tool_end has answered yet, in order;
	// answered every toolCallId a tool_end answered
	open     []toolStartAt
	answered map[string]bool
	// repeated counts the writes to RepeatedResults; shownRepeated is
	// the copy the last view has, made at count repeatedAt
	repeated, repeatedAt int
	shownRepeated        map[*model.Message]string
}

// sortIn files rs, just adopted, among the segments in order of first
// event: after those that start no later (the stable order of finish's
// sort by First).
func (b *builder) sortIn(rs *runState) {
	v := &b.views
	i := len(v.sorted)
	for i > 0 && v.sorted[i-1].run.First > rs.run.First {
		i--
	}
	if i < len(v.sorted) {
		v.inserted = true
	}
	v.sorted = slices.Insert(v.sorted, i, rs)
}

// view is the recording the events applied so far make, the builder
// unchanged. Following, a last line the input ends inside of is waited
// for; else it is one that is cut off.
func (b *builder) view(following bool) *model.Recording {
	rec := &model.Recording{Source: b.rec.Source, Format: b.rec.Format, Files: slices.Clip(b.rec.Files), Library: b.rec.Library, Tier: b.tier.tier()}
	rec.Library.Producers = slices.Clip(b.rec.Library.Producers)
	problems := viewProblems{list: slices.Clip(b.rec.Problems), unlisted: b.unlisted.clone(), b: b}
	if !following {
		b.heldProblems(&problems)
	}
	b.unanswered(&problems)
	b.tierProblems(&problems)
	rec.RepeatedResults = b.repeatedResults()
	rec.Runs = make([]*model.Run, len(b.views.sorted))
	own := false // rec.RepeatedResults is this view's own copy
	for i, rs := range b.views.sorted {
		rec.Runs[i] = b.viewOf(rs, i+1)
		for _, n := range rs.shownNotes {
			if !own {
				rec.RepeatedResults, own = maps.Clone(rec.RepeatedResults), true
				if rec.RepeatedResults == nil {
					rec.RepeatedResults = map[*model.Message]string{}
				}
			}
			rec.RepeatedResults[n.m] = n.text
		}
	}
	rec.Agents = b.viewAgents()
	b.views.inserted = false
	if problems.unlisted.total > 0 {
		rec.Unlisted = problems.unlisted.total
		problems.list = append(problems.list, model.Problem{Message: problems.unlisted.say(b.rec.Source)})
	}
	rec.Problems = problems.list
	return rec
}

// viewProblems are a view's problems: the builder's, then those only the
// end of the input makes (the list bounded as the builder's is).
type viewProblems struct {
	list     []model.Problem
	unlisted unlisted
	b        *builder
}

func (p *viewProblems) add(at loc, format string, args ...any) {
	if len(p.list) >= maxProblems {
		p.unlisted.add(at.line, fmt.Sprintf(format, args...))
		return
	}
	p.list = append(p.list, model.Problem{Line: at.line, Message: p.b.located(at, fmt.Sprintf(format, args...))})
}

// viewOf is segment rs as the view shows it, at index (1-based): the
// copy the last view made when nothing changed it since, else a new one
// whose latest call is settled as the end of the input would settle it,
// and whose tool calls are stated (§10.7).
func (b *builder) viewOf(rs *runState, index int) *model.Run {
	if r := rs.shown; r != nil && !rs.stale && r.Index == index {
		return r
	}
	r := *rs.run
	r.Index = index
	r.Calls = slices.Clip(rs.run.Calls)
	rs.shownNotes = nil
	if cs := rs.cur; cs != nil && !cs.settled {
		// the segment's latest call may still change (its tool results,
		// its turn_end): the view has a copy, settled
		var last *model.Call
		last, rs.shownNotes = b.settledCopy(cs)
		r.Calls = append(r.Calls[:len(r.Calls)-1:len(r.Calls)-1], last)
	}
	r.Caps = slices.Clip(r.Caps)
	r.FirstOpened = rs.started[r.FirstToolEnd]
	r.Unanswered = nil
	for _, id := range rs.opened {
		if !rs.ended[id] {
			r.Unanswered = append(r.Unanswered, id)
		}
	}
	rs.shown, rs.stale = &r, false
	return &r
}

// viewAgents are the agents in order of their first segment.
func (b *builder) viewAgents() []*model.Agent {
	v := &b.views
	if v.inserted || len(v.agents) > len(b.rec.Agents) {
		v.agents = v.agents[:0]
	}
	listed := len(v.agents)
	if listed == len(b.rec.Agents) {
		return slices.Clip(v.agents)
	}
	seen := make(map[*model.Agent]bool, len(b.rec.Agents))
	for _, a := range v.agents {
		seen[a] = true
	}
	for _, rs := range v.sorted {
		if a := rs.run.Agent; !seen[a] {
			seen[a] = true
			v.agents = append(v.agents, a)
		}
	}
	return slices.Clip(v.agents)
}

// settledCopy is cs's call as settle would leave it if nothing more
// came for it, cs itself unchanged: the view's copy of a segment's
// latest call. The messages it makes are numbered apart from the
// builder's (provisional), so that a later event numbers its own as a
// load of the whole file would; the repeated results it notes are kept
// in notes, for the views that show the copy.
func (b *builder) settledCopy(cs *callState) (_ *model.Call, notes []repeatedNote) {
	call := *cs.call
	cp := *cs
	cp.call = &call
	k := 0
	b.complete(&cp, func(m *model.Message) *model.Message {
		k++
		m.ID = provisional(call.Number, k)
		m.Chars()
		return m
	}, func(m *model.Message, text string) { notes = append(notes, repeatedNote{m, text}) })
	return &call, notes
}

// repeatedNote is one entry of RepeatedResults.
type repeatedNote struct {
	m    *model.Message
	text string
}

// provisional is the ID of the k-th message (from 1) a view makes for
// call number n: below zero, where no message the builder numbers is.
func provisional(n, k int) int {
	return -(n<<24 | min(k, 1<<24-1))
}

// repeatedResults is the view's copy of RepeatedResults: the last view's
// when nothing was added since.
func (b *builder) repeatedResults() map[*model.Message]string {
	v := &b.views
	if b.rec.RepeatedResults == nil {
		return nil
	}
	if v.shownRepeated == nil || v.repeatedAt != v.repeated {
		v.shownRepeated, v.repeatedAt = maps.Clone(b.rec.RepeatedResults), v.repeated
	}
	return v.shownRepeated
}

// unanswered names each tool_start that no tool_end answers anywhere in
// the file (a paused run's tool is answered by the run that resumes it,
// so only a tool answered nowhere is said). In a log that is cut off the
// cut says it already.
func (b *builder) unanswered(p *viewProblems) {
	for _, pr := range p.list {
		if strings.Contains(pr.Message, "the last line is cut off") {
			return
		}
	}
	v := &b.views
	v.open = slices.DeleteFunc(v.open, func(s toolStartAt) bool { return v.answered[s.id] })
	for _, s := range v.open {
		p.add(s.at, "stream.tool_start of %s (toolCallId %q) has no stream.tool_end in the file; its result is missing", s.name, s.id)
	}
}

// tierProblems says what the tier keeps out of the log, and names the
// evidence_checked events no call took.
func (b *builder) tierProblems(p *viewProblems) {
	for _, rs := range b.order {
		for _, j := range rs.judged {
			p.add(j.at, "agent.evidence_checked for iteration %d, which run %q has no call for", j.iteration, rs.run.RunID)
		}
	}
	switch {
	case b.tier.late:
		p.add(b.tier.lateAt, "stream or context events after %d calls were rebuilt from agent.iteration_end as at tier minimal: the log is not of one tier", b.tier.rebuilt)
	case b.tier.tier() == model.TierMinimal:
		p.add(loc{}, "written at observability tier minimal: calls are rebuilt from agent.iteration_end; "+
			"each run's last window, every token count, tool events, pauses and composition calls are not in the log")
	}
}
