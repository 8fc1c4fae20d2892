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
// Nothing here does I/O, reads a clock or draws. A replay is complete
// when it is returned: each call's window size and recorded comparison
// are worked out as the call is replayed, and a replay made for a screen
// (RunFolds, RunNear) comes with its turn log and ledger index built;
// any other builds its turn log once, on first use, whichever goroutine
// asks (sync.Once). Reading a replay changes nothing another reader can
// see, so one may be shared between goroutines as it is. The entry
// points take the recording's lineage (package lineage), decided once
// by the caller. The rules are docs/rules; the judge is the
// library's recorded wire windows in testdata.
package window
