package loader

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Problems past the list's bound are counted by kind (the message with
// its numbers taken out: "invalid JSON … (at byte 7)" and "… (at byte
// 9)" are one kind), each kind with the first and the last line it was
// met on, so the line that closes the list says what the rest were and
// where, in memory bounded by the kinds, not the problems.

// maxUnlistedKinds bounds the kinds told apart; the rest are counted
// together.
const maxUnlistedKinds = 32

type unlistedKind struct {
	kind        string
	example     string // the first problem of the kind, its message
	n           int
	first, last int // lines (0: about no line)
}

type unlisted struct {
	total int
	kinds []*unlistedKind
	other unlistedKind // past maxUnlistedKinds
}

func (u *unlisted) add(line int, msg string) {
	u.total++
	k := problemKind(msg)
	var c *unlistedKind
	for _, e := range u.kinds {
		if e.kind == k {
			c = e
			break
		}
	}
	if c == nil {
		if len(u.kinds) < maxUnlistedKinds {
			c = &unlistedKind{kind: k, example: clipExample(msg), first: line}
			u.kinds = append(u.kinds, c)
		} else {
			c = &u.other
			if c.n == 0 {
				c.first = line
			}
		}
	}
	c.n++
	if line > 0 {
		if c.first == 0 {
			c.first = line
		}
		c.last = line
	}
}

// clone is a copy of u that adds without changing u.
func (u unlisted) clone() unlisted {
	kinds := make([]*unlistedKind, len(u.kinds))
	for i, k := range u.kinds {
		c := *k
		kinds[i] = &c
	}
	u.kinds = kinds
	return u
}

// say is the problem that closes the list: how many more, of which kind,
// on which lines.
func (u *unlisted) say(source string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d more problems not listed", source, u.total)
	sep := ": "
	for _, k := range u.kinds {
		b.WriteString(sep)
		sep = "; "
		fmt.Fprintf(&b, "%d × %s%s", k.n, k.example, lines(k))
	}
	if u.other.n > 0 {
		fmt.Fprintf(&b, "%s%d of other kinds%s", sep, u.other.n, lines(&u.other))
	}
	return b.String()
}

func lines(k *unlistedKind) string {
	switch {
	case k.last == 0:
		return ""
	case k.n == 1 || k.first == k.last:
		return fmt.Sprintf(" (line %d)", k.first)
	}
	return fmt.Sprintf(" (lines %d to %d)", k.first, k.last)
}

// problemKind is msg with every run of digits one "#".
func problemKind(msg string) string {
	b := make([]byte, 0, len(msg))
	digits := false
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		if c >= '0' && c <= '9' {
			if !digits {
				b = append(b, '#')
			}
			digits = true
			continue
		}
		digits = false
		b = append(b, c)
	}
	return string(b)
}

// clipExample bounds an example message (a problem may quote the line).
func clipExample(msg string) string {
	const most = 160
	if len(msg) <= most {
		return msg
	}
	cut := most
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + "…"
}

// MaxListed is how many problems a recording lists (the rest are
// counted by kind in one more).
const MaxListed = maxProblems
