package chunks

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/embed/use"
	"github.com/mdsearch/mdsearch/internal/testenv"
	"github.com/mdsearch/mdsearch/sections"
)

// modelCounter is the default model's tokenizer, the counter the index path
// passes to Split (use.Model.CountTokens is the same count). It needs only
// vocab.json.
func modelCounter(tb testing.TB) *use.Tokenizer {
	tb.Helper()
	tok, err := use.LoadDefaultTokenizer()
	if errors.Is(err, fs.ErrNotExist) {
		testenv.Absent(tb, "model assets missing: %v (run `mdsearch setup`)", err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return tok
}

// BenchmarkChunkRFCsModel is BenchmarkChunkRFCs with the model's own token
// counts at the model's window, the options the index path uses.
func BenchmarkChunkRFCsModel(b *testing.B) {
	names, srcs, total := rfcs(b)
	opts := Options{MaxTokens: use.Window, Counter: modelCounter(b)}
	b.SetBytes(total)
	b.ReportAllocs()
	n, w := 0, 0
	for b.Loop() {
		for i, src := range srcs {
			cs := Split(sections.Parse(names[i], src), opts)
			n += len(cs)
			for _, c := range cs {
				w += len(c.Windows)
			}
		}
	}
	b.ReportMetric(float64(n)/float64(b.N), "passages/op")
	b.ReportMetric(float64(w)/float64(b.N), "windows/op")
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
	opts := Options{MaxTokens: use.Window, Counter: c}
	for i, src := range srcs {
		Split(sections.Parse(names[i], src), opts)
	}
	ratio := float64(c.bytes) / float64(total)
	t.Logf("%d calls, %d bytes counted for %d bytes of markdown (%.2fx)", c.calls, c.bytes, total, ratio)
	if c.calls == 0 || ratio > 8 {
		t.Errorf("counted %.2fx the input", ratio)
	}
}
