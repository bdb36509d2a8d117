package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A section over the long-note limit is answered as a long note is: with
// its own text and its subsections' outline, or, with none, its first
// lines and the lines that read the rest of it; full gives it whole.
func TestReadLongSection(t *testing.T) {
	vault := t.TempDir()
	para := func(b *strings.Builder, n int) {
		for i := range n {
			fmt.Fprintf(b, "Paragraph %d %s\n\n", i, strings.Repeat("word ", 58))
		}
	}
	var b strings.Builder
	b.WriteString("# Guide\n\nIntro of the guide.\n\n## Part A\n\n")
	para(&b, 20)
	b.WriteString("## Part B\n\n")
	para(&b, 20)
	b.WriteString("# Log\n\n")
	para(&b, 40)
	b.WriteString("# End\n\nlast words\n")
	write(t, vault, "n.md", b.String())
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	bg := context.Background()

	r, err := e.Read(bg, mdsearch.ReadRequest{Path: "n.md", Section: "Guide"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Content != "# Guide\n\nIntro of the guide." || len(r.Outline) != 2 || r.Outline[0].Heading != "Part A" ||
		r.WordCount < 2400 || !strings.Contains(r.Notice, "here is its text before its first subsection") {
		t.Errorf("long section with subsections: content %q, outline %+v, %d words, notice %q", r.Content, r.Outline, r.WordCount, r.Notice)
	}

	r, err = e.Read(bg, mdsearch.ReadRequest{Path: "n.md", Section: "Log"})
	if err != nil {
		t.Fatal(err)
	}
	if !r.More || r.Outline != nil || !strings.HasPrefix(r.Content, "# Log\n") || r.WordCount > mdsearch.LongNoteWords ||
		r.Rest != fmt.Sprintf("%d-170", r.EndLine+1) || !strings.Contains(r.Notice, "read on from line") {
		t.Errorf("long flat section: more %v, lines %d–%d, rest %q, %d words, notice %q", r.More, r.StartLine, r.EndLine, r.Rest, r.WordCount, r.Notice)
	}
	rest, err := e.Read(bg, mdsearch.ReadRequest{Path: "n.md", Lines: r.Rest})
	if err != nil || !strings.HasPrefix(rest.Content, "Paragraph 24 ") || !strings.HasSuffix(rest.Content, "Paragraph 39 "+strings.Repeat("word ", 58)+"\n\n") {
		t.Errorf("the rest of the section: %v %.40q … %.40q", err, rest.Content, rest.Content[max(0, len(rest.Content)-40):])
	}

	// A long section whose own text is long too: its first lines, then
	// its subsections' outline.
	var own strings.Builder
	own.WriteString("# Big\n\n")
	para(&own, 50)
	own.WriteString("## Tiny\n\nx\n")
	write(t, vault, "own.md", own.String())
	r, err = e.Read(bg, mdsearch.ReadRequest{Path: "own.md", Section: "Big"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Outline) != 1 || !r.More || embedWords(r.Content) > mdsearch.LongNoteWords || r.Rest != fmt.Sprintf("%d-102", r.EndLine+1) ||
		!strings.Contains(r.Notice, "its own text is 3000 words") {
		t.Errorf("long own text: %d words shown, outline %d, rest %q, notice %q", embedWords(r.Content), len(r.Outline), r.Rest, r.Notice)
	}

	full, err := e.Read(bg, mdsearch.ReadRequest{Path: "n.md", Section: "Guide", Full: true})
	if err != nil || full.Outline != nil || full.More || !strings.Contains(full.Content, "Paragraph 19") || !strings.HasPrefix(full.Content, "# Guide") {
		t.Errorf("full section: %v, outline %v, more %v", err, full.Outline != nil, full.More)
	}
}

func embedWords(s string) int { return len(strings.Fields(s)) }

// The text before the first heading reads as section "/", and says so.
func TestReadPreamble(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "p.md", "Intro words here.\n\n# Title\n\nBody.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	r, err := e.Read(context.Background(), mdsearch.ReadRequest{Path: "p.md", Section: "/"})
	if err != nil || r.Section != "/" || strings.TrimSpace(r.Content) != "Intro words here." {
		t.Errorf("preamble: %v, section %q, content %q", err, r.Section, r.Content)
	}
}

// A note of few but long words (an embedded image) is long by its bytes:
// its start comes back, cut inside the long line, not megabytes of it;
// lines of code over the byte bound come back as whole first lines.
func TestReadLongBytes(t *testing.T) {
	vault := t.TempDir()
	blob := strings.Repeat("QUJD", 256<<10) // 1 MB, one word
	write(t, vault, "img.md", "# Img\n\nA screenshot of the rollout.\n\n![shot](data:image/png;base64,"+blob+")\n\nAfter it.\n")
	var code strings.Builder
	code.WriteString("# Code\n\n```\n")
	for i := range 4000 {
		fmt.Fprintf(&code, "x%d:=f(a,b,c,d,e,f,g);\n", i) // one word a line, 100 KB
	}
	code.WriteString("```\n")
	write(t, vault, "code.md", code.String())
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	bg := context.Background()

	r, err := e.Read(bg, mdsearch.ReadRequest{Path: "img.md"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Content) > 16<<10 || !strings.HasPrefix(r.Content, "# Img\n\nA screenshot") || r.EndLine != 5 ||
		!strings.Contains(r.Notice, "KB (over 64 KB)") || !strings.Contains(r.Notice, "cut after 16 KB") {
		t.Errorf("note of one long word: %d bytes to line %d, notice %q", len(r.Content), r.EndLine, r.Notice)
	}
	// Lines moved back to a blank one: the line named is the one cut.
	write(t, vault, "back.md", strings.Repeat("x", 5000)+" y\n\nshort line\n![s](data:"+blob+")\n")
	index(t, e, vault, "v")
	if r, err := e.Read(bg, mdsearch.ReadRequest{Path: "back.md"}); err != nil || r.EndLine != 4 ||
		strings.Count(r.Content, "\n") != 3 || !strings.Contains(r.Notice, "to line 4 cut after") {
		t.Errorf("cut after a short line: %v, to line %d, %d line breaks, notice %q", err, r.EndLine, strings.Count(r.Content, "\n"), r.Notice)
	}
	r, err = e.Read(bg, mdsearch.ReadRequest{Path: "img.md", Section: "Img"})
	if err != nil || len(r.Content) > 16<<10 {
		t.Errorf("section of one long word: %v, %d bytes", err, len(r.Content))
	}
	if r, err = e.Read(bg, mdsearch.ReadRequest{Path: "img.md", Full: true}); err != nil || len(r.Content) < 1<<20 {
		t.Errorf("full: %v, %d bytes", err, len(r.Content))
	}

	r, err = e.Read(bg, mdsearch.ReadRequest{Path: "code.md"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Content) > 16<<10 || !r.More || !strings.HasSuffix(r.Content, ");\n") || !strings.Contains(r.Notice, "read on from line") {
		t.Errorf("long code: %d bytes to line %d, more %v, notice %q", len(r.Content), r.EndLine, r.More, r.Notice)
	}
}

// TestOutlineCostsReads: an outline's cost of each section is what reading
// that section reports, so an agent can budget from the outline.
func TestOutlineCostsReads(t *testing.T) {
	vault := copyDir(t, "../sample-vault")
	write(t, vault, "Ownership.md", "# Ownership\n\n## Ownership Rules\n\nFirst, let’s look at the rules. Keep them in mind:\n\n- Each value in Rust has an _owner_.\n- There can only be one owner at a time.\n\n### Scope\n\n`let s = \"hello\";` is valid from here on.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	write(t, vault, "Drawing.md", "# Drawing\n\nA sketch. %%an aside%% Done.\n\n## Data\n\n%%\n"+strings.Repeat("eJyrVkrLz1eyUkpKLFKqBQAdegQ0\n", 40)+"%%\n")
	for _, path := range []string{"Ownership.md", "homelab/Backups.md", "kitchen/Sourdough.md", "Drawing.md"} {
		o, err := e.Outline(bg, path)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range o.Sections {
			r, err := e.Read(bg, mdsearch.ReadRequest{Path: path, Section: s.Section})
			if err != nil {
				t.Fatal(err)
			}
			if r.Tokens != s.Tokens || r.WordCount != s.WordCount {
				t.Errorf("%s > %s: outline %d words, %d tokens; read %d words, %d tokens", path, s.Section, s.WordCount, s.Tokens, r.WordCount, r.Tokens)
			}
		}
	}
}

// A long section answered with its own text and its subsections'
// outline counts the comments of the text it shows, not of the
// subsections it leaves to the outline.
func TestReadLongSectionComments(t *testing.T) {
	vault := t.TempDir()
	var b strings.Builder
	b.WriteString("# Guide\n\nIntro %%one%% of the guide. <!-- two -->\n\n## Part A\n\n")
	for i := range 40 {
		fmt.Fprintf(&b, "Paragraph %d %s %%%%aside%%%%\n\n", i, strings.Repeat("word ", 58))
	}
	write(t, vault, "n.md", b.String())
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	for _, tt := range []struct {
		req  mdsearch.ReadRequest
		want int
	}{
		{mdsearch.ReadRequest{Path: "n.md", Section: "Guide"}, 2},              // its own text, then the outline
		{mdsearch.ReadRequest{Path: "n.md", Section: "Guide", Full: true}, 42}, // all of it
		{mdsearch.ReadRequest{Path: "n.md"}, 0},                                // the note's outline alone
	} {
		r, err := e.Read(context.Background(), tt.req)
		if err != nil || r.CommentsLeftOut != tt.want {
			t.Errorf("%+v: %d comments left out, want %d (%v; lines %d–%d, outline %d)", tt.req, r.CommentsLeftOut, tt.want, err, r.StartLine, r.EndLine, len(r.Outline))
		}
	}
}
