package advise

import "testing"

// What the advisor says while it works, for every agent and for one,
// before the first policy and after some.
func TestAdviseProgressWords(t *testing.T) {
	for _, c := range []struct {
		agent       string
		done, total int
		doing, more string
	}{
		{"", 0, 0, "Replaying every call of every agent in the file under each policy of the grid…", "reading the agents' calls and values…"},
		{"Agent:agent", 0, 0, "Replaying every call of agent Agent:agent in the file under each policy of the grid…", "reading the agent's calls and values…"},
		{"Agent:agent", 3, 80, "Replaying every call of agent Agent:agent in the file under each policy of the grid…", "3/80 policies"},
	} {
		doing, more := Progress(c.agent, c.done, c.total)
		if doing != c.doing || more != c.more {
			t.Errorf("Progress(%q, %d, %d) = %q, %q; want %q, %q", c.agent, c.done, c.total, doing, more, c.doing, c.more)
		}
	}
}
