package evidence

import (
	"sync"
	"unsafe"
)

// A large tool result is indexed once, not once per window that holds it:
// the advisor builds the sets of every call under every policy, and a
// result of megabytes parsed each time made `advise` hours long. What a
// result adds to a set depends on the result alone: its distinct forms in
// the order first met, of which a set keeps those that come before it is
// full. So they are kept, in that order, and added again in that order;
// a result that fills a set by itself is the set (its map is shared, and
// never written: a full set takes no form).

// cachedResult is the smallest content kept: a shorter one is quicker to
// index than to keep.
const cachedResult = 64 << 10

// maxCachedForms and maxCachedBytes bound the forms kept for all results
// and the results held for them; past either the cache starts again.
const (
	maxCachedForms = 4 * FormLimit
	maxCachedBytes = 256 << 20
)

type resultForms struct {
	content string // held, so that its bytes (the key) are not reused
	order   []string
	full    map[string]struct{} // when the result alone fills a set
	// searched is the text §9.2 searches in the result (searchedText):
	// made from the same parse
	searched string
}

type resultKey struct {
	p *byte
	n int
}

var resultCache struct {
	sync.Mutex
	byContent map[resultKey]*resultForms
	forms     int
	bytes     int
}

// formsOf is what content adds to an empty set, kept.
func formsOf(content string) *resultForms {
	key := resultKey{unsafe.StringData(content), len(content)}
	resultCache.Lock()
	r := resultCache.byContent[key]
	resultCache.Unlock()
	if r != nil {
		return r
	}
	fresh := &Index{ordered: true}
	r = &resultForms{content: content, searched: content}
	if v, ok := parseResult(content); ok {
		view := absenceView(v)
		fresh.walk(view)
		if view != v {
			r.searched = jsonStringify(view)
		}
	} else {
		fresh.AddText(content)
	}
	r.order = fresh.order
	if fresh.Truncated() {
		r.full = fresh.forms
	}
	resultCache.Lock()
	if resultCache.byContent == nil || resultCache.forms+len(r.order) > maxCachedForms || resultCache.bytes+len(content) > maxCachedBytes {
		resultCache.byContent, resultCache.forms, resultCache.bytes = map[resultKey]*resultForms{}, 0, 0
	}
	resultCache.byContent[key] = r
	resultCache.forms += len(r.order)
	resultCache.bytes += len(content)
	resultCache.Unlock()
	return r
}

// addCachedResult is addToolResult by way of the cache.
func (x *Index) addCachedResult(content string) {
	r := formsOf(content)
	if r.full != nil && len(x.forms) == 0 {
		x.forms = r.full
		if x.ordered {
			x.order = r.order[:len(r.order):len(r.order)]
		}
		return
	}
	for _, f := range r.order {
		if len(x.forms) >= FormLimit {
			return
		}
		x.add(f)
	}
}
