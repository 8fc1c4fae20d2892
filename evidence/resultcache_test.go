package evidence

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// bigResult is a tool result of rows JSON objects, each with values of
// its own.
func bigResult(rows int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"web-%07d","region":"us-east-%d","cpu":%d.5}`, i, i%7, i)
	}
	b.WriteByte(']')
	return b.String()
}

// A large tool result is parsed once, whatever the windows that hold it:
// the sets built again for another window allocate next to nothing, and
// hold exactly the forms indexing it afresh gives, also when it fills a
// set and after other results.
func TestToolResultIndexedOnce(t *testing.T) {
	for _, rows := range []int{5_000, 70_000} { // under FormLimit forms, and over
		content := bigResult(rows)
		small := `{"note":"web-0000003 restarted"}`
		win := []*model.Message{{Role: model.RoleTool, Content: content}}
		after := []*model.Message{{Role: model.RoleTool, Content: small}, {Role: model.RoleTool, Content: content}}
		for _, w := range [][]*model.Message{win, after} {
			want := NewIndex()
			for _, m := range w {
				want.addToolResult(m.Content)
			}
			got := BuildSets(w, "", nil).Evidence
			if !maps.Equal(got.forms, want.forms) {
				t.Fatalf("%d rows: the set holds %d forms, indexed afresh %d", rows, got.Len(), want.Len())
			}
		}
		allocs := testing.AllocsPerRun(3, func() { BuildSets(win, "", nil) })
		if allocs > 2000 {
			t.Errorf("%d rows (%d KB): building the sets again allocates %.0f times", rows, len(content)>>10, allocs)
		}
	}
}
