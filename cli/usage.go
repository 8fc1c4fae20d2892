package cli

// usage is `inspect --help`: every command, the flags each takes, and the
// UI's keys. `inspect help COMMAND` shows one command's own.
const usage = `inspect — step through a recorded agentfootprint run and see what the model was sent.

Usage:
  inspect [FILE]                  open FILE in the terminal UI (no FILE: the embedded demo run)
  inspect export [flags] FILE     print the replay as JSON (format inspect.export.v1)
  inspect report [flags] FILE     print the replay as a plain-text table, one row per call
  inspect evidence [flags] FILE   every number and identifier the model typed that the
                                  library's answer check would not ground: left the window (its
                                  source, when it left, what would have kept it), in view only
                                  inside a longer token, never read, or only in a summary that
                                  no tool result backs; the answers by default (--in)
  inspect advise [flags] FILE…    which window policy each agent should run: a grid of policies
                                  replayed over its calls (several files: one history), each with
                                  its ≈tokens and the values of the recorded answers it would have
                                  had out of view; the frontier and two picks
  inspect diff [flags] A B        two runs lined up call by call: each pair same, changed or one
                                  side's only, where the runs part ways, each side's window and
                                  the answer values it had out of view (inspect.diff.v1 as json)
  inspect compare [flags] A B     the same in the terminal UI: both sides' turns, pair by pair
  inspect share [flags] FILE -o PAGE.html   one self-contained HTML page of the replay to
                                  send (no network, nothing runs): the timeline, each call's
                                  window with fates and reasons, the flagged values; --call N
                                  or N-M for one finding
  inspect help [COMMAND] | --help | --version
  inspect version                 the version, the commit it was built from, the Go that built it
  inspect man [-d DIR]            the manual page inspect(1), or one page per command into DIR
  inspect config                  the config in force ($XDG_CONFIG_HOME/inspect/config.toml: theme,
                                  keys, default flags per command) and where each value came from
  inspect completion bash|zsh|fish   a shell's completion script

FILE is the library's NDJSON event log (run.jsonl) or its recording envelope
(agentfootprint.recording.v1, a single object or an array); .gz is read too.

Flags may come before or after FILE; inspect help COMMAND lists a command's own.

Policy flags (export, report, evidence, share, and the UI; advise takes --library-version alone); an
absent flag is inferred from the recording:
  --strategy NAME              sliding-window | token-budget | summarize-oldest (its
                               summaries are the ones the library recorded; a fold the
                               library never made gets a placeholder, marked as such)
  --keep-recent-turns N        turns always kept at the end of the window
  --keep-last-tool-results N   last-tool-result pins; 0 switches pins off
  --threshold-tokens N         token-budget and summarize-oldest threshold (none recorded
                               or given: the largest input the agent's calls recorded)
  --no-anchor                  replay without the current-request anchor (before 9.55)
  --library-version X.Y.Z      replay under that agentfootprint version's window rules (before
                               9.57.0 no pins, the plain notice only, the notice veto; before
                               9.55.0 no anchor); else the envelope's producer, else the log's
                               own evidence, else 9.57.0–9.62.0
  --agent KEY                  export, report or evidence: only this agent's calls (same
                               numbers); the policy flags then apply to it alone; advise: only
                               this agent
  --a-… --b-…                  diff, compare: each policy flag again for one side alone
                               (--b-keep-recent-turns 4); --conversation N (--a-conversation,
                               --b-conversation) compares one conversation of each

Keys in the UI (? lists them all): ←/→ call · g/G first/last · : go to call (:f11 the file's
call 11) · / search every message, n/N next/previous hit · e/E eviction · d/D call differing
from its record · >/< run · c/C drop notice · ↑/↓ turn · enter open folded gone turns · tab
focus · pgup/pgdn space b ctrl+f ctrl+b ctrl+u ctrl+d scroll · w agents and conversations · W recorded window
beside the replay · S the request: system prompt and tools · u what changed since the previous
call · i response and its values · A final answer · x/X answer with a flagged value · I x/X stop
on arguments too · K apply the policy that would have kept it · v transcript · o $PAGER · O
$EDITOR (read-only) · y copy (OSC 52) · M mouse off/on · m then a letter marks the call, ' then
the letter goes back to it · F follow · R reload · [ ] { } p a s t T r policy knobs · P policy
advisor · z hide gone · ! problems · esc or q close a view · q quit. In compare: ←/→ pair · p
where the runs part (again: back) · n/N next/previous change · d the messages that differ · g/G
ends · q quit

UI flags:
  -f, --follow                 follow a log still being written (new calls appear; F in the UI)
                               a file not there yet or empty is waited for, as tail -F does
  --theme auto|dark|light      colours for a dark or a light background; auto reads
                               COLORFGBG when the terminal sets it, else asks the terminal

Output flags:
  --format json                export: json (the only one); evidence, advise, diff: table
                               (default) or json; report: table (default) or markdown (to paste
                               into an issue: the table, the flagged values, collapsible windows)
  -q, --quiet                  export, report, evidence, advise, diff, compare, share: no "policy
                               inferred" line and no progress on stderr
  --fail-on-differs            export, report: exit 3 when any recorded window is not
                               reproduced (for CI)
  -o, --output PAGE.html       share: the page to write (- for standard output)
  --call N | N-M               share: only these calls (the file's numbers)
  --all-problems               export, report, evidence: every problem of the file on stderr
                               as it is met, not the first 1,000 and a count by kind
  --strict-json                export: a lone surrogate as \ufffd, not \ud83d (for readers such
                               as jq 1.6 that refuse one); how many is said on stderr
  --in answers|arguments|all   evidence, share: judge the answers (default), the tool-call arguments,
                               or both; the two are counted apart either way
  --fail-on V[,V…]             evidence: exit 4 when a value --in selects has one of these
                               verdicts: left, in-view-text, never-read, summary-unsupported
                               (for CI); diff: exit 4 on more-out-of-view (B has more answer
                               values out of view than A), parted (the runs part ways)

Input flags (every command):
  --max-line-mb N              skip and report a line longer than N MB (default 256)

FILE "-" reads standard input (the UI then takes its keys from the terminal).

Environment: NO_COLOR no colour; CLICOLOR_FORCE=1 colour in a pipe too (report; the UI's
colours follow the terminal); TERM=dumb no colour, and the UI (which moves the cursor) does not
start; COLORFGBG the background for --theme auto.

Exit status: 0 done; 1 the file could not be read; 2 a usage error; 3 --fail-on-differs found a
difference; 4 --fail-on found a value.
`
