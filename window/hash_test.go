package window

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/afinspect/inspect/model"
)

// fnvUTF16 is the contentHash written the slow, obvious way: the text as
// JavaScript holds it (UTF-16 code units), then FNV-1a over them.
func fnvUTF16(role string, index int, content string) uint32 {
	h := uint32(2166136261)
	for _, u := range utf16.Encode([]rune(role + ":" + strconv.Itoa(index) + ":" + content)) {
		h = (h ^ uint32(u)) * 16777619
	}
	return h
}

// texts mixes ASCII, two- and three-byte UTF-8, characters above the BMP
// (two code units each) and bytes that are not UTF-8 (U+FFFD, as Go
// decodes them), at every length from empty up.
func texts(rng *rand.Rand, n int) []string {
	parts := []string{"a", "tool result ", "é", "—", "日本", "😀", "\xff", "\n", `"`, "𝄞x"}
	out := []string{""}
	for len(out) < n {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		if rng.IntN(4) == 0 {
			b.WriteString(strings.Repeat("x", rng.IntN(3000)))
		}
		out = append(out, b.String())
	}
	return out
}

func TestContentHashIsFNVOfUTF16(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i, s := range texts(rng, 300) {
		role := []string{"user", "assistant", "tool", "rôle😀"}[i%4]
		if got, want := ContentHash(role, i, s), fnvUTF16(role, i, s); got != want {
			t.Fatalf("ContentHash(%q, %d, %q) = %08x, want %08x", role, i, s, got, want)
		}
	}
}

// benchWindow is a window of 14 messages of 100..6000 chars, like a call
// of a long generated run.
func benchWindow() ([]*model.Message, []uint32, int64) {
	rng := rand.New(rand.NewPCG(5, 6))
	w := make([]*model.Message, 14)
	want := make([]uint32, len(w))
	var n int64
	for i := range w {
		w[i] = &model.Message{Role: "tool", Content: strings.Repeat("alpha bravo ", 10+rng.IntN(500))}
		want[i] = ContentHash(w[i].Role, i, w[i].Content)
		n += int64(len(w[i].Content))
	}
	return w, want, n
}

// BenchmarkContentHash hashes the messages of a window one at a time.
func BenchmarkContentHash(b *testing.B) {
	w, want, n := benchWindow()
	b.SetBytes(n)
	for b.Loop() {
		for i, m := range w {
			if ContentHash(m.Role, i, m.Content) != want[i] {
				b.Fatal("hash changed")
			}
		}
	}
}
