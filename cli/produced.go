package cli

import (
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
)

// produced says what a call's response was, for the report's PRODUCED
// column (provenance.Produced: `→ get_metrics(web-9d4b27)`, `answer 412
// chars`, "-").
func produced(c *model.Call) string { return provenance.Produced(c) }
