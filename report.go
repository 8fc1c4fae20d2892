package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// writeReport prints the replay as a table, one row per call, then the
// policy and the problems. Colour only marks a recorded-window mismatch.
func writeReport(w io.Writer, s session, color bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CALL\tRUN\tCONV\tAGENT\tITER\tSENT\tCHARS\tLEFT\tSTAYED BECAUSE\tPINS\tRECORDED")
	for i := range s.replay.Calls {
		c := &s.replay.Calls[i]
		v := &c.Visit
		left, why := "-", "-"
		if v.Engaged {
			left, why = leftLine(v), stayedLine(v)
		}
		recorded := c.Recorded()
		if color && recorded == window.Differs {
			recorded = "\x1b[31m" + recorded + "\x1b[0m"
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\n", c.Call.Number, c.Run.RunNo, c.Conversation, c.Run.Agent.Key, c.Call.Iteration,
			len(v.After), model.WindowChars(v.After), left, why, pinsLine(v), recorded)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, a := range s.agents {
		how := "given"
		if a.inferred {
			how = "inferred"
		}
		fmt.Fprintf(w, "policy of %s (%s): %s\n  %s\n", a.agent.Key, how, a.policy, a.evidence)
	}
	matched, compared := 0, 0
	for i := range s.replay.Calls {
		if r := s.replay.Calls[i].Recorded(); r != window.Unknown {
			compared++
			if r == window.Match {
				matched++
			}
		}
	}
	fmt.Fprintf(w, "recorded windows reproduced: %d/%d\n", matched, compared)
	if len(s.problems) > 0 {
		fmt.Fprintf(w, "problems (%d):\n", len(s.problems))
		for _, p := range s.problems {
			fmt.Fprintf(w, "  %s\n", p.Message)
		}
	}
	return nil
}

// leftLine says how much left at this call's head: messages, turns, and
// whether a drop notice took their place.
func leftLine(v *window.Visit) string {
	if len(v.Evicted) == 0 {
		return "0"
	}
	turns := 0
	for _, t := range v.Turns() {
		if t.Evicted {
			turns++
		}
	}
	s := fmt.Sprintf("%d msgs/%d turns", len(v.Evicted), turns)
	if v.Notice != nil {
		s += " +notice"
	}
	return s
}

// stayedLine names the refusals that kept turns out of the span (the keep
// window is implied), in the library's words.
func stayedLine(v *window.Visit) string {
	var reasons []string
	for _, r := range v.Record.Refusals {
		if r.Reason != model.ReasonInsideKeepWindow && !slices.Contains(reasons, r.Reason) {
			reasons = append(reasons, r.Reason)
		}
	}
	if v.StandDown {
		reasons = append(reasons, "(pins stood down)")
	}
	if len(reasons) == 0 {
		return "-"
	}
	return strings.Join(reasons, ",")
}

func pinsLine(v *window.Visit) string {
	if len(v.Pins) == 0 {
		return "-"
	}
	names := make([]string, len(v.Pins))
	for i, p := range v.Pins {
		names[i] = p.ToolName
	}
	s := strings.Join(names, ",")
	if v.Yielded > 0 {
		s += fmt.Sprintf(" (+%d yielded)", v.Yielded)
	}
	return s
}
