package window

import (
	"strconv"
	"strings"

	"github.com/afinspect/inspect/model"
)

// The fixed parts of a drop notice.
const (
	noticeOpen    = "[dropped history — "
	noticeCount   = " earlier message(s) were dropped from this window at iteration "
	noticeBy      = " by the '"
	noticeStrat   = "' window strategy. "
	keptSentence  = "Your current request is kept — it is still in this window, above this line, and no window strategy may drop it. "
	toolsOpen     = "Tool results are among them ("
	toolsClose    = ") — call the tool again if you need its output; do not reconstruct ids or values from memory. "
	noticeClose   = "Nothing was summarized: those turns are simply not being re-sent. They are retained verbatim in this run's commit log.]"
	moreTools     = ", …"
	maxNoticeTool = 4
)

// UTF-16 lengths of the fixed parts, so the ladder can compare a notice
// with the span without writing it.
var (
	fixedLen = model.Len(noticeOpen) + model.Len(noticeCount) + model.Len(noticeBy) + model.Len(noticeStrat) + model.Len(noticeClose)
	keptLen  = model.Len(keptSentence)
	toolsLen = model.Len(toolsOpen) + model.Len(toolsClose)
	moreLen  = model.Len(moreTools)
)

// nameable reports whether a tool name may appear in a notice: 1 to 48 of
// A-Z a-z 0-9 _ . : - (so it is ASCII, and its length is its byte count).
func nameable(name string) bool {
	if len(name) == 0 || len(name) > 48 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}

// noticeLen is model.Len(NoticeText(...)) without writing the text.
func noticeLen(n, iteration int, strategy string, requestKept bool, toolNames []string) int {
	l := fixedLen + digits(n) + digits(iteration) + model.Len(strategy)
	if requestKept {
		l += keptLen
	}
	if len(toolNames) > 0 {
		l += toolsLen
		shown := toolNames
		if len(shown) > maxNoticeTool {
			shown = shown[:maxNoticeTool]
			l += moreLen
		}
		for i, t := range shown {
			l += len(t)
			if i > 0 {
				l += 2 // ", "
			}
		}
	}
	return l
}

func digits(n int) int {
	d := 1
	if n < 0 {
		d, n = 2, -n
	}
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// noticeMaxBytes bounds the bytes of a notice but its strategy: the fixed
// parts, two numbers, and four names of at most 48 bytes.
const noticeMaxBytes = len(noticeOpen) + len(noticeCount) + len(noticeBy) + len(noticeStrat) + len(keptSentence) +
	len(toolsOpen) + len(toolsClose) + len(noticeClose) + len(moreTools) + 2*20 + maxNoticeTool*(48+2)

// writeNotice writes NoticeText's text to b; mid is its middle part
// (noticeMiddle).
func writeNotice(b *strings.Builder, n, iteration int, mid string, toolNames []string) {
	var num [20]byte
	b.WriteString(noticeOpen)
	b.Write(strconv.AppendInt(num[:0], int64(n), 10))
	b.WriteString(noticeCount)
	b.Write(strconv.AppendInt(num[:0], int64(iteration), 10))
	b.WriteString(mid)
	if len(toolNames) == 0 {
		b.WriteString(noticeClose)
		return
	}
	for i, t := range toolNames[:min(len(toolNames), maxNoticeTool)] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(t)
	}
	if len(toolNames) > maxNoticeTool {
		b.WriteString(moreTools)
	}
	b.WriteString(toolsClose + noticeClose)
}

// noticeMiddle is the part of a notice between the iteration and the tool
// names: the strategy, the kept sentence, the opening of the tools'.
func noticeMiddle(strategy string, requestKept, tools bool) string {
	s := noticeBy + strategy + noticeStrat
	if requestKept {
		s += keptSentence
	}
	if tools {
		s += toolsOpen
	}
	return s
}

// chooseNotice runs the ladder: the rich notice when there are nameable
// tools and it is shorter than the span, else the plain one when it is
// shorter, else none (""). It returns the notice's length too.
func chooseNotice(spanLen, spanChars, iteration int, strategy string, requestKept bool, names []string, mem *textBlocks) (string, int) {
	var buf [8]string
	named := buf[:0]
	for _, n := range names {
		if nameable(n) {
			named = append(named, n)
		}
	}
	if len(named) > 0 {
		if n := noticeLen(spanLen, iteration, strategy, requestKept, named); n < spanChars {
			return mem.notice(spanLen, iteration, strategy, requestKept, named), n
		}
	}
	if n := noticeLen(spanLen, iteration, strategy, requestKept, nil); n < spanChars {
		return mem.notice(spanLen, iteration, strategy, requestKept, nil), n
	}
	return "", 0
}

// textBlocks hands out strings written one after another into shared blocks:
// a replay writes one notice per visit, and each would otherwise be an
// allocation of its own. A string handed out is never written again (a
// strings.Builder only appends), and keeps its block alive.
type textBlocks struct {
	b    strings.Builder
	mids [4]struct{ strategy, s string } // noticeMiddle's, by requestKept and tools
}

const textBlock = 32 << 10

// notice is NoticeText written into the current block.
func (t *textBlocks) notice(n, iteration int, strategy string, requestKept bool, toolNames []string) string {
	if need := noticeMaxBytes + len(strategy); t.b.Cap()-t.b.Len() < need {
		t.b = strings.Builder{}
		t.b.Grow(max(textBlock, need))
	}
	tools := len(toolNames) > 0
	mid := &t.mids[b2i(requestKept)*2+b2i(tools)]
	if mid.s == "" || mid.strategy != strategy {
		mid.strategy, mid.s = strategy, noticeMiddle(strategy, requestKept, tools)
	}
	from := t.b.Len()
	writeNotice(&t.b, n, iteration, mid.s, toolNames)
	return t.b.String()[from:]
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
