package chunks

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
	"github.com/mdsearch/mdsearch/internal/testenv"
	"github.com/mdsearch/mdsearch/sections"
)

var (
	useOnce  sync.Once
	useModel *sentenceencoder.Model
	useErr   error
)

// realCounter is the local model, loaded once per test binary, for its
// tokenizer. Without its assets the caller skips, except in CI.
func realCounter(tb testing.TB) *sentenceencoder.Model {
	tb.Helper()
	useOnce.Do(func() { useModel, useErr = sentenceencoder.New(sentenceencoder.Options{Threads: 1}) })
	if useErr != nil {
		testenv.Absent(tb, "model assets missing (run `mdsearch setup`): %v", useErr)
	}
	return useModel
}

// embedCost is what indexing a corpus asks of the model: the windows it
// embeds (identical embed texts once, as the indexer does) and their tokens.
type embedCost struct {
	windows, tokens int // distinct windows and their tokens, heading windows included
	heads           int // tokens of prefixes and table headers
}

// verbatimHead is what the model reads before window w's text (its
// heading prefix and any table header) where that text is a slice of the
// passage's Text, else "": the heads this measure has always counted.
func verbatimHead(doc *sections.Document, opts Options, c mdsearch.Chunk, w mdsearch.Window) string {
	text := embeddedText(doc, opts.withDefaults(), c, w.StartByte, w.EndByte)
	if !strings.HasPrefix(c.Text[w.TextStart:], text) {
		return ""
	}
	return w.EmbedText[:len(w.EmbedText)-len(text)]
}

func measureCost(tb testing.TB, docs []*sections.Document, opts Options) embedCost {
	var c embedCost
	seen := map[string]bool{}
	for _, doc := range docs {
		for _, ch := range Split(doc, opts) {
			for _, w := range ch.Windows {
				if seen[w.Hash] {
					continue
				}
				seen[w.Hash] = true
				c.windows++
				c.tokens += w.TokenCount
				if !w.Heading {
					c.heads += opts.Counter.CountTokens(verbatimHead(doc, opts, ch, w))
				}
			}
		}
	}
	return c
}

// costCorpora are the corpora the embedding cost is reported on: the
// largest one and every dev set.
var costCorpora = []struct{ name, dir string }{
	{"rust-rfcs", "rust-rfcs/text"},
	{"chroma", "chroma-wikitexts/vault"},
	{"qmd", "qmd-eval/test"},
	{"vue-docs", "vue-docs/vault"},
	{"rust-book", "rust-book/src"},
}

func parseCorpus(tb testing.TB, dir string) []*sections.Document {
	var docs []*sections.Document
	root := filepath.Join(corporaDir(), dir)
	for _, f := range corpusFiles(tb, root) {
		src, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		docs = append(docs, sections.Parse(filepath.ToSlash(rel), src))
	}
	return docs
}

// BenchmarkEmbedCost reports, for each corpus and chunker setting, the
// distinct windows the model embeds and their tokens (the real model's
// counter), next to the defaults measured in the same run:
//
//	go test -run '^$' -bench EmbedCost -benchtime 1x ./chunks
func BenchmarkEmbedCost(b *testing.B) {
	m := realCounter(b)
	variants := []struct {
		name string
		opts Options
	}{
		{"default", Options{}},
		{"baseline", Options{CodeLines: -1, Overlap: 0.15}}, // both levers off
		{"code-all", Options{CodeLines: -1}},                // every line of code embedded
		{"overlap-0.15", Options{Overlap: 0.15}},
		{"overlap-none", Options{Overlap: -1}},
	}
	for _, corpus := range costCorpora {
		docs := parseCorpus(b, corpus.dir)
		for _, v := range variants {
			b.Run(corpus.name+"/"+v.name, func(b *testing.B) {
				opts := v.opts
				opts.Counter, opts.MaxTokens = m, m.MaxTokens()
				var c embedCost
				for b.Loop() {
					c = measureCost(b, docs, opts)
				}
				b.ReportMetric(float64(c.windows), "windows")
				b.ReportMetric(float64(c.tokens), "tokens")
				b.ReportMetric(float64(c.heads), "head-tokens")
			})
		}
	}
}
