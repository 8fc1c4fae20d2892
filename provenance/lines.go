package provenance

import (
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// A message's life is told along one run chain (docs/rules/evidence.md §6 "A
// message across calls": sent on the calls of this call's chain, never a
// sibling branch's). One pointer may be in the windows of two chains: a
// recorded message the loader keeps once per text (a delivery, an
// orphan's first window) delivered to two conversations, or the history
// two runs continuing the same run carry (a conversation that branches,
// docs/rules/runs-and-conversations.md §10.8). So lives are kept per line: a conversation's
// calls from its first on, until a call continues one that another call
// already continued; that call starts a line of its own, which knows the
// lives of the line it branched from up to the call it continues.

// lives is every message's life on every line of a replay. A book
// grown from another's (grow.go) knows the lives of the calls they share
// through base, which it never changes: what it changes of them it
// copies into of first (mine).
type lives struct {
	of    map[*model.Message]*life // newest line's first, chained by life.other
	base  *lives                   // the lives of the calls before this one's own, read only; nil for none
	lines *window.Lines
}

func newLives(calls int) *lives {
	return &lives{of: map[*model.Message]*life{}, lines: window.NewLines(calls)}
}

// at is m's life on call i's chain: of call i's line, or of a line it
// branched from, sent there before the branch; nil when none is.
func (ls *lives) at(m *model.Message, i int) *life {
	for l := ls.head(m); l != nil; l = l.other {
		for n, bound := ls.lines.Of(i), i; n >= 0; {
			if l.line == n {
				if l.first <= bound {
					return l
				}
				break
			}
			parent, fork := ls.lines.Fork(n)
			n, bound = parent, min(bound, fork)
		}
	}
	return nil
}

// own is l, m's life on call i's chain, made call i's line's own: l is
// of a line it branched from only on the line's first call, and m was in
// the window of the call it continues, so the new life was sent first
// where l was and last there; its later calls are this line's.
func (ls *lives) own(m *model.Message, i int, l *life) *life {
	if n := ls.lines.Of(i); l.line != n {
		_, fork := ls.lines.Fork(n)
		l = &life{first: l.first, pos: l.pos, last: fork, evictedAt: -1, line: n, other: ls.head(m), owner: ls}
		ls.of[m] = l
		return l
	}
	return ls.mine(m, l)
}

// add files a new life of m on call i's line.
func (ls *lives) add(m *model.Message, i int, l *life) *life {
	l.line, l.other, l.owner = ls.lines.Of(i), ls.head(m), ls
	ls.of[m] = l
	return l
}

// head is m's newest life.
func (ls *lives) head(m *model.Message) *life {
	for ; ls != nil; ls = ls.base {
		if l, ok := ls.of[m]; ok {
			return l
		}
	}
	return nil
}

// mine is l, one of m's lives, as ls may change it: a copy when a layer
// under ls has it, filed in its place (the lives before it in m's chain
// copied too).
func (ls *lives) mine(m *model.Message, l *life) *life {
	if l.owner == ls {
		return l
	}
	var head *life
	link := &head
	for x := ls.head(m); x != nil; x = x.other {
		y := x
		if y.owner != ls {
			cp := *x
			cp.owner = ls
			y = &cp
		}
		*link = y
		link = &y.other
		if x == l {
			ls.of[m] = head
			return y
		}
	}
	return l // not among m's: (not reached)
}
