package provenance

import (
	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// RuleBelowFloor: a number the library's §2 leaves out for its few
// digits, with a unit, whose source left the window — judged by inspect
// alone (docs/rules/flags.md §10.5), shown and never flagged.
const RuleBelowFloor = "below-floor"

// BelowFloorWords is what a front end says of such a value.
const BelowFloorWords = "judged by inspect, below the library's 4-digit floor"

// belowFloor lists, for an answer, the numbers of its text below the
// library's floor (judged: their verdicts, in order) that left the
// window: a message that left holds one by the library's rules, and no
// text of the window holds its characters, inside a longer token either
// (§10.2 rule 2). Only those: a short number in view says nothing, and
// one never read is as often the model's own sum or count. They are
// listed apart from the values (the library's list equals inspect's
// unsupported values, §5) and never flagged: the header, the counts of
// flagged values and --fail-on keep the library's notion of a value.
func (b *Book) belowFloor(i int, c *window.CallReplay, ce *CallEvidence, judged []evidence.Judged, gone []*model.Message, view evidence.View) {
	if len(judged) == 0 || len(c.Call.Facts.Response.ToolCalls) > 0 && !b.isAnswer(c) {
		return
	}
	var left []string
	for _, j := range judged {
		if j.Verdict == evidence.Left {
			left = append(left, j.Value.Value)
		}
	}
	if len(left) == 0 {
		return
	}
	held := b.judger.InViewTexts(left, view)
	for _, j := range judged {
		if j.Verdict != evidence.Left || len(held[j.Value.Value]) > 0 {
			continue
		}
		e := Entry{Value: j.Value.Value, Shape: j.Shape, In: InAnswer, Place: PlaceAnswer, Rule: RuleBelowFloor}
		e.Verdict, e.Sources, _, _ = b.judgement(i, j, gone, view)
		ce.BelowFloor = append(ce.BelowFloor, e)
	}
}
