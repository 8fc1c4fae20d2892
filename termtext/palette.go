package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Palette is the set of SGR sequences (colour, bold, reset…) a program
// writes itself around the text it prints. Recording text that went
// through this package holds no escape at all, so in a frame every
// escape is the program's: Frame lets through these and nothing else.
type Palette map[string]bool

// PaletteOf collects every SGR sequence in samples: the program's
// styles, each rendered once.
func PaletteOf(samples ...string) Palette {
	p := Palette{}
	for _, s := range samples {
		for i := 0; i < len(s); i++ {
			if n := sgrLen(s[i:]); n > 0 {
				p[s[i:i+n]] = true
				i += n - 1
			}
		}
	}
	return p
}

// Frame is the last guard before a screen reaches the terminal: it
// keeps newlines and the palette's SGR sequences and shows everything
// else a terminal would act on or a reader could not see — any other
// escape (an SGR the program did not write among them), control or C1
// character, bad UTF-8, a bidi control or invisible character — as its
// placeholder. A screen whose recording text went through Screen or
// Line comes out unchanged: the guard has nothing to do.
func (p Palette) Frame(s string) string {
	i := p.bad(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		switch {
		case c == 0x1b:
			if n := sgrLen(s[i:]); n > 0 && p[s[i:i+n]] {
				b.WriteString(s[i : i+n])
				i += n
				continue
			}
			b.WriteString("␛")
		case c == '\n':
			b.WriteByte(c)
		case c < 0x20:
			b.WriteRune(rune(0x2400 + int(c)))
		case c == 0x7f:
			b.WriteString("␡")
		case c < utf8.RuneSelf:
			b.WriteByte(c)
		default:
			i += frameRune(&b, s[i:])
			continue
		}
		i++
	}
	return b.String()
}

// frameRune writes the character s starts with, or its placeholder,
// and returns its length.
func frameRune(b *strings.Builder, s string) int {
	r, size := utf8.DecodeRuneInString(s)
	switch {
	case r == utf8.RuneError && size <= 1:
		if u, ok := surrogate(s); ok { // a lone surrogate the loader kept
			fmt.Fprintf(b, "<U+%04X>", u)
			return 3
		}
		fmt.Fprintf(b, `\x%02x`, s[0])
	case r >= 0x80 && r <= 0x9f:
		fmt.Fprintf(b, `\x%02x`, r)
	case r == blackFlag:
		n := size + tagsLen(s[size:]) // a subdivision flag keeps its tags
		b.WriteString(s[:n])
		return n
	case invisible(r):
		fmt.Fprintf(b, "<U+%04X>", r)
	default:
		b.WriteString(s[:size])
	}
	return size
}

// bad is the index of the first byte Frame must change, -1 when there
// is none.
func (p Palette) bad(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 0x1b:
			n := sgrLen(s[i:])
			if n == 0 || !p[s[i:i+n]] {
				return i
			}
			i += n - 1
		case c == '\n', c >= 0x20 && c < 0x7f:
		case c < 0x20, c == 0x7f:
			return i
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case (r == utf8.RuneError && size <= 1) || (r >= 0x80 && r <= 0x9f):
				return i
			case r == blackFlag:
				size += tagsLen(s[i+size:])
			case invisible(r):
				return i
			}
			i += size - 1
		}
	}
	return -1
}

// tagsLen is the length of the tag characters s starts with.
func tagsLen(s string) int {
	n := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		if r < 0xE0020 || r > 0xE007F {
			break
		}
		n += size
	}
	return n
}

// sgrLen is the length of the SGR sequence s starts with, 0 if none.
func sgrLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for i := 2; i < len(s) && i < 64; i++ {
		switch c := s[i]; {
		case c == 'm':
			return i + 1
		case c >= '0' && c <= '9', c == ';', c == ':':
		default:
			return 0
		}
	}
	return 0
}
