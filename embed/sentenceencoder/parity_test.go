package sentenceencoder

import (
	"context"
	"math"
	"slices"
	"testing"
)

// TestParity checks the Go model against the JavaScript reference vectors:
// cosine >= 0.9999 for every text at float32, >= 0.99 at int8.
func TestParity(t *testing.T) {
	for _, tc := range []struct {
		prec Precision
		min  float64
	}{{Float32, 0.9999}, {Int8, 0.99}} {
		t.Run(string(tc.prec), func(t *testing.T) { testParity(t, tc.prec, tc.min) })
	}
}

func testParity(t *testing.T, prec Precision, bar float64) {
	m := testModel(t, Options{Precision: prec})
	ref := loadReference(t)
	texts := make([]string, len(ref.Cases))
	for i, c := range ref.Cases {
		texts[i] = c.Text
	}
	vecs, err := m.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	minCos := 1.0
	for i, c := range ref.Cases {
		cos := cosine(vecs[i], c.Vector)
		minCos = min(minCos, cos)
		if cos < bar {
			t.Errorf("%s: cosine with the reference %.6f, want >= %g", c.Name, cos, bar)
		}
		// The threshold must tell texts apart: another text's reference
		// vector is far below it (unless both share the window's tokens).
		other := ref.Cases[(i+1)%len(ref.Cases)]
		same := slices.Equal(c.IDs[:min(len(c.IDs), ref.Window)], other.IDs[:min(len(other.IDs), ref.Window)])
		if !same && cosine(vecs[i], other.Vector) >= 0.999 {
			t.Errorf("%s: as close to the vector of %s as to its own", c.Name, other.Name)
		}
	}
	t.Logf("%d texts, min cosine %.9f (1 - min = %.1e)", len(ref.Cases), minCos, 1-minCos)
}

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return dot / math.Sqrt(na*nb)
}

func testModel(t testing.TB, opts Options) *Model {
	t.Helper()
	lib, dir := testAssets(t)
	if opts.LibPath == "" {
		opts.LibPath = lib
	}
	if opts.ModelDir == "" {
		opts.ModelDir = dir
	}
	m, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}
