package provenance

import "github.com/afinspect/inspect/evidence"

// Tally counts one side of a call's flagged values by inspect's own
// verdict (Entry.Own): what the header, the response row and the x/X
// stops count, whatever words a screen gives them.
type Tally struct{ Left, InText, Never, Summary int }

// Add counts one flagged value of the verdict given.
func (t *Tally) Add(verdict string) {
	switch verdict {
	case evidence.Left:
		t.Left++
	case evidence.InViewText:
		t.InText++
	case evidence.NeverRead:
		t.Never++
	case evidence.SummaryUnsupported:
		t.Summary++
	}
}

// Total is every value counted.
func (t Tally) Total() int { return t.Left + t.InText + t.Never + t.Summary }

// Count is the values of one verdict.
type Count struct {
	N       int
	Verdict string
}

// Counts are the counts there are, each with its verdict, in the order a
// screen names them: left, inside a token, never read, only in a summary.
func (t Tally) Counts() []Count {
	all := []Count{{t.Left, evidence.Left}, {t.InText, evidence.InViewText}, {t.Never, evidence.NeverRead}, {t.Summary, evidence.SummaryUnsupported}}
	out := all[:0]
	for _, p := range all {
		if p.N > 0 {
			out = append(out, p)
		}
	}
	return out
}

// CallTally is one call's flagged values: the answer's and the
// arguments', apart.
type CallTally struct{ Answer, Args Tally }

// TallyOf counts ce's flagged values (docs/rules/evidence.md §10.2) by
// where they were typed: the answer's, and apart the arguments' and the
// narration's (the text of a call that is no answer: it does not reach
// the caller, §10.3.1).
func TallyOf(ce *CallEvidence) CallTally {
	var c CallTally
	if ce == nil {
		return c
	}
	for _, e := range ce.Values {
		if !e.Flagged() {
			continue
		}
		if e.Place != PlaceAnswer {
			c.Args.Add(e.Own())
		} else {
			c.Answer.Add(e.Own())
		}
	}
	return c
}

// OwnSources are the sources of e's own verdict: its read's, when it is
// a JSON number's token (docs/rules/evidence.md §9.5).
func (e Entry) OwnSources() []Source {
	if e.Read != nil {
		return e.Read.Sources
	}
	return e.Sources
}
