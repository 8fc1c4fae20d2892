package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
)

// knobs are the policy flags given, for study.
func (o *options) knobs() model.Knobs {
	k := model.Knobs{Strategy: o.strategy, NoAnchor: o.noAnchor}
	for _, f := range []struct {
		v  int
		to **int
	}{{o.keepRecent, &k.KeepRecentTurns}, {o.keepPins, &k.KeepLastToolResults}, {o.threshold, &k.ThresholdTokens}} {
		if f.v >= 0 {
			*f.to = study.Int(f.v)
		}
	}
	return k
}

// findAgent is the agent with key, or an error naming the agents.
func findAgent(rec *model.Recording, key string) (*model.Agent, error) {
	var keys []string
	for _, a := range rec.Agents {
		if a.Key == key {
			return a, nil
		}
		keys = append(keys, a.Key)
	}
	return nil, fmt.Errorf("no agent %q in this file; its agents: %s", key, strings.Join(keys, ", "))
}

// sources says which knobs were given as flags and which were read or
// inferred from the recording, for the report's footer and stderr.
func sources(s *study.Study) string {
	lead := s.Lead()
	all := []string{"strategy", "keepRecentTurns", "keepLastToolResults"}
	if lead.Policy.NeedsThreshold() || lead.Policy.ThresholdTokens > 0 {
		all = append(all, "thresholdTokens")
	}
	var from []string
	for _, k := range all {
		if !slices.Contains(s.Given, k) {
			from = append(from, k)
		}
	}
	var parts []string
	if len(s.Given) > 0 {
		parts = append(parts, "given as flags: "+strings.Join(s.Given, ", "))
	}
	if len(from) > 0 {
		how := "read from the recording"
		if lead.Inferred {
			how = "inferred from the recording"
		}
		parts = append(parts, how+": "+strings.Join(from, ", "))
	}
	return strings.Join(parts, "; ")
}

// differs counts the calls whose recorded window the replay does not
// reproduce, of those compared.
func differs(s *study.Study) (differ, compared int) {
	matched, compared := s.Replay().Score()
	return compared - matched, compared
}
