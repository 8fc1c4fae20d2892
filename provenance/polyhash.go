package provenance

import (
	"crypto/rand"
	"encoding/binary"
	"math/bits"
)

// A deletion string's hash is made from its form's prefix hashes in a
// few multiplications, not by reading the string again: a form of 20
// runes reaches 211 strings by at most two deletions, and hashing each
// anew was most of the cost of indexing it. The hash is the string as a
// polynomial in a random base modulo the prime 2^61−1: two strings of n
// runes share it with a chance of at most n in 2^61 whatever the input,
// and sharing only adds forms to measure.

const polyMod = 1<<61 - 1

func mulMod(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	s := (hi<<3 | lo>>61) + lo&polyMod // 2^64 ≡ 8 and 2^61 ≡ 1
	s = s&polyMod + s>>61
	if s >= polyMod {
		s -= polyMod
	}
	return s
}

func addMod(a, b uint64) uint64 {
	s := a + b
	if s >= polyMod {
		s -= polyMod
	}
	return s
}

func subMod(a, b uint64) uint64 {
	if a >= b {
		return a - b
	}
	return a + polyMod - b
}

// polyBase is a base drawn at random, in [2^32, 2^61−1).
func polyBase() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return 1<<32 + binary.LittleEndian.Uint64(b[:])%(polyMod-1<<32)
}

// polyHasher holds a base, its powers, and one string's prefix hashes.
type polyHasher struct {
	base uint64
	pow  []uint64 // pow[i] = base^i
	pre  []uint64 // pre[i] = the hash of the string's first i runes
}

// load makes pre the prefix hashes of r (each rune counted one more,
// so that a leading U+0000 is not nothing).
func (p *polyHasher) load(r []rune) {
	if len(p.pow) == 0 {
		p.pow = append(p.pow, 1)
	}
	for len(p.pow) <= len(r) {
		p.pow = append(p.pow, mulMod(p.pow[len(p.pow)-1], p.base))
	}
	p.pre = append(p.pre[:0], 0)
	for _, c := range r {
		p.pre = append(p.pre, addMod(mulMod(p.pre[len(p.pre)-1], p.base), uint64(c)+1))
	}
}

// span is the hash of runes [i, j) of the string loaded.
func (p *polyHasher) span(i, j int) uint64 {
	return subMod(p.pre[j], mulMod(p.pre[i], p.pow[j-i]))
}

// join is the hash of a string of hash a followed by one of n runes and
// hash b.
func (p *polyHasher) join(a, b uint64, n int) uint64 {
	return addMod(mulMod(a, p.pow[n]), b)
}

// mix spreads a hash's bits over all 64 (the table takes the low ones).
func mix(h uint64) uint64 {
	h ^= h >> 31
	h *= 0x9e3779b97f4a7c15
	h ^= h >> 29
	return h
}
