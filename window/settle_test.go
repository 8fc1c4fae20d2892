package window

import (
	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
)

// SettleLibrary is SettleLibraryMore of a whole recording, as the tests
// ask it.
func SettleLibrary(rec *model.Recording, lin *lineage.Lineage, flag string) error {
	_, err := SettleLibraryMore(rec, lin, flag, nil)
	return err
}
