package detail

import (
	"strings"
	"sync/atomic"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/theme"
)

// A turn's messages are rendered (pretty-printed, highlighted, wrapped)
// off the Update/View path: chroma needs seconds for a few megabytes,
// and a key must never wait behind it.
const (
	// A turn with at most syncJSONBytes of JSON and syncBytes in all is
	// rendered at once, in the frame (chroma: about 30 ms for 8 KB here;
	// the demo's largest result, 5.9 KB, stays in the frame).
	syncJSONBytes = 8 << 10
	syncBytes     = 64 << 10
	// cachedRenders is how many rendered turns are kept, so revisiting
	// one (or the width it had before a resize) costs nothing.
	cachedRenders = 8
)

// renderKey names a rendering: a turn's messages at a width.
type renderKey struct {
	first *model.Message
	n     int
	width int
}

// RenderedMsg is sent by renderCmd when a turn's messages have been
// rendered in the background; the detail pane shows it if the turn and
// width on screen are still the ones it was asked for.
type RenderedMsg struct {
	key  renderKey
	text string
}

// renderCache keeps the last renderings, oldest out first.
type renderCache struct {
	order []renderKey
	text  map[renderKey]string
}

func (c *renderCache) get(k renderKey) (string, bool) {
	s, ok := c.text[k]
	return s, ok
}

func (c *renderCache) put(k renderKey, s string) {
	if c.text == nil {
		c.text = map[renderKey]string{}
	}
	if _, ok := c.text[k]; ok {
		return
	}
	if len(c.order) == cachedRenders {
		delete(c.text, c.order[0])
		c.order = c.order[1:]
	}
	c.order = append(c.order, k)
	c.text[k] = s
}

// renderCmd renders msgs at width w in the background. It does nothing
// when a later render was asked for before it started (a resize drag
// asks for one per step; only the last is worth the work).
func renderCmd(st *theme.Styles, k renderKey, msgs []*model.Message, gen int64, latest *atomic.Int64) tea.Cmd {
	for _, m := range msgs {
		m.Chars() // measured here, on the UI's goroutine, and cached
	}
	return func() tea.Msg {
		if latest.Load() != gen {
			return nil
		}
		return RenderedMsg{key: k, text: present.RenderTurn(st, msgs, k.width)}
	}
}

// turnBytes is the size of what rendering msgs has to go through.
func turnBytes(msgs []*model.Message) int {
	n := 0
	for _, m := range msgs {
		n += len(m.Content)
		for _, tc := range m.ToolCalls {
			n += len(tc.Args)
		}
	}
	return n
}

// quick reports whether msgs render in well under a frame: little JSON
// to highlight (chroma takes about 4 µs a byte) and little text to wrap.
func quick(msgs []*model.Message) bool {
	jsonBytes, all := 0, 0
	for _, m := range msgs {
		all += len(m.Content)
		if looksJSON(m.Content) {
			jsonBytes += len(m.Content)
		}
		for _, tc := range m.ToolCalls {
			jsonBytes += len(tc.Args)
		}
	}
	return jsonBytes <= syncJSONBytes && all <= syncBytes
}

func looksJSON(s string) bool {
	t := strings.TrimLeft(s, " \t\r\n")
	return t != "" && (t[0] == '{' || t[0] == '[')
}
