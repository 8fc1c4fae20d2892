package window

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/model"
)

const (
	keptSentence  = "Your current request is kept — it is still in this window, above this line, and no window strategy may drop it. "
	maxNoticeTool = 4
)

var noticeToolName = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,48}$`)

// NoticeText is the drop notice the library writes in place of n dropped
// messages at iteration. requestKept adds the sentence saying the current
// request is still above; toolNames (already filtered, in order) adds the
// rich sentence naming them.
func NoticeText(n, iteration int, strategy string, requestKept bool, toolNames []string) string {
	var b strings.Builder
	b.Grow(640)
	b.WriteString("[dropped history — ")
	b.WriteString(strconv.Itoa(n))
	b.WriteString(" earlier message(s) were dropped from this window at iteration ")
	b.WriteString(strconv.Itoa(iteration))
	b.WriteString(" by the '")
	b.WriteString(strategy)
	b.WriteString("' window strategy. ")
	if requestKept {
		b.WriteString(keptSentence)
	}
	if len(toolNames) > 0 {
		b.WriteString("Tool results are among them (")
		if len(toolNames) > maxNoticeTool {
			b.WriteString(strings.Join(toolNames[:maxNoticeTool], ", "))
			b.WriteString(", …")
		} else {
			b.WriteString(strings.Join(toolNames, ", "))
		}
		b.WriteString(") — call the tool again if you need its output; do not reconstruct ids or values from memory. ")
	}
	b.WriteString("Nothing was summarized: those turns are simply not being re-sent. They are retained verbatim in this run's commit log.]")
	return b.String()
}

// chooseNotice runs the ladder: the rich notice when there are nameable
// tools and it is shorter than the span, else the plain one when it is
// shorter, else none ("").
func chooseNotice(spanLen, spanChars, iteration int, strategy string, requestKept bool, names []string) string {
	var nameable []string
	for _, n := range names {
		if noticeToolName.MatchString(n) {
			nameable = append(nameable, n)
		}
	}
	if len(nameable) > 0 {
		if rich := NoticeText(spanLen, iteration, strategy, requestKept, nameable); model.Len(rich) < spanChars {
			return rich
		}
	}
	if plain := NoticeText(spanLen, iteration, strategy, requestKept, nil); model.Len(plain) < spanChars {
		return plain
	}
	return ""
}
