package chunks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// codeNote is a note with a ten-line fenced block between two paragraphs.
func codeNote(line5 string) string {
	var b strings.Builder
	b.WriteString("# T\n\n## Build\n\n" + words(30, "p") + "\n\n```go\n")
	for i := 1; i <= 10; i++ {
		if i == 5 {
			b.WriteString(line5 + "\n")
			continue
		}
		fmt.Fprintf(&b, "code%d()\n", i)
	}
	b.WriteString("```\n\n" + words(30, "q") + "\n")
	return b.String()
}

// embedded joins the text windows' embed texts of every passage.
func embedded(cs []mdsearch.Chunk) string {
	var b strings.Builder
	for _, c := range cs {
		for _, w := range textWindows(c) {
			b.WriteString(w.EmbedText)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// TestCodeLines checks that the model reads only the first CodeLines lines
// of a code block (its fence and language first), while the passage text,
// which keyword search indexes, keeps the whole block.
func TestCodeLines(t *testing.T) {
	src := codeNote("code5()")
	for _, tt := range []struct {
		name  string
		opts  Options
		lines int // lines of the block embedded, fence included
	}{
		{"default", Options{}, DefaultCodeLines},
		{"two", Options{CodeLines: 2}, 2},
		{"one", Options{CodeLines: 1}, 1},
		{"all", Options{CodeLines: -1}, 12},
		{"small windows", Options{MaxTokens: 16, CodeLines: 3}, 3},
		{"h2h3", Options{Profile: ProfileH2H3}, DefaultCodeLines},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, cs := split(t, src, tt.opts)
			emb, text := embedded(cs), ""
			for _, c := range cs {
				text += c.Text
			}
			if !strings.Contains(emb, "```go") || !strings.Contains(emb, "p29.") || !strings.Contains(emb, "q29.") {
				t.Fatalf("fence or prose missing from the embed texts:\n%s", emb)
			}
			for i := 1; i <= 10; i++ {
				line := fmt.Sprintf("code%d()", i)
				if !strings.Contains(text, line) {
					t.Errorf("passage text lacks %s", line)
				}
				if want := i+1 <= tt.lines; strings.Contains(emb, line) != want {
					t.Errorf("%s embedded: %v, want %v", line, !want, want)
				}
			}
			if strings.Contains(emb, "```\n") != (tt.lines > 11) {
				t.Errorf("closing fence embedded with %d lines:\n%s", tt.lines, emb)
			}
		})
	}
}

// TestCodeEditsReuse checks that vectors are still reused by content: an
// edit in the part of a block the model does not read changes no window,
// and an edit in a paragraph changes only the windows that hold it.
func TestCodeEditsReuse(t *testing.T) {
	hashes := func(src string, opts Options) map[string]bool {
		_, cs := split(t, src, opts)
		m := map[string]bool{}
		for _, c := range cs {
			for _, w := range c.Windows {
				m[w.Hash] = true
			}
		}
		return m
	}
	changed := func(a, b map[string]bool) int {
		n := 0
		for h := range b {
			if !a[h] {
				n++
			}
		}
		return n
	}
	for _, opts := range []Options{{}, {MaxTokens: 24}} {
		base := hashes(codeNote("code5()"), opts)
		if n := changed(base, hashes(codeNote("edited()"), opts)); n != 0 {
			t.Errorf("%+v: editing line 5 of the block (not embedded) changed %d windows", opts, n)
		}
		if n := changed(base, hashes(codeNote("code5()"), Options{MaxTokens: opts.MaxTokens, CodeLines: -1})); n == 0 {
			t.Errorf("%+v: embedding the whole block changed no window", opts)
		}
		edited := strings.Replace(codeNote("code5()"), "q29.", "edited.", 1)
		if n := changed(base, hashes(edited, opts)); n != 1 {
			t.Errorf("%+v: editing the last sentence changed %d windows, want 1", opts, n)
		}
	}
}
