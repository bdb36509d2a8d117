package use

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// coldTexts cover short queries, a text over the window and non-ASCII.
var coldTexts = []string{
	"how are closures captured",
	"",
	"Résumé of the naïve café's coöperation — 日本語のテキスト",
	strings.Repeat("Lifetimes bound references to the data they point at. ", 40),
}

// TestCachedLoadSameEmbeddings checks, with the real model at each
// precision, that a model loaded the way a command-line search loads it
// (the cached graph, its stamp from the memo) embeds exactly as one built
// fresh from the tfjs files.
func TestCachedLoadSameEmbeddings(t *testing.T) {
	lib, src := testAssets(t)
	for _, prec := range []Precision{Int8, Float32} {
		t.Run(string(prec), func(t *testing.T) {
			dir, cache := linkModelDir(t, src), t.TempDir()
			embedWith := func() [][]float32 {
				t.Helper()
				m, err := New(Options{LibPath: lib, ModelDir: dir, CacheDir: cache, Precision: prec})
				if err != nil {
					t.Fatal(err)
				}
				defer m.Close()
				vecs, err := m.Embed(context.Background(), coldTexts)
				if err != nil {
					t.Fatal(err)
				}
				return vecs
			}
			fresh := embedWith() // builds the graph and writes the memo
			if _, ok := readMemos(filepath.Join(cache, memoFile)).lookup(memoKey(dir, prec), dir); !ok && identifies() {
				t.Fatal("no memo after the first load")
			}
			cached := embedWith()
			for i := range fresh {
				for j := range fresh[i] {
					if math.Float32bits(fresh[i][j]) != math.Float32bits(cached[i][j]) {
						t.Fatalf("text %d, component %d: cached load %v, fresh build %v", i, j, cached[i][j], fresh[i][j])
					}
				}
			}
		})
	}
}

// identifies reports whether this system memoises stamps (see identify).
func identifies() bool {
	_, ok := identify(filepath.Join(".", "coldpath_test.go"))
	return ok
}
