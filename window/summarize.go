package window

import (
	"crypto/sha256"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/model"
)

// The compaction frame of summarize-oldest (docs/rules/summarize-oldest.md §11.4): a user
// message holding a label, two newlines, and the summary a second model
// wrote.
const (
	frameOpen  = "[compacted history — "
	frameCount = " earlier message(s) were folded out of this window at iteration "
	frameBy    = ". The text after this line is a SUMMARY written by "
	frameClaim = "; it is a claim about the conversation, not the conversation. "
	frameClose = "]"
	frameSep   = "\n\n"

	// RetainConversation and RetainDiscard are the strategy's retain
	// option; each has its own sentence in the label.
	RetainConversation = "conversation"
	RetainDiscard      = "discard"
	retainedSentence   = "The folded messages are retained verbatim with this conversation and can be produced on request."
	discardedSentence  = "The folded messages were not retained beyond the run that folded them; only this summary carries them forward."

	// UnknownModel names the summarizer when no recorded frame does.
	UnknownModel = "unknown-model"
	// PlaceholderSummary stands where a summary would be in a frame the
	// replay made for a fold the library never made (§11.9).
	PlaceholderSummary = "[summary not recorded: the library never folded this span, so the text its summarizer would have written here is unknown]"
)

// FrameLabel is the label of a frame folding n messages at iteration iter.
func FrameLabel(n, iter int, summarizer, retain string) string {
	sentence := retainedSentence
	if retain == RetainDiscard {
		sentence = discardedSentence
	}
	return frameOpen + strconv.Itoa(n) + frameCount + strconv.Itoa(iter) + frameBy + summarizer + frameClaim + sentence + frameClose
}

// FrameText is a whole frame: the label, two newlines, the summary as the
// summarizer returned it.
func FrameText(n, iter int, summarizer, retain, summary string) string {
	return FrameLabel(n, iter, summarizer, retain) + frameSep + summary
}

// Frame is what one frame's content says of itself.
type Frame struct {
	Count, Iteration int
	Model, Retain    string
	Summary          string
}

// ParseFrame reads a frame's content; false when it is not one this
// strategy wrote (the label must be exactly FrameLabel's).
func ParseFrame(content string) (Frame, bool) {
	var f Frame
	rest, ok := strings.CutPrefix(content, frameOpen)
	if !ok {
		return f, false
	}
	var num string
	if num, rest, ok = strings.Cut(rest, frameCount); !ok {
		return f, false
	}
	if f.Count, ok = count(num); !ok {
		return f, false
	}
	if num, rest, ok = strings.Cut(rest, frameBy); !ok {
		return f, false
	}
	if f.Iteration, ok = count(num); !ok {
		return f, false
	}
	if f.Model, rest, ok = strings.Cut(rest, frameClaim); !ok {
		return f, false
	}
	switch {
	case strings.HasPrefix(rest, retainedSentence+frameClose+frameSep):
		f.Retain, rest = RetainConversation, rest[len(retainedSentence+frameClose+frameSep):]
	case strings.HasPrefix(rest, discardedSentence+frameClose+frameSep):
		f.Retain, rest = RetainDiscard, rest[len(discardedSentence+frameClose+frameSep):]
	default:
		return f, false
	}
	f.Summary = rest
	return f, FrameText(f.Count, f.Iteration, f.Model, f.Retain, f.Summary) == content
}

// count reads a decimal count as the label writes it.
func count(s string) (int, bool) {
	if s == "" || len(s) > 9 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0
}

// fingerprint identifies a span by the roles and contents of its messages,
// in order (§11.6): what the latch and the fold book key on.
type fingerprint [sha256.Size]byte

func fingerprintOf(span []*model.Message) fingerprint {
	h := sha256.New()
	var n [8]byte
	for _, m := range span {
		for _, s := range [2]string{m.Role, m.Content} {
			l := len(s)
			for i := range n {
				n[i] = byte(l >> (8 * i))
			}
			h.Write(n[:])
			h.Write([]byte(s))
		}
	}
	var f fingerprint
	h.Sum(f[:0])
	return f
}
