package evidence

import (
	"encoding/binary"
	"strings"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
)

// The library never splits a token further than §1 does, and reads a
// number literal as the double it parses to: `06:14:02` is not grounded
// by `2026-03-18T06:14:02Z`, nor `6006016012345678901` by that literal.
// Such a value is rightly unsupported, yet "typed, not read" would be
// false: its characters were in front of the model (§9.2). A text holds
// a value between atom boundaries when the value occurs in the text,
// lower-cased, where neither end cuts a run of letters or a run of
// digits. Every atom of such an occurrence is then a whole atom of the
// text; every value has a digit; so a text is searched through its runs
// of digits: a value's first run of digits (its anchor) is looked up
// there, and only where it stands is the value compared.

// TextHit is one text of a call's window that holds a value between atom
// boundaries (§9.2.4).
type TextHit struct {
	Msg *model.Message // nil: the run's request or the system prompt
	// Token is the first token of the text (§1, normalized) that holds
	// the value between atom boundaries; nil when none does (the value
	// spans a separator).
	Token *string
}

// atomClass: 1 for an ASCII digit, 2 for an ASCII letter, 0 for anything
// else (every byte of a multi-byte character is ≥ 0x80: neither).
func atomClass(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return 1
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		return 2
	}
	return 0
}

// atomBoundary: position p of s is the start or end of s, or the
// characters on its two sides are not both letters and not both digits.
func atomBoundary(s string, p int) bool {
	if p <= 0 || p >= len(s) {
		return true
	}
	a, b := atomClass(s[p-1]), atomClass(s[p])
	return a == 0 || b == 0 || a != b
}

// anchor is v's first run of digits and where it starts in v; "" when v
// has none.
func anchor(v string) (string, int) {
	for i := 0; i < len(v); i++ {
		if isDigit(v[i]) {
			j := i + 1
			for j < len(v) && isDigit(v[j]) {
				j++
			}
			return v[i:j], i
		}
	}
	return "", 0
}

// atomText is one text with where each of its runs of digits starts;
// only the runs keep accepts (nil: all). An ASCII text is kept as it is
// and compared without case; any other is lower-cased first (JavaScript
// toLowerCase may change its length).
type atomText struct {
	text  string
	ascii bool
	at    map[string][]int
}

func newAtomText(text string, keep func(string) bool) *atomText {
	t := &atomText{text: text, ascii: isASCII(text)}
	if !t.ascii {
		t.text = jsLower(text)
	}
	s := t.text
	for i := indexDigit(s); i >= 0; {
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if a := s[i:j]; keep == nil || keep(a) {
			if t.at == nil {
				t.at = map[string][]int{}
			}
			t.at[a] = append(t.at[a], i)
		}
		k := indexDigit(s[j:])
		if k < 0 {
			break
		}
		i = j + k
	}
	return t
}

// holds reports whether the text holds a lookup form of the normalized
// value v between atom boundaries.
func (t *atomText) holds(v string) bool {
	for _, f := range LookupForms(v) {
		if t.bounded(f) {
			return true
		}
	}
	return false
}

func (t *atomText) bounded(v string) bool {
	a, d := anchor(v)
	if a == "" { // the rest of a 0x value, all letters: read the whole text
		if t.ascii {
			return holdsBounded(strings.ToLower(t.text), v)
		}
		return holdsBounded(t.text, v)
	}
	for _, start := range t.at[a] {
		p := start - d
		if p < 0 || p+len(v) > len(t.text) || !atomBoundary(t.text, p) || !atomBoundary(t.text, p+len(v)) {
			continue
		}
		if w := t.text[p : p+len(v)]; w == v || t.ascii && strings.EqualFold(w, v) {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	const highs = 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if binary.LittleEndian.Uint64([]byte(s[i:i+8]))&highs != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// holdsBounded reports whether text (already lower-cased, as a
// normalized token is) holds v between atom boundaries; for a short text.
func holdsBounded(text, v string) bool {
	for _, f := range LookupForms(v) {
		for from := 0; from+len(f) <= len(text); {
			k := strings.Index(text[from:], f)
			if k < 0 {
				break
			}
			if p := from + k; atomBoundary(text, p) && atomBoundary(text, p+len(f)) {
				return true
			}
			from += k + 1
		}
	}
	return false
}

// firstTokens is, for each of values held by text, the first token of
// text (§1) that holds it between atom boundaries. The text is tokenized
// once: each token is compared only with the values whose anchor is one
// of its runs of digits.
func firstTokens(text string, values []string) map[string]string {
	byAnchor := map[string][]string{}
	var unanchored []string // a 0x value whose rest has no digit: every token
	for _, v := range values {
		for _, f := range LookupForms(v) {
			if a, _ := anchor(f); a != "" {
				byAnchor[a] = append(byAnchor[a], v)
			} else {
				unanchored = append(unanchored, v)
			}
		}
	}
	out := make(map[string]string, len(values))
	eachToken(text, func(tok string) bool {
		for _, v := range unanchored {
			if _, done := out[v]; !done && holdsBounded(tok, v) {
				out[v] = tok
			}
		}
		for i := 0; i < len(tok); i++ {
			if !isDigit(tok[i]) {
				continue
			}
			j := i + 1
			for j < len(tok) && isDigit(tok[j]) {
				j++
			}
			for _, v := range byAnchor[tok[i:j]] {
				if _, done := out[v]; !done && holdsBounded(tok, v) {
					out[v] = tok
				}
			}
			i = j
		}
		return len(out) < len(values)
	})
	return out
}

// searchedText is the text of a window message §9.2 searches, and false
// for one it does not: a tool result whole, or for an absence frame only
// the JSON text of the lists the library walks (its looked_for echoes
// the query); user and system text but the library's re-asks; never an
// assistant message.
func searchedText(m *model.Message) (string, bool) {
	switch {
	case m.Role == model.RoleTool:
		if len(m.Content) >= cachedResult { // parsed once, with its forms
			return formsOf(m.Content).searched, true
		}
		if v, ok := parseResult(m.Content); ok {
			if view := absenceView(v); view != v {
				return jsonStringify(view), true
			}
		}
		return m.Content, true
	case isExemptRole(m):
		return m.Content, true
	}
	return "", false
}

// inViewText finds the texts of view that hold each of values between
// atom boundaries (§9.2.3–4): the request first, then the system prompt,
// then the window's messages in order. A value no text holds has no
// entry. A Judger told its values ahead keeps each text's atoms that
// begin one of them while the text is in view; a value it was not told
// of is looked for in all the atoms, made afresh.
func (j *Judger) inViewText(values []string, view View) map[string][]TextHit {
	out := map[string][]TextHit{}
	var asked, other []string
	for _, v := range values {
		if j.only == nil || j.only.covers(v) {
			asked = append(asked, v)
		} else {
			other = append(other, v)
		}
	}
	if len(asked) > 0 {
		j.searchTexts(asked, view, j.atomFilter(), true, out)
	}
	if len(other) > 0 {
		j.searchTexts(other, view, nil, false, out)
	}
	return out
}

// searchTexts adds to out the texts of view that hold each of values,
// their atoms filtered by keep (nil: all) and kept with the window parts
// when cached.
func (j *Judger) searchTexts(values []string, view View, keep func(string) bool, cached bool, out map[string][]TextHit) {
	search := func(text string, at *atomText, m *model.Message) {
		var held []string
		for _, v := range values {
			if at.holds(v) {
				held = append(held, v)
			}
		}
		if len(held) == 0 {
			return
		}
		toks := firstTokens(text, held)
		for _, v := range held {
			hit := TextHit{Msg: m}
			if tok, ok := toks[v]; ok {
				hit.Token = &tok
			}
			out[v] = append(out[v], hit)
		}
	}
	atoms := func(m *model.Message, text string) *atomText {
		if !cached {
			return newAtomText(text, keep)
		}
		return j.win.atoms(m, text, keep)
	}
	if view.Request != "" {
		search(view.Request, atoms(nil, view.Request), nil)
	}
	for _, sp := range view.SystemPrompt {
		search(sp, newAtomText(sp, keep), nil)
	}
	for _, m := range view.Window {
		if text, ok := searchedText(m); ok {
			search(text, atoms(m, text), m)
		}
	}
}

// atomFilter keeps, for a Judger told its values ahead, only the runs of
// digits that anchor one of their lookup forms; nil (every run)
// otherwise.
func (j *Judger) atomFilter() func(string) bool {
	if j.only == nil {
		return nil
	}
	if j.only.first == nil {
		j.only.first = map[string]struct{}{}
		for f := range j.only.forms {
			if a, _ := anchor(f); a != "" {
				j.only.first[a] = struct{}{}
			}
		}
	}
	return func(a string) bool {
		_, ok := j.only.first[a]
		return ok
	}
}

// atoms is text's atoms, kept with m's window part while m stays in the
// window (the request's with the request's part); made afresh for a
// message without one.
func (w *windowSets) atoms(m *model.Message, text string, keep func(string) bool) *atomText {
	var p *part
	if m == nil {
		p = w.asked
	} else {
		p = w.parts[m]
	}
	if p == nil {
		return newAtomText(text, keep)
	}
	if p.text == nil {
		p.text = newAtomText(text, keep)
	}
	return p.text
}
