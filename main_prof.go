//go:build prof

package main

// A build for profiling the program as a person uses it, keys and all
// (go build -tags prof; scripts/pty-knob.py with PROF=1 drives it):
// SIGUSR1 starts a CPU profile and an execution trace; SIGUSR2 stops
// them and writes, beside them, the heap after a collection. The files
// are $INSPECT_PROF.cpu, .trace and .heap (default /tmp/inspect-prof).

import (
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"syscall"
)

func init() {
	base := os.Getenv("INSPECT_PROF")
	if base == "" {
		base = "/tmp/inspect-prof"
	}
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, syscall.SIGUSR1, syscall.SIGUSR2)
	go profileOnSignal(sig, base)
}

func profileOnSignal(sig <-chan os.Signal, base string) {
	var cpu, tr *os.File
	for s := range sig {
		switch {
		case s == syscall.SIGUSR1 && cpu == nil:
			var err error
			if cpu, err = os.Create(base + ".cpu"); err != nil {
				cpu = nil
				continue
			}
			_ = pprof.StartCPUProfile(cpu)
			if tr, err = os.Create(base + ".trace"); err == nil {
				_ = trace.Start(tr)
			}
		case s == syscall.SIGUSR2 && cpu != nil:
			pprof.StopCPUProfile()
			cpu.Close()
			if tr != nil {
				trace.Stop()
				tr.Close()
			}
			cpu, tr = nil, nil
			runtime.GC()
			if h, err := os.Create(base + ".heap"); err == nil {
				_ = pprof.Lookup("heap").WriteTo(h, 0)
				h.Close()
			}
		}
	}
}
