package cli

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/advise"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
)

// callPlaces numbers each call of a file of several conversations in its
// own conversation, as the screen does (call 6 of billing's 12 is the
// file's call 11): a range of the file's numbers would span the other
// conversations' calls between them.
type callPlaces struct {
	conv  map[int]int // file call number → its conversation
	place map[int]int // file call number → its place in that conversation, from 1
}

// placesOf numbers r's calls in their conversations; nil for a file of
// one conversation, whose numbers are the file's.
func placesOf(r *window.Replay) *callPlaces {
	p := &callPlaces{conv: map[int]int{}, place: map[int]int{}}
	n, convs := map[int]int{}, 0
	for i := range r.Calls {
		c := &r.Calls[i]
		if c.Run.Composition {
			continue // in no conversation
		}
		if n[c.Conversation] == 0 {
			convs++
		}
		n[c.Conversation]++
		p.conv[c.Call.Number], p.place[c.Call.Number] = c.Conversation, n[c.Conversation]
	}
	if convs < 2 {
		return nil
	}
	return p
}

// span says the calls first–last of one conversation (the file's
// numbers): "2–13" in a file of one conversation, else "conversation 2's
// calls 1–7, the file's 2–13".
func (p *callPlaces) span(c [2]int) string {
	if p == nil || p.place[c[0]] == 0 || p.place[c[1]] == 0 {
		return span(c)
	}
	return fmt.Sprintf("conversation %d's calls %s, the file's %s", p.conv[c[0]], span([2]int{p.place[c[0]], p.place[c[1]]}), span(c))
}

// guessRules gives each source of a value the rules of the policies the
// log cannot tell apart from its agent's inferred one (advise.Rules),
// when they differ: "superseded" under keepLastToolResults 2 is
// "pins-off" under 0, and both reproduce the recorded windows.
func guessRules(s *study.Study, r *window.Replay) func(provenance.Entry) provenance.Entry {
	at := make(map[int]int, len(r.Calls))
	for i := range r.Calls {
		at[r.Calls[i].Call.Number] = i
	}
	rules := func(srcs []provenance.Source) []provenance.Source {
		var out []provenance.Source
		for k, src := range srcs {
			i, ok := at[src.EvictedAt]
			if !ok || src.Message() == nil {
				continue
			}
			c := &r.Calls[i]
			a := s.Agent(c.Run.Agent)
			if a == nil {
				continue
			}
			if rs := advise.Rules(a, &c.Visit, src.Message(), r.PolicyOf(c)); rs != nil {
				if out == nil {
					out = append([]provenance.Source(nil), srcs...)
				}
				out[k].Rules = rs
			}
		}
		if out == nil {
			return srcs
		}
		return out
	}
	return func(e provenance.Entry) provenance.Entry {
		e.Sources = rules(e.Sources)
		if e.Read != nil {
			read := *e.Read
			read.Sources = rules(read.Sources)
			e.Read = &read
		}
		return e
	}
}

// guessWords says which knobs of the policy a's replay is under are a
// guess among equally good values: " (a guess: keepLastToolResults 0–5
// reproduce the same windows)"; "" when none is.
func guessWords(a study.Agent) string {
	knobs := a.GuessFor(a.Policy).Knobs()
	if knobs == nil {
		return ""
	}
	return " (a guess: " + strings.Join(knobs, " and ") + " reproduce the same windows)"
}
