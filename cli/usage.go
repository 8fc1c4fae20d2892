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
                                  replayed over its calls (of several files, summed), each with
                                  its ≈tokens and the values of the recorded answers it would have
                                  had out of view; the frontier and two picks
  inspect help [COMMAND] | --help | --version
  inspect completion bash|zsh|fish   a shell's completion script

FILE is the library's NDJSON event log (run.jsonl) or its recording envelope
(agentfootprint.recording.v1, a single object or an array); .gz is read too.

Flags may come before or after FILE; inspect help COMMAND lists a command's own.

Policy flags (export, report, evidence, and the UI; advise takes --library-version alone); an
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

Keys in the UI (? lists them all): ←/→ call · g/G first/last · : go to call (:f11 the file's
call 11) · / search every message, n/N next/previous hit · e/E eviction · d/D call differing
from its record · >/< run · c/C drop notice · ↑/↓ turn · enter open folded gone turns · tab
focus · pgup/pgdn space b ctrl+u ctrl+d scroll · w agents and conversations · W recorded window
beside the replay · i response and its values · A final answer · x/X answer with a flagged
value · I x/X stop on arguments too · K apply the policy that would have kept it · v transcript
· o $PAGER · y copy (OSC 52) · m mouse off/on · F follow · R reload · [ ] { } p a s t T r
policy knobs · P policy advisor · z hide gone · ! problems · esc or q close a view · q quit

UI flags:
  -f, --follow                 follow a log still being written (new calls appear; F in the UI)
  --theme auto|dark|light      colours for a dark or a light background; auto reads
                               COLORFGBG when the terminal sets it, else asks the terminal

Output flags:
  --format json                export: json (the only one); evidence, advise: table (default)
                               or json
  -q, --quiet                  export, report, evidence, advise: no "policy inferred" line and
                               no progress on stderr
  --fail-on-differs            export, report: exit 3 when any recorded window is not
                               reproduced (for CI)
  --all-problems               export, report, evidence: every problem of the file on stderr
                               as it is met, not the first 1,000 and a count by kind
  --strict-json                export: a lone surrogate as \ufffd, not \ud83d (for readers such
                               as jq 1.6 that refuse one); how many is said on stderr
  --in answers|arguments|all   evidence: judge the answers (default), the tool-call arguments,
                               or both; the two are counted apart either way
  --fail-on V[,V…]             evidence: exit 4 when a value --in selects has one of these
                               verdicts: left, in-view-text, never-read, summary-unsupported
                               (for CI)

Input flags (every command):
  --max-line-mb N              skip and report a line longer than N MB (default 256)

FILE "-" reads standard input (the UI then takes its keys from the terminal).

Exit status: 0 done; 1 the file could not be read; 2 a usage error; 3 --fail-on-differs found a
difference; 4 --fail-on found a value.
`
