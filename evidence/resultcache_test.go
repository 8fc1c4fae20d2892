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

// The text the in-view search reads in a large tool result comes from
// the parse that indexed it: asked again, for another call's window, it
// is not parsed again; and an absence frame's is still the lists alone.
func TestSearchedTextOfALargeResultParsedOnce(t *testing.T) {
	content := bigResult(5_000)
	m := &model.Message{Role: model.RoleTool, Content: content}
	if got, ok := searchedText(m); !ok || got != content {
		t.Fatalf("searched text of a plain result: %d bytes (%v), want the result's %d", len(got), ok, len(content))
	}
	if allocs := testing.AllocsPerRun(3, func() { searchedText(m) }); allocs > 10 {
		t.Errorf("the searched text of a %d KB result asked again allocates %.0f times", len(content)>>10, allocs)
	}
	frame := `{"af_absent":true,"checked":["web-0000001"],"looked_for":"` + strings.Repeat("x", cachedResult) + `"}`
	got, _ := searchedText(&model.Message{Role: model.RoleTool, Content: frame})
	if got != `[["web-0000001"],[],[]]` {
		t.Errorf("searched text of a large absence frame: %.80q, want its three lists", got)
	}
}

// A restricted index (a Judger told its values) of a large result that
// alone fills a set is known to be truncated without parsing it again:
// it would meet at least FormLimit forms, and is indexed whole instead.
func TestRestrictedIndexOfAFullResultNotParsed(t *testing.T) {
	content := bigResult(110_000) // 220,010 forms
	if formsOf(content).full == nil {
		t.Fatalf("%d KB of rows do not fill a set", len(content)>>10)
	}
	only := newAskedForms([]Value{{Value: "web-0000003"}})
	for _, loose := range []bool{true, false} {
		x := newIndexFor(only, loose)
		x.AddToolResult(content)
		if !x.Truncated() {
			t.Fatalf("loose %v: a result of %d forms and more left the restricted index untruncated", loose, FormLimit)
		}
		// the whole walk, as before, would have met FormLimit forms too
		walked := newIndexFor(only, loose)
		walked.addToolResult(content)
		if !walked.Truncated() {
			t.Fatalf("loose %v: walking the result whole does not truncate the restricted index", loose)
		}
	}
	if allocs := testing.AllocsPerRun(3, func() { newIndexFor(only, true).AddToolResult(content) }); allocs > 10 {
		t.Errorf("a restricted index of a %d KB result that fills a set allocates %.0f times", len(content)>>10, allocs)
	}
}
