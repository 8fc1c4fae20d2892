package study

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// The version told from a log's own evidence (docs/rules/versions-and-tiers.md §17.2 3)
// is a guess from one window; the replay checks it. When the rules told
// reproduce fewer of the recorded windows than another rule set's would,
// each rule set is replayed and the one that reproduces the most is
// taken, and the library's line says so. A flag or an envelope names the
// version: that is never second-guessed, only counted.

// checkRules counts the recorded windows the rules settled reproduce
// under the inferred policies and, where the log told them and they do
// not reproduce all, replays under each rule set and keeps the best.
// prev is the study of an earlier part of the file (nil: none): a
// choice it made is kept (keepRules), and once it replayed under each
// rule set a longer part does not again.
func (s *Study) checkRules(q Request, prev *Study) {
	lib := &s.Rec.Library
	defer func() { s.sub.Library = *lib }()
	matched, compared := inferScore(s.infs)
	lib.Matched, lib.Compared = matched, compared
	told := window.RulesOf(s.Rec)
	checked := prev != nil && prev.Rec.Library.Others != "" // an earlier part of the file was replayed under each already
	if q.Library != "" || s.infs == nil || matched == compared || checked ||
		lib.Source != window.VersionFromLog && lib.Source != window.VersionByDefault {
		if checked {
			lib.Others = prev.Rec.Library.Others
		}
		return
	}
	best, bestInfs, bestMatched := told, s.infs, matched
	var others []string
	for _, r := range window.AllRules {
		if r == told {
			continue
		}
		s.setRules(r)
		infs := s.infer(q.After, nil)
		m, _ := inferScore(infs)
		others = append(others, fmt.Sprintf("%s rules: %d/%d", r.Versions(), m, compared))
		if m > bestMatched {
			best, bestInfs, bestMatched = r, infs, m
		}
	}
	s.setRules(best)
	s.infs = bestInfs
	lib.Matched, lib.Others = bestMatched, strings.Join(others, "; ")
	if best == told {
		return
	}
	why := "the newest, as nothing in the log shows an older rule"
	if lib.Source == window.VersionFromLog {
		why = "which " + lib.Evidence + " told"
	}
	lib.Evidence = fmt.Sprintf("the %s rules reproduce %d/%d recorded windows; the %s rules (%s) reproduce %d/%d",
		best.Versions(), bestMatched, compared, told.Versions(), why, matched, compared)
	lib.Source, lib.Call, lib.ByReplay = window.VersionFromLog, 0, true
	var parts []string
	for _, o := range others {
		if !strings.HasPrefix(o, best.Versions()+" ") {
			parts = append(parts, o)
		}
	}
	lib.Others = strings.Join(append([]string{fmt.Sprintf("%s rules: %d/%d", told.Versions(), matched, compared)}, parts...), "; ")
}

// keepRules gives rec the rules an earlier part of its file was settled
// under by the replay, so that a log followed as it grows keeps them.
func keepRules(rec *model.Recording, prev *Study) {
	if prev == nil || !prev.Rec.Library.ByReplay || rec.Library.Source == window.VersionFromFlag || rec.Library.Source == window.VersionFromEnvelope {
		return
	}
	was := prev.Rec.Library
	rec.Library.Rules, rec.Library.Source, rec.Library.Evidence, rec.Library.Call = was.Rules, was.Source, was.Evidence, 0
	rec.Library.ByReplay, rec.Library.Others = true, was.Others
}

func (s *Study) setRules(r window.Rules) {
	s.Rec.Library.Rules = r.String()
	s.sub.Library.Rules = r.String()
}

// inferScore sums the inferences' reproduced and compared windows.
func inferScore(infs []window.Inference) (matched, compared int) {
	for _, inf := range infs {
		matched += inf.Matched
		compared += inf.Compared
	}
	return matched, compared
}

// firstDiffering is the first call of r whose replayed window is not the
// one the library recorded, nil when none.
func firstDiffering(r *window.Replay) *window.CallReplay {
	for i := range r.Calls {
		if r.Calls[i].Recorded() == window.Differs {
			return &r.Calls[i]
		}
	}
	return nil
}

// reproduceProblem is the problem a settled replay that does not
// reproduce every recorded window is: how many it does, and the first
// call that differs. Under knobs given as flags a window that differs is
// what was asked for, and is not one.
func (s *Study) reproduceProblem() (model.Problem, bool) {
	if len(s.Given) > 0 {
		return model.Problem{}, false
	}
	r := s.Replay()
	matched, compared := r.Score()
	c := firstDiffering(r)
	if matched == compared || c == nil {
		return model.Problem{}, false
	}
	return model.Problem{Message: fmt.Sprintf("%s: the replay under the %s rules and the recorded policy reproduces %d/%d recorded windows; the first that differs is call %d (run %d, iteration %d)",
		s.Rec.Source, window.RulesOf(s.Rec).Versions(), matched, compared, c.Call.Number, c.Run.RunNo, c.Call.Iteration)}, true
}
