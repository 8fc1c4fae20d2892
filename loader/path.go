package loader

import (
	varint "encoding/binary"
	"strings"
)

// A meta path (compositionPath, subflowPath) is kept as one string: each
// entry its length (uvarint) then its bytes. An id may hold any character,
// NUL and "/" included, so no separator could be told from the text; a
// length cannot. A prefix of the entries is a prefix of the string, which
// is how an agent path is found among the prefixes of a subflowPath
// (§15.1) without building strings.

// appendEntry appends one path entry to an encoded path.
func appendEntry(buf, entry []byte) []byte {
	buf = varint.AppendUvarint(buf, uint64(len(entry)))
	return append(buf, entry...)
}

// encodePath is entries as one encoded path.
func encodePath(entries []string) string {
	var buf []byte
	for _, e := range entries {
		buf = appendEntry(buf, []byte(e))
	}
	return string(buf)
}

// nextEntry is the entry path starts with and the rest; ok is false at
// the end (or on a length the string does not hold, which encodePath
// never writes).
func nextEntry(path string) (entry, rest string, ok bool) {
	n, w := varint.Uvarint([]byte(path[:min(len(path), varint.MaxVarintLen64)]))
	if w <= 0 || uint64(len(path)-w) < n {
		return "", "", false
	}
	end := w + int(n)
	return path[w:end], path[end:], true
}

// pathEntries are an encoded path's entries.
func pathEntries(path string) []string {
	var out []string
	for e, rest, ok := nextEntry(path); ok; e, rest, ok = nextEntry(rest) {
		out = append(out, e)
	}
	return out
}

// lastEntry is an encoded path's last entry, "" for an empty path.
func lastEntry(path string) string {
	last := ""
	for e, rest, ok := nextEntry(path); ok; e, rest, ok = nextEntry(rest) {
		last = e
	}
	return last
}

// firstEntry is an encoded path's first entry as an encoded path of one
// entry, "" for an empty path.
func firstEntry(path string) string {
	_, rest, ok := nextEntry(path)
	if !ok {
		return ""
	}
	return path[:len(path)-len(rest)]
}

// prefixEnds are the lengths, in bytes, of every non-empty prefix of an
// encoded path, shortest first, appended to ends.
func prefixEnds(path string, ends []int) []int {
	at := 0
	for _, rest, ok := nextEntry(path); ok; _, rest, ok = nextEntry(rest) {
		at = len(path) - len(rest)
		ends = append(ends, at)
	}
	return ends
}

// agentComposition reports whether a compositionPath ends with an
// agent's own entry (Agent:<id>): the events are a plain agent's (§10.3).
func agentComposition(comp string) bool {
	return strings.HasPrefix(lastEntry(comp), "Agent:")
}

// joinPath is an encoded path's entries joined with "/", as the library
// names an agent path in subflowResults and as the export shows it.
func joinPath(path string) string {
	return strings.Join(pathEntries(path), "/")
}

// inComposition: the events are inside a composition, not a plain
// agent's (§15.1).
func inComposition(comp string) bool { return comp != "" && !agentComposition(comp) }
