// Package model holds the nouns every other package shares: a Message as
// the library sends it, a Turn of the window, a recorded Run and its Calls,
// the Policy a replay runs under, and the window Record the library files.
//
// It decides nothing. Lengths are JavaScript String.length (UTF-16 code
// units) everywhere, because that is what the library compares.
package model
