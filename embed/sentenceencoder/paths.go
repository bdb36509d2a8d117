package sentenceencoder

import (
	"os"
	"path/filepath"
)

// Names of the cached assets, relative to the cache root.
const (
	ORTDirName   = "onnxruntime-1.30.0"
	ORTLibName   = "libonnxruntime.so.1"
	ModelDirName = "use-lite-0.2.0"
)

// Environment variables that override the cache locations.
const (
	EnvORTLib   = "MDSEARCH_ORT_LIB"
	EnvModelDir = "MDSEARCH_MODEL_DIR"
	EnvHome     = "MDSEARCH_HOME"
)

// setupHint fixes a missing asset; verifyHint a damaged one in the cache,
// which only a full re-hash finds where the file kept its identity.
const (
	setupHint  = "run `mdsearch setup`"
	verifyHint = "run `mdsearch setup --verify` to replace a damaged file in the cache"
)

// resolvePaths fills in empty paths: an explicit value wins, then the
// environment, then the asset cache.
func resolvePaths(lib, dir string) (string, string) {
	if lib == "" {
		lib = os.Getenv(EnvORTLib)
	}
	if lib == "" {
		lib = filepath.Join(cacheHome(), ORTDirName, ORTLibName)
	}
	if dir == "" {
		dir = os.Getenv(EnvModelDir)
	}
	if dir == "" {
		dir = filepath.Join(cacheHome(), ModelDirName)
	}
	return lib, dir
}

// cacheHome is $MDSEARCH_HOME, else $XDG_CACHE_HOME/mdsearch, else
// ~/.cache/mdsearch.
func cacheHome() string {
	if h := os.Getenv(EnvHome); h != "" {
		return h
	}
	if x := os.Getenv("XDG_CACHE_HOME"); x != "" {
		return filepath.Join(x, "mdsearch")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".cache", "mdsearch")
	}
	return filepath.Join(os.TempDir(), "mdsearch")
}
