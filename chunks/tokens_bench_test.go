package chunks

import (
	"errors"
	"io/fs"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
	"github.com/mdsearch/mdsearch/internal/testenv"
	"github.com/mdsearch/mdsearch/sections"
)

// modelCounter is the default model's tokenizer, the counter the index path
// passes to Split (sentenceencoder.Model.CountTokens is the same count). It needs only
// vocab.json.
func modelCounter(tb testing.TB) *sentenceencoder.Tokenizer {
	tb.Helper()
	tok, err := sentenceencoder.LoadDefaultTokenizer()
	if errors.Is(err, fs.ErrNotExist) {
		testenv.Absent(tb, "model assets missing: %v (run `mdsearch setup`)", err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return tok
}

// BenchmarkRFCsCounters runs on the Rust RFCs, interleaved so that a
// shared machine's slow spells fall on all of them alike: goldmark's parser
// alone (the baseline), sections.Parse, and sections.Parse + Split with the
// word counter (default options, and a 46-word window, which cuts about as
// many windows as the model's: all of Split but the counting) and with the
// model's counter at the model's window (the options the index path uses).
// chunk-model is the chunks stage alone: Split with the model's counter
// on notes parsed once, before the loops. Each loop runs every stage once,
// in turn; the metrics are MB/s of markdown per second of this process's
// CPU time over all loops, and split-model's over goldmark's.
func BenchmarkRFCsCounters(b *testing.B) {
	names, srcs, total := rfcs(b)
	model := modelOptions(b)
	docs := parseAll(names, srcs)
	p := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough)).Parser()
	stages := []stage{
		{"goldmark", func(i int) { p.Parse(text.NewReader(srcs[i])) }},
		{"sections", func(i int) { sections.Parse(names[i], srcs[i]) }},
		{"split-words", func(i int) { Split(sections.Parse(names[i], srcs[i]), Options{}) }},
		{"split-model", func(i int) { Split(sections.Parse(names[i], srcs[i]), model) }},
		{"split-words-46", func(i int) { Split(sections.Parse(names[i], srcs[i]), Options{MaxTokens: 46}) }},
		{"chunk-model", func(i int) { Split(docs[i], model) }},
	}
	used := interleave(b, stages, len(srcs), total)
	if used[3] > 0 {
		b.ReportMetric(float64(used[0])/float64(used[3]), "model/goldmark")
	}
}

// callCounter wraps a counter to measure how much text Split hands it.
type callCounter struct {
	embed.TokenCounter
	calls, bytes int
}

func (c *callCounter) CountTokens(text string) int {
	c.calls++
	c.bytes += len(text)
	return c.TokenCounter.CountTokens(text)
}

// TestModelCounterCalls reports how many bytes Split counts with the model's
// counter per byte of markdown, and holds it to a bound: a chunker that
// recounts growing prefixes would go quadratic.
func TestModelCounterCalls(t *testing.T) {
	names, srcs, total := rfcs(t)
	c := &callCounter{TokenCounter: modelCounter(t)}
	opts := Options{MaxTokens: sentenceencoder.Window, Counter: c}
	for i, src := range srcs {
		Split(sections.Parse(names[i], src), opts)
	}
	ratio := float64(c.bytes) / float64(total)
	t.Logf("%d calls, %d bytes counted for %d bytes of markdown (%.2fx)", c.calls, c.bytes, total, ratio)
	if c.calls == 0 || ratio > 8 {
		t.Errorf("counted %.2fx the input", ratio)
	}
}

// recorder keeps every text Split counts.
type recorder struct {
	embed.TokenCounter
	texts []string
	bytes int64
}

func (r *recorder) CountTokens(text string) int {
	r.texts = append(r.texts, text)
	r.bytes += int64(len(text))
	return r.TokenCounter.CountTokens(text)
}

// BenchmarkCountStream is the counter alone, on exactly the texts Split
// hands a counter that does not count ranges, for the Rust RFCs at the
// model's window: the model's counter, and the word counter on the same
// texts as the floor. MB/s are of counted text, several times the
// markdown.
func BenchmarkCountStream(b *testing.B) {
	names, srcs, _ := rfcs(b)
	tok := modelCounter(b)
	r := &recorder{TokenCounter: tok}
	for i, src := range srcs {
		Split(sections.Parse(names[i], src), Options{MaxTokens: sentenceencoder.Window, Counter: r})
	}
	for _, bc := range []struct {
		name    string
		counter embed.TokenCounter
	}{{"model", tok}, {"words", embed.Words{}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(r.bytes)
			cpu := cpuTime()
			for b.Loop() {
				for _, t := range r.texts {
					bc.counter.CountTokens(t)
				}
			}
			if used := (cpuTime() - cpu).Seconds(); used > 0 {
				b.ReportMetric(float64(r.bytes)*float64(b.N)/used/1e6, "cpu-MB/s")
			}
		})
	}
}

// BenchmarkSplitModelRFCs is the chunks stage alone as the index path runs
// it: Split with the model's counter at the model's window, on notes parsed
// before the loop, with its allocations (next to BenchmarkGoldmarkParseRFCs
// and BenchmarkSectionsParseRFCs).
func BenchmarkSplitModelRFCs(b *testing.B) {
	names, srcs, total := rfcs(b)
	model := modelOptions(b)
	docs := parseAll(names, srcs)
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			Split(d, model)
		}
	}
}

// BenchmarkParseSplitModelRFCs is the goal's stage alone, for profiling:
// sections.Parse + Split with the model's counter at the model's window.
func BenchmarkParseSplitModelRFCs(b *testing.B) {
	names, srcs, total := rfcs(b)
	model := modelOptions(b)
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for i := range srcs {
			Split(sections.Parse(names[i], srcs[i]), model)
		}
	}
}

// modelOptions are the options the index path splits with: the model's
// counter at the model's window.
func modelOptions(tb testing.TB) Options {
	return Options{MaxTokens: sentenceencoder.Window, Counter: modelCounter(tb)}
}

// stage is one step a benchmark times on every note (run(i) for note i).
type stage struct {
	name string
	run  func(i int)
}

// interleave runs every stage on notes 0..n-1 once per loop, in an order
// that turns each loop, so a shared machine's slow spells fall on all of
// them alike; it reports each stage's MB/s of markdown (total bytes a
// pass) per second of this process's CPU time, and returns the times.
func interleave(b *testing.B, stages []stage, n int, total int64) []time.Duration {
	used := make([]time.Duration, len(stages))
	round := 0
	for b.Loop() {
		for k := range stages {
			st := (k + round) % len(stages)
			cpu := cpuTime()
			for i := range n {
				stages[st].run(i)
			}
			used[st] += cpuTime() - cpu
		}
		round++
	}
	for k, st := range stages {
		if used[k] > 0 {
			b.ReportMetric(float64(total)*float64(b.N)/used[k].Seconds()/1e6, st.name+"-MB/s")
		}
	}
	return used
}

// parseAll parses every note once, for benchmarks of Split alone.
func parseAll(names []string, srcs [][]byte) []*sections.Document {
	docs := make([]*sections.Document, len(srcs))
	for i := range srcs {
		docs[i] = sections.Parse(names[i], srcs[i])
	}
	return docs
}
