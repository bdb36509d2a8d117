package sentenceencoder

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

// testAssets returns the ONNX Runtime library and model directory, the same
// way New finds them. It skips the test when they are absent, unless CI is
// "true", where missing assets are a failure.
func testAssets(t testing.TB) (lib, dir string) {
	t.Helper()
	lib, dir = resolvePaths("", "")
	var missing []string
	if _, err := os.Stat(lib); err != nil {
		missing = append(missing, lib)
	}
	if _, err := os.Stat(filepath.Join(dir, "model.json")); err != nil {
		missing = append(missing, filepath.Join(dir, "model.json"))
	}
	if len(missing) > 0 {
		testenv.Absent(t, "model assets missing: %v (run `mdsearch setup`)", missing)
	}
	return lib, dir
}
