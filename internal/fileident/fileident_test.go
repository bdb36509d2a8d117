package fileident

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func TestOf(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("identities are read on Linux only")
	}
	tests := []struct {
		name   string
		change func(t *testing.T, path string)
		same   bool
	}{
		{"read", func(t *testing.T, path string) { os.ReadFile(path) }, true},
		{"rewritten, same bytes", func(t *testing.T, path string) { write(t, path, "weights") }, false},
		{"rewritten, times set back", func(t *testing.T, path string) {
			fi, _ := os.Stat(path)
			write(t, path, "WEIGHTS")
			os.Chtimes(path, fi.ModTime(), fi.ModTime())
		}, false},
		{"replaced by rename", func(t *testing.T, path string) {
			write(t, path+".new", "weights")
			os.Rename(path+".new", path)
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "shard")
			write(t, path, "weights")
			before, ok := Of(path)
			if !ok || before.Size != 7 || before.Ino == 0 {
				t.Fatalf("Of = %+v, %v", before, ok)
			}
			time.Sleep(10 * time.Millisecond) // a change time of its own, on coarse clocks too
			tt.change(t, path)
			after, _ := Of(path)
			if (after == before) != tt.same {
				t.Errorf("identity before %+v, after %+v; want same %v", before, after, tt.same)
			}
		})
	}
	if _, ok := Of(t.TempDir()); ok {
		t.Error("a folder has an identity")
	}
	if _, ok := Of(filepath.Join(t.TempDir(), "none")); ok {
		t.Error("a missing file has an identity")
	}
}

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// OfInfo of an open file's stat is Of of its path.
func TestOfInfo(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("identities are read on Linux only")
	}
	path := filepath.Join(t.TempDir(), "shard")
	write(t, path, "weights")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	byPath, ok1 := Of(path)
	byInfo, ok2 := OfInfo(fi)
	if !ok1 || !ok2 || byPath != byInfo {
		t.Errorf("Of %+v %v, OfInfo %+v %v", byPath, ok1, byInfo, ok2)
	}
	dir, _ := os.Stat(filepath.Dir(path))
	if _, ok := OfInfo(dir); ok {
		t.Error("a folder has an identity")
	}
}
