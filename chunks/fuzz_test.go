package chunks

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch/internal/testenv"
	"github.com/mdsearch/mdsearch/sections"
)

// charCounter counts a token per four characters, white space included,
// plus two special tokens. Unlike words it is not additive over pieces, so
// it drives the chunker's recount-and-shrink paths.
type charCounter struct{}

func (charCounter) CountTokens(text string) int { return 2 + (utf8.RuneCountInString(text)+3)/4 }

// floorCounter counts a token per three characters, rounding down, plus
// three special tokens: the sum of the counts of pieces is often less than
// the count of the whole, so estimates run low and chunks must shrink.
type floorCounter struct{}

func (floorCounter) CountTokens(text string) int { return 3 + utf8.RuneCountInString(text)/3 }

// fuzzPassageWords are the reading budgets the top three bits of the fuzz
// flags pick: the default, and small ones so that short inputs are cut
// into several passages too.
var fuzzPassageWords = [8]int{0, 1, 3, 8, 20, 50, 120, 2}

// fuzzOptions maps fuzz inputs to options: budgets from 8 to 263 tokens,
// both profiles, three counters, with and without overlap and stubs, and
// reading budgets from 1 word to the default.
func fuzzOptions(maxTokens, flags uint8) Options {
	o := Options{MaxTokens: 8 + int(maxTokens), Profile: ProfileSections, PassageWords: fuzzPassageWords[flags>>5]}
	if flags&1 != 0 {
		o.Profile = ProfileH2H3
	}
	switch {
	case flags&16 != 0:
		o.Counter = floorCounter{}
	case flags&2 != 0:
		o.Counter = charCounter{}
	}
	if flags&4 != 0 {
		o.Overlap = -1
	}
	if flags&8 != 0 {
		o.StubWords = -1
	}
	return o
}

// specMarkdown returns the CommonMark spec examples' markdown, or nil when
// the file is absent (a failure when CI=true).
func specMarkdown(tb testing.TB) []string {
	b, err := os.ReadFile(filepath.Join(testenv.CacheHome(), "commonmark-spec-0.31.2", "tests.json"))
	if err != nil {
		testenv.SeedsAbsent(tb, "CommonMark spec examples absent (%v); run `mdsearch setup --test-data`", err)
		return nil
	}
	var ex []struct{ Markdown string }
	if err := json.Unmarshal(b, &ex); err != nil {
		tb.Fatal(err)
	}
	out := make([]string, len(ex))
	for i, e := range ex {
		out[i] = strings.ReplaceAll(e.Markdown, "→", "\t")
	}
	return out
}

// FuzzSplit checks the invariants of passages and their windows (see
// checkChunks) on any input. It is seeded with the CommonMark spec examples and the golden
// notes.
func FuzzSplit(f *testing.F) {
	addSplitSeeds(f)
	f.Fuzz(func(t *testing.T, src string, maxTokens, flags uint8) {
		opts := fuzzOptions(maxTokens, flags)
		// The fuzzer has no time limit per input; a hang must crash.
		watchdog := time.AfterFunc(10*time.Second, func() {
			panic(fmt.Sprintf("Split takes over 10s on %q with %+v", src, opts))
		})
		defer watchdog.Stop()
		doc := sections.Parse("fuzz.md", []byte(src))
		cs := Split(doc, opts)
		if err := checkChunks(doc, opts, cs); err != nil {
			t.Fatalf("%v\noptions %+v", err, opts)
		}
	})
}

// addSplitSeeds seeds a fuzzer of (markdown, budget, flags) with the
// CommonMark spec examples and the golden notes under several options.
func addSplitSeeds(f *testing.F) {
	for i, md := range specMarkdown(f) {
		f.Add(md, uint8(i%64), uint8(i*7%256))
	}
	files, _ := filepath.Glob("testdata/*.md")
	for i, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), uint8(24+i), uint8(i%32))
		f.Add(string(b), uint8(0), uint8(2))
		f.Add(string(b), uint8(8), uint8(16))
		f.Add(string(b), uint8(56), uint8(4<<5))    // 20-word passages
		f.Add(string(b), uint8(120), uint8(3<<5|1)) // 8-word passages, h2h3
	}
}
