package sections

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

// obsidianFrontmatter is the frontmatter text of every note of the
// obsidian-help vault that has one (two in three of its notes).
func obsidianFrontmatter(b *testing.B) (texts [][]byte, total int64) {
	root := testenv.NeedCorpora(b, "obsidian-help", "en")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if fm, _, ok := Frontmatter(src); ok {
			texts = append(texts, fm)
			total += int64(len(fm))
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return texts, total
}

// BenchmarkFrontmatter is a note's frontmatter as sections reads it (the
// fields, with leading-zero numbers kept as written, and the property
// text the keyword index holds), beside the baseline in the same run:
// yaml.v3 decoding the same text into a map.
func BenchmarkFrontmatter(b *testing.B) {
	texts, total := obsidianFrontmatter(b)
	b.Run("yaml.Unmarshal", func(b *testing.B) {
		b.SetBytes(total)
		b.ReportAllocs()
		for b.Loop() {
			for _, t := range texts {
				var v any
				if err := yaml.Unmarshal(t, &v); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("fields+properties", func(b *testing.B) {
		b.SetBytes(total)
		b.ReportAllocs()
		for b.Loop() {
			for _, t := range texts {
				fm, node, _ := parseFrontmatter(t, false)
				d := Document{Frontmatter: fm, fmNode: node}
				_ = d.PropertyText()
			}
		}
	})
}

// BenchmarkFrontmatterKeys is a frontmatter of many keys: at maxYAMLKeys,
// decoded, its cost yaml.v3's pairwise check for duplicate keys; far
// over it, parsed but not decoded.
func BenchmarkFrontmatterKeys(b *testing.B) {
	for _, n := range []int{maxYAMLKeys, 100_000} {
		text := []byte(keyLines(n, ""))
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				parseFrontmatter(text, false)
			}
		})
	}
}
