// Package provenance follows each value of each model response back
// through a replay (docs/rules/evidence.md §5, §6.2): its verdict against
// the replayed window of its call, and for a value whose evidence left the
// window, the messages that held it — the calls they were sent on, the
// call whose visit removed them and the rule that let them go — and the
// nearest window policy that would have kept them (§5 "what would have
// kept it"); and what became of each answer (§9.4, outcome.go).
//
// It joins package window (the replay) with package evidence (the rules);
// it decides neither. Pure: no I/O, no terminal.
package provenance
