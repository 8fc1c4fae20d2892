package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	tuikeys "github.com/afinspect/inspect/tui/keys"
)

// The config file: $XDG_CONFIG_HOME/inspect/config.toml (else the
// system's user config folder), or the file INSPECT_CONFIG names ("" or
// none: no file). It holds the UI's theme, its keys by the KeyMap's
// names, and default flags per command:
//
//	theme = "light"
//
//	[keys]
//	next_call = ["right", "l", "ctrl+n"]
//
//	[defaults.evidence]
//	in = "all"
//
//	[defaults.report]
//	keep-recent-turns = 3
//
// A flag on the command line beats the file, the file beats the
// default. A file that cannot be used stops the command with its line,
// its key and what is wrong: no value of it is half applied.

// ConfigPath is where the config file is read from: INSPECT_CONFIG when
// set (empty: none), else inspect/config.toml under $XDG_CONFIG_HOME or
// the system's user config folder.
func ConfigPath() string {
	if p, ok := os.LookupEnv("INSPECT_CONFIG"); ok {
		return p
	}
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		var err error
		if dir, err = os.UserConfigDir(); err != nil {
			return ""
		}
	}
	return filepath.Join(dir, "inspect", "config.toml")
}

// configCommands are the commands [defaults.NAME] may name; "ui" is the
// terminal UI (inspect FILE).
var configCommands = []string{"ui", "report", "export", "evidence", "advise", "share"}

// setting is one value of the file: as a flag would take it, and where.
type setting struct {
	value string
	lit   string   // as the file wrote it, in TOML
	keys  []string // for [keys]: the keys given
	line  int      // 0: not found on a line of its own
}

// config is the file as read.
type config struct {
	path  string
	found bool
	theme *setting
	keys  map[string]*setting            // by KeyMap name
	flags map[string]map[string]*setting // by command, then flag name
}

// where says where a value came from: "config.toml:3", or the file.
func (c *config) where(s *setting) string {
	if s.line > 0 {
		return fmt.Sprintf("%s:%d", c.path, s.line)
	}
	return c.path
}

// configError is a config file that cannot be used.
type configError struct {
	path, key string
	line      int
	msg       string
}

func (e *configError) Error() string {
	at := e.path
	if e.line > 0 {
		at += ":" + strconv.Itoa(e.line)
	}
	if e.key != "" {
		return fmt.Sprintf("%s: %s: %s", at, e.key, e.msg)
	}
	return fmt.Sprintf("%s: %s", at, e.msg)
}

// fileValue is a value of the file, decoded by hand so that a wrong
// type is the decoder's error, with its line.
type fileValue struct{ s, lit string }

func (v *fileValue) UnmarshalTOML(data any) error {
	s, err := flagText(data)
	v.s, v.lit = s, tomlLiteral(data)
	return err
}

// tomlLiteral is a decoded TOML value written back.
func tomlLiteral(data any) string {
	switch d := data.(type) {
	case string:
		return tomlString(d)
	case []any:
		parts := make([]string, len(d))
		for i, x := range d {
			parts[i] = tomlLiteral(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(data)
}

// flagText is a TOML value as a flag takes it: a list is its items
// joined by commas (--fail-on left,never-read).
func flagText(data any) (string, error) {
	switch d := data.(type) {
	case string:
		return d, nil
	case bool:
		return strconv.FormatBool(d), nil
	case int64:
		return strconv.FormatInt(d, 10), nil
	case []any:
		parts := make([]string, len(d))
		for i, x := range d {
			s, err := flagText(x)
			if err != nil {
				return "", err
			}
			if _, nested := x.([]any); nested {
				return "", errors.New("a list of lists is no flag's value")
			}
			parts[i] = s
		}
		return strings.Join(parts, ","), nil
	}
	return "", fmt.Errorf("a %T is no flag's value (a string, a whole number, true/false or a list of them)", data)
}

// fileKeys is a [keys] entry: one key or a list of them.
type fileKeys struct{ keys []string }

func (v *fileKeys) UnmarshalTOML(data any) error {
	switch d := data.(type) {
	case string:
		v.keys = []string{d}
	case []any:
		for _, x := range d {
			s, ok := x.(string)
			if !ok {
				return fmt.Errorf("keys are strings (\"ctrl+f\", \"x\"), not %v", x)
			}
			v.keys = append(v.keys, s)
		}
	default:
		return fmt.Errorf("a key is a string or a list of strings (\"ctrl+f\" or [\"right\", \"l\"]), not %v", data)
	}
	if len(v.keys) == 0 {
		return errors.New("an entry needs at least one key")
	}
	for _, k := range v.keys {
		if k == "" || strings.ContainsAny(k, "\x00\n") {
			return fmt.Errorf("%q is no key", k)
		}
	}
	return nil
}

type fileTheme struct{ s string }

func (v *fileTheme) UnmarshalTOML(data any) error {
	s, ok := data.(string)
	if !ok || !slices.Contains([]string{"auto", "dark", "light"}, s) {
		return fmt.Errorf("the theme is \"auto\", \"dark\" or \"light\", not %v", data)
	}
	v.s = s
	return nil
}

type fileConfig struct {
	Theme    *fileTheme                       `toml:"theme"`
	Keys     map[string]*fileKeys             `toml:"keys"`
	Defaults map[string]map[string]*fileValue `toml:"defaults"`
}

// loadConfig reads the config file at path; a file that is not there is
// no config (found false), one that cannot be used an error.
func loadConfig(path string) (*config, error) {
	c := &config{path: path, keys: map[string]*setting{}, flags: map[string]map[string]*setting{}}
	if path == "" {
		return c, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, &configError{path: path, msg: err.Error()}
	}
	c.found = true
	var f fileConfig
	md, err := toml.Decode(string(b), &f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &configError{path: path, line: pe.Position.Line, key: pe.LastKey, msg: pe.Message}
		}
		return nil, &configError{path: path, msg: err.Error()}
	}
	lines := keyLines(string(b))
	if u := md.Undecoded(); len(u) > 0 {
		k := u[0].String()
		return nil, &configError{path: path, line: lines[k], key: k, msg: "no such setting (theme, [keys], [defaults.COMMAND])"}
	}
	if f.Theme != nil {
		c.theme = &setting{value: f.Theme.s, line: lines["theme"]}
	}
	names := tuikeys.KeyNames()
	for name, k := range f.Keys {
		if !slices.Contains(names, name) {
			return nil, &configError{path: path, line: lines["keys."+name], key: "keys." + name, msg: "no such key binding; the names are " + strings.Join(names, ", ")}
		}
		c.keys[name] = &setting{keys: k.keys, value: strings.Join(k.keys, " "), line: lines["keys."+name]}
	}
	for cmd, flags := range f.Defaults {
		if !slices.Contains(configCommands, cmd) {
			return nil, &configError{path: path, line: lines["defaults."+cmd], key: "defaults." + cmd, msg: "no such command (" + strings.Join(configCommands, ", ") + ")"}
		}
		if t := md.Type("defaults", cmd); t != "Hash" {
			return nil, &configError{path: path, line: lines["defaults."+cmd], key: "defaults." + cmd, msg: "the flags of a command are a table ([defaults." + cmd + "] and a line a flag), not " + strings.ToLower(t)}
		}
		c.flags[cmd] = map[string]*setting{}
		for name, v := range flags {
			c.flags[cmd][name] = &setting{value: v.s, lit: v.lit, line: lines["defaults."+cmd+"."+name]}
		}
	}
	if c.theme != nil && c.flags["ui"]["theme"] != nil {
		return nil, &configError{path: path, line: c.flags["ui"]["theme"].line, key: "defaults.ui.theme", msg: "the theme is given twice (theme and defaults.ui.theme)"}
	}
	return c, nil
}

var (
	tableLine = regexp.MustCompile(`^\s*\[\s*([A-Za-z0-9_.\-" ]+?)\s*\]\s*(#.*)?$`)
	keyLine   = regexp.MustCompile(`^\s*("[^"]*"|[A-Za-z0-9_\-]+)\s*=`)
)

// keyLines is the line of each key of a file in the usual layout (a
// table header, then key = value lines), by its dotted path; a key given
// otherwise (dotted, or in an inline table) has none.
func keyLines(s string) map[string]int {
	out := map[string]int{}
	table := ""
	for i, l := range strings.Split(s, "\n") {
		if m := tableLine.FindStringSubmatch(l); m != nil {
			table = strings.ReplaceAll(strings.ReplaceAll(m[1], `"`, ""), " ", "")
			if _, ok := out[table]; !ok {
				out[table] = i + 1
			}
			continue
		}
		if m := keyLine.FindStringSubmatch(l); m != nil {
			k := strings.Trim(m[1], `"`)
			if table != "" {
				k = table + "." + k
			}
			if _, ok := out[k]; !ok {
				out[k] = i + 1
			}
		}
	}
	return out
}

// keyMap is the UI's keys with the file's bindings (nil: the defaults).
// A nil config is none: every method reads it as a file with nothing.
func (c *config) keyMap() *tuikeys.KeyMap {
	if c == nil || len(c.keys) == 0 {
		return nil
	}
	k := tuikeys.DefaultKeyMap()
	for name, s := range c.keys {
		k.Bind(name, s.keys)
	}
	return &k
}

// commandName is c's name in [defaults.NAME].
func commandName(c *cobra.Command) string {
	if c == c.Root() {
		return "ui"
	}
	return c.Name()
}

// checkFlags makes sure every flag the file sets is one its command
// takes, before any command runs.
func (c *config) checkFlags(root *cobra.Command) error {
	if c == nil {
		return nil
	}
	for cmd, flags := range c.flags {
		target := root
		if cmd != "ui" {
			for _, sub := range root.Commands() {
				if sub.Name() == cmd {
					target = sub
				}
			}
		}
		for name, s := range flags {
			f := target.Flags().Lookup(name)
			if f == nil || name == "help" || name == "version" {
				return &configError{path: c.path, line: s.line, key: "defaults." + cmd + "." + name, msg: fmt.Sprintf("inspect %s has no flag --%s", strings.TrimPrefix(cmd, "ui"), name)}
			}
		}
	}
	return nil
}

// apply sets each flag of the file for command cmd that the command line
// did not give: what the file says then stands as if given.
func (c *config) apply(cmd *cobra.Command) error {
	if c == nil {
		return nil
	}
	name := commandName(cmd)
	set := func(flag string, s *setting, key string) error {
		f := cmd.Flags().Lookup(flag)
		if f == nil || f.Changed {
			return nil
		}
		if err := cmd.Flags().Set(flag, s.value); err != nil {
			return &configError{path: c.path, line: s.line, key: key, msg: err.Error()}
		}
		return nil
	}
	if name == "ui" && c.theme != nil {
		if err := set("theme", c.theme, "theme"); err != nil {
			return err
		}
	}
	for _, flag := range sortedKeys(c.flags[name]) {
		if err := set(flag, c.flags[name][flag], "defaults."+name+"."+flag); err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// configCmd is `inspect config`: the config in force and where each
// value came from.
func (a *app) configCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "config",
		Short: "print the config in force (theme, keys, default flags) and where each value came from",
		Long: `config prints the settings in force as a config file would hold them, each
with where it came from: the file (its line) or the default. The file is
$XDG_CONFIG_HOME/inspect/config.toml (or the system's user config folder,
or the file INSPECT_CONFIG names; INSPECT_CONFIG= reads none). A flag on
the command line beats the file, and the file beats the default.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			a.writeConfig(a.stdout, c.Root())
			return nil
		},
	}
}

func (a *app) writeConfig(w io.Writer, root *cobra.Command) {
	c := a.config
	if c == nil {
		c = &config{}
	}
	switch {
	case c.path == "":
		fmt.Fprintln(w, "# no config file (INSPECT_CONFIG is empty): every value is the default")
	case !c.found:
		fmt.Fprintf(w, "# config file: %s (not there: every value is the default)\n", c.path)
	default:
		fmt.Fprintf(w, "# config file: %s\n", c.path)
	}
	from := func(s *setting) string {
		if s == nil {
			return "default"
		}
		return c.where(s)
	}
	theme := "auto"
	if c.theme != nil {
		theme = c.theme.value
	}
	fmt.Fprintf(w, "theme = %s  # %s\n\n[keys]\n", tomlString(theme), from(c.theme))
	def := tuikeys.DefaultKeyMap()
	for _, name := range tuikeys.KeyNames() {
		keys, _ := def.KeysOf(name)
		s := c.keys[name]
		if s != nil {
			keys = s.keys
		}
		q := make([]string, len(keys))
		for i, k := range keys {
			q[i] = tomlString(k)
		}
		fmt.Fprintf(w, "%s = [%s]  # %s\n", name, strings.Join(q, ", "), from(s))
	}
	for _, cmd := range configCommands {
		target := root
		for _, sub := range root.Commands() {
			if sub.Name() == cmd {
				target = sub
			}
		}
		fmt.Fprintf(w, "\n[defaults.%s]\n", cmd)
		target.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" || f.Name == "version" {
				return
			}
			if s := c.flags[cmd][f.Name]; s != nil {
				fmt.Fprintf(w, "%s = %s  # %s\n", f.Name, s.lit, c.where(s))
				return
			}
			switch {
			case f.DefValue == "":
				fmt.Fprintf(w, "# %s  (default: not set)\n", f.Name)
			case f.Value.Type() == "bool" || f.Value.Type() == "int":
				fmt.Fprintf(w, "# %s = %s  (default)\n", f.Name, f.DefValue)
			default:
				fmt.Fprintf(w, "# %s = %s  (default)\n", f.Name, tomlString(f.DefValue))
			}
		})
	}
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
