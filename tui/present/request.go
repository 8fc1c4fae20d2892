package present

import (
	"strings"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
)

// PieceHolding is the first system-prompt piece whose text holds value,
// for a value the system prompt grounds (user-supplied); the value is
// normalized lower case (docs/rules/evidence.md §1), so the text is too.
func PieceHolding(r model.Request, verdict, value string) (int, bool) {
	if verdict != evidence.UserSupplied || value == "" {
		return 0, false
	}
	for i, p := range r.SystemPrompt.Pieces {
		if strings.Contains(strings.ToLower(p.Text), value) {
			return i, true
		}
	}
	return 0, false
}

// PieceName is how a piece is named in a sentence: "skill
// conservation-handling".
func PieceName(p model.PromptPiece) string {
	if p.SourceID != "" {
		return p.Source + " " + p.SourceID
	}
	return p.Source
}
