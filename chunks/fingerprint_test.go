package chunks

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
	"github.com/mdsearch/mdsearch/sections"
)

// fingerprintFile records, for one chunks.Version, a SHA-256 of everything
// Split makes of the shared corpora under a few options.
const fingerprintFile = "testdata/corpora.sha256"

// fingerprintConfigs are the options fingerprinted: the index path's (the
// model's counter at its window), the word counter, the other profile and
// a small window.
func fingerprintConfigs(tb testing.TB) map[string]Options {
	model := modelCounter(tb)
	return map[string]Options{
		"words":           {},
		"words-h2h3":      {Profile: ProfileH2H3},
		"model":           {MaxTokens: sentenceencoder.Window, Counter: model},
		"model-64-100":    {MaxTokens: 64, PassageWords: 100, Counter: model},
		"model-h2h3-code": {MaxTokens: sentenceencoder.Window, Counter: model, Profile: ProfileH2H3, CodeLines: -1},
	}
}

// TestCorporaFingerprint holds Split to what it made of the corpora when
// chunks.Version last changed: a change of passages, windows or embed
// texts must bump Version (so indexes re-cut), then `go test ./chunks -run
// Fingerprint -update` records the new output.
func TestCorporaFingerprint(t *testing.T) {
	files := corpusFiles(t, corporaDir())
	sort.Strings(files)
	docs := make([]*sections.Document, len(files))
	root := corporaDir()
	for i, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		docs[i] = sections.Parse(filepath.ToSlash(rel), src)
	}
	got := map[string]string{}
	for name, opts := range fingerprintConfigs(t) {
		h := sha256.New()
		for _, doc := range docs {
			if err := json.NewEncoder(h).Encode(Split(doc, opts)); err != nil {
				t.Fatal(err)
			}
		}
		got[name] = hex.EncodeToString(h.Sum(nil))
	}
	if *update {
		writeFingerprint(t, got)
		return
	}
	version, want := readFingerprint(t)
	for name, sum := range got {
		switch {
		case want[name] == sum:
		case version == Version:
			t.Errorf("%s: Split's output changed without a new chunks.Version (%d): bump it, then run with -update", name, Version)
		default:
			t.Errorf("%s: chunks.Version is %d, the fingerprint is of %d: run with -update", name, Version, version)
		}
	}
}

func readFingerprint(t *testing.T) (int, map[string]string) {
	f, err := os.Open(fingerprintFile)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	defer f.Close()
	version, sums := -1, map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "# chunks.Version "); ok {
			fmt.Sscan(v, &version)
			continue
		}
		if name, sum, ok := strings.Cut(line, " "); ok {
			sums[name] = strings.TrimSpace(sum)
		}
	}
	return version, sums
}

func writeFingerprint(t *testing.T, sums map[string]string) {
	var b strings.Builder
	fmt.Fprintf(&b, "# chunks.Version %d\n", Version)
	names := make([]string, 0, len(sums))
	for name := range sums {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(&b, "%s %s\n", name, sums[name])
	}
	if err := os.WriteFile(fingerprintFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// plainCounter hides a counter's range counting, so Split counts every text
// whole.
type plainCounter struct{ embed.TokenCounter }

// TestRangesSameSplit checks that counting ranges changes nothing Split
// makes, with small budgets that cut often and tables and code kept whole.
func TestRangesSameSplit(t *testing.T) {
	files := corpusFiles(t, corporaDir())
	model := modelCounter(t)
	for i, f := range files {
		if testing.Short() && i%10 != 0 {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc := sections.Parse(f, src)
		for _, opts := range []Options{
			{MaxTokens: sentenceencoder.Window, Counter: model},
			{MaxTokens: 24, PassageWords: 40, Counter: model, CodeLines: -1},
			{MaxTokens: 300, PassageWords: 500, Counter: model, CodeLines: 3, Overlap: 0.3},
		} {
			if !sameSplit(doc, opts) {
				t.Fatalf("%s (%+v): counting ranges changes the split", f, opts)
			}
		}
	}
}

// FuzzRangesSplit checks on any note and options that counting ranges
// changes nothing Split makes, with the model's counter.
func FuzzRangesSplit(f *testing.F) {
	addSplitSeeds(f)
	model := modelCounter(f)
	f.Fuzz(func(t *testing.T, src string, maxTokens, flags uint8) {
		opts := fuzzOptions(maxTokens, flags)
		opts.Counter = model
		if flags&2 != 0 {
			opts.CodeLines = -1
		}
		if doc := sections.Parse("fuzz.md", []byte(src)); !sameSplit(doc, opts) {
			t.Fatalf("counting ranges changes the split of %q with %+v", src, opts)
		}
	})
}

// sameSplit reports whether Split makes the same of doc when opts.Counter
// counts ranges as when it counts every text whole.
func sameSplit(doc *sections.Document, opts Options) bool {
	plain := opts
	plain.Counter = plainCounter{opts.Counter}
	a, _ := json.Marshal(Split(doc, opts))
	b, _ := json.Marshal(Split(doc, plain))
	return string(a) == string(b)
}
