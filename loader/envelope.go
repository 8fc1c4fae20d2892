package loader

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/model"
)

// envelope is what one recording envelope holds besides its events, which
// go to the builder as they stream past.
type envelope struct {
	n          int  // 1-based position in the file
	many       bool // the file is an array of envelopes
	format     string
	run        envelopeRun
	firstRunID *string // meta.runId of its first event
	lastRunID  *string // and of its last
	// bare: no envelope around it, the {snapshot, events, structure}
	// recordRun(...).toRecording() returns (its snapshot is its last run's)
	bare     bool
	records  map[string][]model.Record // by subflowResults key: "" for sharedState.compactions
	passes   map[string][]passEntry    // the keys '<agent path>#N' by agent path (numberedPasses)
	producer struct {
		Version *string `json:"agentfootprintVersion"` // the library that wrote it (§17.2)
	}
}

// envelopeRun is the envelope's "run" object, as far as the loader uses it.
type envelopeRun struct {
	RunID         string `json:"runId"`
	DroppedEvents int    `json:"droppedEvents"`
}

// readEnvelopes reads one envelope or an array of them. A malformed or
// cut-short document keeps what was read before it, as a problem, unless
// nothing was.
func readEnvelopes(b *builder, s *jsonStream) error {
	first, err := s.peek()
	if err != nil {
		return s.readFail(err)
	}
	if first == '[' {
		skipped := 0 // the first element skipped, counting from 1
		err = s.array(func(i int) error {
			e := &envelope{n: i + 1, many: true}
			c, err := s.peek()
			if err != nil {
				return s.readFail(err)
			}
			if c != '{' { // one bad element of an array: the others still load
				if skipped == 0 {
					skipped = e.n
				}
				b.problem(loc{label: e.label()}, "is a JSON %s, not an envelope object: skipped", jsonKind(c))
				return s.skip()
			}
			return readEnvelope(b, s, e)
		})
		if err == nil && skipped > 0 && !b.sawEvent {
			return fail(b.rec.Source, nil, "envelope %d is not an object; not an agentfootprint recording", skipped)
		}
	} else {
		err = readEnvelope(b, s, &envelope{n: 1})
	}
	var fatal *loadError
	switch {
	case errors.As(err, &fatal):
		return err
	case err != nil && !b.sawEvent:
		return err
	case err != nil:
		b.problem(loc{}, "the envelope is cut short or malformed (%v); what came before it loads", err)
		return nil
	}
	switch _, err := s.peek(); {
	case err == nil:
		b.problem(loc{}, "ignoring what follows the envelope at byte %d", s.pos)
	case err != io.EOF:
		b.problem(loc{}, "after the envelope: %v", s.readFail(err))
	}
	return nil
}

func (e *envelope) label() string {
	what := "envelope"
	if e.bare {
		what = "recording"
	}
	if e.many {
		return fmt.Sprintf("%s %d", what, e.n)
	}
	return what
}

func readEnvelope(b *builder, s *jsonStream, e *envelope) error {
	c, err := s.peek()
	if err != nil {
		return s.readFail(err)
	}
	if c != '{' {
		return fail(b.rec.Source, nil, "%s is not an object; not an agentfootprint recording", e.label())
	}
	err = s.object(func(key string) error {
		switch key {
		case "format":
			return e.readFormat(b, s)
		case "run":
			return e.decode(b, s, "run", &e.run)
		case "producer":
			return e.decode(b, s, "producer", &e.producer)
		case "recording":
			return s.object(func(key string) error {
				switch key {
				case "events":
					return e.readEvents(b, s, "recording.events")
				case "snapshot":
					return e.readSnapshot(b, s, "recording.snapshot")
				}
				return s.skip()
			})
		case "events":
			e.bare = e.format == ""
			return e.readEvents(b, s, "events")
		case "snapshot":
			e.bare = e.format == ""
			return e.readSnapshot(b, s, "snapshot")
		}
		return s.skip()
	})
	if err != nil {
		return err
	}
	if e.format != "" {
		e.bare = false
	}
	if e.bare {
		if b.rec.Format == model.FormatEnvelope {
			b.rec.Format = model.FormatRecording
		}
		e.finish(b)
		return nil
	}
	if e.format == "" {
		return fail(b.rec.Source, nil, "%s has no \"format\"; not an agentfootprint recording", e.label())
	}
	e.finish(b)
	return nil
}

func (e *envelope) readFormat(b *builder, s *jsonStream) error {
	raw, err := s.raw()
	if err != nil {
		return err
	}
	if json.Unmarshal(raw, &e.format) != nil || e.format == "" {
		return fail(b.rec.Source, nil, "%s \"format\" is %s, not a format name", e.label(), clip(raw))
	}
	if e.format != model.FormatEnvelope {
		return fail(b.rec.Source, nil, "recording format %q is not supported (inspect reads %s)", e.format, model.FormatEnvelope)
	}
	return nil
}

// decode keeps one value and decodes it into v; a value that does not fit
// is a problem, not a failure.
func (e *envelope) decode(b *builder, s *jsonStream, what string, v any) error {
	raw, err := s.raw()
	if err != nil {
		return err
	}
	if err := unmarshal(raw, v); err != nil {
		b.problem(loc{label: e.label()}, "%s: %v", what, err)
	}
	return nil
}

func (e *envelope) readEvents(b *builder, s *jsonStream, where string) error {
	return s.array(func(i int) error {
		raw, err := s.raw()
		if err != nil {
			return err
		}
		label := fmt.Sprintf("%s[%d]", where, i)
		if e.many {
			label = e.label() + " " + label
		}
		if e.firstRunID == nil || e.bare {
			var ev refEvent
			if unmarshal(raw, &ev) == nil && ev.Meta.RunID != nil {
				if e.firstRunID == nil {
					e.firstRunID = ev.Meta.RunID
				}
				e.lastRunID = ev.Meta.RunID
			}
		}
		b.event(raw, loc{label: label, file: b.file}, false)
		if i%256 == 255 {
			b.progress()
		}
		return nil
	})
}

// readSnapshot keeps the library's window records — sharedState.compactions,
// and for a Sequence's steps subflowResults[step].treeContext.globalContext.compactions
// (§10.4) — and skips everything else (the execution tree is the bulk).
func (e *envelope) readSnapshot(b *builder, s *jsonStream, where string) error {
	e.records = map[string][]model.Record{}
	compactions := func(step, what string) error {
		return s.object(func(key string) error {
			if key != "compactions" {
				return s.skip()
			}
			var rs []model.Record
			err := e.decode(b, s, what, &rs)
			e.records[step] = rs
			return err
		})
	}
	return s.object(func(key string) error {
		switch key {
		case "sharedState":
			return compactions("", where+".sharedState.compactions")
		case "subflowResults":
			return s.object(func(step string) error {
				return s.object(func(key string) error {
					if key != "treeContext" {
						return s.skip()
					}
					return s.object(func(key string) error {
						if key != "globalContext" {
							return s.skip()
						}
						return compactions(step, where+".subflowResults["+step+"] compactions")
					})
				})
			})
		}
		return s.skip()
	})
}

// finish files the envelope's records with the segments of its run (the
// run it names, or else the run of its first event): each segment keeps
// the records of its own calls' iterations; the rest are copies a resumed
// run restored from the run it resumed, filed there already (§12.1).
func (e *envelope) finish(b *builder) {
	at := loc{label: e.label()}
	if v := e.producer.Version; v != nil && *v != "" {
		b.rec.Library.Producers = append(b.rec.Library.Producers, *v)
	}
	if e.run.DroppedEvents > 0 {
		b.problem(at, "the recording dropped its first %d events; the calls they held are missing", e.run.DroppedEvents)
	}
	id := e.run.RunID
	first := e.firstRunID
	if e.bare {
		first = e.lastRunID // a bare recording's snapshot is its last run's
	}
	if id == "" && first != nil {
		id = *first
	}
	for _, rs := range b.byRun[id] {
		records, ok := e.recordsOf(rs.run)
		if !ok {
			continue
		}
		if rs.run.HasRecords {
			b.problem(at, "a second set of window records for run %q; the later one wins", id)
		}
		rs.run.Records = ownRecords(records, rs.run.Calls)
		rs.run.HasRecords = true
		b.touch(rs)
	}
}

// recordsOf are the records of one agent run of the envelope's run
// (§15.4): a plain agent's are sharedState's; inside a composition, pass
// k's are those of the k-th subflowResults entry '<agent path>#N' in
// increasing N, and without any such entry '<agent path>' is pass 1's.
func (e *envelope) recordsOf(r *model.Run) ([]model.Record, bool) {
	if r.Composition {
		return nil, false
	}
	if r.Step == "" {
		records, ok := e.records[""]
		return records, ok && r.Pass == 1
	}
	if e.passes == nil {
		e.passes = numberedPasses(e.records)
	}
	passes := e.passes[r.Step]
	if len(passes) == 0 {
		records, ok := e.records[r.Step]
		return records, ok && r.Pass == 1
	}
	if r.Pass > len(passes) {
		return nil, false
	}
	return e.records[passes[r.Pass-1].key], true
}

// numberedPasses groups the keys '<agent path>#N' by agent path, each
// group in increasing N.
func numberedPasses(records map[string][]model.Record) map[string][]passEntry {
	out := map[string][]passEntry{}
	for key := range records {
		i := strings.LastIndexByte(key, '#')
		if i < 0 || i == len(key)-1 {
			continue
		}
		if n, err := strconv.ParseUint(key[i+1:], 10, 64); err == nil {
			out[key[:i]] = append(out[key[:i]], passEntry{n, key})
		}
	}
	for _, passes := range out {
		slices.SortFunc(passes, func(x, y passEntry) int { return cmp.Compare(x.n, y.n) })
	}
	return out
}

// passEntry is a subflowResults key '<agent path>#N' and its N.
type passEntry struct {
	n   uint64
	key string
}

// ownRecords are the records filed from the segment's first call on:
// those before it are copies of the records of the run it resumed. (A
// record precedes its call, so an envelope frozen between a visit and its
// llm_start still holds the record.)
func ownRecords(records []model.Record, calls []*model.Call) []model.Record {
	if len(calls) == 0 {
		return records
	}
	out := records[:0:0]
	for _, r := range records {
		if r.Iteration >= calls[0].Iteration {
			out = append(out, r)
		}
	}
	return out
}

// clip shortens a raw value for a message.
func clip(raw []byte) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "…"
	}
	return string(raw)
}

// jsonKind names the JSON value that starts with c.
func jsonKind(c byte) string {
	switch {
	case c == '[':
		return "array"
	case c == '"':
		return "string"
	case c == 't' || c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	}
	return "number"
}
