package loader

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

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
	records    []model.Record
	hasRecords bool
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
		err = s.array(func(i int) error {
			return readEnvelope(b, s, &envelope{n: i + 1, many: true})
		})
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
	if e.many {
		return fmt.Sprintf("envelope %d", e.n)
	}
	return "envelope"
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
		case "recording":
			return s.object(func(key string) error {
				switch key {
				case "events":
					return e.readEvents(b, s)
				case "snapshot":
					return e.readSnapshot(b, s)
				}
				return s.skip()
			})
		}
		return s.skip()
	})
	if err != nil {
		return err
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
	if err := json.Unmarshal(raw, v); err != nil {
		b.problem(loc{label: e.label()}, "%s: %v", what, err)
	}
	return nil
}

func (e *envelope) readEvents(b *builder, s *jsonStream) error {
	return s.array(func(i int) error {
		raw, err := s.raw()
		if err != nil {
			return err
		}
		label := fmt.Sprintf("recording.events[%d]", i)
		if e.many {
			label = e.label() + " " + label
		}
		if e.firstRunID == nil {
			var ev refEvent
			if json.Unmarshal(raw, &ev) == nil {
				e.firstRunID = &ev.Meta.RunID
			}
		}
		b.event(raw, loc{label: label}, false)
		if i%256 == 255 {
			b.progress()
		}
		return nil
	})
}

// readSnapshot keeps snapshot.sharedState.compactions, the library's window
// records, and skips everything else (the execution tree is the bulk).
func (e *envelope) readSnapshot(b *builder, s *jsonStream) error {
	return s.object(func(key string) error {
		if key != "sharedState" {
			return s.skip()
		}
		return s.object(func(key string) error {
			if key != "compactions" {
				return s.skip()
			}
			e.hasRecords = true
			return e.decode(b, s, "recording.snapshot.sharedState.compactions", &e.records)
		})
	})
}

// finish files the envelope's records with its run: the run it names, or
// else the run of its first event.
func (e *envelope) finish(b *builder) {
	at := loc{label: e.label()}
	if e.run.DroppedEvents > 0 {
		b.problem(at, "the recording dropped its first %d events; the calls they held are missing", e.run.DroppedEvents)
	}
	if !e.hasRecords {
		return
	}
	id := e.run.RunID
	if id == "" && e.firstRunID != nil {
		id = *e.firstRunID
	}
	rs := b.runFor(id)
	if rs.run.HasRecords {
		b.problem(at, "a second set of window records for run %q; the later one wins", id)
	}
	rs.run.Records = e.records
	rs.run.HasRecords = true
}

// clip shortens a raw value for a message.
func clip(raw []byte) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "…"
	}
	return string(raw)
}
