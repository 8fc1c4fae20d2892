package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
)

// commands are the words inspect answers as its first argument.
var commands = []string{"export", "report", "evidence", "help"}

// parseArgs parses flags wherever they stand, before or after FILE (as
// most Unix tools do); everything after "--" is a file name.
func parseArgs(fs *flag.FlagSet, args []string) (files []string, err error) {
	for {
		if err := fs.Parse(args); err != nil {
			return nil, flagError(err)
		}
		rest := fs.Args()
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(files, rest...), nil
		}
		if len(rest) == 0 {
			return files, nil
		}
		files = append(files, rest[0])
		args = rest[1:]
	}
}

// flagError rewords the flag package's errors in the words --help uses
// (two dashes, the value named).
func flagError(err error) error {
	msg := err.Error()
	for _, c := range []struct{ prefix, say string }{
		{"flag needs an argument: -", "--%s needs a value"},
		{"flag provided but not defined: -", "unknown flag --%s"},
	} {
		if name, ok := strings.CutPrefix(msg, c.prefix); ok {
			return fmt.Errorf(c.say, strings.TrimLeft(name, "-"))
		}
	}
	// invalid value "x" for flag -keep-recent-turns: parse error
	if v, rest, ok := strings.Cut(strings.TrimPrefix(msg, "invalid value "), " for flag -"); ok && strings.HasPrefix(msg, "invalid value ") {
		name, _, _ := strings.Cut(rest, ":")
		return fmt.Errorf("--%s: %s is not a whole number", strings.TrimLeft(name, "-"), v)
	}
	return err
}

// unknownCommand answers `inspect repotr FILE` (and a lone `inspect
// repotr` that names no file) as a mistyped command rather than a file.
func unknownCommand(files []string) error {
	if len(files) == 0 {
		return nil
	}
	w := files[0]
	if _, err := os.Stat(w); err == nil || strings.ContainsAny(w, "/.\\") || w == "-" {
		return nil
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
		return fmt.Errorf("%s: is a directory, not a recording", path)
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
