package chunks

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/mdsearch/mdsearch/sections"
)

// rfcs loads the Rust RFCs corpus once per benchmark.
func rfcs(b testing.TB) (names []string, srcs [][]byte, total int64) {
	for _, f := range corpusFiles(b, filepath.Join(corporaDir(), "rust-rfcs", "text")) {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		names, srcs = append(names, filepath.Base(f)), append(srcs, src)
		total += int64(len(src))
	}
	return names, srcs, total
}

// BenchmarkChunkRFCs is the whole chunker: parse, sections, passages, and
// their windows counted with the word counter and hashed.
func BenchmarkChunkRFCs(b *testing.B) {
	names, srcs, total := rfcs(b)
	b.SetBytes(total)
	b.ReportAllocs()
	n, w := 0, 0
	for b.Loop() {
		for i, src := range srcs {
			cs := Split(sections.Parse(names[i], src), Options{})
			n += len(cs)
			for _, c := range cs {
				w += len(c.Windows)
			}
		}
	}
	b.ReportMetric(float64(n)/float64(b.N), "passages/op")
	b.ReportMetric(float64(w)/float64(b.N), "windows/op")
}

// BenchmarkSectionsParseRFCs is sections.Parse alone.
func BenchmarkSectionsParseRFCs(b *testing.B) {
	names, srcs, total := rfcs(b)
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for i, src := range srcs {
			sections.Parse(names[i], src)
		}
	}
}

// BenchmarkGoldmarkParseRFCs is the baseline: goldmark's parser, with the
// same extensions, and nothing else.
func BenchmarkGoldmarkParseRFCs(b *testing.B) {
	_, srcs, total := rfcs(b)
	p := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough)).Parser()
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range srcs {
			p.Parse(text.NewReader(src))
		}
	}
}
