package sections

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/mdsearch/mdsearch"
)

func TestFindArrowPaths(t *testing.T) {
	d := Parse("n.md", []byte("# Cake\n## Ingredients\n### Dry\n## Method\n## A > B\n### C\n"+
		"## \\<script setup>\n### Reactivity\n## C++ tips\n## C tips\n## Install\n### Setup\n### Setup\n"))
	for _, tt := range []struct{ query, want string }{
		{"Cake > Ingredients", "Cake/Ingredients"},
		{"cake>ingredients>dry", "Cake/Ingredients/Dry"},
		{"Ingredients > Dry", "Cake/Ingredients/Dry"},
		{"Cake / Method", "Cake/Method"},
		{"A > B", "Cake/A > B"}, // a heading that holds ">" is found by its text
		{"Cake > A > B > C", "Cake/A > B/C"},
		{"A > B/C", "Cake/A > B/C"},
		// Paths as search results print them, headings with '<' and '>'.
		{"Cake > <script setup> > Reactivity", "Cake/<script setup>/Reactivity"},
		{"<script setup> > Reactivity", "Cake/<script setup>/Reactivity"},
		// Written exactly, a heading wins over one that reads the same
		// without its punctuation.
		{"C++ tips", "Cake/C++ tips"},
		{"c tips", "Cake/C tips"},
		{"Cake > C++ tips", "Cake/C++ tips"},
		{"Install > Setup", "Cake/Install/Setup"}, // the first of two (its read says so)
		{"Setup", "Cake/Install/Setup"},
	} {
		s, err := d.Find(tt.query)
		if err != nil || strings.Join(s.Path, "/") != tt.want {
			t.Errorf("Find(%q) = %v, %v; want %q", tt.query, s, err, tt.want)
		}
	}
	// Several sections with different paths are named as such: a name to
	// fix (invalid), not a section missing.
	_, err := d.Find("tips")
	var me *mdsearch.Error
	if err == nil || !strings.Contains(err.Error(), "matches several") || !errors.As(err, &me) || me.Kind != mdsearch.KindInvalid {
		t.Errorf("Find(tips) = %v; want several matches", err)
	}
	if s, err := d.Find("Ingredients > Dr"); err == nil {
		t.Errorf("Find(partial heading) = %v; want not found", s.Path)
	}
}

// TestFindOneHeading: a path of several headings is named only with a '>'
// or '/' between them; an anchor or words name one heading, whose '/'
// reads as a space ("#input-output", as links often spell Input/Output).
func TestFindOneHeading(t *testing.T) {
	d := Parse("io.md", []byte("# IO\n## Input/Output\nslashy\n### Files\nfiles\n## Input\n### Output\nnested\n"))
	for _, tt := range []struct {
		query, want string
		level       int
	}{
		{"#input-output", "Input/Output", 2},
		{"input-output", "Input/Output", 2},
		{"input output", "Input/Output", 2},
		{"Input > Output", "Output", 3},
		{"#output", "Output", 3},
		{"Input Output > Files", "Files", 3},
		{"input-output > files", "Files", 3},
		{"Input/Output > Files", "Files", 3},
	} {
		s, err := d.Find(tt.query)
		if err != nil || s.Heading != tt.want || s.Level != tt.level {
			t.Errorf("Find(%q) = %v, %v; want the level-%d heading %q", tt.query, s, err, tt.level, tt.want)
		}
	}
}

// TestOutlineEmptyHeadings: an empty heading is named by its anchor, not
// by a path that reads as "/" (the preamble) or "A/", and reads back.
func TestOutlineEmptyHeadings(t *testing.T) {
	d := Parse("e.md", []byte("Intro.\n\n# \n\n## \n\ntext\n\n# A\n\n## \n\nmore\n"))
	for _, e := range d.Outline() {
		if e.Level == 0 {
			continue
		}
		if e.Heading == "" && !strings.HasPrefix(e.Section, "#") {
			t.Errorf("empty heading named %q", e.Section)
		}
		if s, err := d.Find(e.Section); err != nil || !slices.Equal(s.Path, e.SectionPath) {
			t.Errorf("Find(%q) = %v, %v; want %q", e.Section, s, err, e.SectionPath)
		}
	}
	// A miss lists an empty heading by its id, which reads it back.
	_, err := Parse("e.md", []byte("# Setup\n\ntext\n\n# \n\nlast\n")).Find("nope")
	if err == nil || !strings.Contains(err.Error(), `"" (#heading)`) {
		t.Errorf("Find(nope) = %v; want the empty heading listed with its id", err)
	}
}

// TestFindUnworded: a query without letters or digits names the text
// before the first heading only as "" or "/"; anything else ("🦀", "!!!")
// only a heading written so.
func TestFindUnworded(t *testing.T) {
	d := Parse("n.md", []byte("Intro text.\n\n# Crab\n## 🦀\n## Other\n"))
	for _, tt := range []struct{ query, want string }{
		{"", ""}, {"/", ""}, {" / ", ""}, {"🦀", "Crab/🦀"}, {"Crab > 🦀", "Crab/🦀"},
		{"!!!", "error"}, {"🐙", "error"},
	} {
		s, err := d.Find(tt.query)
		got := "error"
		if err == nil {
			got = strings.Join(s.Path, "/")
		}
		if got != tt.want {
			t.Errorf("Find(%q) = %q (%v); want %q", tt.query, got, err, tt.want)
		}
	}
	// Two such headings under different parents: the first, as any
	// repeated heading.
	if s, err := Parse("n.md", []byte("# A\n## 🦀\n# B\n## 🦀\n")).Find("🦀"); err != nil || strings.Join(s.Path, "/") != "A/🦀" {
		t.Errorf("Find(🦀) of two: %v, %v; want the first", s, err)
	}
	// The preamble is listed among every section, not among the matches.
	_, err := Parse("n.md", []byte("Intro text.\n\n# A\n## Setup one\n## Setup two\n")).Find("setup")
	if err == nil || !strings.Contains(err.Error(), "matches several") || strings.Contains(err.Error(), `"/"`) {
		t.Errorf("Find(setup) = %v; want two matches, no preamble", err)
	}
}

// TestOutlineNames: an outline names each section by the shortest query
// that reads it back, and estimates its reading cost from words and bytes.
func TestOutlineNames(t *testing.T) {
	src := "# Guide\n## Linux\n### Setup\n## Mac\n### Setup\n## FAQ\n## FAQ\n## C++ tips\n## C tips\n" +
		"## Code\n```\n" + strings.Repeat("x:=f(a,b);", 40) + "\n```\n"
	d := Parse("g.md", []byte(src))
	var got []string
	for _, e := range d.Outline() {
		got = append(got, e.Section)
		if s, err := d.Find(e.Section); err != nil || !slices.Equal(s.Path, e.SectionPath) {
			t.Errorf("Find(%q) = %v, %v; want %q", e.Section, s, err, e.SectionPath)
		}
		if e.Heading == "Code" && e.Tokens < 100 { // one "word" of 400 bytes
			t.Errorf("Code: %d words, %d tokens", e.WordCount, e.Tokens)
		}
	}
	want := []string{"Guide", "Linux", "Guide/Linux/Setup", "Mac", "Guide/Mac/Setup", "#faq", "#faq-1",
		"Guide/C++ tips", "Guide/C tips", "Code"}
	if !slices.Equal(got, want) {
		t.Errorf("names %q\nwant  %q", got, want)
	}
}

// Headings a Mac wrote decomposed ("A" and U+0308) are found typed
// composed, and the other way round, and keep one id either way; marks of
// other scripts are part of their words.
func TestFindUnicodeForms(t *testing.T) {
	d := Parse("n.md", []byte("# U\u0308berblick\n## A\u0308nderungen\n## Café\n## हिन्दी\n"))
	for _, tt := range []struct{ query, want string }{
		{"Änderungen", "Überblick/Änderungen"},
		{"A\u0308nderungen", "Überblick/Änderungen"},
		{"Überblick > Änderungen", "Überblick/Änderungen"},
		{"Cafe\u0301", "Überblick/Café"},
		{"#änderungen", "Überblick/Änderungen"},
		{"#café", "Überblick/Café"},
		{"#हिन्दी", "Überblick/हिन्दी"},
	} {
		s, err := d.Find(tt.query)
		if err != nil {
			t.Errorf("%q: %v", tt.query, err)
			continue
		}
		if got := strings.Join(s.Path, "/"); norm.NFC.String(got) != norm.NFC.String(tt.want) {
			t.Errorf("%q found %q, want %q", tt.query, got, tt.want)
		}
	}
}

func TestBlockRef(t *testing.T) {
	src := "# N\n\nFirst paragraph. ^para-1\n\n- one\n- two\n\n^list-1\n\n## S\n\n| a |\n|---|\n| 1 |\n^tbl\n\n%%\nhidden ^gone\n%%\n\n![[shot.png]]^shot\n\nword^glued\n" +
		"\n- a\n\n  - a.1\n- b ^item\n+ c\n+ d\n\n^list-2\n"
	d := Parse("n.md", []byte(src))
	for _, tt := range []struct {
		ref        string
		start, end int
		section    string
	}{
		{"^para-1", 3, 3, "N"},
		{"#^para-1", 3, 3, "N"},
		{"^list-1", 5, 6, "N"},     // the block before: the whole list, as Obsidian and the page take it
		{"^item", 28, 28, "N/S"},   // one item's own id
		{"^list-2", 29, 30, "N/S"}, // "+" starts another list
		{"^tbl", 12, 15, "N/S"},
		{"^shot", 21, 21, "N/S"}, // right after an embed
	} {
		start, end, sec, ok := d.Block(tt.ref)
		if !ok || start != tt.start || end != tt.end || strings.Join(sec.Path, "/") != tt.section {
			t.Errorf("%s: lines %d-%d of %v (%v), want %d-%d of %s", tt.ref, start, end, sec, ok, tt.start, tt.end, tt.section)
		}
	}
	for _, ref := range []string{"^gone", "^nope", "para-1", "^", "^glued"} {
		if _, _, _, ok := d.Block(ref); ok {
			t.Errorf("%s: found", ref)
		}
	}
}

// A heading holding a wikilink is found by the text Obsidian shows for it
// (the alias, else the target), as well as by what it holds.
func TestFindShownLinks(t *testing.T) {
	d := Parse("n.md", []byte("# Top\n## See [[Other note|the other]]\n## Notes on [[Cake#Icing]]\n## Plain\n"))
	for _, tt := range []struct{ query, want string }{
		{"See the other", "Top/See [[Other note|the other]]"},
		{"Top > See the other", "Top/See [[Other note|the other]]"},
		{"See Other note", "Top/See [[Other note|the other]]"},
		{"See [[Other note|the other]]", "Top/See [[Other note|the other]]"},
		{"Notes on Cake > Icing", "Top/Notes on [[Cake#Icing]]"},
		{"the other", "Top/See [[Other note|the other]]"},
		{"Plain", "Top/Plain"},
	} {
		s, err := d.Find(tt.query)
		got := ""
		if err == nil {
			got = strings.Join(s.Path, "/")
		}
		if got != tt.want {
			t.Errorf("Find(%q) = %q, %v; want %q", tt.query, got, err, tt.want)
		}
	}
	for in, want := range map[string]string{
		"a [[b|c]] d [[e]] [[f#g]]": "a c d e f > g",
		"unclosed [[x":              "unclosed [[x",
		"[[|]]":                     "",
	} {
		if got := shownLinks(in); got != want {
			t.Errorf("shownLinks(%q) = %q, want %q", in, got, want)
		}
	}
}

// "(intro)", as a result's header names the text before the first
// heading, reads it, unless a heading is written so.
func TestFindIntro(t *testing.T) {
	d := Parse("n.md", []byte("Before.\n\n# Introduction\n\nText.\n"))
	if s, err := d.Find("(intro)"); err != nil || s.Level != 0 {
		t.Errorf("Find((intro)) = %v, %v; want the preamble", s, err)
	}
	d = Parse("n.md", []byte("Before.\n\n# (Intro)\n\nText.\n"))
	if s, err := d.Find("(intro)"); err != nil || s.Heading != "(Intro)" {
		t.Errorf("Find((intro)) = %v, %v; want the heading", s, err)
	}
}

// A heading copied as the note writes it, links and images with their
// targets, reads the section whose heading text keeps only their text.
func TestFindWrittenHeading(t *testing.T) {
	d := Parse("n.md", []byte("# Top\n## See [the docs](https://example.com) 🚀 now\n## Logo ![icon](i.png) here\n## By [ref][r] too\n"+
		"## `grid[i][j]` indexing\n## Use `[x](y)` syntax\n### Added to [`[resolver]`](https://x.y/r)\n### Deep Watchers {#deep-watchers}\n\n[r]: https://x.y\n"))
	for _, tt := range []struct{ query, want string }{
		// Brackets that are the heading's own text are read as written.
		{"`grid[i][j]` indexing", "Top/grid[i][j] indexing"},
		{"Top/grid[i][j] indexing", "Top/grid[i][j] indexing"},
		{"Use [x](y) syntax", "Top/Use [x](y) syntax"},
		{"Added to [`[resolver]`](https://x.y/r)", "Top/Use [x](y) syntax/Added to [resolver]"}, // a link around brackets
		{"See [the docs](https://example.com) 🚀 now", "Top/See the docs 🚀 now"},
		{"Top > See [the docs](https://example.com) 🚀 now", "Top/See the docs 🚀 now"},
		{"Logo ![icon](i.png) here", "Top/Logo icon here"},
		{"By [ref][r] too", "Top/By ref too"},
		// Copied with its attributes: the id names it, else its text.
		{"Deep Watchers {#deep-watchers}", "Top/Use [x](y) syntax/Deep Watchers"},
		{"Deep Watchers {#gone .tip}", "Top/Use [x](y) syntax/Deep Watchers"},
		{"Other name {#deep-watchers}", "Top/Use [x](y) syntax/Deep Watchers"},
	} {
		s, err := d.Find(tt.query)
		if err != nil || strings.Join(s.Path, "/") != tt.want {
			t.Errorf("Find(%q) = %v, %v; want %q", tt.query, s, err, tt.want)
		}
	}
}

// ReadsByID marks the sections read must name by "#id": an empty heading,
// and each of the sections whose paths read alike in any case ("TCP/IP"
// beside TCP > IP; one heading twice under one parent), not the others.
func TestReadsByID(t *testing.T) {
	d := Parse("n.md", []byte("Intro.\n\n# Net\n## TCP/IP\n## tcp\n### IP\n## Steps\n### Run\n## Steps\n### Run\n## Ünique\n## ÜNIQUE x\n##\n"))
	var got []string
	for i, by := range d.ReadsByID() {
		if by {
			got = append(got, d.Sections[i].ID)
		}
	}
	want := []string{"tcpip", "ip", "steps", "run", "steps-1", "run-1"}
	if d.Sections[len(d.Sections)-1].ID != "" {
		want = append(want, d.Sections[len(d.Sections)-1].ID) // the empty heading
	}
	if !slices.Equal(got, want) {
		t.Errorf("by id: %v, want %v", got, want)
	}
}

// TestFindRepeatedHeadings: a name several sections answer to in full (a
// heading repeated, under one parent or several, or nested in itself)
// reads the first in the note, as Obsidian opens [[Note#Heading]], and
// Matches names the others; a name that only partly matches several
// headings is still the caller's to fix.
func TestFindRepeatedHeadings(t *testing.T) {
	d := Parse("n.md", []byte("# Top\n## Same Name\n### Same Name\n## Setup\n## Setup\n# Other\n## Setup\n### Dry run\n## Install on Linux\n## Install on Mac\n"))
	for _, tt := range []struct {
		query, want string
		others      []string
	}{
		{"Same Name", "Top/Same Name", []string{"Top/Same Name/Same Name"}},
		{"same name", "Top/Same Name", []string{"Top/Same Name/Same Name"}},
		{"Top > Same Name", "Top/Same Name", nil},
		{"Same Name > Same Name", "Top/Same Name/Same Name", nil},
		{"Setup", "Top/Setup", []string{"Top/Setup", "Other/Setup"}},
		{"Top/Setup", "Top/Setup", []string{"Top/Setup"}},
		{"Other > Setup", "Other/Setup", nil},
		{"Dry run", "Other/Setup/Dry run", nil},
	} {
		s, others, err := d.Matches(tt.query)
		var got []string
		for _, o := range others {
			got = append(got, strings.Join(o.Path, "/"))
		}
		if err != nil || strings.Join(s.Path, "/") != tt.want || !slices.Equal(got, tt.others) {
			t.Errorf("Matches(%q) = %v, %q, %v; want %q, %q", tt.query, s, got, err, tt.want, tt.others)
		}
	}
	if _, err := d.Find("install"); err == nil || !strings.Contains(err.Error(), "matches several") {
		t.Errorf("Find(install) = %v; want several matches", err)
	}
}

// InPart tells a query that reads a section only as words inside its
// heading from one that names it.
func TestFindInPart(t *testing.T) {
	d := Parse("n.md", []byte("# Top\n\nx\n\n## Second Renamed\n\nbody\n\n## Third {#t3}\n\nmore\n"))
	for q, want := range map[string]bool{
		"Sec": true, "renamed": true, "ond": false, "Second Renamed": false, "second renamed": false, "Top/Second Renamed": false,
		"Top > Second Renamed": false, "#second-renamed": false, "second-renamed": false, "t3": false, "#t3": false,
		"Third": false, "nope": false,
	} {
		if got := d.InPart(q); got != want {
			t.Errorf("InPart(%q) = %v, want %v", q, got, want)
		}
	}
}

// A section is found by words of its heading where they start, never by
// letters inside a word ("x" is no part of "Installing on Linux"), but
// for scripts written without spaces.
func TestFindWordStarts(t *testing.T) {
	d := Parse("g.md", []byte("# Guide\n\n## Installing on Linux\n\na\n\n## 日本語の設定\n\nb\n\n## Don't Panic\n\nc\n"))
	for q, want := range map[string]string{"x": "", "inux": "", "lin": "Installing on Linux", "on lin": "Installing on Linux", "の設定": "日本語の設定",
		// An apostrophe inside a word joins it: "t" starts no word of "Don't".
		"t panic": "", "don't": "Don't Panic", "dont panic": "Don't Panic", "don’t panic": "Don't Panic"} {
		s, err := d.Find(q)
		got := ""
		if err == nil {
			got = s.Heading
		}
		if got != want {
			t.Errorf("Find(%q) = %q (%v), want %q", q, got, err, want)
		}
	}
}
