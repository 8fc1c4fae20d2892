package loader

import (
	"bytes"
	"testing"
)

// An element larger than a quarter of the memory is not filed: filing it
// would empty what the memory holds, and it would be gone again by its
// next history. A small one is filed and found.
func TestElemMemoLeavesTheLargeOut(t *testing.T) {
	var m elemMemo
	small := []byte(`{"role":"tool","content":"ok"}`)
	m.file(small, 0, elemRef{}, len(small))
	big := append(append([]byte(`{"role":"tool","content":"`), bytes.Repeat([]byte("x"), elemBytes/4)...), `"}`...)
	m.file(big, 0, elemRef{}, len(big))
	if _, n, ok := m.find(small, 0); !ok || n != len(small) {
		t.Fatalf("the small element is not found after the large one (found %v, %d bytes)", ok, n)
	}
	if _, _, ok := m.find(big, 0); ok {
		t.Fatal("the large element was filed")
	}
	if m.bytes != len(small) {
		t.Fatalf("the memory holds %d bytes, want the small element's %d", m.bytes, len(small))
	}
}
