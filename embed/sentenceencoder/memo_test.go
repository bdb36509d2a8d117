package sentenceencoder

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// fakeModelDir writes a model.json that lists two weight shards, enough
// for sourceStamp.
func fakeModelDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"model.json": `{"weightsManifest": [{"paths": ["shard1", "shard2"]}]}`,
		"shard1":     "weights one",
		"shard2":     "weights two",
		"vocab.json": "not hashed",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestStampMemo checks that the memoised stamp is used only while every
// file it was hashed from keeps its identity, and that a damaged memo file
// costs only a hashing.
func TestStampMemo(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("stamps are memoised on Linux only")
	}
	rewrite := func(name string) func(t *testing.T, dir, cache string) {
		return func(t *testing.T, dir, cache string) {
			p := filepath.Join(dir, name)
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(10 * time.Millisecond) // a change time of its own, on coarse clocks too
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name    string
		change  func(t *testing.T, dir, cache string)
		prec    Precision
		trusted bool
	}{
		{"unchanged", func(*testing.T, string, string) {}, Int8, true},
		{"unhashed file rewritten", rewrite("vocab.json"), Int8, true},
		{"shard rewritten, same bytes", rewrite("shard2"), Int8, false},
		{"model.json rewritten", rewrite("model.json"), Int8, false},
		{"shard replaced", func(t *testing.T, dir, _ string) {
			p := filepath.Join(dir, "shard1")
			if err := os.WriteFile(p+".new", []byte("weights uno"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(p+".new", p); err != nil {
				t.Fatal(err)
			}
		}, Int8, false},
		{"other precision", func(*testing.T, string, string) {}, Float32, false},
		{"memo file damaged", func(t *testing.T, _, cache string) {
			if err := os.WriteFile(filepath.Join(cache, memoFile), []byte(`[{"key": `), 0o644); err != nil {
				t.Fatal(err)
			}
		}, Int8, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, cache := fakeModelDir(t), t.TempDir()
			if _, err := cachedSourceStamp(dir, cache, Int8); err != nil {
				t.Fatal(err)
			}
			// A memo whose stamp no hashing gives shows when it is trusted.
			memos := readMemos(filepath.Join(cache, memoFile))
			if len(memos) != 1 || len(memos[0].Files) != 3 {
				t.Fatalf("memos %+v, want one of model.json and two shards", memos)
			}
			memos[0].Stamp = "memoised"
			memos.write(filepath.Join(cache, memoFile))

			tc.change(t, dir, cache)
			got, err := cachedSourceStamp(dir, cache, tc.prec)
			if err != nil {
				t.Fatal(err)
			}
			want, err := sourceStamp(dir, tc.prec)
			if err != nil {
				t.Fatal(err)
			}
			if tc.trusted {
				want = "memoised"
			}
			if got != want {
				t.Fatalf("stamp %q, want %q", got, want)
			}
			if !tc.trusted {
				if again, _ := cachedSourceStamp(dir, cache, tc.prec); again != want {
					t.Fatalf("stamp from the new memo %q, want %q", again, want)
				}
			}
		})
	}
}

// TestStampMemoBounded checks that the memo file keeps the latest
// maxMemos directories.
func TestStampMemoBounded(t *testing.T) {
	cache := t.TempDir()
	var dirs []string
	for range maxMemos + 3 {
		dir := fakeModelDir(t)
		dirs = append(dirs, dir)
		if _, err := cachedSourceStamp(dir, cache, Int8); err != nil {
			t.Fatal(err)
		}
	}
	memos := readMemos(filepath.Join(cache, memoFile))
	if runtime.GOOS != "linux" {
		if len(memos) != 0 {
			t.Fatalf("%d memos where none are kept", len(memos))
		}
		return
	}
	if len(memos) != maxMemos || memos[0].Key != memoKey(dirs[len(dirs)-1], Int8) {
		t.Fatalf("%d memos, the latest first: want %d", len(memos), maxMemos)
	}
}
