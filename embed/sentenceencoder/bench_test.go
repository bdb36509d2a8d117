package sentenceencoder

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	ort "github.com/yalue/onnxruntime_go"
	"golang.org/x/text/unicode/norm"

	"github.com/mdsearch/mdsearch/internal/testenv"
	"github.com/mdsearch/mdsearch/internal/wordcount"
)

// benchCorpus holds real markdown for benchmarks (outside the repository).
var benchCorpus = testenv.Corpora("rust-rfcs", "text")

// benchChunks cuts the corpus into n texts of at most Window tokens each,
// most of them exactly at the window, like the chunker's output.
func benchChunks(b testing.TB, tok *Tokenizer, n int) []string {
	b.Helper()
	var chunks []string
	for _, text := range corpusTexts(b) {
		words := strings.Fields(text)
		for len(words) > 0 && len(chunks) < n {
			k := fitWords(tok, words)
			chunks = append(chunks, strings.Join(words[:k], " "))
			words = words[k:]
		}
		if len(chunks) == n {
			break
		}
	}
	return chunks
}

// fitWords returns how many leading words fit in the window (at least one).
func fitWords(tok *Tokenizer, words []string) int {
	lo, hi := 1, min(len(words), Window)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if tok.Count(strings.Join(words[:mid], " ")) <= Window {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

const benchTexts = 64

// precisions are benchmarked side by side: float32 is the baseline.
var precisions = []Precision{Float32, Int8}

// BenchmarkPipeline is the full Embed: tokenize, sort and batch, run, pool
// and normalise, at each precision. Compare embeddings/s with
// BenchmarkRawRun.
func BenchmarkPipeline(b *testing.B) {
	for _, prec := range precisions {
		b.Run(string(prec), func(b *testing.B) { benchPipeline(b, prec) })
	}
}

func benchPipeline(b *testing.B, prec Precision) {
	m := testModel(b, Options{Precision: prec})
	chunks := benchChunks(b, m.tok, benchTexts)
	ctx := context.Background()
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		if _, err := m.Embed(ctx, chunks); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(chunks))/time.Since(start).Seconds(), "embeddings/s")
}

// BenchmarkRawRun is the baseline: session.Run alone on the same batches,
// tokenized and padded beforehand, side by side on the model's sessions as
// Embed runs them, at each precision.
func BenchmarkRawRun(b *testing.B) {
	for _, prec := range precisions {
		b.Run(string(prec), func(b *testing.B) { benchRawRun(b, prec) })
	}
}

func benchRawRun(b *testing.B, prec Precision) {
	m := testModel(b, Options{Precision: prec})
	_, runs := prepareBatches(b, m.tok)
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		runSideBySide(b, m, runs)
	}
	b.ReportMetric(float64(b.N*benchTexts)/time.Since(start).Seconds(), "embeddings/s")
}

// BenchmarkCountTokens measures the tokenizer on window-sized texts;
// BenchmarkCountWords is the trivial whitespace counter on the same texts.
func BenchmarkCountTokens(b *testing.B) {
	tok := testTokenizer(b)
	chunks := benchChunks(b, tok, benchTexts)
	b.ResetTimer()
	for b.Loop() {
		for _, c := range chunks {
			tok.Count(c)
		}
	}
	b.ReportMetric(float64(b.N*len(chunks))/b.Elapsed().Seconds(), "texts/s")
}

func BenchmarkCountWords(b *testing.B) {
	tok := testTokenizer(b)
	chunks := benchChunks(b, tok, benchTexts)
	b.ResetTimer()
	for b.Loop() {
		for _, c := range chunks {
			wordcount.Count(c)
		}
	}
	b.ReportMetric(float64(b.N*len(chunks))/b.Elapsed().Seconds(), "texts/s")
}

// BenchmarkLoad measures New: "cold" builds model.onnx from the tfjs files,
// "cached" reuses it. After the last load it embeds one batch of
// window-sized texts and reports the process's resident memory (VmRSS) and
// its peak (VmHWM); run one sub-benchmark per process for a clean peak.
func BenchmarkLoad(b *testing.B) {
	for _, cold := range []bool{false, true} {
		for _, prec := range precisions {
			name := map[bool]string{false: "cached", true: "cold"}[cold] + "/" + string(prec)
			b.Run(name, func(b *testing.B) { benchLoad(b, cold, prec) })
		}
	}
}

func benchLoad(b *testing.B, cold bool, prec Precision) {
	lib, src := testAssets(b)
	dir := src
	var m *Model
	for b.Loop() {
		if m != nil {
			m.Close()
		}
		if cold {
			b.StopTimer()
			dir = b.TempDir()
			linkFiles(b, src, dir)
			b.StartTimer()
		}
		var err error
		if m, err = New(Options{LibPath: lib, ModelDir: dir, Precision: prec}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	defer m.Close()
	if _, err := m.Embed(context.Background(), benchChunks(b, m.tok, DefaultBatchSize)); err != nil {
		b.Fatal(err)
	}
	rss, peak := memoryMB(b)
	b.ReportMetric(rss, "RSS-MB")
	b.ReportMetric(peak, "peakRSS-MB")
}

// linkFiles links the tfjs model files of src into dst.
func linkFiles(b *testing.B, src, dst string) {
	for _, name := range []string{"model.json", "vocab.json"} {
		if err := os.Symlink(filepath.Join(src, name), filepath.Join(dst, name)); err != nil {
			b.Fatal(err)
		}
	}
	shards, _ := filepath.Glob(filepath.Join(src, "group*-shard*"))
	for _, s := range shards {
		if err := os.Symlink(s, filepath.Join(dst, filepath.Base(s))); err != nil {
			b.Fatal(err)
		}
	}
}

// memoryMB reads VmRSS and VmHWM from /proc/self/status, in MiB.
func memoryMB(b *testing.B) (rss, peak float64) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status")
	}
	for _, line := range strings.Split(string(data), "\n") {
		var kb float64
		if _, err := fmt.Sscanf(line, "VmRSS: %f kB", &kb); err == nil {
			rss = kb / 1024
		}
		if _, err := fmt.Sscanf(line, "VmHWM: %f kB", &kb); err == nil {
			peak = kb / 1024
		}
	}
	return rss, peak
}

// hugeText is a 10 MB markdown-like text with some non-ASCII characters.
func hugeText() string {
	return strings.Repeat("Markdown notes grow in *odd* ways; search finds them again. Ünïcödé 日本語 🎉\n", 10<<20/80)
}

// BenchmarkCountTokens10MB counts the tokens of a 10 MB text;
// BenchmarkNFKC10MB is its first step alone, Unicode normalisation.
func BenchmarkCountTokens10MB(b *testing.B) {
	tok := testTokenizer(b)
	text := hugeText()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		tok.Count(text)
	}
}

func BenchmarkNFKC10MB(b *testing.B) {
	text := hugeText()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		norm.NFKC.String(text)
	}
}

// runSideBySide runs prepared batches (inputs, then output) on every
// session of m's pool at once, as Embed does.
func runSideBySide(b *testing.B, m *Model, runs [][]ort.Value) {
	var sessions []*ort.DynamicAdvancedSession
	for range m.pool.size() {
		s, err := m.pool.acquire(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		defer m.pool.release(s)
		sessions = append(sessions, s)
	}
	runStrided(b, sessions, runs)
}

// runStrided runs prepared batches on the sessions at once, session k
// taking every n-th batch from the k-th.
func runStrided(b *testing.B, sessions []*ort.DynamicAdvancedSession, runs [][]ort.Value) {
	var wg sync.WaitGroup
	for k, s := range sessions {
		wg.Go(func() {
			for i := k; i < len(runs); i += len(sessions) {
				if err := s.Run(runs[i][:2], runs[i][2:]); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}
