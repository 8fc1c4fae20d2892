// Package window reimplements the agentfootprint window stage: how a
// window is cut into turns, which turns refuse to leave and why, which
// contiguous span leaves, the drop notice that may take its place, the
// strategies that decide whether a visit engages, the records a visit
// files, and the replay of a whole recording under any policy.
//
// summarize-oldest (§11) replaces the span with one compaction frame
// holding a summary a second model wrote (summarize_visit.go). A summary
// cannot be recomputed, so the replay takes it from the folds the library
// recorded: the fold book (summarize_book.go, §11.9) compares the
// library's history before each visit with the window it sent. A fold the
// library never made gets a placeholder frame, marked as not recorded.
//
// Everything here is a pure function over values: no I/O, no clock, no
// terminal. The rules are WINDOW-SEMANTICS.md; the judge is the library's
// recorded wire windows in testdata.
package window
