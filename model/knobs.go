package model

// Knobs are the knobs of a policy given from outside (a command line's
// flags); a nil or empty one is not given, and is settled from the
// recording.
type Knobs struct {
	Strategy            string
	KeepRecentTurns     *int
	KeepLastToolResults *int
	ThresholdTokens     *int
	NoAnchor            bool
}

// Given names the knobs given, in the library's words.
func (k Knobs) Given() []string {
	var out []string
	for _, g := range []struct {
		name  string
		given bool
	}{
		{"strategy", k.Strategy != ""},
		{"keepRecentTurns", k.KeepRecentTurns != nil},
		{"keepLastToolResults", k.KeepLastToolResults != nil},
		{"thresholdTokens", k.ThresholdTokens != nil},
		{"anchor", k.NoAnchor},
	} {
		if g.given {
			out = append(out, g.name)
		}
	}
	return out
}

// Whole reports whether the knobs name the whole policy: nothing is
// left to read from the recording.
func (k Knobs) Whole() bool {
	return k.Strategy != "" && k.KeepRecentTurns != nil && k.KeepLastToolResults != nil &&
		(!(Policy{Strategy: k.Strategy}).NeedsThreshold() || k.ThresholdTokens != nil)
}

// Apply is p with the knobs given in place of its own.
func (k Knobs) Apply(p Policy) Policy {
	if k.Strategy != "" {
		p.Strategy = k.Strategy
	}
	for _, kv := range []struct {
		v  *int
		to *int
	}{{k.KeepRecentTurns, &p.KeepRecentTurns}, {k.KeepLastToolResults, &p.KeepLastToolResults}, {k.ThresholdTokens, &p.ThresholdTokens}} {
		if kv.v != nil {
			*kv.to = *kv.v
		}
	}
	p.NoAnchor = p.NoAnchor || k.NoAnchor
	return p
}
