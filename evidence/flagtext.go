package evidence

import (
	"strings"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
)

// What package provenance needs to decide whether a value is worth a
// reader's look (docs/rules/flags.md §10): the same atom-boundary search
// and edit distance the verdicts use, asked of one value at a time.

// InViewTexts is the texts of view (§9.2.3) that hold each of values
// between atom boundaries, as the in-view-text verdict finds them; a
// value no text holds has no entry. §10.2 rule 2 asks it of values whose
// verdict is not in-view-text: a `left` one whose characters are still
// in view inside a longer token.
func (j *Judger) InViewTexts(values []string, view View) map[string][]TextHit {
	return j.inViewText(values, view)
}

// HoldsBounded reports whether text holds the normalized value v (one of
// its lookup forms) between atom boundaries (§9.2.2).
func HoldsBounded(text, v string) bool {
	return newAtomText(text, nil).holds(v)
}

// MayHoldBounded reports whether text could hold the normalized value v
// between atom boundaries, without indexing it: each place a lookup
// form's first run of digits stands is compared, ASCII letters without
// case. A quick test before HoldsBounded on a large text (false is sure;
// true is then checked).
func MayHoldBounded(text, v string) bool {
	for _, f := range LookupForms(v) {
		a, d := anchor(f)
		if a == "" {
			return true // nothing to look for fast: the caller checks
		}
		for from := 0; ; {
			k := strings.Index(text[from:], a)
			if k < 0 {
				break
			}
			p := from + k - d
			from += k + 1
			if p < 0 || p+len(f) > len(text) || !atomBoundary(text, p) || !atomBoundary(text, p+len(f)) {
				continue
			}
			if strings.EqualFold(text[p:p+len(f)], f) {
				return true
			}
		}
	}
	return false
}

// SearchedText is the text of message m that §9.2.3 searches, and false
// for a message it does not (an assistant message, a re-ask).
func SearchedText(m *model.Message) (string, bool) { return searchedText(m) }

// FirstToken is the first token of text (§1, normalized) that holds v
// between atom boundaries, and false when none does.
func FirstToken(text, v string) (string, bool) {
	t, ok := firstTokens(text, []string{v})[v]
	return t, ok
}

// Distance is the optimal string alignment distance between a and b
// (§9.3), or k+1 when it is more than k.
func Distance(a, b string, k int) int { return osaDistance(a, b, k) }

// Forms is every form of tool result m, indexed as Hold indexes it (its
// whole content, then its own bytes), in the order §3 adds them: what
// NearForm looks through, to be kept by a caller that asks of many values.
func Forms(m *model.Message, view View) []string {
	x := NewIndex()
	x.ordered = true
	x.AddToolResult(m.Content)
	if own := view.own(m); own != m.Content {
		x.AddToolResult(own)
	}
	return x.order
}

// NearestForm is the first of forms at the smallest distance from the
// normalized value v, when that is at most k (≤ MaxNear).
func NearestForm(v string, forms []string, k int) (form string, dist int, ok bool) {
	dist = k + 1
	segs, plain := segments(v, k)
	// a form of fewer than n-k bytes, or more than 4(n+k) (UTF-8 spends at
	// most four a rune), has more than k runes more or fewer than v's n:
	// the distance counts each, so it is not read (a tool result's whole
	// content is a form, and reading it for every value was most of this)
	n := utf8.RuneCountInString(v)
	for _, f := range forms {
		if len(f) < n-k || len(f) > 4*(n+k) {
			continue
		}
		if plain && (ascii(f) && abs(len(f)-len(v)) > k || !holdsSegment(f, segs)) {
			continue
		}
		if d := osaDistance(v, f, k); d < dist {
			form, dist = f, d
		}
	}
	return form, dist, dist <= k
}

// segments cuts an ASCII v into 2k+1 pieces: k edits (a swap across a cut
// touches two) leave one of them whole in any string that near, so a
// string that holds none is not looked at closer. false: v is not ASCII,
// or too short to cut.
func segments(v string, k int) ([]string, bool) {
	n := 2*k + 1
	if !ascii(v) || len(v) < n {
		return nil, false
	}
	out := make([]string, n)
	for i := range n {
		out[i] = v[i*len(v)/n : (i+1)*len(v)/n]
	}
	return out, true
}

func holdsSegment(f string, segs []string) bool {
	for _, s := range segs {
		if strings.Contains(f, s) {
			return true
		}
	}
	return false
}

// LookedFor is the JSON text of the looked_for member of the absence
// frame tool content is (§3: at the top level, or as the result of a
// coverage ledger), and false when it is none or has none. The library
// does not index it — it echoes the query —, so a value only it holds
// is never-read; a reader still wants to know the tool looked for the
// value and did not find it (docs/rules/flags.md §10.3).
func LookedFor(content string) (string, bool) {
	if !strings.Contains(content, "af_absent") {
		return "", false
	}
	t := jsTrim(content)
	if t == "" || t[0] != '{' {
		return "", false
	}
	v, ok := parseJSON(t)
	if !ok {
		return "", false
	}
	frame := v
	if _, ok := absenceLists(frame); !ok {
		cov, res := v.member("af_coverage"), v.member("result")
		if cov == nil || cov.kind != jObject || res == nil {
			return "", false
		}
		if _, ok := absenceLists(res); !ok {
			return "", false
		}
		frame = res
	}
	lf := frame.member("looked_for")
	if lf == nil || lf.kind == jNull {
		return "", false
	}
	return jsonStringify(lf), true
}

// DigitRuns is each distinct run of ASCII digits of text, whole (no
// digit on either side), in the order they first occur. A text that
// MayHoldBounded says could hold a value holds each run of digits of the
// lookup form it matched as one of these: a caller that asks of many
// texts looks a value up by one of its runs instead of reading them all.
func DigitRuns(text string) []string {
	var out []string
	seen := map[string]bool{}
	for i := indexDigit(text); i >= 0; {
		j := i + 1
		for j < len(text) && isDigit(text[j]) {
			j++
		}
		if a := text[i:j]; !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
		k := indexDigit(text[j:])
		if k < 0 {
			break
		}
		i = j + k
	}
	return out
}

// ValueDigitRuns is, for each lookup form of the normalized value v (as
// MayHoldBounded tries them), its runs of digits; false when a form has
// none (MayHoldBounded then says any text could hold it).
func ValueDigitRuns(v string) ([][]string, bool) {
	forms := LookupForms(v)
	out := make([][]string, len(forms))
	for k, f := range forms {
		out[k] = DigitRuns(f)
		if len(out[k]) == 0 {
			return nil, false
		}
	}
	return out, true
}

// BoundedText is a text read once for HoldsBounded, to be asked of many
// values: Holds(v) is HoldsBounded(text, v).
type BoundedText struct{ t *atomText }

// NewBoundedText reads text for Holds.
func NewBoundedText(text string) BoundedText { return BoundedText{newAtomText(text, nil)} }

// Holds is HoldsBounded of the text read and v.
func (b BoundedText) Holds(v string) bool { return b.t.holds(v) }
