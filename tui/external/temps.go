package external

import (
	"os"
	"os/exec"
	"sync"
)

// Temps are the pager's temporary files not yet removed, and the pager
// running, if any: removed and ended on every way out.
var Temps TempFiles

type TempFiles struct {
	mu    sync.Mutex
	paths map[string]bool
	pager *exec.Cmd
}

func (t *TempFiles) Add(path string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.paths == nil {
		t.paths = map[string]bool{}
	}
	t.paths[path] = true
}

func (t *TempFiles) Remove(path string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	os.Remove(path)
	delete(t.paths, path)
}

func (t *TempFiles) RemoveAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for p := range t.paths {
		os.Remove(p)
	}
	t.paths = nil
}

func (t *TempFiles) Running(c *exec.Cmd) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pager = c
}

// End passes s on to a pager still running (the program waits for it
// before it can restore the terminal) and removes the files.
func (t *TempFiles) End(s os.Signal) {
	t.mu.Lock()
	c := t.pager
	t.mu.Unlock()
	if c != nil && c.Process != nil {
		_ = c.Process.Signal(s)
	}
	t.RemoveAll()
}
