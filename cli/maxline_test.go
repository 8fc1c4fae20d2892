package cli

import (
	"strings"
	"testing"
)

// --max-line-mb 0 would be the loader's default, not a limit of 0 MB:
// the range starts at 1, and a value out of it is refused with status 2
// by every command that reads a file.
func TestMaxLineMBZeroIsRefused(t *testing.T) {
	for _, cmd := range []string{"report", "export", "evidence", ""} {
		for _, v := range []string{"0", "-1", "1048577"} {
			args := []string{cmd, "--max-line-mb", v, s01}
			if cmd == "" { // the UI: refused before the screen is taken
				args = args[1:]
			}
			code, _, errs := runCLI(args...)
			if code != 2 || !strings.Contains(errs, "--max-line-mb must be between 1 and 1048576") {
				t.Errorf("%s --max-line-mb %s: exit %d, stderr %q", cmd, v, code, errs)
			}
		}
		if cmd == "" {
			continue
		}
		if code, _, errs := runCLI(cmd, "-q", "--max-line-mb", "1", s01); code != 0 {
			t.Errorf("%s --max-line-mb 1: exit %d, stderr %q", cmd, code, errs)
		}
	}
}
