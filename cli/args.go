package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
)

// unknownCommand answers `inspect repotr FILE` (and a lone `inspect
// repotr` that names no file) as a mistyped command of root's rather
// than a file.
func unknownCommand(root *cobra.Command, files []string) error {
	if len(files) == 0 {
		return nil
	}
	w := files[0]
	if _, err := os.Stat(w); err == nil || strings.ContainsAny(w, "/.\\") || w == "-" {
		return nil
	}
	var commands []string
	for _, c := range root.Commands() {
		if !c.Hidden {
			commands = append(commands, c.Name())
		}
	}
	if len(files) == 1 {
		return fmt.Errorf("%s: no such file, and not a command (%s)", w, strings.Join(commands, ", "))
	}
	return fmt.Errorf("unknown command %q (the commands are %s)", w, strings.Join(commands, ", "))
}

// checkFile says, in one wording for every command, why path cannot be
// read as a recording: missing, unreadable, a directory, or empty.
// Standard input ("-") and pipes are not opened here: a pipe opened and
// closed would lose what its writer wrote.
func checkFile(path string) error {
	if path == "-" {
		return nil
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s: no such file", path)
	case errors.Is(err, os.ErrPermission):
		return fmt.Errorf("%s: permission denied", path)
	case err != nil:
		return fmt.Errorf("%s: cannot open: %v", path, errors.Unwrap(err))
	case st.IsDir():
		return checkDir(path)
	case st.Mode().IsRegular() && st.Size() == 0:
		return fmt.Errorf("%s: is empty", path)
	case !st.Mode().IsRegular():
		return nil // a pipe or a device: the loader opens it once
	}
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrPermission) {
			return fmt.Errorf("%s: permission denied", path)
		}
		return fmt.Errorf("%s: cannot open: %v", path, errors.Unwrap(err))
	}
	return f.Close()
}

// checkDir says why the directory at path cannot be read as the
// recordings in it: unreadable, or holding no file that is not empty.
func checkDir(path string) error {
	entries, err := os.ReadDir(path)
	switch {
	case errors.Is(err, os.ErrPermission):
		return fmt.Errorf("%s: permission denied", path)
	case err != nil:
		return fmt.Errorf("%s: cannot list the directory: %v", path, errors.Unwrap(err))
	}
	for _, e := range entries {
		if st, err := os.Stat(filepath.Join(path, e.Name())); err == nil && st.Mode().IsRegular() && st.Size() > 0 {
			return nil
		}
	}
	return fmt.Errorf("%s: is a directory with no file in it", path)
}
