package cli

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/afinspect/inspect/tui"
	"github.com/afinspect/inspect/tui/theme"
)

// compareCmd is `inspect compare A B`: the comparison diff prints, in
// the terminal UI. (`inspect A B` is not this: it refuses two files.)
func (a *app) compareCmd() *cobra.Command {
	var p pairOptions
	var themeName string
	c := &cobra.Command{
		Use:   "compare [flags] A B",
		Short: "two runs side by side in the terminal UI, pair by pair",
		Long: `compare opens the terminal UI on two recordings lined up as diff lines them up:
the turn lists of both sides at each aligned pair of calls, side by side,
each turn's fate coloured, + marking a message the other side's window does
not have and ~ one it has with other text; a strip of both sides' window
sizes. ←/→ step pairs, p jumps to where the runs part ways (again: back),
n/N to the next or previous pair that is not the same, d shows the messages
that differ (their texts as a line diff). The policy flags apply to both
sides, with a- or b- before their names to one.`,
		RunE: func(cmd *cobra.Command, files []string) error {
			if err := theme.ApplyTheme(themeName, os.Getenv("COLORFGBG")); err != nil {
				return a.fail(exitUsage, err)
			}
			sa, sb, err := a.openPair(cmd, &p, files)
			if err != nil {
				return err
			}
			cmp, err := a.compare(&p, sa, sb)
			if err != nil {
				return err
			}
			cfg := tui.CompareConfig{Comparison: cmp, NameA: files[0], NameB: files[1]}
			if err := tui.RunCompare(cfg); err != nil {
				return a.fail(exitFile, err)
			}
			return nil
		},
	}
	fs := c.Flags()
	p.register(fs)
	fs.StringVar(&themeName, "theme", "auto", "auto | dark | light: colours for a dark or a light background")
	return c
}
