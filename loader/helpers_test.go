package loader

import (
	"io"

	"github.com/afinspect/inspect/model"
)

// The short ways the tests load a recording; the program always says
// how long a line may be (StartLimited, StartReaderLimited).

// Start loads path in the background.
func Start(path string) *Loading {
	return start(path, options{}, func(l *Loading) (*model.Recording, error) { return l.loadFile(path) })
}

// Load opens path (read-only), detects the format by content (gzip is
// decompressed transparently; an object or array with "format" is a
// recording envelope; anything else is read as an NDJSON event log), and
// returns the recording. It is Start(path).Wait().
func Load(path string) (*model.Recording, error) {
	return Start(path).Wait()
}

// Read is Load for an already open stream; name is used in messages and
// as Recording.Source.
func Read(r io.Reader, name string) (*model.Recording, error) {
	return StartReader(r, name, 0).Wait()
}
