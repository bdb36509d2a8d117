package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// TestReadLines: a long note without headings comes back as its start,
// whole lines up to the long-note limit, with the line to read on from;
// reading on by lines gets the rest, and bad ranges are refused.
func TestReadLines(t *testing.T) {
	vault := t.TempDir()
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "Paragraph %d %s\n\n", i, strings.Repeat("word ", 58))
	}
	write(t, vault, "log.md", b.String()) // 2,400 words, 80 lines
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	bg := context.Background()

	r, err := e.Read(bg, mdsearch.ReadRequest{Path: "log.md"})
	if err != nil {
		t.Fatal(err)
	}
	if !r.More || r.StartLine != 1 || r.EndLine != 50 || r.WordCount != 1500 || !strings.HasSuffix(r.Content, "\n\n") ||
		!strings.Contains(r.Notice, "here are lines 1–50 of 80; read on from line 51") {
		t.Errorf("preview: more %v, lines %d–%d, %d words, notice %q", r.More, r.StartLine, r.EndLine, r.WordCount, r.Notice)
	}
	rest, err := e.Read(bg, mdsearch.ReadRequest{Path: "log.md", Lines: "51-"})
	if err != nil {
		t.Fatal(err)
	}
	if rest.More || rest.StartLine != 51 || rest.EndLine != 80 || r.Content+rest.Content != b.String() || rest.Tokens < rest.WordCount {
		t.Errorf("the rest: lines %d–%d, %d words, %d tokens", rest.StartLine, rest.EndLine, rest.WordCount, rest.Tokens)
	}
	for _, c := range []struct {
		lines, want string
		n           int // lines
	}{
		{"3", "Paragraph 1 ", 1}, {"3-3", "Paragraph 1 ", 1}, {" 79 - 200 ", "Paragraph 39 ", 2},
	} {
		got, err := e.Read(bg, mdsearch.ReadRequest{Path: "log.md", Lines: c.lines})
		if err != nil || !strings.HasPrefix(got.Content, c.want) || strings.Count(got.Content, "\n") != c.n {
			t.Errorf("lines %q: %v %+v", c.lines, err, got)
		}
	}
	for _, req := range []mdsearch.ReadRequest{
		{Path: "log.md", Lines: "0-3"}, {Path: "log.md", Lines: "5-4"}, {Path: "log.md", Lines: "x"},
		{Path: "log.md", Lines: "81"}, {Path: "log.md", Lines: "1-2", Section: "Intro"},
	} {
		var me *mdsearch.Error
		if _, err := e.Read(bg, req); !errors.As(err, &me) || me.Kind != mdsearch.KindInvalid {
			t.Errorf("%+v: %v, want invalid", req, err)
		}
	}
	if full, err := e.Read(bg, mdsearch.ReadRequest{Path: "log.md", Full: true}); err != nil || full.Content != b.String() || full.More {
		t.Errorf("full: %v", err)
	}
}

// A note with old Mac line endings (lone CRs) is read as lines everywhere
// alike: the outline's lines read back, and its text, in results and
// reads, has LFs where a terminal would have overwritten each line.
func TestLoneCRLines(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "mac.md", "# CR Only\r\rBody crlonelymoose.\r\r## Second CR\r\rCR second body crsecondelk.\r")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	sec, err := e.Read(bg, mdsearch.ReadRequest{Path: "mac.md", Section: "Second CR"})
	if err != nil || sec.StartLine != 5 || sec.EndLine != 7 || sec.Content != "## Second CR\n\nCR second body crsecondelk." {
		t.Fatalf("section: %+v, %v", sec, err)
	}
	byLines, err := e.Read(bg, mdsearch.ReadRequest{Path: "mac.md", Lines: "5-7"})
	if err != nil || byLines.Content != sec.Content+"\n" {
		t.Errorf("lines 5-7: %+v, %v", byLines, err)
	}
	whole, err := e.Read(bg, mdsearch.ReadRequest{Path: "mac.md"})
	if err != nil || whole.EndLine != 7 || strings.Contains(whole.Content, "\r") {
		t.Errorf("whole: %+v, %v", whole, err)
	}
	resp, err := e.Search(bg, mdsearch.SearchRequest{Query: "crsecondelk", Mode: mdsearch.ModeKeyword})
	if err != nil || len(resp.Results) == 0 || strings.Contains(resp.Results[0].Text, "\r") || !strings.Contains(resp.Results[0].Text, "crsecondelk") {
		t.Errorf("search: %+v, %v", resp, err)
	}
}

// TestReadSuggests: a note named as a wikilink names it (no ".md", the
// file name alone, another case) is found, or suggested.
func TestReadSuggests(t *testing.T) {
	vault := copyDir(t, sampleVault)
	write(t, vault, "v:colon.md", "# Colon\n\ntext\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	bg := context.Background()
	// A note whose name starts like a collection prefix reads both ways;
	// when "v:colon.md" could also be colon.md of v, it says which is which.
	for _, p := range []string{"v:colon.md", "v:v:colon.md"} {
		if r, err := e.Read(bg, mdsearch.ReadRequest{Path: p}); err != nil || r.Path != "v:colon.md" {
			t.Errorf("read %s: %v", p, err)
		}
	}
	write(t, vault, "colon.md", "# Plain\n\ntext\n")
	index(t, e, vault, "v")
	if _, err := e.Read(bg, mdsearch.ReadRequest{Path: "v:colon.md"}); mdsearch.KindOf(err) != mdsearch.KindInvalid ||
		!strings.Contains(err.Error(), "read v:v:colon.md for the note named v:colon.md, or v:./colon.md") {
		t.Errorf("two notes by one name: %v", err)
	}
	for p, want := range map[string]string{"v:v:colon.md": "v:colon.md", "v:./colon.md": "colon.md"} {
		if r, err := e.Read(bg, mdsearch.ReadRequest{Path: p}); err != nil || r.Path != want {
			t.Errorf("read %s: %v", p, err)
		}
	}
	if r, err := e.Read(bg, mdsearch.ReadRequest{Path: "kitchen/Sourdough"}); err != nil || r.Path != "kitchen/Sourdough.md" {
		t.Errorf("without .md: %v", err)
	}
	// A name without folders is a wikilink's: the one note of that file
	// name, in any case, is read; so is a path in another case, as
	// Obsidian resolves a link's.
	for _, p := range []string{"Sourdough", "sourdough.md", "KITCHEN/sourdough.md", "Kitchen/Sourdough"} {
		if r, err := e.Read(bg, mdsearch.ReadRequest{Path: p}); err != nil || r.Path != "kitchen/Sourdough.md" {
			t.Errorf("read %s: %+v, %v", p, r, err)
		}
	}
	// Another folder, a slip of the keys, or the start of the file name
	// (a numbered note's number): suggested. Nothing near: the hint says
	// how paths are named.
	for _, p := range []string{"bakery/Sourdough.md", "Bakery/sourdough", "kitchen/Sourdogh.md", "kitchen/Sourduogh.md", "Sourdogh", "sour dough", "sour", "Sourd.md", "kitchen/SOUR"} {
		_, err := e.Read(bg, mdsearch.ReadRequest{Path: p})
		var me *mdsearch.Error
		if !errors.As(err, &me) || me.Kind != mdsearch.KindNotFound || me.Hint != "did you mean kitchen/Sourdough.md?" { // one collection: the path alone, as results name it
			t.Errorf("%s: %v", p, err)
		}
	}
	// A link's fragment is no part of the name looked for.
	for _, p := range []string{"Sourdogh#Starter", "[[Sourdogh#Starter|the starter]]"} {
		_, err := e.Read(bg, mdsearch.ReadRequest{Path: p})
		var me *mdsearch.Error
		if !errors.As(err, &me) || me.Hint != "did you mean kitchen/Sourdough.md?" {
			t.Errorf("%s: %v", p, err)
		}
	}
	for _, p := range []string{"attic/Lampshades.md", "kitche"} { // a folder's name is no file's
		if _, err := e.Read(bg, mdsearch.ReadRequest{Path: p}); err == nil || strings.Contains(err.Error(), "did you mean") {
			t.Errorf("%s, nothing near: %v", p, err)
		}
	}
}

// TestReadFullPath: a note named by its full path inside a collection's
// folder reads as that note, quoted as read hints write it or not; full
// paths to files that exist outside the folder, through "..", or in a
// hidden folder inside it are refused.
func TestReadFullPath(t *testing.T) {
	vault := copyDir(t, "../sample-vault")
	write(t, vault, ".hidden/secret.md", "# Secret\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	root, _ := filepath.EvalSymlinks(vault)
	outside := filepath.Join(filepath.Dir(root), "elsewhere.md")
	if err := os.WriteFile(outside, []byte("# Elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	full := filepath.Join(root, "homelab", "Backups.md")
	for _, p := range []string{full, `"` + full + `"`} {
		resp, err := e.Read(bg, mdsearch.ReadRequest{Path: p, Section: "Restore Drill"})
		if err != nil || resp.Path != "homelab/Backups.md" || !strings.Contains(resp.Content, "Restore Drill") {
			t.Fatalf("%s: %+v, %v", p, resp, err)
		}
	}
	for _, p := range []string{outside, root + "/homelab/../../elsewhere.md", filepath.Join(root, ".hidden", "secret.md")} {
		_, err := e.Read(bg, mdsearch.ReadRequest{Path: p})
		if k := mdsearch.KindOf(err); k != mdsearch.KindForbidden && k != mdsearch.KindNotFound || err == nil {
			t.Errorf("%s: %v (kind %v)", p, err, k)
		}
		if err != nil && strings.Contains(err.Error(), "Elsewhere") || err != nil && strings.Contains(err.Error(), "Secret") {
			t.Errorf("%s: the error shows the file's text: %v", p, err)
		}
	}
}

// An empty note's read says so: an empty answer reads as a failure.
func TestReadEmptyNote(t *testing.T) {
	vault := copyDir(t, sampleVault)
	write(t, vault, "Empty.md", "")
	write(t, vault, "Blank.md", "\n\n  \n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, p := range []string{"Empty.md", "Blank.md"} {
		r, err := e.Read(bg, mdsearch.ReadRequest{Path: p})
		if err != nil || !strings.Contains(r.Notice, "the note is empty") {
			t.Errorf("%s: notice %q, %v", p, r.Notice, err)
		}
	}
	if r, err := e.Read(bg, mdsearch.ReadRequest{Path: "Inbox.md"}); err != nil || strings.Contains(r.Notice, "empty") {
		t.Errorf("a note with text: %+v, %v", r, err)
	}
}

// A read leaves Obsidian comments out, whole lines and inline, their line
// breaks kept so lines are still the note's, and says how many; asked
// for, they are kept. The private asides (and an Excalidraw drawing's
// data) reach no agent that did not ask for them.
func TestReadHidesComments(t *testing.T) {
	vault := copyDir(t, sampleVault)
	src := "# Garden\n\nWater daily. %%private aside%% Mulch.\n\n%%\nsecret block\n%%\n\n## Beds\n\nTomatoes. %%beds aside%%\n"
	write(t, vault, "Garden.md", src)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct {
		req     mdsearch.ReadRequest
		want    string
		comment int // comments the notice counts
	}{
		{mdsearch.ReadRequest{Path: "Garden.md"}, "# Garden\n\nWater daily.  Mulch.\n\n\n\n\n\n## Beds\n\nTomatoes.\n", 3},
		{mdsearch.ReadRequest{Path: "Garden.md", Section: "Beds"}, "## Beds\n\nTomatoes.", 1},
		{mdsearch.ReadRequest{Path: "Garden.md", Lines: "3-7"}, "Water daily.  Mulch.\n\n\n\n\n", 2},
		{mdsearch.ReadRequest{Path: "Garden.md", Comments: true}, src, 0},
		{mdsearch.ReadRequest{Path: "Inbox.md"}, "", 0},
	} {
		r, err := e.Read(bg, tt.req)
		if err != nil {
			t.Fatalf("%+v: %v", tt.req, err)
		}
		if tt.want != "" && r.Content != tt.want {
			t.Errorf("%+v: content %q, want %q", tt.req, r.Content, tt.want)
		}
		kept := tt.req
		kept.Comments = true
		if k, err := e.Read(bg, kept); err != nil || strings.Count(r.Content, "\n") != strings.Count(k.Content, "\n") ||
			k.StartLine != r.StartLine || k.EndLine != r.EndLine {
			t.Errorf("%+v: lines %d–%d, %d line breaks; with comments %+v", tt.req, r.StartLine, r.EndLine, strings.Count(r.Content, "\n"), k)
		}
		if r.CommentsLeftOut != tt.comment || strings.Contains(r.Notice, "comment") {
			t.Errorf("%+v: %d comments left out, notice %q; want %d, the adapters' to word", tt.req, r.CommentsLeftOut, r.Notice, tt.comment)
		}
	}
}

// A note long only by its hidden comments (an Excalidraw drawing's data)
// is read whole, not answered with its outline or first lines, and ends
// at its last line of text.
func TestReadLongOnlyByComments(t *testing.T) {
	vault := copyDir(t, sampleVault)
	data := "%%\n# Drawing\n```compressed-json\n" + strings.Repeat("N4KAkARALgngDgUwgLgAQQQDwMYEMA2AlgCYBOuA7hADTgQBuCpAzoQPYB2KqATLZMzYBXUtiRoIACyhQ4zZAHoFAc0JRJQgEYA6bGwC2CgF7N6hbEdP", 900) + "\n```\n%%\n"
	write(t, vault, "Garden.excalidraw.md", "---\nexcalidraw-plugin: parsed\n---\n# Text Elements\nRaised bed ^a1\n\n## Notes\n\nCompost here.\n\n"+data)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	r, err := e.Read(bg, mdsearch.ReadRequest{Path: "Garden.excalidraw.md"})
	if err != nil || r.Outline != nil || !strings.Contains(r.Content, "Compost here.") || strings.Contains(r.Content, "N4KA") {
		t.Fatalf("read: outline %v, notice %q, %d bytes, %v", r.Outline != nil, r.Notice, len(r.Content), err)
	}
	s, err := e.Read(bg, mdsearch.ReadRequest{Path: "Garden.excalidraw.md", Section: "Notes"})
	if err != nil || s.Outline != nil || !strings.Contains(s.Content, "Compost here.") || strings.Contains(s.Notice, "read on") {
		t.Errorf("section: %+v, %v", s, err)
	}
	k, err := e.Read(bg, mdsearch.ReadRequest{Path: "Garden.excalidraw.md", Comments: true})
	if err != nil || !strings.Contains(k.Notice, "KB") {
		t.Errorf("with comments, the note is long: notice %q, %v", k.Notice, err)
	}
	// The drawing's lines, blank once hidden, are left off the end of what
	// is read; the lines read are still the note's, and the notice says a
	// comment was left out.
	if !strings.HasSuffix(r.Content, "Compost here.\n") || r.EndLine != k.EndLine || r.CommentsLeftOut != 1 {
		t.Errorf("note: lines %d-%d (with comments %d), notice %q, ends %q", r.StartLine, r.EndLine, k.EndLine, r.Notice, r.Content[max(0, len(r.Content)-40):])
	}
	if s.Content != "## Notes\n\nCompost here." || s.EndLine != k.EndLine || s.CommentsLeftOut != 1 {
		t.Errorf("section: lines %d-%d, notice %q, content %q", s.StartLine, s.EndLine, s.Notice, s.Content)
	}
	if r.Tokens >= 200 {
		t.Errorf("note: %d tokens for a few lines of text", r.Tokens)
	}
}

// A note of comments alone says so, not that it is empty.
func TestReadOnlyComments(t *testing.T) {
	vault := copyDir(t, sampleVault)
	write(t, vault, "Aside.md", "%%\nprivate\n%%\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	r, err := e.Read(bg, mdsearch.ReadRequest{Path: "Aside.md"})
	if err != nil || !strings.Contains(r.Notice, "holds only comments") || strings.Contains(r.Notice, "is empty") || r.CommentsLeftOut != 1 ||
		r.Content != "" {
		t.Errorf("notice %q, content %q, %v", r.Notice, r.Content, err)
	}
	// A section of comments alone says so too.
	write(t, vault, "Aside.md", "%%\nprivate\n%%\n\n# Shown\n\ntext\n")
	index(t, e, vault, "v")
	if r, err := e.Read(bg, mdsearch.ReadRequest{Path: "Aside.md", Section: "/"}); err != nil || r.Content != "" || !strings.Contains(r.Notice, "section shows no text") {
		t.Errorf("section: notice %q, content %q, %v", r.Notice, r.Content, err)
	}
}

// A read whose hidden comments end the text ends at its last line of text
// and the note's own line break: a CRLF note's "\r\n", none where the note
// has none, a quote's markers on the comment's line left out.
func TestReadHiddenEnd(t *testing.T) {
	vault := copyDir(t, sampleVault)
	notes := []struct{ name, src, want string }{
		{"crlf.md", "# CR\r\n\r\ntext line\r\n\r\n%%\r\nhidden\r\n%%\r\n", "# CR\r\n\r\ntext line\r\n"},
		{"nonl.md", "# N\n\ntext line\n\n%%\nhidden\n%%", "# N\n\ntext line"},
		{"quote.md", "# Q\n\n> quoted text\n> %%\n> hidden\n> %%\n", "# Q\n\n> quoted text\n"},
	}
	for _, tt := range notes {
		write(t, vault, tt.name, tt.src)
	}
	// Hidden lines keep a list item's indent: 30,000 of them made the
	// section long (an outline answered) while the note read whole.
	write(t, vault, "indent.md", "# Top\n\nintro\n\n## Items\n\n- item one\n  %%\n"+strings.Repeat("  data line\n", 30000)+"  %%\n")
	// Text after them: the note is long by what it shows (87 KB of indents
	// and line breaks), and its notice names that size, not the file's.
	write(t, vault, "indent2.md", "# Top\n\nintro\n\n- item one\n  %%\n"+strings.Repeat("  data line\n", 30000)+"  %%\n\nlast words\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range notes {
		if r, err := e.Read(bg, mdsearch.ReadRequest{Path: tt.name}); err != nil || r.Content != tt.want {
			t.Errorf("%s: %q, want %q (%v)", tt.name, r.Content, tt.want, err)
		}
	}
	if r, err := e.Read(bg, mdsearch.ReadRequest{Path: "indent2.md"}); err != nil || !strings.Contains(r.Notice, "is 87 KB (over 64 KB)") {
		t.Errorf("indent2.md: notice %q, %v", r.Notice, err)
	}
	o, err := e.Outline(bg, "indent.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range o.Sections {
		r, err := e.Read(bg, mdsearch.ReadRequest{Path: "indent.md", Section: s.Section})
		if err != nil || r.Outline != nil || !strings.Contains(r.Content, "item one") || strings.Contains(r.Content, "data") || r.Tokens != s.Tokens {
			t.Errorf("%s: outline %v, %d tokens (outline %d), content %d bytes, %v", s.Section, r.Outline != nil, r.Tokens, s.Tokens, len(r.Content), err)
		}
	}
}

// A long note without headings previews its first lines of text: the
// words of a hidden comment at its top are not counted against the
// preview's 1,500, nor its bytes against its 16 KB.
func TestReadPreviewPastComments(t *testing.T) {
	vault := copyDir(t, sampleVault)
	hidden := "%%\n" + strings.Repeat("template instructions for this kind of note\n", 200) + "%%\n" // 1,400 words
	text := strings.Repeat("Otter field notes from the river bank today.\n", 400)                    // 3,200 words
	write(t, vault, "Otters.md", hidden+text)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	r, err := e.Read(bg, mdsearch.ReadRequest{Path: "Otters.md"})
	if err != nil || !r.More {
		t.Fatalf("read: more %v, notice %q, %v", r.More, r.Notice, err)
	}
	if n := strings.Count(r.Content, "Otter field notes"); n < 150 || strings.Contains(r.Content, "template") {
		t.Errorf("the preview shows %d lines of text (want 150 or more) to line %d: %q", n, r.EndLine, r.Content[:min(len(r.Content), 200)])
	}
	if want := 202 + strings.Count(r.Content, "Otter"); r.EndLine != want || r.Rest != fmt.Sprintf("%d-", want+1) {
		t.Errorf("preview to line %d, rest %q; want line %d", r.EndLine, r.Rest, want)
	}
}

// A long line after a hidden comment of over 8 KB is previewed by its
// first words: the comment's bytes do not count as lines already shown.
func TestReadPreviewLongLineAfterComment(t *testing.T) {
	vault := copyDir(t, sampleVault)
	hidden := "%%\n" + strings.Repeat(strings.Repeat("x", 70)+"\n", 150) + "%%\n" // 10.5 KB
	write(t, vault, "Long.md", hidden+strings.Repeat("heron ", 3000)+"\ntail line\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	r, err := e.Read(bg, mdsearch.ReadRequest{Path: "Long.md"})
	if err != nil || strings.Count(r.Content, "heron") < 1000 || strings.Contains(r.Notice, "only comments") {
		t.Errorf("%d words shown to line %d, notice %q, %v", strings.Count(r.Content, "heron"), r.EndLine, r.Notice, err)
	}
}

// A note of 1,500 words or fewer is read whole though its properties and
// markup would count more: it is long by its words as indexed, which the
// notice would name, not by words counted again from the text shown (a
// comment makes the read show text without it).
func TestReadShortNoteWithComment(t *testing.T) {
	vault := copyDir(t, sampleVault)
	props := "---\ndescription: " + strings.Repeat("words of the properties ", 50) + "\n---\n"          // 200 words
	text := "# Canvas\n\n%% a comment %%\n" + strings.Repeat("- [x] one **canvas** `card` line\n", 240) // 1,441 words and markup
	write(t, vault, "Canvas.md", props+text)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	r, err := e.Read(bg, mdsearch.ReadRequest{Path: "Canvas.md"})
	if err != nil || r.Outline != nil || r.More || r.WordCount > mdsearch.LongNoteWords || !strings.Contains(r.Content, "one **canvas**") {
		t.Errorf("read: %d words, outline %v, more %v, notice %q, %v", r.WordCount, r.Outline != nil, r.More, r.Notice, err)
	}
	// Its lines from the first, as a read of the whole note.
	if r, err := e.Read(bg, mdsearch.ReadRequest{Path: "Canvas.md", Lines: "1-"}); err != nil || r.More || !strings.Contains(r.Content, "description:") {
		t.Errorf("read --lines 1-: more %v, notice %q, %v", r.More, r.Notice, err)
	}
}

// A long range of lines, as a long note's "read on from line N" asks for
// ("N-"), comes as its first lines and the lines to read on from, so
// following the notices pages through a note; full gives it whole.
func TestReadLongRangePages(t *testing.T) {
	vault := copyDir(t, sampleVault)
	write(t, vault, "Flat.md", "# Flat\n\n"+strings.Repeat("Otter field notes from the river bank today.\n", 2000)) // 16,000 words
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	r, err := e.Read(bg, mdsearch.ReadRequest{Path: "Flat.md"})
	if err != nil || !r.More {
		t.Fatalf("read: more %v, %v", r.More, err)
	}
	pages, shown := 1, r.EndLine
	for r.More && pages < 20 {
		want := fmt.Sprintf("lines %d–2002 are", shown+1)
		if r, err = e.Read(bg, mdsearch.ReadRequest{Path: "Flat.md", Lines: r.Rest}); err != nil {
			t.Fatal(err)
		}
		pages++
		if r.WordCount > mdsearch.LongNoteWords || r.StartLine != shown+1 || (r.More && !strings.HasPrefix(r.Notice, want)) {
			t.Fatalf("page %d: lines %d–%d, %d words, notice %q (want it to start %q)", pages, r.StartLine, r.EndLine, r.WordCount, r.Notice, want)
		}
		shown = r.EndLine
	}
	if shown != 2002 || pages < 10 {
		t.Errorf("%d pages to line %d, want about 11 to line 2002", pages, shown)
	}
	if r, err = e.Read(bg, mdsearch.ReadRequest{Path: "Flat.md", Lines: "3-", Full: true}); err != nil || r.More || r.EndLine != 2002 {
		t.Errorf("full range: more %v to line %d, %v", r.More, r.EndLine, err)
	}
}

// TestReadAsNotice: a note read by another name than its path (its file
// name, wherever it sits; a wikilink) is named in the notice, with its
// collection where the index holds several: the text read says not which
// note it is. Its path, in any case, with or without .md, its collection
// or a fragment, needs no naming.
func TestReadAsNotice(t *testing.T) {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, copyDir(t, "../sample-vault"), "v")
	other := t.TempDir()
	write(t, other, "guide/plugins.md", "# Plugins\n\nText.\n")
	write(t, other, "C#.md", "# C sharp\n\nText.\n")
	write(t, other, "Upper.MD", "# Upper\n\nText.\n")
	write(t, other, "p|q.md", "# Pipe\n\nText.\n")
	write(t, other, "w:x.md", "# Colon\n\nText.\n")
	write(t, other, "Cafe\u0301.md", "# Café\n\nText.\n") // decomposed, as macOS writes it
	index(t, e, other, "w")
	for spec, want := range map[string]string{
		"Sourdough":                     `read "Sourdough" as v:kitchen/Sourdough.md`,
		"[[Sourdough]]":                 `read "[[Sourdough]]" as v:kitchen/Sourdough.md`,
		"plugins":                       `read "plugins" as w:guide/plugins.md`,
		"kitchen/Sourdough.md":          "",
		"Kitchen/sourdough":             "",
		"v:kitchen/Sourdough.md":        "",
		"kitchen/Sourdough#Rye Starter": "",
		"w:./guide/plugins.md":          "",
		"kitchen//./Sourdough.md":       "",
		"C#.md":                         "",
		"Upper.MD":                      "",
		"p|q.md":                        "", // not a link's alias
		"w:x.md":                        "", // not collection w's x.md
		"Caf\u00e9.md":                  "", // typed composed, written decomposed
		filepath.Join(other, "guide", "plugins.md"): "", // its full path
	} {
		r, err := e.Read(bg, mdsearch.ReadRequest{Path: spec})
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if got := r.Notice; want == "" && strings.Contains(got, "read \"") || want != "" && !strings.Contains(got, want) {
			t.Errorf("%s: notice %q, want %q", spec, got, want)
		}
	}
}
