package evidence

import (
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// BenchmarkForms is the forms of one tool result of 6,000 bytes of
// words after a numbered name, as the nearest flags make them once per
// message gone (a generated run's results are all of this shape).
func BenchmarkForms(b *testing.B) {
	content := ("read_file#12345: " + strings.Repeat("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa ", 62))[:6000]
	m := &model.Message{Role: model.RoleTool, ToolCallID: "call_12345_0", Content: content}
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		if len(Forms(m, View{})) == 0 {
			b.Fatal("no forms")
		}
	}
}
