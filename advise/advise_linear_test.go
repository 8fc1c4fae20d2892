package advise

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"testing"
	"unsafe"

	"github.com/afinspect/inspect/internal/rungen"
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
	return rungen.Copies(src, n)
}

// openAgents opens the n-agent log as the command line does.
func openAgents(t *testing.T, n int) *study.Study {
	t.Helper()
	data := agentsLog(t, n)
	rec, err := loader.StartReader(bytes.NewReader(data), "agents.jsonl", int64(len(data))).Wait()
	if err != nil {
		t.Fatal(err)
	}
	s, err := study.Open(rec, study.Request{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// adviseBytes is how many bytes advising every agent of the n-agent log
// allocates.
func adviseBytes(t *testing.T, n int) uint64 {
	s := openAgents(t, n)
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

// heldMidway is how much more the live heap holds halfway through
// advising every agent of the n-agent log than before the advice began.
func heldMidway(t *testing.T, n int) int64 {
	s := openAgents(t, n)
	s.Replay().Preds() // the file's own replay, which every agent's sweep reads, made and kept by the study
	live := func() int64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	before, midway := live(), int64(0)
	_, err := Files(context.Background(), []*study.Study{s}, "", func(done, total int) {
		if done == total/2 {
			midway = live()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(s)
	return midway - before
}

// What the sweep holds of each agent (its calls, values and what each
// message holds of them) is read when its first policy is replayed and
// let go after its last: halfway through, each agent more holds its
// tallies (a row for each of the grid's 80 policies) and less than twice
// as much again (16 KB in all here), where with every agent's base kept
// it held some 37 KB.
func TestAdviseLetsEachAgentGo(t *testing.T) {
	a, b := heldMidway(t, 10), heldMidway(t, 40)
	perAgent := (b - a) / 30
	rows := int64(80 * unsafe.Sizeof(sweepTally{}))
	if perAgent > 3*rows {
		t.Errorf("halfway through 10 agents the sweep holds %d KB, through 40 agents %d KB: %d bytes an agent more, its rows %d", a>>10, b>>10, perAgent, rows)
	}
	if testing.Verbose() {
		t.Logf("held halfway: 10 agents %d KB, 40 agents %d KB; %d bytes an agent, its rows %d", a>>10, b>>10, perAgent, rows)
	}
}
