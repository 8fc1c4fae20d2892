package rungen

import (
	"bytes"
	"fmt"
	"regexp"
)

var runIDField = regexp.MustCompile(`"runId":"([^"]*)"`)

// Copies is the recording src written n times, copy i with its agent
// "agent" renamed agenti and each runId suffixed -ai: n agents of src's
// calls each, for what must stay linear in agents.
func Copies(src []byte, n int) []byte {
	var b bytes.Buffer
	for i := range n {
		c := bytes.ReplaceAll(src, []byte(`"Agent:agent"`), fmt.Appendf(nil, `"Agent:agent%d"`, i))
		c = bytes.ReplaceAll(c, []byte(`"agentId":"agent"`), fmt.Appendf(nil, `"agentId":"agent%d"`, i))
		c = runIDField.ReplaceAll(c, fmt.Appendf(nil, `"runId":"${1}-a%d"`, i))
		b.Write(c)
	}
	return b.Bytes()
}
