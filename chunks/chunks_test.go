package chunks

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/sections"
)

// words returns n words of filler ending in a full stop every ten words.
func words(n int, tag string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s%d", tag, i)
		if i%10 == 9 {
			b.WriteByte('.')
		}
	}
	return b.String()
}

func split(t *testing.T, src string, opts Options) (*sections.Document, []mdsearch.Chunk) {
	t.Helper()
	doc := sections.Parse("note.md", []byte(src))
	cs := Split(doc, opts)
	if err := checkChunks(doc, opts, cs); err != nil {
		t.Fatal(err)
	}
	return doc, cs
}

func paths(cs []mdsearch.Chunk) []string {
	out := []string{}
	for _, c := range cs {
		p := strings.Join(c.SectionPath, "/")
		for _, m := range c.Merged {
			p += " +" + strings.Join(m, "/")
		}
		out = append(out, fmt.Sprintf("%s %d/%d", p, c.Part, c.Parts))
	}
	return out
}

func TestSplitShapes(t *testing.T) {
	long := words(60, "w")
	tests := []struct {
		name string
		src  string
		opts Options
		want []string
	}{
		{"whole note fits", "# T\n\nshort\n\n## A\n\ntext\n", Options{}, []string{"T +T/A 1/1"}},
		{"no headings fits", "just text\n\nmore text\n", Options{}, []string{" 1/1"}},
		{"no headings, too long", words(300, "x"), Options{}, []string{" 1/3", " 2/3", " 3/3"}},
		{"every heading splits", "# T\n\n" + long + "\n\n## A\n\n" + long + "\n\n### B\n\n" + long + "\n", Options{MaxTokens: 80},
			[]string{"T 1/1", "T/A 1/1", "T/A/B 1/1"}},
		{"stub merges forward into a deeper section", "# T\n\nstub\n\n## A\n\n" + long + "\n\n## B\n\n" + long + "\n", Options{MaxTokens: 80},
			[]string{"T/A +T 1/1", "T/B 1/1"}},
		{"stub does not merge into a higher level", "# T\n\n" + long + "\n\n### S\n\nstub\n\n## A\n\n" + long + "\n", Options{MaxTokens: 80},
			[]string{"T 1/1", "T/S 1/1", "T/A 1/1"}},
		{"stubs chain", "# T\n\n" + long + "\n\n## A\n\none\n\n## B\n\ntwo\n\n## C\n\n" + long + "\n", Options{MaxTokens: 80},
			[]string{"T 1/1", "T/C +T/A +T/B 1/1"}},
		{"no stub rule", "# T\n\nstub\n\n## A\n\n" + long + "\n\n" + long + "\n", Options{MaxTokens: 80, StubWords: -1, Overlap: -1},
			[]string{"T 1/1", "T/A 1/2", "T/A 2/2"}},
		{"preamble", words(60, "p") + "\n\n# T\n\n" + long + "\n", Options{MaxTokens: 80}, []string{" 1/1", "T 1/1"}},
		{"h2h3 keeps a fitting H2 whole", "# T\n\n" + long + "\n\n" + long + "\n\n## A\n\nintro\n\n### B\n\nb text\n\n#### C\n\nc text\n", Options{MaxTokens: 80, Profile: ProfileH2H3},
			[]string{"T 1/2", "T 2/2", "T/A 1/1"}},
		{"h2h3 cuts a big H2 at H3, never H4", "# T\n\n" + long + "\n\n## A\n\n" + long + "\n\n### B\n\n" + long + "\n\n#### C\n\nc text\n", Options{MaxTokens: 80, Profile: ProfileH2H3},
			[]string{"T 1/1", "T/A 1/1", "T/A/B 1/1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, cs := split(t, tt.src, tt.opts)
			if got := paths(cs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestBudgetAndOverlap(t *testing.T) {
	src := "# T\n\n## Long\n\n" + words(400, "a") + "\n\n## Next\n\n" + words(400, "b") + "\n"
	for _, max := range []int{16, 32, 64, 128, 256} {
		_, cs := split(t, src, Options{MaxTokens: max})
		overlapped := 0
		for i, c := range cs {
			if c.TokenCount > max {
				t.Errorf("max %d: chunk %d has %d tokens", max, i, c.TokenCount)
			}
			if i == 0 {
				continue
			}
			prev := cs[i-1]
			sameSection := reflect.DeepEqual(prev.SectionPath, c.SectionPath)
			switch {
			case c.StartByte < prev.EndByte && !sameSection:
				t.Errorf("max %d: chunk %d overlaps the previous section", max, i)
			case c.StartByte < prev.EndByte:
				overlapped++
				if n := embed.CountWords(c.Text[:prev.EndByte-c.StartByte]); n > max*15/100*2 {
					t.Errorf("max %d: chunk %d repeats %d words", max, i, n)
				}
			}
		}
		if overlapped < len(cs)/2 {
			t.Errorf("max %d: only %d of %d chunks overlap", max, overlapped, len(cs))
		}
		if _, cs := split(t, src, Options{MaxTokens: max, Overlap: -1}); cs[1].StartByte < cs[0].EndByte {
			t.Errorf("max %d: overlap without overlap", max)
		}
	}
}

func TestEmbedText(t *testing.T) {
	src := "---\ntitle: Guide\n---\n# Guide\n\n" + words(80, "i") + "\n\n## Setup\n\n" + words(80, "s") + "\n"
	_, cs := split(t, src, Options{})
	if len(cs) != 2 || !strings.HasPrefix(cs[0].EmbedText, "[Guide] # Guide\n") || !strings.HasPrefix(cs[1].EmbedText, "[Guide > Setup] ## Setup\n") {
		t.Errorf("embed texts %q", []string{cs[0].EmbedText[:30], cs[1].EmbedText[:30]})
	}
	// A title that is not the first heading stays in front of it.
	_, cs = split(t, "## Other\n\n"+words(200, "o"), Options{MaxTokens: 100})
	if !strings.HasPrefix(cs[0].EmbedText, "[note > Other] ## Other") {
		t.Errorf("embed text %q", cs[0].EmbedText[:40])
	}
	// A heading longer than the budget is shortened in the prefix.
	long := words(300, "h")
	_, cs = split(t, "# "+long+"\n\n"+words(50, "b"), Options{MaxTokens: 64})
	for _, c := range cs {
		if p := c.EmbedText[:strings.Index(c.EmbedText, "] ")+2]; embed.CountWords(p) > 32 {
			t.Errorf("prefix of %d words", embed.CountWords(p))
		}
	}
}

func TestTables(t *testing.T) {
	var b strings.Builder
	b.WriteString("# T\n\n| Name | Value |\n|------|-------|\n")
	for i := range 80 {
		fmt.Fprintf(&b, "| row%d | %s |\n", i, words(6, "v"))
	}
	_, cs := split(t, b.String(), Options{MaxTokens: 64})
	if len(cs) < 3 {
		t.Fatalf("%d chunks", len(cs))
	}
	for i, c := range cs[1:] {
		if !strings.HasPrefix(c.Text, "| row") {
			t.Errorf("chunk %d does not start at a row: %q", i+1, c.Text[:20])
		}
		if !strings.Contains(c.EmbedText, "] | Name | Value |\n|------|-------|\n| row") || strings.Contains(c.Text, "Name") {
			t.Errorf("chunk %d: header not repeated in the embed text only: %q", i+1, c.EmbedText[:60])
		}
	}
}

func TestCodeSplitsAtLines(t *testing.T) {
	var b strings.Builder
	b.WriteString("# T\n\n```go\n")
	for i := range 100 {
		fmt.Fprintf(&b, "\tx%d := f(%d) // step %d\n", i, i, i)
	}
	b.WriteString("```\n")
	_, cs := split(t, b.String(), Options{MaxTokens: 64})
	for i, c := range cs[1:] {
		if !strings.HasPrefix(c.Text, "\tx") {
			t.Errorf("chunk %d does not start at a line: %q", i+1, c.Text[:10])
		}
	}
}

func TestUnsplittableRuns(t *testing.T) {
	// With a character counter a long word must be cut, and never exceed.
	word := strings.Repeat("abcdefghij", 500)
	_, cs := split(t, "# T\n\n"+word+"\n", Options{MaxTokens: 32, Counter: charCounter{}})
	if len(cs) < 10 {
		t.Errorf("a %d-byte word gave %d chunks", len(word), len(cs))
	}
	// Estimates that run low make chunks shrink, down to characters.
	split(t, "# T\n\n"+word+" "+words(300, "w")+"\n", Options{MaxTokens: 20, Counter: floorCounter{}})
	// A budget smaller than a heading still terminates and keeps invariants.
	split(t, "# "+words(40, "h")+"\n\n"+words(40, "b"), Options{MaxTokens: 1})
}

func TestInvalidUTF8AndCRLF(t *testing.T) {
	src := "\ufeff# Caf\xe9\r\n\r\n" + strings.ReplaceAll(words(200, "w"), ". ", ".\r\n") + "\r\n"
	doc, cs := split(t, src, Options{MaxTokens: 64})
	if cs[0].StartByte != 3 || !strings.HasPrefix(cs[0].Text, "# Caf\uFFFD\r\n") || !strings.HasPrefix(cs[0].EmbedText, "[Caf\uFFFD] ") {
		t.Errorf("first chunk %+v", cs[0])
	}
	if len(doc.Warnings) != 1 {
		t.Errorf("warnings %q", doc.Warnings)
	}
}

func TestOptions(t *testing.T) {
	if d := (Options{}).withDefaults(); d.MaxTokens != 128 || d.Counter == nil || d.Profile != ProfileSections || d.Overlap != 0.15 || d.StubWords != 50 {
		t.Errorf("defaults %+v", d)
	}
	if !reflect.DeepEqual(DefaultOptions(), Options{}.withDefaults()) {
		t.Error("DefaultOptions differs from the zero value's defaults")
	}
	for _, tt := range []struct {
		in string
		ok bool
	}{{"", true}, {"sections", true}, {"h2h3", true}, {"H2H3", false}, {"words", false}} {
		if _, ok := ParseProfile(tt.in); ok != tt.ok {
			t.Errorf("ParseProfile(%q) ok = %v", tt.in, ok)
		}
	}
}

func TestEmptyNotes(t *testing.T) {
	for _, src := range []string{"", "\n\n  \n", "---\ntitle: x\n---\n", "\ufeff"} {
		if _, cs := split(t, src, Options{}); len(cs) != 0 {
			t.Errorf("%q: %d chunks", src, len(cs))
		}
	}
}

// TestHugeInputs covers the bad inputs that must never panic: 10,000
// headings, a 50 MB note, an unclosed fence.
func TestHugeInputs(t *testing.T) {
	var b strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&b, "%s %d\n\ntext %d\n\n", strings.Repeat("#", 1+i%6), i, i)
	}
	if _, cs := split(t, b.String(), Options{}); len(cs) < 1000 {
		t.Errorf("10,000 headings gave %d chunks", len(cs))
	}
	split(t, "# T\n\n```\n"+strings.Repeat("# not a heading\n", 5000), Options{})
	if testing.Short() {
		t.Skip("50 MB note skipped in -short mode")
	}
	unit := "## Part\n\n" + words(700, "z") + "\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode\n```\n\n"
	big := strings.Repeat(unit, 50<<20/len(unit)+1)
	start := time.Now()
	doc := sections.Parse("big.md", []byte(big))
	cs := Split(doc, Options{})
	if len(cs) == 0 || cs[len(cs)-1].EndByte < len(big)-10 {
		t.Errorf("%d chunks, last ends at %d of %d", len(cs), cs[len(cs)-1].EndByte, len(big))
	}
	t.Logf("50 MB: %d chunks in %v", len(cs), time.Since(start))
}
