package cli

import (
	"io"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/share"
	"github.com/afinspect/inspect/study"
)

// reportHead is the report table's columns, and which hold numbers.
var (
	reportHead  = []string{"CALL", "RUN", "CONV", "AGENT", "ITER", "MSGS", "CHARS", "TOK IN", "TOK OUT", "LEFT", "STAYED BECAUSE", "PINS", "RECORDED", "OUTCOME", "PRODUCED"}
	reportRight = []bool{true, true, true, false, true, true, true, true, true}
)

// writeReportMarkdown writes the report as Markdown: the table with a
// column of each call's flagged values, then what the shared page holds
// (the flagged values and why, each call's window), from the same page.
func writeReportMarkdown(w io.Writer, source string, s *study.Study) error {
	p := sharePage(source, s, inAnswers, callRange{})
	flagged := map[int][]string{}
	for _, v := range p.Values {
		flagged[v.Call] = append(flagged[v.Call], v.Typed+" ("+v.Verdict+")")
	}
	t := share.Table{Head: append(append([]string{}, reportHead...), "FLAGGED"), Right: reportRight}
	calls := s.Replay().Calls
	outcomes := provenance.OutcomesByCall(s.Rec)
	for i := range calls {
		cells := strings.Split(strings.TrimSuffix(callRow(&calls[i], outcomes[calls[i].Call], false), "\n"), "\t")
		f := "-"
		if vs := flagged[calls[i].Call.Number]; len(vs) > 0 {
			f = strconv.Itoa(len(vs)) + ": " + strings.Join(vs, ", ")
		}
		t.Rows = append(t.Rows, append(cells, f))
	}
	return share.WriteMarkdown(w, p, "inspect report", t)
}
