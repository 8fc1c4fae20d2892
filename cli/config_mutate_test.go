package cli

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Mutations of good and bad files, from a fixed seed: each is read or
// refused, in time, never a panic.
func TestConfigMutationsNeverCrash(t *testing.T) {
	seeds := []string{"theme = \"dark\"\n[keys]\nquit = [\"q\"]\n[defaults.report]\nformat = \"markdown\"\n", "[defaults]\nreport = 3\n", "defaults = { report = { format = [[1]] } }\n"}
	r := rand.New(rand.NewSource(1))
	dir := t.TempDir()
	for range 500 {
		b := []byte(seeds[r.Intn(len(seeds))])
		for k := 0; k < 1+r.Intn(4); k++ {
			p := r.Intn(len(b))
			switch r.Intn(3) {
			case 0:
				b[p] = byte(r.Intn(256))
			case 1:
				b = append(b[:p], b[p+1:]...)
			case 2:
				b = append(b[:p], append([]byte{byte(r.Intn(128))}, b[p:]...)...)
			}
			if len(b) == 0 {
				b = []byte("x")
			}
		}
		path := filepath.Join(dir, "c.toml")
		os.WriteFile(path, b, 0o644)
		done := make(chan struct{})
		code := -1
		go func() {
			var o, e bytes.Buffer
			code = Run([]string{"config"}, &o, &e, Build{Config: path})
			close(done)
		}()
		select {
		case <-done:
			if code != 0 && code != exitUsage {
				t.Fatalf("exit %d on %q", code, b)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("hang on %q", b)
		}
	}
}
