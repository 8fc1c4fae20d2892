// Package advise is the questions asked of one recording over many
// window policies of one agent, above package study, which settles each
// agent's policy and replays under one:
//
//   - the policy advisor (Advise, Files): a grid of policies replayed
//     over each agent's calls, of one file or several, each judged as the
//     export judges values (docs/rules/evidence.md §9.5.3), with its cost in
//     estimated tokens, the Pareto frontier and the picks;
//   - the search for the smallest change that would have kept a value in
//     view (FileSearcher, ViewSearcher), replaying nearby policies;
//   - the sweeps both are built on (FileSweep, ViewSweep): replays kept
//     for a sweep's life, all given up at once;
//   - why a value left under each policy the log cannot tell apart from
//     the one replayed (Rules).
//
// It asks study for replays (study.Study.ReplayWith, study.View.Windows)
// and keeps the advisor's answer with the study (study.Study.Remember);
// only the front ends (cli, tui) import it.
package advise
