package notehtml

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

// BenchmarkHTML renders every note of the Obsidian help vault as the page
// does (HTML: the sections parse for ids and comments, then goldmark with
// the note's extensions), beside goldmark's own GFM rendering of the same
// notes, the baseline a page cannot beat.
func BenchmarkHTML(b *testing.B) {
	notes, size := vaultNotes(b, filepath.Join("..", "..", "shared", "corpora", "obsidian-help", "en"))
	gfm := goldmark.New(goldmark.WithExtensions(extension.GFM))
	link := func(target, heading string, wiki bool) (string, bool) { return "/n/" + target, true }
	b.Run("goldmark", func(b *testing.B) {
		b.SetBytes(size)
		var out bytes.Buffer
		for b.Loop() {
			for _, src := range notes {
				out.Reset()
				if err := gfm.Convert(src, &out); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("page", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			for _, src := range notes {
				HTML(src, Options{Link: link})
			}
		}
	})
}

// vaultNotes reads every note under root, and their total size.
func vaultNotes(b *testing.B, root string) ([][]byte, int64) {
	if _, err := os.Stat(root); err != nil {
		testenv.Absent(b, "corpora missing: %v", err)
	}
	var notes [][]byte
	var size int64
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		src, err := os.ReadFile(p)
		notes, size = append(notes, src), size+int64(len(src))
		return err
	})
	if err != nil || len(notes) < 100 {
		b.Fatalf("%d notes: %v", len(notes), err)
	}
	return notes, size
}
