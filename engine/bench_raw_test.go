package engine

import (
	"os"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
)

// BenchmarkRawEmbedIndex is the raw baseline for a cold index built with
// the command line: the model alone embeds every distinct window text of
// the index at MDSEARCH_BENCH_INDEX, longest first in batches of 64 as the
// engine does, with no walking, parsing or writing. Dividing its seconds
// by the wall time of `mdsearch index` gives the pipeline's share of the
// model's throughput. Run with -benchtime 1x.
func BenchmarkRawEmbedIndex(b *testing.B) {
	e, m := benchIndex(b)
	texts, err := e.st.EmbedTexts(bg)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		secs := rawEmbed(b, m, texts).Seconds()
		b.ReportMetric(float64(len(texts))/secs, "embeds/s")
		b.ReportMetric(float64(len(texts)), "windows")
		b.ReportMetric(secs, "s")
	}
}

// benchIndex opens the index at MDSEARCH_BENCH_INDEX with the local model,
// skipping when it is not set.
func benchIndex(b *testing.B) (*Engine, *sentenceencoder.Model) {
	path := os.Getenv("MDSEARCH_BENCH_INDEX")
	if path == "" {
		b.Skip("set MDSEARCH_BENCH_INDEX to an index built with the local model")
	}
	m := realModel(b)
	return openEngine(b, path, m), m
}

// rawEmbed embeds texts with the model alone, longest first in batches of
// 64 as the engine orders them (so both pad alike), as many calls at once
// as the model runs side by side, and returns the time.
func rawEmbed(b *testing.B, m *sentenceencoder.Model, texts []string) time.Duration {
	texts = slices.Clone(texts)
	sort.SliceStable(texts, func(i, j int) bool { return len(texts[i]) > len(texts[j]) })
	n := m.Concurrency()
	start := time.Now()
	var wg sync.WaitGroup
	for k := range n {
		wg.Go(func() {
			for i := k * 64; i < len(texts); i += n * 64 {
				if _, err := m.Embed(bg, texts[i:min(i+64, len(texts))]); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return time.Since(start)
}
