package cli

import (
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
)

// The values a flag takes, for the shells' completion: each command's
// flags that take one of a few words, and --agent the keys of the file
// already on the command line.

// completeAgentsUpTo is the largest file whose agents --agent offers: a
// completion reads the whole file.
const completeAgentsUpTo = 64 << 20

// registerCompletions gives every flag of root's commands that takes a
// known word its words.
func registerCompletions(root *cobra.Command) {
	formats := map[string][]string{
		"report": {"table", "markdown"}, "export": {"json"}, "evidence": {"table", "json"}, "advise": {"table", "json"},
	}
	for _, c := range append([]*cobra.Command{root}, root.Commands()...) {
		words := map[string][]string{
			"strategy": {model.SlidingWindow, model.TokenBudget, model.SummarizeOldest, model.StrategyNone},
			"in":       inChoices,
			"fail-on":  failVerdicts,
			"theme":    {"auto", "dark", "light"},
			"format":   formats[c.Name()],
		}
		for name, ws := range words {
			if c.Flags().Lookup(name) == nil || len(ws) == 0 {
				continue
			}
			list := name == "fail-on" // a comma-separated list
			c.RegisterFlagCompletionFunc(name, func(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
				if !list {
					return ws, cobra.ShellCompDirectiveNoFileComp
				}
				done, _ := cutLast(typed, ",")
				var out []string
				for _, w := range ws {
					if !strings.Contains(","+done+",", ","+w+",") {
						out = append(out, prefixed(done, w))
					}
				}
				return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
			})
		}
		if c.Flags().Lookup("agent") != nil {
			c.RegisterFlagCompletionFunc("agent", func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
				return agentKeys(args), cobra.ShellCompDirectiveNoFileComp
			})
		}
	}
}

// cutLast is s before and after its last sep ("" and s when none).
func cutLast(s, sep string) (string, string) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return "", s
	}
	return s[:i], s[i+1:]
}

func prefixed(done, w string) string {
	if done == "" {
		return w
	}
	return done + "," + w
}

// agentKeys are the agents of the files named in args that can be read
// quickly.
func agentKeys(args []string) []string {
	var keys []string
	for _, path := range args {
		st, err := os.Stat(path)
		if err != nil || !st.Mode().IsRegular() || st.Size() > completeAgentsUpTo {
			continue
		}
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil || rec == nil {
			continue
		}
		for _, a := range rec.Agents {
			keys = append(keys, a.Key)
		}
	}
	return keys
}
