package chunks

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/internal/testenv"
	"github.com/mdsearch/mdsearch/sections"
)

// corporaDir is the shared corpora (testenv.Corpora).
func corporaDir() string { return testenv.Corpora() }

// corpusFiles lists the .md files under dir, skipping the test when dir is
// absent unless CI=true.
func corpusFiles(tb testing.TB, dir string) []string {
	if _, err := os.Stat(dir); err != nil {
		testenv.Absent(tb, "corpora absent: %v", err)
	}
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// TestCorpora splits every note of the shared corpora with both profiles,
// and with a reading budget smaller and larger than the default, and checks
// the invariants of passages and windows. Warnings are fine; broken invariants are not.
func TestCorpora(t *testing.T) {
	files := corpusFiles(t, corporaDir())
	if len(files) < 900 {
		t.Errorf("only %d corpus files found", len(files))
	}
	warned := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc := sections.Parse(filepath.ToSlash(f), src)
		if len(doc.Warnings) > 0 {
			warned++
			t.Logf("%s: %s", f, strings.Join(doc.Warnings, "; "))
		}
		for _, opts := range []Options{{}, {Profile: ProfileH2H3}, {MaxTokens: 512, PassageWords: 1000}, {MaxTokens: 64, PassageWords: 100}} {
			cs, err := trySplit(doc, opts)
			if err == nil {
				err = checkChunks(doc, opts, cs)
			}
			if err != nil {
				t.Errorf("%s (%+v): %v", f, opts, err)
				continue
			}
			if len(cs) == 0 && doc.WordCount > 0 {
				t.Errorf("%s: no chunks for %d words", f, doc.WordCount)
			}
		}
	}
	t.Logf("%d files, %d with warnings", len(files), warned)
}
