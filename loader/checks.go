package loader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/afinspect/inspect/model"
)

// Checks that turn a silent loss into a problem with its file and line
// (nothing from an untrusted input is dropped in silence): the event is
// still used where it can be.

// strategies are the window strategies the library names in
// run_configured (docs/rules/window.md §7).
var strategies = []string{model.SlidingWindow, model.TokenBudget, model.SummarizeOldest, model.StrategyNone}

// checkStrategy says when run_configured names a strategy the library
// does not have (the --strategy flag refuses the same name).
func (b *builder) checkStrategy(p *parsed) {
	if p.hasText && p.text != "" && !slices.Contains(strategies, p.text) {
		b.problem(p.at, "agent.run_configured window %q is not a strategy the library has (sliding-window, token-budget, summarize-oldest); the run is replayed as recorded where it can be", p.text)
	}
}

// checkUsage says when llm_end's usage holds a negative number: not a
// count of tokens, so not a reading of the call's input (§7); such a
// field is taken as not given.
func (b *builder) checkUsage(p *parsed) {
	for _, f := range []struct {
		name string
		n    *int
	}{{"input", &p.usage.Input}, {"output", &p.usage.Output}} {
		if *f.n < 0 {
			b.problem(p.at, "stream.llm_end usage.%s %d is not a count of tokens; taken as not given", f.name, *f.n)
			*f.n, p.measured = 0, false
		}
	}
}

// toolStartAt is one tool_start, for unanswered.
type toolStartAt struct {
	id, name string
	at       loc
}

// duplicateKey is the first key an event object has twice at its top
// level ("type", "payload", "meta"), "" when none: encoding/json keeps
// the last, silently.
func duplicateKey(data []byte) string {
	d := json.NewDecoder(bytes.NewReader(data))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	seen := map[string]bool{}
	for d.More() {
		t, err := d.Token()
		k, ok := t.(string)
		if err != nil || !ok {
			return ""
		}
		if seen[k] && (k == "type" || k == "payload" || k == "meta") {
			return k
		}
		seen[k] = true
		var skip json.RawMessage
		if d.Decode(&skip) != nil {
			return ""
		}
	}
	return ""
}

// checkDuplicate says when an event has a key twice.
func checkDuplicate(data []byte, p *parsed) {
	if k := duplicateKey(data); k != "" {
		p.problem(fmt.Sprintf("the event has %q twice; the last one is used", k))
	}
}
