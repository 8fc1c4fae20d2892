package loader

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/model"
)

// consumerScope is the runId of events that belong to no run (§10.1).
const consumerScope = "consumer-scope"

// segKey names a segment: one runId, compositionPath and agent path
// (§10.3, §15.1), both paths encoded (path.go). A plain agent's agent
// path is "".
type segKey struct{ runID, comp, path string }

// rootKey is one subflowPath of one runId and compositionPath.
type rootKey struct{ runID, comp, sub string }

// rootKind is what a subflowPath is the root of (§15.1).
type rootKind uint8

const (
	noRoot    rootKind = iota
	agentRoot          // a turn_start's (or an agent's llm_start's) whole subflowPath
	compRoot           // a composition's own call's: its own level or a nested composition's (§15.5)
)

// agentRef names an agent entry: a composition's own calls are never
// filed with an agent that happens to have the same key.
type agentRef struct {
	key         string
	composition bool
}

// segmenter is the builder's map from events to segments and agents.
type segmenter struct {
	segs   map[segKey]*runState // the latest pass of each segment
	byRun  map[string][]*runState
	roots  map[rootKey]rootKind
	nested map[rootKey]bool // composition.enter with no turn_start there yet
	agents map[agentRef]*model.Agent
	gen    int      // counts changes to roots and passes, which void last
	last   segCache // the segment of the last event, found without the maps
	ends   []int    // scratch for prefixEnds
}

// segCache is the segment the last event went to, and what it was found
// from.
type segCache struct {
	runID, comp, sub string
	gen              int
	rs               *runState
}

func newSegmenter() segmenter {
	return segmenter{segs: map[segKey]*runState{}, byRun: map[string][]*runState{}, roots: map[rootKey]rootKind{},
		nested: map[rootKey]bool{}, agents: map[agentRef]*model.Agent{}}
}

// segmentFor is the segment an event belongs to, nil for none (no runId,
// or consumer-scope). An event of a composition's own level goes to the
// segment of that level, which becomes one only if the composition makes
// a model call of its own (§15.5).
func (b *builder) segmentFor(p *parsed) *runState {
	if !p.hasRunID || p.runID == consumerScope {
		if p.kind == kindLLMStart {
			b.problem(p.at, "stream.llm_start belongs to no run (meta.runId is %s): its call is not replayed", noRunID(p))
		}
		return nil
	}
	c := &b.last
	if c.rs != nil && c.gen == b.gen && p.kind != kindTurnStart && p.kind != kindLLMStart && p.kind != kindCompEnter &&
		c.runID == p.runID && c.comp == p.comp && c.sub == p.sub {
		b.adoptOn(c.rs, p, noRoot)
		b.touch(c.rs)
		return c.rs
	}
	if b.runNos[p.runID] == 0 {
		b.runNos[p.runID] = len(b.runNos) + 1
	}
	path, root := b.agentPath(p)
	k := segKey{p.runID, p.comp, path}
	rs := b.segs[k]
	switch {
	case rs == nil:
		rs = b.newSegment(k, p, 1)
	case p.kind == kindTurnStart && root != noRoot && inComposition(p.comp) &&
		(rs.run.Composition || rs.run.HasTurnStart || len(rs.run.Calls) > 0 || rs.run.Complete):
		// another agent run in the same segment of a composition: a
		// Loop's next pass, a swarm agent running again (§15.2). A plain
		// agent's run is one runId: a second turn_start there is damage
		// (turnStart says so).
		pass := rs.run.Pass + 1
		if rs.run.Composition {
			pass = 1
		}
		rs = b.newSegment(k, p, pass)
	}
	b.adoptOn(rs, p, root)
	b.last = segCache{runID: p.runID, comp: p.comp, sub: p.sub, gen: b.gen, rs: rs}
	b.touch(rs)
	return rs
}

func noRunID(p *parsed) string {
	if p.hasRunID {
		return fmt.Sprintf("%q", p.runID)
	}
	return "absent"
}

func (b *builder) newSegment(k segKey, p *parsed, pass int) *runState {
	rs := &runState{
		run:     &model.Run{RunID: p.runID, Step: joinPath(k.path), Pass: pass, RunNo: b.runNos[p.runID], First: b.events, Line: p.at.line, File: p.at.file},
		comp:    p.comp,
		path:    k.path,
		started: map[string]bool{}, ended: map[string]bool{}, early: map[string]string{},
	}
	b.segs[k] = rs
	b.gen++
	return rs
}

// agentPath is the agent path of an event (§15.1), encoded, and what it
// is the root of. A plain agent's events (a compositionPath that ends with
// Agent:<id>, or none) are one segment per runId. Inside a composition it
// is the longest prefix of the event's subflowPath that some turn_start or
// llm_start of the runId and compositionPath had as its whole subflowPath;
// failing that, the first entry. A turn_start or llm_start names its own
// subflowPath as a root first: an llm_start with no turn_start at its
// subflowPath, at the composition's own level or where a composition
// entered, is the composition's own call.
func (b *builder) agentPath(p *parsed) (string, rootKind) {
	if !inComposition(p.comp) {
		return "", agentRoot
	}
	k := rootKey{p.runID, p.comp, p.sub}
	switch p.kind {
	case kindTurnStart:
		if b.roots[k] != agentRoot {
			b.roots[k] = agentRoot
			b.gen++
		}
	case kindLLMStart:
		if b.roots[k] == noRoot {
			b.roots[k] = agentRoot
			if p.sub == "" || b.nested[k] {
				b.roots[k] = compRoot
			}
			b.gen++
		}
	case kindCompEnter:
		if b.roots[k] == noRoot {
			b.nested[k] = true
		}
	}
	b.ends = prefixEnds(p.sub, b.ends[:0])
	for i := len(b.ends) - 1; i >= 0; i-- {
		k.sub = p.sub[:b.ends[i]]
		if kind := b.roots[k]; kind != noRoot {
			return k.sub, kind
		}
	}
	k.sub = ""
	if kind := b.roots[k]; kind != noRoot {
		return "", kind
	}
	return firstEntry(p.sub), noRoot
}

// adoptOn makes rs an agent's segment on its first turn_start, llm_start
// or turn_end (§10.3) — at tier minimal also iteration_end — or a
// composition's on an llm_start of the composition's own (§15.5).
func (b *builder) adoptOn(rs *runState, p *parsed, root rootKind) {
	if rs.run.Agent != nil {
		return
	}
	switch p.kind {
	case kindTurnStart, kindTurnEnd:
		b.adopt(rs, false, p)
	case kindLLMStart:
		b.adopt(rs, root == compRoot, p)
	case kindIterationEnd:
		if b.tier.minimal() { // it stands for its call (§16.3)
			b.adopt(rs, false, p)
		}
	}
}

// adopt files rs under its agent, named by its first event (§10.5,
// §15.3); a composition's own calls under the composition.
func (b *builder) adopt(rs *runState, composition bool, p *parsed) {
	key, path, id := agentKey(rs.comp, rs.path)
	if rs.comp == "" && rs.path == "" && rs.agentID != "" {
		key = rs.agentID // an empty composition path: the agent id (§10.5)
	}
	if !composition && rs.comp != "" && rs.path == "" && !agentComposition(rs.comp) {
		b.problem(p.at, "an agent runs at the own level of composition %s (empty subflowPath; the path does not end with Agent:<id>): its calls are kept as agent %q",
			quotedPath(rs.comp), key)
	}
	ref := agentRef{key, composition}
	a := b.agents[ref]
	if a == nil {
		a = &model.Agent{Key: key, Path: path, Step: rs.run.Step, AgentID: id, HasID: id != "", Composition: composition}
		b.agents[ref] = a
		b.rec.Agents = append(b.rec.Agents, a)
	}
	rs.run.Agent, rs.run.Composition = a, composition
	if composition { // its own events before its call are no segment's (§10.3): it starts at the call
		rs.run.First, rs.run.Line, rs.run.File = b.events, p.at.line, p.at.file
	}
	if rs.run.Configured && rs.agentID != "" && (a.AgentID != rs.agentID || !a.HasID) {
		a.AgentID, a.HasID = rs.agentID, true
	}
	b.order = append(b.order, rs)
	b.sortIn(rs)
	b.byRun[rs.run.RunID] = append(b.byRun[rs.run.RunID], rs)
	b.rec.Runs = append(b.rec.Runs, rs.run)
	rs.run.Index = len(b.rec.Runs)
}

// quotedPath is an encoded path as a list of quoted entries, for a
// problem's message.
func quotedPath(path string) string {
	entries := pathEntries(path)
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = fmt.Sprintf("%q", e)
	}
	return "[" + strings.Join(out, ", ") + "]"
}

// agentKey names the agent of a segment (§10.5, §15.3): each
// compositionPath entry Kind:id as id, then the agent path's entries,
// joined by "/"; its path (both paths' entries); and the agent id a last
// entry Agent:id names.
func agentKey(comp, agentPath string) (key string, path []string, id string) {
	path = pathEntries(comp)
	names := make([]string, 0, len(path)+2)
	for _, e := range path {
		_, name, found := strings.Cut(e, ":")
		if !found {
			name = e
		}
		names = append(names, name)
	}
	if n := len(path); n > 0 && strings.HasPrefix(path[n-1], "Agent:") {
		id = strings.TrimPrefix(path[n-1], "Agent:")
	}
	steps := pathEntries(agentPath)
	path = append(path, steps...)
	names = append(names, steps...)
	if len(names) == 0 {
		names = append(names, "agent")
	}
	return strings.Join(names, "/"), path, id
}

// configured reads agent.run_configured: the window strategy ("none" when
// the payload names none) and the agent id.
func (b *builder) configured(rs *runState, p *parsed) {
	rs.run.Configured = true
	rs.run.Strategy = model.StrategyNone
	if p.hasText && p.text != "" {
		rs.run.Strategy = p.text
	}
	rs.agentID = p.agentID
	if a := rs.run.Agent; a != nil && p.agentID != "" && (a.AgentID != p.agentID || !a.HasID) {
		a.AgentID, a.HasID = p.agentID, true
	}
}

// failed notes the run's error.fatal: it ends there, its call open
// (§14.1).
func (b *builder) failed(rs *runState, p *parsed) {
	if !rs.run.Failed {
		rs.run.Failed, rs.run.FatalLine, rs.run.FatalFile = true, p.at.line, p.at.file
	}
}

// touch notes that rs may have changed, for the next publish and the
// next view.
func (b *builder) touch(rs *runState) {
	rs.stale = true
	if rs.run.Index > 0 {
		b.dirty = min(b.dirty, rs.run.Index-1)
	}
}
