// Package evidence reimplements agentfootprint's answer check
// (.namesAndNumbersFromEvidence(), docs/rules/evidence.md §1–§4) and adds
// what the library cannot tell (§5): why a value was not in view.
//
//   - §1 Tokenize, Normalize and LookupForms: one spelling per value, with
//     JavaScript semantics (toLowerCase, trim, String(Number(v))).
//   - §2 Candidates: which tokens of a text are values (numbers and
//     identifiers), first appearance wins.
//   - §3 Index, AddToolResult, AddText: the evidence and exempt sets, with
//     the strict-JSON walk, absence frames and the 200,000-form limit.
//   - §4 Check: the library's verdict on one answer over one window.
//   - §5, §9 Judge: the eight verdicts of every value, given the window and
//     the messages that left it: characters in view only inside a longer
//     token (inviewtext.go), a summary's value checked against the tool
//     results its chain folded away, with the nearest (near.go). A
//     Judger told the values ahead (NewJudgerFor, asked.go) indexes the
//     messages by those alone, to the same verdicts, and can tokenize a
//     replay's windows ahead on other goroutines (Prefetch, ahead.go).
//
// Everything is a pure function over strings and model.Messages: no I/O,
// no replay. It never decides what a window is; the caller hands it the
// window the replay (or the log) says was sent.
package evidence
