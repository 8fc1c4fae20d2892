package provenance

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/evidence"
)

// The classes §10.5 left open, as rules of shape and place: a label the
// model composes for one argument call after call, and a decimal the
// numbers in view add up to. Each is narrow on purpose: a guessed id that
// differs from the last one only in its digits (`fc1/3`, then `fc1/7`)
// is a claim, and stays flagged.

// seriesMember is one value typed in one argument of one tool on one call.
type seriesMember struct {
	call  int
	value string
	runs  []string
}

// labelSeries reports whether v, typed in the arguments of tool call
// e.ToolCallID of call i, is one of a composed label series: the same
// tool's same argument, in the same conversation, takes labels that
// differ only in their digits, and the last two numbers of each are a
// range lo–hi that the next one's continues (its lo is the last one's hi,
// or one past it), as a query walks windows `window-1-7`, `window-8-14`.
// A guessed id whose digits changed (`fc1/3`, `fc1/7`) tiles no range.
func (b *Book) labelSeries(i int, e *Entry, v string) bool {
	sk, runs := skeleton(v)
	if !isLabel(sk) || len(runs) < 2 || !isRange(runs) || e.ToolCallID == nil {
		return false
	}
	c := &b.r.Calls[i]
	name, path := "", ""
	for _, tc := range c.Call.Facts.Response.ToolCalls {
		if tc.ID == *e.ToolCallID {
			name = tc.Name
			path = argPathOf(tc.Args, v)
			break
		}
	}
	if path == "" {
		return false
	}
	members := b.seriesOf(c.Conversation, name, path, sk)
	at := slices.IndexFunc(members, func(m seriesMember) bool { return m.call == i && m.value == v })
	if at < 0 {
		return false
	}
	return at > 0 && tiles(members[at-1], members[at]) || at+1 < len(members) && tiles(members[at], members[at+1])
}

// isRange: the last two numbers are lo ≤ hi.
func isRange(runs []string) bool {
	lo, err1 := strconv.Atoi(runs[len(runs)-2])
	hi, err2 := strconv.Atoi(runs[len(runs)-1])
	return err1 == nil && err2 == nil && lo < hi
}

// tiles reports whether b's range continues a's: the numbers before the
// range are the same, and b's lo is a's hi or one past it.
func tiles(a, b seriesMember) bool {
	n := len(a.runs)
	if len(b.runs) != n || a.value == b.value || !isRange(a.runs) || !isRange(b.runs) {
		return false
	}
	if !slices.Equal(a.runs[:n-2], b.runs[:n-2]) {
		return false
	}
	ahi, _ := strconv.Atoi(a.runs[n-1])
	blo, _ := strconv.Atoi(b.runs[n-2])
	return blo == ahi || blo == ahi+1
}

// seriesOf is every value with skeleton sk typed in argument path of
// tool name in conversation conv, in call order, each value once.
func (b *Book) seriesOf(conv int, name, path, sk string) []seriesMember {
	if b.series == nil {
		b.series = map[string][]seriesMember{}
		for k := range b.r.Calls {
			c := &b.r.Calls[k]
			for _, tc := range c.Call.Facts.Response.ToolCalls {
				eachArgLeaf(tc.Args, "", func(p, leaf string) {
					for _, val := range evidence.Candidates(leaf) {
						s, runs := skeleton(val.Value)
						if !isLabel(s) || len(runs) < 2 {
							continue
						}
						key := seriesKey(c.Conversation, tc.Name, p, s)
						if !slices.ContainsFunc(b.series[key], func(m seriesMember) bool { return m.value == val.Value }) {
							b.series[key] = append(b.series[key], seriesMember{call: k, value: val.Value, runs: runs})
						}
					}
				})
			}
		}
	}
	return b.series[seriesKey(conv, name, path, sk)]
}

func seriesKey(conv int, name, path, sk string) string {
	return strconv.Itoa(conv) + "\x00" + name + "\x00" + path + "\x00" + sk
}

// argPathOf is the path of the first string leaf of the arguments raw
// whose values hold v ("" for none).
func argPathOf(raw []byte, v string) string {
	found := ""
	eachArgLeaf(raw, "", func(p, leaf string) {
		if found == "" && containsValue(evidence.Candidates(leaf), v) {
			found = p
		}
	})
	return found
}

// eachArgLeaf calls leaf with each string leaf of the JSON arguments raw
// and its path (keys joined by "/", array places as "[]"); nothing for
// arguments that are not JSON.
func eachArgLeaf(raw []byte, path string, leaf func(path, s string)) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return
	}
	var walk func(p string, v any)
	walk = func(p string, v any) {
		switch x := v.(type) {
		case string:
			leaf(p, x)
		case map[string]any:
			for k, y := range x {
				walk(p+"/"+k, y)
			}
		case []any:
			for _, y := range x {
				walk(p+"[]", y)
			}
		}
	}
	walk(path, v)
}

// A number in a text: with thousands commas or without, with a fraction
// or without.
var numberInText = regexp.MustCompile(`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`)

// arithmetic reports whether the never-read v is a decimal that two
// numbers of the window's texts add or subtract to exactly at its printed
// precision, neither printed more precisely than v (§10.5): the model
// worked it out from what it had in view. An integer is never taken out:
// too many pairs of whole numbers make any one.
func (f *flagCall) arithmetic(v string) bool {
	want, places, ok := scaled(v, -1)
	if !ok || places == 0 {
		return false
	}
	have := map[int64]bool{}
	add := func(text string) {
		for _, loc := range numberInText.FindAllStringIndex(text, -1) {
			if !bounded(text, loc[0], loc[1]) || loc[0] > 0 && text[loc[0]-1] == '.' {
				continue
			}
			if n, _, ok := scaled(strings.ReplaceAll(text[loc[0]:loc[1]], ",", ""), places); ok {
				have[n] = true
			}
		}
	}
	add(f.view.Request)
	for _, p := range f.view.SystemPrompt {
		add(p)
	}
	for _, m := range f.view.Window {
		if text, ok := evidence.SearchedText(m); ok {
			add(text)
		}
	}
	for a := range have {
		if a != want && (have[want-a] && want-a != 0 || have[a-want] && a-want != 0) {
			return true
		}
	}
	return false
}

// scaled is the decimal s as an integer of 10^-places units and the
// places it was printed with; when places is not -1, false for s printed
// more precisely than that. False for no plain decimal.
func scaled(s string, places int) (int64, int, bool) {
	s = strings.TrimPrefix(s, "+")
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(whole) > 15 || strings.Trim(whole, "0123456789") != "" || strings.Trim(frac, "0123456789") != "" {
		return 0, 0, false
	}
	p := len(frac)
	if places >= 0 {
		if p > places {
			return 0, 0, false
		}
		frac += strings.Repeat("0", places-p)
		p = places
	}
	if p > 6 {
		return 0, 0, false
	}
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	return n, p, err == nil
}
