package use

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/mdsearch/mdsearch/chunks"
	"github.com/mdsearch/mdsearch/internal/testenv"
	"github.com/mdsearch/mdsearch/sections"
)

// parityCorpora are cut into windows for TestInt8Parity (outside the
// repository, like benchCorpus).
var parityCorpora = []string{
	"../../../shared/corpora/rust-rfcs/text",
	"../../../shared/corpora/vue-docs/vault",
	"../../../shared/corpora/rust-book/src",
}

const parityWindows = 1000

// TestInt8Parity compares int8 with float32 vectors on real windows, cut
// by chunks.Split with the model's own token counter as the index cuts
// them, spread over files of three corpora.
func TestInt8Parity(t *testing.T) {
	f32 := testModel(t, Options{Precision: Float32})
	i8 := testModel(t, Options{Precision: Int8})
	texts := parityTexts(t, f32, parityWindows)
	ctx := context.Background()
	a, err := f32.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := i8.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	cos := make([]float64, len(texts))
	var sum, other float64
	for i := range texts {
		cos[i] = cosine(a[i], b[i])
		sum += cos[i]
		// A neighbouring window's vector, for scale: the bar must be far
		// above what unrelated texts reach.
		other += cosine(a[i], b[(i+1)%len(b)])
	}
	sort.Float64s(cos)
	n := float64(len(cos))
	minCos, p1, mean := cos[0], cos[len(cos)/100], sum/n
	t.Logf("%d windows: cosine int8 vs float32 min %.4f, p1 %.4f, mean %.4f; neighbouring windows mean %.4f",
		len(cos), minCos, p1, mean, other/n)
	if minCos < 0.99 || mean < 0.998 {
		t.Errorf("int8 drifts from float32: min %.4f (want >= 0.99), mean %.4f (want >= 0.998)", minCos, mean)
	}
	if other/n > 0.9 {
		t.Errorf("neighbouring windows have mean cosine %.4f: the texts are not distinct", other/n)
	}
}

// parityTexts returns n distinct window texts, taken in turn from the
// corpora, from files spread over each corpus.
func parityTexts(t *testing.T, m *Model, n int) []string {
	t.Helper()
	opts := chunks.Options{MaxTokens: m.MaxTokens(), Counter: m}
	per := make([][]string, len(parityCorpora))
	for c, dir := range parityCorpora {
		var files []string
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(path) == ".md" {
				files = append(files, path)
			}
			return nil
		})
		if len(files) == 0 {
			testenv.Absent(t, "corpus %s is missing", dir)
		}
		sort.Strings(files)
		stride := max(1, len(files)/50)
		for i := 0; i < len(files) && len(per[c]) < n; i += stride {
			src, err := os.ReadFile(files[i])
			if err != nil {
				t.Fatal(err)
			}
			for _, ch := range chunks.Split(sections.Parse(files[i], src), opts) {
				for _, w := range ch.Windows {
					per[c] = append(per[c], w.EmbedText)
				}
			}
		}
	}
	seen := map[string]bool{}
	var texts []string
	for k := 0; len(texts) < n; k++ {
		added := false
		for c := range per {
			if k < len(per[c]) && len(texts) < n && !seen[per[c][k]] {
				seen[per[c][k]] = true
				texts = append(texts, per[c][k])
			}
			added = added || k < len(per[c])
		}
		if !added {
			t.Fatalf("the corpora give %d distinct windows, want %d", len(texts), n)
		}
	}
	return slices.Clip(texts)
}
