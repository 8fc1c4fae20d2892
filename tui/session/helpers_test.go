package session

import (
	"testing"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
)

// viewOf is the first conversation of rec, opened as the screen opens it.
func viewOf(tb testing.TB, rec *model.Recording) *study.View {
	tb.Helper()
	st, err := study.Open(rec, study.Request{Recorded: true})
	if err != nil {
		tb.Fatal(err)
	}
	return st.View(0)
}
