package timeline

import "testing"

func TestBlock(t *testing.T) {
	for _, c := range []struct {
		v, top int
		want   rune
	}{{0, 100, '▁'}, {1, 100, '▁'}, {12, 100, '▁'}, {13, 100, '▂'}, {50, 100, '▄'}, {99, 100, '█'}, {100, 100, '█'}, {500, 100, '█'}, {5, 0, '▁'}} {
		if got := block(c.v, c.top); got != c.want {
			t.Errorf("block(%d, %d) = %c, want %c", c.v, c.top, got, c.want)
		}
	}
}
