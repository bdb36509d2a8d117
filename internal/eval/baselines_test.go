package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/chunks"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/internal/testenv"
	"github.com/mdsearch/mdsearch/sections"
)

var corpora = testenv.Corpora()

// sentence is n words ending in a full stop, numbered so chunks are
// recognisable.
func sentence(tag string, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("%s%d", tag, i)
	}
	return strings.Join(w, " ") + "."
}

func paragraph(tag string, sentences, words int) string {
	s := make([]string, sentences)
	for i := range s {
		s[i] = sentence(fmt.Sprintf("%s_%d_", tag, i), words)
	}
	return strings.Join(s, " ")
}

var wordsOpts = chunks.Options{Counter: embed.Words{}}

func TestWholeDoc(t *testing.T) {
	src := "---\ntitle: Tea\ntags: [drink]\n---\n\n# Tea\n\nGreen and black.\n\n## Brewing\nHot water.\n\n"
	doc := sections.Parse("notes/tea.md", []byte(src))
	got := WholeDoc(doc, wordsOpts)
	if len(got) != 1 {
		t.Fatalf("%d chunks, want 1", len(got))
	}
	c := got[0]
	want := "# Tea\n\nGreen and black.\n\n## Brewing\nHot water."
	if c.Text != want || len(c.Windows) != 1 || c.Windows[0].EmbedText != want || src[c.StartByte:c.EndByte] != want {
		t.Errorf("text %q, want %q", c.Text, want)
	}
	if c.StartLine != 6 || c.EndLine != 11 || c.Path != "notes/tea.md" || c.Title != "Tea" || c.ID != "notes/tea.md#0" ||
		c.SectionPath == nil || len(c.SectionPath) != 0 || c.TotalChunks != 1 || c.WordCount != 9 || c.Windows[0].TokenCount != 9 ||
		len(c.Tags) != 1 || c.Windows[0].Hash == "" {
		t.Errorf("fields: %+v", c)
	}
	if got := WholeDoc(sections.Parse("e.md", []byte("---\na: 1\n---\n  \n")), wordsOpts); len(got) != 0 {
		t.Errorf("empty body: %d chunks", len(got))
	}
}

func TestParagraph(t *testing.T) {
	p60a, p60b, p60c := paragraph("a", 6, 10), paragraph("b", 6, 10), paragraph("c", 6, 10) // 60 words each
	big := paragraph("d", 8, 50)                                                            // 8 sentences of 50 words
	src := "# Heading\n\n" + p60a + "\n\n" + p60b + "\n  \n" + p60c + "\n\n" + big + "\n\n## Next\n\nTail words here.\n"
	doc := sections.Parse("p.md", []byte(src))
	got := Paragraph(doc, wordsOpts)
	want := []struct {
		first, last string
		words       int
	}{
		{"# Heading", "b_5_9.", 122}, // headings are just text: 2 + 60 + 60 words fit in 150
		{"c_0_0", "c_5_9.", 60},      // the next paragraph is oversized, so this one ends a chunk
		{"d_0_0", "d_2_49.", 150},    // the oversized paragraph is cut at sentences: 3 × 50
		{"d_3_0", "d_5_49.", 150},    //
		{"d_6_0", "d_7_49.", 100},    //
		{"## Next", "here.", 5},      // the paragraph after it starts a new chunk
	}
	if len(got) != len(want) {
		for _, c := range got {
			t.Logf("%d words: %.40q…", c.WordCount, c.Text)
		}
		t.Fatalf("%d chunks, want %d", len(got), len(want))
	}
	for i, w := range want {
		c := got[i]
		if !strings.HasPrefix(c.Text, w.first) || !strings.HasSuffix(c.Text, w.last) || c.WordCount != w.words {
			t.Errorf("chunk %d: %d words %.30q…%.20q, want %d words %q…%q", i, c.WordCount, c.Text, c.Text[max(0, len(c.Text)-20):], w.words, w.first, w.last)
		}
		if c.ChunkIndex != i || c.TotalChunks != len(want) || len(c.SectionPath) != 0 {
			t.Errorf("chunk %d: index %d/%d section %v", i, c.ChunkIndex, c.TotalChunks, c.SectionPath)
		}
	}
	checkChunks(t, doc, got, false)
}

func TestParagraphLongSentence(t *testing.T) {
	src := strings.Repeat("word ", 400) // one 400-word sentence without a stop
	got := Paragraph(sections.Parse("l.md", []byte(src)), wordsOpts)
	if len(got) != 3 || got[0].WordCount != 150 || got[1].WordCount != 150 || got[2].WordCount != 100 {
		t.Errorf("want 150+150+100 words, got %d chunks", len(got))
	}
}

func TestFixed(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		b.WriteString(sentence(fmt.Sprintf("s%d_", i), 10))
		b.WriteString(" ")
		if i%7 == 6 {
			b.WriteString("\n\n")
		}
	}
	doc := sections.Parse("f.md", []byte(b.String()))
	got := Fixed(doc, wordsOpts)
	// 102 sentences (1020 words) fit in 1024; the next window repeats the
	// last 20 sentences (200 words): windows start at sentences 0, 82, 164, 246.
	starts := []int{0, 82, 164, 246}
	ends := []int{101, 183, 265, 299}
	if len(got) != len(starts) {
		t.Fatalf("%d windows, want %d", len(got), len(starts))
	}
	for i := range starts {
		c := got[i]
		first, last := fmt.Sprintf("s%d_0", starts[i]), fmt.Sprintf("s%d_9.", ends[i])
		if !strings.HasPrefix(c.Text, first) || !strings.HasSuffix(c.Text, last) {
			t.Errorf("window %d: %.12q…%q, want %s…%s", i, c.Text, c.Text[len(c.Text)-8:], first, last)
		}
		if c.WordCount > FixedTokens {
			t.Errorf("window %d: %d words", i, c.WordCount)
		}
	}
	checkChunks(t, doc, got, true)
}

func TestFixedOverlapLeavesRoom(t *testing.T) {
	// Sentences of 800, 150, 900 and 100 words: repeating the 150 words
	// would leave no room for the 900, so the second window starts afresh
	// rather than holding the 150 words alone.
	src := sentence("a", 800) + " " + sentence("b", 150) + " " + sentence("c", 900) + " " + sentence("d", 100)
	got := Fixed(sections.Parse("o.md", []byte(src)), wordsOpts)
	if len(got) != 2 || !strings.HasPrefix(got[1].Text, "c0 ") {
		for _, c := range got {
			t.Logf("%.10q… %d words", c.Text, c.WordCount)
		}
		t.Errorf("want 2 windows, the second starting at c0")
	}
}

func TestSentences(t *testing.T) {
	src := []byte(`He said "Stop." Then left! Really? Yes... e.g.x stays. Line one
line two (see [1].) end`)
	var got []string
	for _, u := range sentences(src, 0, len(src)) {
		got = append(got, string(src[u.start:u.end]))
	}
	want := []string{`He said "Stop."`, "Then left!", "Really?", "Yes...", "e.g.x stays.", "Line one", "line two (see [1].)", "end"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// checkChunks verifies what every baseline promises: exact source slices
// with matching lines, in order, covering every word of the body;
// overlapping only when allowed.
func checkChunks(t *testing.T, doc *sections.Document, cs []mdsearch.Chunk, overlap bool) {
	t.Helper()
	covered := make([]bool, len(doc.Src))
	prevStart, prevEnd := -1, -1
	for i, c := range cs {
		if c.Text != doc.Text(c.StartByte, c.EndByte) || len(c.Windows) != 1 || c.Windows[0].EmbedText != c.Text {
			t.Fatalf("%s chunk %d: text is not the source slice", doc.Path, i)
		}
		if c.StartLine != doc.Line(c.StartByte) || c.EndLine != doc.Line(c.EndByte-1) || c.StartByte < doc.Body {
			t.Fatalf("%s chunk %d: lines %d-%d bytes %d-%d", doc.Path, i, c.StartLine, c.EndLine, c.StartByte, c.EndByte)
		}
		if strings.TrimSpace(c.Text) != c.Text || c.Text == "" {
			t.Fatalf("%s chunk %d: untrimmed or empty", doc.Path, i)
		}
		if c.StartByte <= prevStart || (!overlap && c.StartByte < prevEnd) || c.EndByte <= prevEnd {
			t.Fatalf("%s chunk %d: bytes %d-%d after %d-%d", doc.Path, i, c.StartByte, c.EndByte, prevStart, prevEnd)
		}
		prevStart, prevEnd = c.StartByte, c.EndByte
		for b := c.StartByte; b < c.EndByte; b++ {
			covered[b] = true
		}
	}
	for i, r := range string(doc.Src[doc.Body:]) {
		if !unicode.IsSpace(r) && !covered[doc.Body+i] {
			t.Fatalf("%s: byte %d (line %d) is in no chunk", doc.Path, doc.Body+i, doc.Line(doc.Body+i))
		}
	}
}

// corpusDocs parses every note under a corpus folder.
func corpusDocs(t testing.TB, dir string) []*sections.Document {
	t.Helper()
	var docs []*sections.Document
	err := filepath.WalkDir(filepath.Join(corpora, dir), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		docs = append(docs, sections.Parse(p, src))
		return nil
	})
	if err != nil || len(docs) == 0 {
		t.Skipf("corpus %s unavailable: %v", dir, err)
	}
	return docs
}

func TestBaselinesOnCorpora(t *testing.T) {
	for _, dir := range []string{"rust-book/src", "obsidian-help/en", "chroma-wikitexts/vault"} {
		for _, doc := range corpusDocs(t, dir) {
			checkChunks(t, doc, WholeDoc(doc, wordsOpts), false)
			para := Paragraph(doc, wordsOpts)
			checkChunks(t, doc, para, false)
			for _, c := range para {
				if c.WordCount > ParagraphWords {
					t.Fatalf("%s: paragraph chunk of %d words", doc.Path, c.WordCount)
				}
			}
			fixed := Fixed(doc, wordsOpts)
			checkChunks(t, doc, fixed, true)
			for _, c := range fixed {
				if c.Windows[0].TokenCount > FixedTokens {
					t.Fatalf("%s: fixed window of %d words", doc.Path, c.Windows[0].TokenCount)
				}
			}
		}
	}
}

func FuzzBaselines(f *testing.F) {
	f.Add("# A\n\nOne. Two!\n\n## B\nthree? four\n")
	f.Add("---\nx: 1\n---\n" + strings.Repeat("word ", 500))
	f.Add("\r\n\r\n a.\u00a0b. \xff\xfe c\n")
	f.Fuzz(func(t *testing.T, src string) {
		doc := sections.Parse("fuzz.md", []byte(src))
		checkChunks(t, doc, WholeDoc(doc, wordsOpts), false)
		checkChunks(t, doc, Paragraph(doc, wordsOpts), false)
		checkChunks(t, doc, Fixed(doc, wordsOpts), true)
	})
}

// The baselines beside chunks.Split, on the same notes.
func BenchmarkChunkers(b *testing.B) {
	docs := corpusDocs(b, "rust-book/src")
	split := map[string]func(*sections.Document, chunks.Options) []mdsearch.Chunk{
		"chunks.Split": chunks.Split, "whole-doc": WholeDoc, "paragraph": Paragraph, "fixed": Fixed,
	}
	for _, name := range []string{"chunks.Split", "whole-doc", "paragraph", "fixed"} {
		b.Run(name, func(b *testing.B) {
			bytes := 0
			for _, d := range docs {
				bytes += len(d.Src)
			}
			b.SetBytes(int64(bytes))
			for b.Loop() {
				for _, d := range docs {
					split[name](d, wordsOpts)
				}
			}
		})
	}
}
