package window

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
)

// Where the version replayed came from (§13.3 libraryVersion.source).
const (
	VersionFromFlag     = "flag"
	VersionFromEnvelope = "envelope"
	VersionFromLog      = "log"
	VersionByDefault    = "default"
)

// LibraryScan is what SettleLibraryMore read of a recording's windows: how
// many of each run's first calls show neither older rule, so that a
// longer part of the same file (a log followed as it is written) is
// settled reading only the calls that changed.
type LibraryScan struct {
	rec   *model.Recording
	lin   *lineage.Lineage
	clean [2][]int // by run index, for each rule: its first calls that show none
}

// SettleLibraryMore decides which library version rec is replayed as written
// by, and so under which window rules (docs/rules/versions-and-tiers.md §17.2), and keeps
// the answer in rec.Library: flag (X.Y.Z, "" for none) first, then the
// lowest version the envelopes' producers name, then the log's own
// evidence of an older rule, else the 9.57.0 – 9.62.0 rules. lin is rec's
// lineage (nil: decided here). Only a flag that is not a version is an
// error.
//
// was is the scan of an earlier part of the file rec is a part of (a log
// followed as it is written; nil: none): only the calls that changed
// since are read. The scan returned goes on with the next part.
func SettleLibraryMore(rec *model.Recording, lin *lineage.Lineage, flag string, was *LibraryScan) (*LibraryScan, error) {
	producers := rec.Library.Producers
	var scan *LibraryScan
	if flag != "" {
		v, err := ParseVersion(flag)
		if err != nil {
			return nil, err
		}
		rec.Library = libraryOf(v, VersionFromFlag, "--library-version "+v.String())
	} else if v, why, ok := lowestProducer(producers); ok {
		rec.Library = libraryOf(v, VersionFromEnvelope, why)
	} else {
		if lin == nil {
			lin = lineage.Decide(rec)
		}
		scan = was.from(rec, lin)
		rules, call, why := scan.rulesShownBy()
		rec.Library = model.Library{Rules: rules.String(), Source: VersionFromLog, Evidence: why, Call: call}
		if why == "" {
			rec.Library.Source = VersionByDefault
			rec.Library.Evidence = "nothing in the log names the version or shows an older window rule: the 9.57.0–9.62.0 rules"
		}
	}
	rec.Library.Producers = producers
	return scan, nil
}

func libraryOf(v Version, source, why string) model.Library {
	return model.Library{Version: v.String(), Rules: v.Rules().String(), Source: source, Evidence: why}
}

// lowestProducer is the lowest version the envelopes name (several runs
// recorded by several versions replay under the oldest's rules).
func lowestProducer(producers []string) (Version, string, bool) {
	var low Version
	var named []string
	for _, s := range producers {
		v, err := ParseVersion(s)
		if err != nil {
			continue
		}
		if len(named) == 0 || v.less(low) {
			low = v
		}
		if !strings.Contains(strings.Join(named, ","), v.String()) {
			named = append(named, v.String())
		}
	}
	if len(named) == 0 {
		return low, "", false
	}
	why := "the recording envelope's producer.agentfootprintVersion " + low.String()
	if len(named) > 1 {
		why = fmt.Sprintf("the lowest producer.agentfootprintVersion of the envelopes (%s): %s", strings.Join(named, ", "), low)
	}
	return low, why, true
}

// from is a scan of rec, a longer part of the file of s's (s nil: of
// nothing), that knows what s knew of the runs and calls that did not
// change: a run's calls before its first that changed; its first call
// only while its link and the run it continues did not change.
func (s *LibraryScan) from(rec *model.Recording, lin *lineage.Lineage) *LibraryScan {
	out := &LibraryScan{rec: rec, lin: lin}
	for r := range out.clean {
		out.clean[r] = make([]int, len(rec.Runs))
	}
	if s == nil || len(s.rec.Runs) > len(rec.Runs) {
		return out
	}
	for i, was := range s.rec.Runs {
		now := rec.Runs[i]
		same := 0
		for same < len(was.Calls) && same < len(now.Calls) && was.Calls[same] == now.Calls[same] {
			same++
		}
		if now.HasTurnStart != was.HasTurnStart || now.Request != was.Request {
			continue
		}
		out.clean[0][i] = min(s.clean[0][i], same)
		link, wasLink := lin.Links[i], s.lin.Links[i]
		if link != wasLink || now.RequestMessage != was.RequestMessage ||
			link.Pred >= 0 && (link.Pred >= len(s.rec.Runs) || rec.Runs[link.Pred] != s.rec.Runs[link.Pred]) {
			continue // its first call's history is read anew
		}
		out.clean[1][i] = min(s.clean[1][i], same)
	}
	return out
}

// rulesShownBy is the oldest rules a recorded window shows (§17.2 step
// 3), and the call that shows them (its number, and why); "" when none
// does (the newest rules). First a request that left the window, which the anchor of
// 9.55.0 forbids; then a plain notice where 9.57.0 would have named the
// tool results that left. The calls s knows to show neither are not
// read again.
func (s *LibraryScan) rulesShownBy() (Rules, int, string) {
	rec, lin := s.rec, s.lin
	for i, run := range rec.Runs {
		if !run.HasTurnStart {
			continue
		}
		for ci := s.clean[0][i]; ci < len(run.Calls); ci++ {
			c := run.Calls[ci]
			if w := sentBeforeDeliveries(c); w != nil && requestLeft(w, run.Request) {
				return Rules954, c.Number, fmt.Sprintf("call %d (run %d, iteration %d): its window holds a drop notice but not the run's request, which no library since 9.55.0 drops",
					c.Number, run.RunNo, c.Iteration)
			}
			s.clean[0][i] = ci + 1
		}
	}
	for i, run := range rec.Runs {
		for ci := s.clean[1][i]; ci < len(run.Calls); ci++ {
			c := run.Calls[ci]
			if w := sentBeforeDeliveries(c); w != nil {
				if p := libraryBefore(rec, lin, i, ci); p != nil && plainWhereRich(w, p, c.Iteration) {
					return Rules955, c.Number, fmt.Sprintf("call %d (run %d, iteration %d): its drop notice does not name the tool results that left, which 9.57.0 and later would have",
						c.Number, run.RunNo, c.Iteration)
				}
			}
			s.clean[1][i] = ci + 1
		}
	}
	return Rules957, 0, ""
}

// sentBeforeDeliveries is a call's recorded window less its deliveries,
// nil when not recorded.
func sentBeforeDeliveries(c *model.Call) []*model.Message {
	if c.Recorded == nil || c.Deliveries > len(c.Recorded) {
		return nil
	}
	return c.Recorded[:len(c.Recorded)-c.Deliveries]
}

// requestLeft: w holds a drop notice and no message the person said
// whose text is the run's request (§17.2 a).
func requestLeft(w []*model.Message, request string) bool {
	notice := false
	for _, m := range w {
		if m.IsPersonSaid() && m.Content == request {
			return false
		}
		notice = notice || m.IsNotice()
	}
	return notice
}

// plainWhereRich: w holds, where it first differs from p (the library's
// history before the visit), a drop notice of this iteration without the
// tool-names sentence, and the rich notice for the span it names was
// shorter than that span — the notice 9.57.0 would have sent (§17.2 b).
func plainWhereRich(w, p []*model.Message, iteration int) bool {
	a := 0
	for a < len(w) && a < len(p) && model.SameText(w[a], p[a]) {
		a++
	}
	if a == len(w) || !w[a].IsNotice() {
		return false
	}
	n, it, strategy, kept, tools, ok := parseNotice(w[a].Content)
	if !ok || tools || it != iteration || n < 1 || a+n > len(p) {
		return false
	}
	span := p[a : a+n]
	var named []string
	for _, name := range spanToolNames(nil, p, span) {
		if nameable(name) {
			named = append(named, name)
		}
	}
	return len(named) > 0 && noticeLen(n, iteration, strategy, kept, named) < chars(span)
}

// parseNotice reads a drop notice: how many messages it stands for, the
// iteration, the strategy, whether it says the request was kept and
// whether it names tool results.
func parseNotice(content string) (n, iteration int, strategy string, kept, tools, ok bool) {
	rest, ok := strings.CutPrefix(content, noticeOpen)
	if !ok {
		return
	}
	var num string
	if num, rest, ok = strings.Cut(rest, noticeCount); !ok {
		return
	}
	if n, ok = count(num); !ok {
		return
	}
	if num, rest, ok = strings.Cut(rest, noticeBy); !ok {
		return
	}
	if iteration, ok = count(num); !ok {
		return
	}
	if strategy, rest, ok = strings.Cut(rest, noticeStrat); !ok {
		return
	}
	kept = strings.HasPrefix(rest, keptSentence)
	rest = strings.TrimPrefix(rest, keptSentence)
	tools = strings.HasPrefix(rest, toolsOpen)
	return n, iteration, strategy, kept, tools, true
}

// libraryBefore is the library's history before the visit of call ci of
// segment i, from the log alone (§11.9's P): the history the previous
// call's iteration ended with, or for a segment's first call its seed —
// the request, or after a follow-up the predecessor's last recorded
// window, its answer and the request. nil when the log does not hold it.
func libraryBefore(rec *model.Recording, lin *lineage.Lineage, i, ci int) []*model.Message {
	run := rec.Runs[i]
	if ci > 0 {
		prev := run.Calls[ci-1]
		if prev.Recorded == nil || len(prev.Appended) == 0 {
			return nil
		}
		p := make([]*model.Message, 0, len(prev.Recorded)+len(prev.Appended))
		return append(append(p, prev.Recorded...), prev.Appended...)
	}
	if run.RequestMessage == nil || lin == nil || i >= len(lin.Links) {
		return nil
	}
	switch link := lin.Links[i]; link.Kind {
	case lineage.New:
		return []*model.Message{run.RequestMessage}
	case lineage.FollowUp:
		pred := rec.Runs[link.Pred]
		last := pred.Calls[len(pred.Calls)-1]
		if last.Recorded == nil || pred.FinalMessage == nil {
			return nil
		}
		p := make([]*model.Message, 0, len(last.Recorded)+2)
		return append(append(p, last.Recorded...), pred.FinalMessage, run.RequestMessage)
	}
	return nil
}

// Versions read: the oldest and the one past the newest whose rules this
// program knows (9.54.0 – 9.62.x).
var (
	oldestRead = Version{9, 54, 0}
	pastRead   = Version{9, 63, 0}
)

// VersionProblems says of each producer version lib's envelopes name
// that cannot be read, or that is outside the versions read, what is
// wrong and which rules the replay took instead.
func VersionProblems(lib model.Library) []string {
	used := fmt.Sprintf("the %s window rules are used (%s: %s)", lib.Rules, lib.Source, lib.Evidence)
	var out []string
	seen := map[string]bool{}
	for _, p := range lib.Producers {
		if seen[p] {
			continue
		}
		seen[p] = true
		v, err := ParseVersion(p)
		switch {
		case err != nil:
			out = append(out, fmt.Sprintf("producer.agentfootprintVersion %q is not a version X.Y.Z, so it names none: %s", p, used))
		case v.less(oldestRead):
			out = append(out, fmt.Sprintf("producer.agentfootprintVersion %s is older than any version read (%s – 9.62.x): %s", v, oldestRead, used))
		case !v.less(pastRead):
			out = append(out, fmt.Sprintf("producer.agentfootprintVersion %s is newer than any version read (%s – 9.62.x), whose rules may have changed since: %s", v, oldestRead, used))
		}
	}
	return out
}
