package advise

import "fmt"

// Progress is what the advisor says while it works, in the words both
// front ends use (the UI's advisor view, `inspect advise` on a
// terminal): what it is doing, and how far it has got — done of total
// policies replayed, or before the first (total 0) that it is still
// reading the calls. agent is the agent's key as it may be drawn (the
// caller cleans it for the terminal), "" for every agent of the files.
func Progress(agent string, done, total int) (doing, count string) {
	whose, reading := "every agent", "reading the agents' calls and values…"
	if agent != "" {
		whose, reading = "agent "+agent, "reading the agent's calls and values…"
	}
	doing = "Replaying every call of " + whose + " in the file under each policy of the grid…"
	if total <= 0 {
		return doing, reading
	}
	return doing, fmt.Sprintf("%d/%d policies", done, total)
}
