package advise

import (
	"cmp"
	"math"
	"slices"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// Fit is how the advisor estimates input tokens from characters:
// Base + PerChar × chars per call, by least squares over the recorded
// calls' usage.input against their recorded windows' characters and,
// where the log holds its length, their system prompt's (Prompt): the
// prompt is sent with every call and grows when a skill or a recall
// joins it, so it is counted where it is known. The base is what every
// call sends besides: the tool definitions (their names and
// descriptions are in the log, their schemas are not, and the provider
// counts a catalog at its own rate: counted as characters they would
// drive the base below zero on the demo) and the request's framing.
// When the least-squares line is not a cost (a slope or a base below
// zero, a single size of window) the line goes through zero: the
// recorded tokens per character. Without usage in the log (Calls 0) it
// is the usual four characters a token.
type Fit struct {
	Base, PerChar float64
	Calls         int     // the recorded calls fitted
	R2            float64 // of the line on those calls (0 without)
	// Prompt: the system prompt's characters are counted with the
	// window's (some call's prompt length is in the log)
	Prompt bool
}

// promptChars is the length of the call's system prompt when the log
// holds it, else 0: not part of the window, but sent on every call.
func promptChars(c *model.Call) int {
	n, _ := c.Request.SystemPrompt.Length()
	return n
}

// tokens is the estimate for calls calls of chars characters in all.
func (f Fit) tokens(calls, chars int) int {
	return int(math.Round(f.Base*float64(calls) + f.PerChar*float64(chars)))
}

// fitSums are the sums a least-squares line is fitted from, added over
// files.
type fitSums struct{ n, x, y, xx, xy, yy float64 }

func (f *fitSums) add(points [][2]float64) {
	for _, p := range points {
		x, y := p[0], p[1]
		f.n, f.x, f.y, f.xx, f.xy, f.yy = f.n+1, f.x+x, f.y+y, f.xx+x*x, f.xy+x*y, f.yy+y*y
	}
}

// fitPoints are the base's recorded calls as points of the fit: their
// recorded window's and system prompt's characters, and usage.input.
func fitPoints(b *adviseBase) [][2]float64 {
	var out [][2]float64
	for _, c := range b.calls {
		call := b.shape.Calls[c.index].Call
		if !call.Measured || call.Recorded == nil {
			continue
		}
		out = append(out, [2]float64{float64(model.WindowChars(call.Recorded) + promptChars(call)), float64(call.Usage.Input)})
	}
	return out
}

func (f fitSums) fit() Fit {
	if f.n == 0 || f.x <= 0 {
		return Fit{PerChar: 0.25}
	}
	out := Fit{Calls: int(f.n), PerChar: f.y / f.x}
	if sxx := f.xx - f.x*f.x/f.n; f.n >= 2 && sxx > 0 {
		b := (f.xy - f.x*f.y/f.n) / sxx
		if a := (f.y - b*f.x) / f.n; b > 0 && a >= 0 {
			out.Base, out.PerChar = a, b
		}
	}
	// R² of the line chosen: 1 - residual / total sum of squares
	a, b := out.Base, out.PerChar
	res := f.yy - 2*a*f.y - 2*b*f.xy + f.n*a*a + 2*a*b*f.x + b*b*f.xx
	if tot := f.yy - f.y*f.y/f.n; tot > 0 {
		out.R2 = 1 - res/tot
	}
	return out
}

// answer sums the subjects' tallies of one agent key into rows, and
// finds the frontier and the picks.
func answer(key string, g *keyGrid, subs []*subject) *Advice {
	from := g.from.agent
	a := &Advice{Agent: key, Files: len(subs), Recorded: from.Recorded, Inferred: from.Inferred,
		Evidence: from.Evidence, RecordedRow: g.recorded, Unengaged: g.unengaged}
	var fs fitSums
	prompts := 0 // the same under every policy: no strategy drops the prompt
	for _, s := range subs {
		a.Calls += s.calls
		a.NeverRead.Answers += s.never.Answers
		a.NeverRead.Arguments += s.never.Arguments
		a.Disagree = a.Disagree || s.agent.Recorded != from.Recorded
		fs.add(s.points)
		prompts += s.prompts
	}
	a.Fit = fs.fit()
	a.Fit.Prompt = prompts > 0
	a.Rows = make([]Row, 0, len(g.policies))
	for i, p := range g.policies {
		if i != g.recorded && slices.ContainsFunc(subs, func(s *subject) bool { return s.rows[i].over }) {
			a.Unbounded = append(a.Unbounded, p)
			continue
		}
		if i == g.recorded {
			a.RecordedRow = len(a.Rows)
		}
		r := Row{Policy: p}
		peakSent := 0
		for _, s := range subs {
			t := &s.rows[i]
			r.Chars += t.chars
			r.PeakChars = max(r.PeakChars, t.peak)
			peakSent = max(peakSent, t.peakSent)
			r.OutOfView.Answers += t.lost.Answers
			r.OutOfView.Arguments += t.lost.Arguments
			r.DropNotices += t.notices
			r.StandDowns += t.standDowns
			r.Differs += t.differs
		}
		r.Tokens, r.PeakTokens = a.Fit.tokens(a.Calls, r.Chars+prompts), a.Fit.tokens(1, peakSent)
		a.Rows = append(a.Rows, r)
	}
	a.frontier()
	return a
}

// frontier marks the Pareto frontier — for each number of answer values
// out of view, the fewest tokens, where no cheaper policy loses as few —
// and the picks, which lie on it. The y axis is answers only: the picks
// speak of the values the recorded answers used, and arguments (the model
// asking a tool) are counted apart (§9.1). Among equal tokens the order
// is: fewer answer values out of view, fewer characters, fewer argument
// values out of view, the recorded policy, then the grid's order.
func (a *Advice) frontier() {
	order := make([]int, len(a.Rows))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		x, y := &a.Rows[i], &a.Rows[j]
		return cmp.Or(cmp.Compare(x.Tokens, y.Tokens), cmp.Compare(x.OutOfView.Answers, y.OutOfView.Answers),
			cmp.Compare(x.Chars, y.Chars), cmp.Compare(x.OutOfView.Arguments, y.OutOfView.Arguments),
			cmp.Compare(b2i(j == a.RecordedRow), b2i(i == a.RecordedRow)))
	})
	best := math.MaxInt
	rec := a.Rows[a.RecordedRow]
	for _, i := range order {
		r := &a.Rows[i]
		if r.OutOfView.Answers < best {
			best, r.Frontier = r.OutOfView.Answers, true
			a.Frontier = append(a.Frontier, i)
		}
		if a.KeepsEverything == nil && r.OutOfView.Answers == 0 {
			a.KeepsEverything = a.pick(i)
		}
		if a.NoWorse == nil && r.OutOfView.Answers <= rec.OutOfView.Answers {
			a.NoWorse = a.pick(i)
		}
	}
}

func (a *Advice) pick(i int) *Pick {
	p := &Pick{Row: i, Delta: a.Rows[i].Tokens - a.Rows[a.RecordedRow].Tokens}
	if t := a.Rows[a.RecordedRow].Tokens; t > 0 {
		p.Percent = 100 * float64(p.Delta) / float64(t)
	}
	return p
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// neverRead counts, under the replay of the agent's recorded policy,
// the values no message of the conversation held (neither grounded nor
// left, the walk found: unread) that no text of the window holds inside
// a longer token either (§9.2): `never-read`. No window policy changes
// that but for text the library itself writes (a notice's iteration, a
// summary), so it is counted once. Each call with such values has its
// window judged again, by those values alone.
func (b *adviseBase) neverRead(r *window.Replay, unread map[int][]valueAt) Lost {
	var out Lost
	if len(unread) == 0 {
		return out
	}
	ks := make([]int, 0, len(unread))
	var all []evidence.Value
	for k, vs := range unread {
		ks = append(ks, k)
		for _, v := range vs {
			all = append(all, evidence.Value{Value: b.values[v.id], Shape: b.shapes[v.id]})
		}
	}
	slices.Sort(ks)
	j := evidence.NewJudgerFor(all)
	at := b.align(r)
	for _, k := range ks {
		c, vs := &b.calls[k], unread[k]
		values := make([]evidence.Value, len(vs))
		for i, v := range vs {
			values[i] = evidence.Value{Value: b.values[v.id], Shape: b.shapes[v.id]}
		}
		view := evidence.View{Window: r.Calls[at(c.index)].Window(), Request: c.request, SystemPrompt: c.prompt, OwnBytes: b.ownBytes}
		for i, jd := range j.Judge(values, view, func() []*model.Message { return nil }) {
			if jd.Verdict != evidence.NeverRead {
				continue
			}
			if vs[i].arg {
				out.Arguments++
			} else {
				out.Answers++
			}
		}
	}
	return out
}
