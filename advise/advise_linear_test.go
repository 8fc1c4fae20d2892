package advise

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/study"
)

// agentsLog is s01 copied n times, each copy its own agent and run.
func agentsLog(t testing.TB, n int) []byte {
	t.Helper()
	src, err := os.ReadFile("../testdata/s01-basic-loop/run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	runID := regexp.MustCompile(`"runId":"([^"]*)"`)
	var b bytes.Buffer
	for i := range n {
		c := bytes.ReplaceAll(src, []byte(`"Agent:agent"`), fmt.Appendf(nil, `"Agent:agent%d"`, i))
		c = bytes.ReplaceAll(c, []byte(`"agentId":"agent"`), fmt.Appendf(nil, `"agentId":"agent%d"`, i))
		c = runID.ReplaceAll(c, fmt.Appendf(nil, `"runId":"${1}-a%d"`, i))
		b.Write(c)
	}
	return b.Bytes()
}

// adviseBytes is how many bytes advising every agent of the n-agent log
// allocates.
func adviseBytes(t *testing.T, n int) uint64 {
	data := agentsLog(t, n)
	rec, err := loader.StartReader(bytes.NewReader(data), "agents.jsonl", int64(len(data))).Wait()
	if err != nil {
		t.Fatal(err)
	}
	s, err := study.Open(rec, study.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Agents) != n {
		t.Fatalf("%d agents, want %d", len(s.Agents), n)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	all, err := Files(context.Background(), []*study.Study{s}, "", nil)
	runtime.ReadMemStats(&after)
	if err != nil || len(all) != n {
		t.Fatalf("%d advices (%v), want %d", len(all), err, n)
	}
	return after.TotalAlloc - before.TotalAlloc
}

// The advice for every agent of a file is linear in the agents: each
// agent's replays hold its own calls (and the chains they continue),
// not every agent's. Counted in bytes allocated, which no clock or
// scheduler changes much; over the whole file each replay was quadratic
// (20 agents to 40: 3 times the work).
func TestAdviseIsLinearInAgents(t *testing.T) {
	a, b := adviseBytes(t, 20), adviseBytes(t, 40)
	if r := float64(b) / float64(a); r > 2.3 {
		t.Errorf("20 agents allocate %d MB, 40 agents %d MB: %.2f times", a>>20, b>>20, r)
	}
	if testing.Verbose() {
		t.Logf("20 agents allocate %d MB, 40 agents %d MB", a>>20, b>>20)
	}
}
