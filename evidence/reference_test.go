package evidence

// The library's answer check and tokenizer in one call each, as the
// tests compare with; inspect itself judges a window at a time (Judger).

// Check judges answer against sets as the library does.
func Check(answer string, s Sets) Result {
	r := Result{Candidates: Candidates(answer), Truncated: s.Evidence.Truncated()}
	for _, v := range r.Candidates {
		if !s.Grounded(v.Value) {
			r.Unsupported = append(r.Unsupported, v)
		}
	}
	return r
}

// Tokenize is §1's tokenize: every run of characters outside
// A-Z a-z 0-9 : _ - / . , % + @ # $ separates; a comma splits a piece
// unless it has a digit on both sides; each piece is normalized and empty
// results are dropped.
func Tokenize(text string) []string {
	var out []string
	eachToken(text, func(tok string) bool {
		out = append(out, tok)
		return true
	})
	return out
}
