package sentenceencoder

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/chunks"
	"github.com/mdsearch/mdsearch/internal/testenv"
	"github.com/mdsearch/mdsearch/sections"
)

// parityCorpora are cut into windows for TestInt8Parity (outside the
// repository, like benchCorpus).
var parityCorpora = []string{
	testenv.Corpora("rust-rfcs", "text"),
	testenv.Corpora("vue-docs", "vault"),
	testenv.Corpora("rust-book", "src"),
}

const parityWindows = 1000

// int8Variants are the int8 precisions compared with float32.
var int8Variants = []Precision{Int8}

// TestInt8Parity compares int8 with float32 vectors on real windows, cut
// by chunks.Split with the model's own token counter as the index cuts
// them, spread over files of three corpora.
func TestInt8Parity(t *testing.T) {
	f32 := testModel(t, Options{Precision: Float32})
	texts := parityTexts(t, f32, parityWindows)
	ctx := context.Background()
	a, err := f32.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	for _, prec := range int8Variants {
		t.Run(string(prec), func(t *testing.T) {
			b, err := testModel(t, Options{Precision: prec}).Embed(ctx, texts)
			if err != nil {
				t.Fatal(err)
			}
			cos := make([]float64, len(texts))
			var sum, other float64
			for i := range texts {
				cos[i] = cosine(a[i], b[i])
				sum += cos[i]
				// A neighbouring window's vector, for scale: the bar must
				// be far above what unrelated texts reach.
				other += cosine(a[i], b[(i+1)%len(b)])
			}
			sort.Float64s(cos)
			n := float64(len(cos))
			minCos, p1, mean := cos[0], cos[len(cos)/100], sum/n
			t.Logf("%d windows: cosine %s vs float32 min %.4f, p1 %.4f, mean %.4f; neighbouring windows mean %.4f",
				len(cos), prec, minCos, p1, mean, other/n)
			if minCos < 0.99 || mean < 0.998 {
				t.Errorf("%s drifts from float32: min %.4f (want >= 0.99), mean %.4f (want >= 0.998)", prec, minCos, mean)
			}
			if other/n > 0.9 {
				t.Errorf("neighbouring windows have mean cosine %.4f: the texts are not distinct", other/n)
			}
		})
	}
}

// TestBatchIndependent embeds texts alone and inside one batch
// with very different texts (long and short, code, numbers, another
// script): with per-row activation scales a text's vector must not depend
// on its batch mates.
func TestBatchIndependent(t *testing.T) {
	texts := []string{
		"How do I borrow a value mutably twice in Rust?",
		"Vue components receive props from their parent.",
		strings.Repeat("0xFFFFFFFF 999999999 1e308 -1e308 ", 40),
		"fn main() { let v: Vec<u64> = (0..1_000_000).map(|x| x * x).collect(); println!(\"{:?}\", v.len()); }",
		strings.Repeat("Ünïcödé 日本語のテキスト 🎉🎉🎉 ", 20),
		"ok",
	}
	ctx := context.Background()
	for _, prec := range append([]Precision{Float32}, int8Variants...) {
		m := testModel(t, Options{Precision: prec})
		batched, err := m.Embed(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		worst := 1.0
		for i, text := range texts[:2] {
			alone, err := m.Embed(ctx, []string{text})
			if err != nil {
				t.Fatal(err)
			}
			worst = min(worst, cosine(alone[0], batched[i]))
		}
		t.Logf("%s: lowest cosine alone vs batched %.7f", prec, worst)
		if worst < 0.99999 {
			t.Errorf("%s: a text's vector changes with its batch mates: cosine %.7f, want > 0.99999", prec, worst)
		}
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
