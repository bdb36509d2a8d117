package sentenceencoder

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestModelCache checks, at each precision, that the graph is built once,
// reused while the sources are unchanged, and rebuilt when it is damaged or
// they change.
func TestModelCache(t *testing.T) {
	for _, prec := range []Precision{Float32, Int8} {
		t.Run(string(prec), func(t *testing.T) { testModelCache(t, prec) })
	}
}

func testModelCache(t *testing.T, prec Precision) {
	lib, src := testAssets(t)
	dir, cache := linkModelDir(t, src), t.TempDir()
	onnxPath := filepath.Join(dir, prec.onnxName())
	open := func() {
		t.Helper()
		m, err := New(Options{LibPath: lib, ModelDir: dir, Precision: prec, CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		m.Close()
	}
	stat := func() os.FileInfo {
		t.Helper()
		st, err := os.Stat(onnxPath)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}

	open()
	built := stat()
	stamp, err := sourceStamp(dir, prec)
	if err != nil {
		t.Fatal(err)
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, "*.onnx")); len(entries) != 1 {
		t.Fatalf("model files %v, want only %s", entries, prec.onnxName())
	}
	if got := cachedStamp(onnxPath); got != stamp {
		t.Fatalf("cached stamp %q, want %q", got, stamp)
	}

	open()
	if reused := stat(); !os.SameFile(built, reused) || !reused.ModTime().Equal(built.ModTime()) {
		t.Fatal("model.onnx was rebuilt although its sources did not change")
	}

	// Damage the cache but keep its stamp: the session fails, New rebuilds.
	// (The optimised graph saved from it goes first, else New opens that.)
	if len(savedGraphs(t, cache)) != 1 {
		t.Fatal("no optimised graph was saved")
	}
	removeAll(t, savedGraphs(t, cache))
	data, err := os.ReadFile(onnxPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(onnxPath, data[:len(data)/3], 0o644); err != nil {
		t.Fatal(err)
	}
	open()
	if repaired, _ := os.ReadFile(onnxPath); !bytes.Equal(repaired, data) {
		t.Fatal("a damaged model.onnx was not rebuilt")
	}

	// Change a source file: the stamp changes and model.onnx is rebuilt.
	mj, err := os.ReadFile(filepath.Join(src, "model.json"))
	if err != nil {
		t.Fatal(err)
	}
	replaceFile(t, filepath.Join(dir, "model.json"), append(mj, '\n'))
	open()
	if got := cachedStamp(onnxPath); got == stamp || got == "" {
		t.Fatalf("stamp after a source change is %q, want a new one", got)
	}
}

// embedsOnce opens the model of dir, embeds a text and closes it: a model
// directory mdsearch cannot, or may not, write to still serves.
func embedsOnce(t *testing.T, lib, dir string) {
	t.Helper()
	m, err := New(Options{LibPath: lib, ModelDir: dir, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if vecs, err := m.Embed(context.Background(), []string{"hello world"}); err != nil || len(vecs[0]) != Dimension {
		t.Fatalf("Embed = %v, %v", vecs, err)
	}
}

// TestModelCacheUnwritable checks that a model directory where model.onnx
// cannot be written still works, from a graph built in memory.
func TestModelCacheUnwritable(t *testing.T) {
	lib, src := testAssets(t)
	dir := linkModelDir(t, src)
	if err := os.Mkdir(filepath.Join(dir, DefaultPrecision.onnxName()), 0o755); err != nil { // blocks the rename
		t.Fatal(err)
	}
	embedsOnce(t, lib, dir)
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(tmp) > 0 {
		t.Errorf("temporary files left behind: %v", tmp)
	}
}

// A model file in the model directory that mdsearch did not write (no
// stamp: the user's own graph) is left as it is; the graph is built in
// memory.
func TestModelCacheLeavesForeignGraph(t *testing.T) {
	lib, src := testAssets(t)
	dir := linkModelDir(t, src)
	own := []byte("the user's own ONNX model\n")
	path := filepath.Join(dir, DefaultPrecision.onnxName())
	if err := os.WriteFile(path, own, 0o644); err != nil {
		t.Fatal(err)
	}
	embedsOnce(t, lib, dir)
	if got, _ := os.ReadFile(path); !bytes.Equal(got, own) {
		t.Errorf("%s was replaced (%d bytes)", path, len(got))
	}
}
