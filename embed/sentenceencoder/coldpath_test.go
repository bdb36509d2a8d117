package sentenceencoder

import (
	"context"
	"math"
	"os"
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
// precision, that every way New can open the graph embeds exactly as a
// graph built fresh from the tfjs files: from ONNX Runtime's saved
// optimised graph (a command-line search's way, with the stamp memoised),
// from the cached ONNX file, and after a damaged saved graph.
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
			fresh := embedWith() // builds the graph, saves the optimised one, memoises the stamp
			saved := savedGraphs(t, cache)
			if len(saved) != 1 {
				t.Fatalf("saved graphs %v, want one", saved)
			}
			for _, tc := range []struct {
				name    string
				prepare func(t *testing.T)
			}{
				{"saved graph", func(*testing.T) {}},
				{"ONNX file", func(t *testing.T) { removeAll(t, saved) }},
				{"damaged saved graph", func(t *testing.T) {
					data, err := os.ReadFile(saved[0])
					if err != nil {
						t.Fatal(err)
					}
					data[len(data)/2] ^= 0x40
					if err := os.WriteFile(saved[0], data, 0o644); err != nil {
						t.Fatal(err)
					}
				}},
				{"saved graph cut short", func(t *testing.T) {
					if err := os.Truncate(saved[0], 1000); err != nil {
						t.Fatal(err)
					}
				}},
			} {
				t.Run(tc.name, func(t *testing.T) {
					tc.prepare(t)
					sameVectors(t, embedWith(), fresh)
					if _, ok := checkTrailer(readFile(t, saved[0])); !ok {
						t.Fatal("the saved graph was not made again")
					}
				})
			}
		})
	}
}

// savedGraphs lists the saved optimised graphs in the cache root.
func savedGraphs(t *testing.T, cache string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(cache, graphsDir, "*.ort"))
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

func removeAll(t *testing.T, paths []string) {
	t.Helper()
	for _, p := range paths {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// sameVectors fails unless got and want are equal bit for bit.
func sameVectors(t *testing.T, got, want [][]float32) {
	t.Helper()
	for i := range want {
		for j := range want[i] {
			if math.Float32bits(got[i][j]) != math.Float32bits(want[i][j]) {
				t.Fatalf("text %d, component %d: %v, want %v", i, j, got[i][j], want[i][j])
			}
		}
	}
}
