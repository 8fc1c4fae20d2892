package provenance

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// mulMod is multiplication modulo 2^61−1, checked against big.Int at
// the edges and at random.
func TestMulMod(t *testing.T) {
	p := big.NewInt(polyMod)
	vals := []uint64{0, 1, 2, polyMod - 1, polyMod - 2, 1 << 60, 1<<61 - 3}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		vals = append(vals, r.Uint64N(polyMod))
	}
	for _, a := range vals {
		for _, b := range vals[:20] {
			want := new(big.Int).Mod(new(big.Int).Mul(new(big.Int).SetUint64(a), new(big.Int).SetUint64(b)), p).Uint64()
			if got := mulMod(a, b); got != want {
				t.Fatalf("%d·%d mod 2^61−1: %d, want %d", a, b, got, want)
			}
		}
	}
}

// Each string a form reaches by at most two deletions is listed under
// the hash the string itself has (what a value's lookup computes from
// its own runes), with the fewest deletions that reach it among those
// listed, and none is left out: runs of a repeated rune, multi-byte
// letters and U+0000 included.
func TestDeletionsHashAsTheStringsThemselves(t *testing.T) {
	x := newNearIndex()
	own := func(r []rune) uint64 {
		var p polyHasher
		p.base = x.hash.base
		p.load(r)
		return mix(p.pre[len(r)])
	}
	for _, s := range []string{"", "a", "aa", "aaab", "abba", "web-3e6f14", "wéb-3e6f14", "\x00a", "a\x00", "😀😀b-3e", "11100111", "read_file#12345"} {
		r := []rune(s)
		want := map[uint64]int{} // hash of every string reached → fewest deletions
		reach := func(del []int) {
			var out []rune
			for j, c := range r {
				if j != del[0] && j != del[1] {
					out = append(out, c)
				}
			}
			n := 0
			for _, d := range del {
				if d >= 0 {
					n++
				}
			}
			h := own(out)
			if k, ok := want[h]; !ok || n < k {
				want[h] = n
			}
		}
		reach([]int{-1, -1})
		for a := range r {
			reach([]int{a, -1})
			for c := a + 1; c < len(r); c++ {
				reach([]int{a, c})
			}
		}
		got := map[uint64]int{}
		for _, d := range x.deletions(r, 2) {
			if _, ok := want[d.h]; !ok {
				t.Errorf("%q: a hash no deletion string has", s)
			}
			if k, ok := got[d.h]; !ok || int(d.k) < k {
				got[d.h] = int(d.k)
			}
		}
		for h, k := range want {
			if g, ok := got[h]; !ok || g != k {
				t.Errorf("%q: a string reached by %d deletions listed at %d (%v)", s, k, g, ok)
			}
		}
	}
}
