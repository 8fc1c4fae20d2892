// Package termtext makes untrusted text safe to print on a terminal.
//
// A recording is text from the outside world: tool results are web
// pages, logs and shell output, and a prompt or a tool name can carry
// escape sequences that retitle the window, write the clipboard, leave
// the alternate screen or switch autowrap off. Every printer of inspect
// (the terminal UI, `inspect report`, every stderr line) passes such
// text through this package first, and measures it with Width.
//
// What is replaced, by a visible placeholder:
//   - C0 controls except newline and tab: ␀…␟ (␛ for ESC), DEL: ␡
//   - C1 controls U+0080–U+009F and bytes that are not UTF-8: \x9b
//   - a lone UTF-16 surrogate (WTF-8, as the loader holds "\ud83d"): <U+D83D>
//   - bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C),
//     invisible characters (zero-width space, word joiner, BOM, soft
//     hyphen, tag characters outside a flag) and U+2028/U+2029: <U+202E>
//
// Emoji sequences whose width terminals disagree on (skin-tone
// modifiers, variation selectors, ZWJ joins) are shown as their parts,
// so the width computed here is the width every terminal draws and no
// border moves.
//
// It refuses to interpret anything: it never keeps an escape sequence,
// not even a colour; styling is the printer's business. So in a screen
// built from text that went through it, every escape is the printer's
// own: Palette.Frame, the last guard, lets through the SGR sequences of
// the printer's style sheet and nothing else.
package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Mark styles a placeholder (dim in the terminal UI); nil leaves it plain.
type Mark func(placeholder string) string

// Text returns s safe for a terminal, newlines and tabs kept: for
// plain-text output (report, stderr).
func Text(s string) string { return clean(s, nil, keepTabs) }

// Line returns s safe for one line of a terminal: newlines become ␊
// and tabs a space. For names: files, tools, strategies.
func Line(s string) string { return clean(s, nil, oneLine) }

// Screen returns s safe for a cell grid: newlines kept, tabs expanded
// to spaces up to the next multiple of four columns (a terminal's tab
// would jump over whatever is drawn there), placeholders styled by mark.
func Screen(s string, mark Mark) string { return clean(s, mark, expandTabs) }

// Width is the number of cells s takes, escape sequences ignored,
// grapheme by grapheme: the measure lipgloss uses for its borders.
// It is exact for text that went through this package.
func Width(s string) int { return ansi.StringWidth(s) }

type tabMode int

const (
	keepTabs tabMode = iota
	oneLine
	expandTabs
)

// safe reports whether s is printable ASCII (newlines and tabs aside)
// and so needs nothing done.
func safe(s string, tabs tabMode) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
		case c == '\n' && tabs != oneLine:
		case c == '\t' && tabs == keepTabs:
		default:
			return false
		}
	}
	return true
}

func clean(s string, mark Mark, tabs tabMode) string {
	if safe(s, tabs) {
		return s
	}
	w := writer{mark: mark, tabs: tabs}
	w.b.Grow(len(s) + 16)
	for len(s) > 0 {
		if c := s[0]; c < utf8.RuneSelf {
			w.ascii(c)
			s = s[1:]
			continue
		}
		if r, size := utf8.DecodeRuneInString(s); r == utf8.RuneError && size <= 1 {
			if u, ok := surrogate(s); ok {
				w.placeholder(fmt.Sprintf("<U+%04X>", u))
				s = s[3:]
				continue
			}
			w.placeholder(fmt.Sprintf(`\x%02x`, s[0]))
			s = s[1:]
			continue
		}
		cluster, _ := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		if cluster == "" { // cannot happen on valid UTF-8; never loop
			_, size := utf8.DecodeRuneInString(s)
			cluster = s[:size]
		}
		w.cluster(cluster)
		s = s[len(cluster):]
	}
	return w.b.String()
}

// surrogate reads the lone UTF-16 surrogate s starts with, held as its
// WTF-8 bytes (ED A0–BF 80–BF), as the loader keeps one (model.DecodeRune).
func surrogate(s string) (rune, bool) {
	if len(s) < 3 || s[0] != 0xED || s[1] < 0xA0 || s[1] > 0xBF || s[2]&0xC0 != 0x80 {
		return 0, false
	}
	return 0xD000 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), true
}

// writer builds the safe text and keeps the column for tab stops.
type writer struct {
	b    strings.Builder
	mark Mark
	tabs tabMode
	col  int
}

func (w *writer) ascii(c byte) {
	switch {
	case c == '\n' && w.tabs != oneLine:
		w.b.WriteByte(c)
		w.col = 0
	case c == '\t' && w.tabs == keepTabs:
		w.b.WriteByte(c)
	case c == '\t' && w.tabs == oneLine:
		w.b.WriteByte(' ')
		w.col++
	case c == '\t':
		n := 4 - w.col%4
		w.b.WriteString("    "[:n])
		w.col += n
	case c == 0x7f:
		w.placeholder("␡")
	case c < 0x20:
		w.placeholder(string(rune(0x2400 + int(c))))
	default:
		w.b.WriteByte(c)
		w.col++
	}
}

func (w *writer) placeholder(p string) {
	w.col += ansi.StringWidth(p)
	if w.mark != nil {
		p = w.mark(p)
	}
	w.b.WriteString(p)
}

func (w *writer) text(s string) {
	w.b.WriteString(s)
	w.col += ansi.StringWidth(s)
}

// cluster writes one grapheme cluster: as it is when every terminal
// draws it alike, else rune by rune with the invisible ones marked and
// the width-changing joiners left out.
func (w *writer) cluster(c string) {
	r, size := utf8.DecodeRuneInString(c)
	if size == len(c) && r != vs15 && r != vs16 {
		w.rune(r)
		return
	}
	if r == blackFlag && onlyTags(c[size:]) { // a subdivision flag: 🏴 and tags
		w.text(c)
		return
	}
	if isRegional(r) { // a country flag: two regional indicators
		if r2, _ := utf8.DecodeRuneInString(c[size:]); isRegional(r2) && size*2 == len(c) {
			w.text(c)
			return
		}
	}
	if !hasJoiner(c) && !invisibleIn(c) {
		w.text(c) // letters with combining marks, Hangul syllables
		return
	}
	prev := rune(-1)
	for i, r := range c {
		next, _ := utf8.DecodeRuneInString(c[i+utf8.RuneLen(r):])
		switch {
		case r == vs15 || r == vs16 || (i > 0 && isSkinTone(r)):
			// the part that makes terminals disagree: leave it out
		case r == zwj && pictographic(prev) && pictographic(next):
			// the parts of an emoji ZWJ sequence, drawn side by side
		default:
			w.rune(r)
		}
		prev = r
	}
}

// rune writes one rune that stands alone (or is a cluster's part).
func (w *writer) rune(r rune) {
	switch {
	case r < utf8.RuneSelf:
		w.ascii(byte(r))
	case r >= 0x80 && r <= 0x9f:
		w.placeholder(fmt.Sprintf(`\x%02x`, r))
	case invisible(r):
		w.placeholder(fmt.Sprintf("<U+%04X>", r))
	default:
		w.text(string(r))
	}
}
