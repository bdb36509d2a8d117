package sentenceencoder

import (
	"os"
	"path/filepath"
	"testing"
)

// linkModelDir makes a model directory in a temporary folder whose files
// link to the real ones, so a test can replace just the file it damages.
func linkModelDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if filepath.Ext(e.Name()) == ".onnx" || e.IsDir() {
			continue
		}
		if err := os.Symlink(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// replaceFile swaps a linked file for a copy holding data.
func replaceFile(t *testing.T, path string, data []byte) {
	t.Helper()
	os.Remove(path)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestNewReportsBadLibrary(t *testing.T) {
	lib, dir := testAssets(t)
	real, err := os.ReadFile(lib)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, data, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	otherELF, _ := os.Executable() // an ELF file that is not ONNX Runtime
	tests := []struct {
		name, lib, mention string
	}{
		{"missing", filepath.Join(tmp, "nope", "libonnxruntime.so.1"), "no such file"},
		{"garbage", write("garbage.so", []byte("this is not a shared library\x00\x01\x02")), "not a shared library"},
		{"empty", write("empty.so", nil), "not a shared library"},
		{"truncated", write("truncated.so", real[:64<<10]), "libonnxruntime"},
		{"not onnxruntime", otherELF, "not"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := New(Options{LibPath: tt.lib, ModelDir: dir})
			if err == nil {
				m.Close()
				t.Fatalf("New with library %s succeeded", tt.lib)
			}
			requireUnavailable(t, err, tt.mention)
			requireUnavailable(t, err, tt.lib)
		})
	}
}

func TestNewReportsBadModelFiles(t *testing.T) {
	lib, src := testAssets(t)
	shard, err := os.ReadFile(filepath.Join(src, "group1-shard7of7"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		damage  func(dir string)
		mention string
	}{
		{"missing dir", func(dir string) { os.RemoveAll(dir) }, "no such directory"},
		{"missing vocab", func(dir string) { os.Remove(filepath.Join(dir, "vocab.json")) }, "vocab.json"},
		{"corrupt vocab", func(dir string) { replaceFile(t, filepath.Join(dir, "vocab.json"), []byte(`[["a", 1], ["b"`)) }, "vocab.json"},
		{"missing model.json", func(dir string) { os.Remove(filepath.Join(dir, "model.json")) }, "model.json"},
		{"corrupt model.json", func(dir string) { replaceFile(t, filepath.Join(dir, "model.json"), []byte("{\"modelTopology\": ")) }, "model.json"},
		{"missing shard", func(dir string) { os.Remove(filepath.Join(dir, "group1-shard3of7")) }, "group1-shard3of7"},
		{"truncated shard", func(dir string) { replaceFile(t, filepath.Join(dir, "group1-shard7of7"), shard[:len(shard)/2]) }, "truncated"},
		{"oversized shard", func(dir string) {
			replaceFile(t, filepath.Join(dir, "group1-shard7of7"), append(append([]byte{}, shard...), 0, 0, 0, 0))
		}, "damaged download"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := linkModelDir(t, src)
			tt.damage(dir)
			m, err := New(Options{LibPath: lib, ModelDir: dir})
			if err == nil {
				m.Close()
				t.Fatal("New succeeded on a damaged model directory")
			}
			requireUnavailable(t, err, tt.mention)
		})
	}
}
