package sentenceencoder

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

// refCount is the count of the reference path: the whole lattice over the
// prepared text, backtracked.
func refCount(t *Tokenizer, text string) int {
	_, n := t.encode(text, 0)
	return n
}

// corpusTexts reads the benchmark corpus, skipping when it is absent
// (failing in CI).
func corpusTexts(tb testing.TB) []string {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join(benchCorpus, "*.md"))
	if len(files) == 0 {
		testenv.Absent(tb, "corpus %s is missing", benchCorpus)
	}
	sort.Strings(files)
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, string(data))
	}
	return out
}

// TestCountMatchesReferenceOnCorpus counts slices of real markdown the way
// the chunker does (blocks, windows, words; ASCII and not) with one
// tokenizer, so its word cache is warm and reused at many bases, and checks
// every count against the reference path.
func TestCountMatchesReferenceOnCorpus(t *testing.T) {
	tok := testTokenizer(t)
	if !tok.wordwise {
		t.Fatal("the model's vocabulary does not take the word-by-word count path")
	}
	docs := corpusTexts(t)
	rng := rand.New(rand.NewPCG(1, 2))
	checked, nonASCII := 0, 0
	for i, doc := range docs {
		if testing.Short() && i%10 != 0 {
			continue
		}
		var texts []string
		for _, para := range strings.Split(doc, "\n\n") {
			texts = append(texts, para)
		}
		for range 20 {
			a := rng.IntN(len(doc))
			b := min(len(doc), a+rng.IntN(2000))
			texts = append(texts, doc[a:b]) // may cut a UTF-8 sequence
		}
		if i%50 == 0 {
			texts = append(texts, doc)
		}
		for _, s := range texts {
			if got, want := tok.Count(s), refCount(tok, s); got != want {
				t.Fatalf("%d: Count(%q) = %d, reference %d", i, s, got, want)
			}
			if !isASCII(s) {
				nonASCII++
			}
			checked++
		}
	}
	if checked < 1000 || nonASCII == 0 {
		t.Fatalf("checked %d texts, %d not ASCII", checked, nonASCII)
	}
	t.Logf("%d texts, %d not ASCII", checked, nonASCII)
}

// TestCountSyntheticVocab checks the word-by-word count against the
// reference on vocabularies built to hit its edge cases: exact ties between
// segmentations (no margin, so the cache must not be trusted), pieces
// scoring 0 and above 0 (a score of exactly 0 reads as unset), unknown
// runs, and a vocabulary where the count path does not hold.
func TestCountSyntheticVocab(t *testing.T) {
	sep := string(separator)
	for _, tc := range []struct {
		name     string
		pieces   []string
		scores   []float64
		wordwise bool
	}{
		{"ties", []string{sep + "ab", sep, "ab", "a", "b", sep + "a"}, []float64{-2, -1, -1, -0.5, -0.5, -1.5}, true},
		{"inexact ties", []string{sep + "ab", sep, "ab", "a", "b", sep + "a", "ba"}, []float64{-0.3, -0.1, -0.2, -0.7, -0.6, -1.1, -0.9}, true},
		{"zero and positive", []string{sep, "a", ":", ":3", sep + ":", "b"}, []float64{-1, -2, 0, 3, 0, -0.25}, true},
		{"tiny gaps", []string{sep, "ab", "a", "b", sep + "a", "ba"}, []float64{-1, -3, -1.5, -1.5000000000001, -2.5, -3.0000000000001}, true},
		{"separator inside a piece", []string{sep, "a", "a" + sep + "b", "b"}, []float64{-1, -1, -1, -1}, false},
		{"no lone separator", []string{sep + "a", "a", "b"}, []float64{-1, -1, -1}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pieces := append([]string{"\uFFFD", "<s>", "</s>", "x1", "x2", "x3"}, tc.pieces...)
			scores := append(make([]float64, reservedIDs), tc.scores...)
			tok, err := newTokenizer(pieces, scores)
			if err != nil {
				t.Fatal(err)
			}
			if tok.wordwise != tc.wordwise {
				t.Fatalf("wordwise = %v, want %v", tok.wordwise, tc.wordwise)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			alphabet := []string{"a", "b", " ", ":", "3", "\n", "é", sep, "ab", " a"}
			for range 20000 {
				var b strings.Builder
				for range rng.IntN(24) {
					b.WriteString(alphabet[rng.IntN(len(alphabet))])
				}
				s := b.String()
				if got, want := tok.Count(s), refCount(tok, s); got != want {
					t.Fatalf("Count(%q) = %d, reference %d", s, got, want)
				}
			}
			// Not vacuous: words were cached, and some only with no margin.
			cached, tied := 0, 0
			for _, e := range tok.caches[0].tables[kindLead].entries {
				cached++
				if e.margin == 0 {
					tied++
				}
			}
			if tc.wordwise && (cached == 0 || strings.HasSuffix(tc.name, "ties") && tied == 0) {
				t.Fatalf("%d words cached, %d of them tied", cached, tied)
			}
		})
	}
}

// TestCountConcurrent counts from more goroutines than there are cache
// shards, as indexing workers do, and checks every count.
func TestCountConcurrent(t *testing.T) {
	tok := testTokenizer(t)
	var texts []string
	for _, c := range loadReference(t).TokenCases {
		texts = append(texts, c.Text)
	}
	want := make([]int, len(texts))
	for i, s := range texts {
		want[i] = refCount(tok, s)
	}
	errs := make(chan string, 2*cacheShards)
	for g := range 2 * cacheShards {
		go func() {
			for k := range 200 {
				i := (g*7 + k) % len(texts)
				if got := tok.Count(texts[i]); got != want[i] {
					errs <- fmt.Sprintf("Count(%q) = %d, want %d", texts[i], got, want[i])
					return
				}
			}
			errs <- ""
		}()
	}
	for range 2 * cacheShards {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}
