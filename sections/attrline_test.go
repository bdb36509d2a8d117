package sections

import (
	"slices"
	"strings"
	"testing"
)

// A kramdown attribute list on the line under a heading ("{: .no_toc}")
// is no text of the note: not in its section's passage text, word counts
// or tags, and its "#id" is the heading's. Such a line anywhere else, or
// one that is no attribute list, stays text.
func TestAttributeLines(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		anchor    string // the anchor of the last heading, nested ones too
		words     int    // the note's words
		hidden    bool   // the "{:" line is left out of the passage text
		tags      []string
	}{
		{"classes", "## Table of contents\n{: .no_toc .text-delta }\n\n1. One\n", "", 5, true, nil},
		{"id", "## Install\n{: #setup .wide}\n\nRun it.\n", "setup", 3, true, nil},
		{"no space, id only", "## Install\n{:#setup}\nRun it.\n", "setup", 3, true, nil},
		{"key and value", "## Install\n{: #setup data-x=\"a b\" k=v k2='c d' }\nRun it.\n", "setup", 3, true, nil},
		{"reference name", "## Contents\n{:toc}\n", "", 1, true, nil},
		{"setext", "Install\n-------\n{: #under .c}\n\nRun it.\n", "under", 3, true, nil},
		{"setext, the equals form", "Guide\n===\n{: .no_toc}\n", "", 1, true, nil},
		{"indented", "## Install\n   {: #setup}\n", "setup", 1, true, nil},
		{"trailing white space", "## Install\n{: #setup}  \t\n", "setup", 1, true, nil},
		{"CRLF", "## Install\r\n{: #setup}\r\nRun it.\r\n", "setup", 3, true, nil},
		{"text right after", "## Install\n{: .x}\nRun it.\n", "", 3, true, nil},
		{"the heading's own id first", "## Install {#first}\n{: #second}\n", "first", 1, true, nil},
		{"the heading's own attr_list id first", "## Install {: #first}\n{: #second}\n", "first", 1, true, nil},
		{"in a list item", "- ## Install\n  {: #li .x}\n  Run it.\n", "li", 5, true, nil},
		{"in a quote", "> ## Install\n> {: #bq}\n> Run it.\n", "bq", 7, true, nil},
		{"a second line (the first is left out)", "## Install\n{: .a}\n{: .b}\n", "", 3, true, nil},
		{"before the next heading", "# A\n{: .x}\n## B\n{: #b}\n", "b", 2, true, nil},

		// Text, as before.
		{"after a blank line", "## Install\n\n{: #setup}\n", "", 3, false, []string{"setup"}},
		{"after a list", "## Contents\n\n* TOC\n{:toc}\n", "", 4, false, nil},
		{"after a paragraph", "## Install\n\nRun it.\n{: .x}\n", "", 5, false, nil},
		{"a format string", "## Print\n{:?}\n", "", 2, false, nil},
		{"an extension", "## Raw\n{::comment}\n", "", 2, false, nil},
		{"empty", "## Install\n{: }\n", "", 3, false, nil},
		{"a paragraph that starts with one", "## Install\n{: .x} and more words\n", "", 6, false, nil},
		{"a sentence in braces", "## Install\n{: see: the guide}\n", "", 5, false, nil},
		{"indented four", "## Install\n    {: #setup}\n", "", 3, false, nil},
		{"in code", "```\n## Install\n{: #setup}\n```\n", "", 6, false, nil},
		{"under a quote's heading, outside it", "> ## Install\n{: #setup}\n", "", 5, false, []string{"setup"}},
	} {
		d := Parse("n.md", []byte(tt.src))
		hs := append(slices.Clone(d.Headings), d.Nested...)
		slices.SortFunc(hs, func(a, b Heading) int { return a.StartByte - b.StartByte })
		anchor := ""
		if len(hs) > 0 {
			anchor = hs[len(hs)-1].Anchor
		}
		var text strings.Builder
		for _, s := range d.Sections {
			text.WriteString(d.PassageText(s.StartByte, s.EndByte))
		}
		hidden := !strings.Contains(text.String(), attrLineOf(tt.src))
		if anchor != tt.anchor || d.WordCount != tt.words || hidden != tt.hidden || !slices.Equal(d.Tags, tt.tags) {
			t.Errorf("%s: anchor %q, %d words, left out %v, tags %q; want %q, %d, %v, %q\npassage text %q",
				tt.name, anchor, d.WordCount, hidden, d.Tags, tt.anchor, tt.words, tt.hidden, tt.tags, text.String())
		}
	}
}

// The line takes no block and no words, is in LeftOut but not among the
// comments, and its "#id" reads the section.
func TestAttributeLineSection(t *testing.T) {
	src := "# Guide\n\n## Install\n{: #setup .no_toc }\n\nRun the installer.\n"
	d := Parse("n.md", []byte(src))
	s, err := d.Find("#setup")
	if err != nil || s.Heading != "Install" || s.ID != "setup" {
		t.Fatalf("Find(#setup): %+v %v", s, err)
	}
	if s.BodyWords != 3 || len(s.Blocks) != 1 || string(d.Src[s.Blocks[0].StartByte:s.Blocks[0].EndByte]) != "Run the installer." {
		t.Errorf("body: %d words, blocks %+v", s.BodyWords, s.Blocks)
	}
	at := strings.Index(src, "{:")
	if want := [][2]int{{at, at + len("{: #setup .no_toc }")}}; !slices.Equal(d.LeftOut(), want) || len(d.InlineComments()) != 0 {
		t.Errorf("left out %v, want %v; comments %v", d.LeftOut(), want, d.InlineComments())
	}
	if got := d.PassageText(s.StartByte, s.EndByte); got != "## Install\n\n\nRun the installer.\n" {
		t.Errorf("passage text %q", got)
	}
	if got := d.Text(s.StartByte, s.EndByte); !strings.Contains(got, "{: #setup .no_toc }") {
		t.Errorf("a read leaves the line out: %q", got)
	}
	if id := d.CustomIDs().Generate("Setup"); id != "setup-1" { // setup is taken
		t.Errorf("a heading Setup after it gets %q", id)
	}
}

// attrLineOf is the first line of src that is "{:" on, its container
// markers and indent left out.
func attrLineOf(src string) string {
	for _, line := range strings.Split(src, "\n") {
		if l := strings.TrimLeft(line, " >-"); strings.HasPrefix(l, "{:") {
			return strings.TrimRight(l, "\r")
		}
	}
	return "no such line"
}

// An attribute block ending a heading's line ("{: #setup .wide}",
// Pandoc's "{-}") is no text of its passage either, as it is none of the
// heading's; a read shows it.
func TestHeadingAttributeBlockLeftOut(t *testing.T) {
	for _, tt := range []struct{ src, block, passage string }{
		{"## Install {: #setup .wide}\n\nRun it.\n", "{: #setup .wide}", "## Install \n\nRun it.\n"},
		{"Setext {-}\n------\n\nRun it.\n", "{-}", "Setext \n------\n\nRun it.\n"},
		{"# Format {:?} strings\n\nText.\n", "", "# Format {:?} strings\n\nText.\n"}, // no attributes
		{"## Install {: #setup}\n{: .wide}\n\nRun it.\n", "{: #setup}", "## Install \n\n\nRun it.\n"},
	} {
		d := Parse("n.md", []byte(tt.src))
		if got := d.PassageText(0, len(tt.src)); got != tt.passage {
			t.Errorf("%q: passage text %q, want %q", tt.src, got, tt.passage)
		}
		if tt.block != "" && !strings.Contains(d.Text(0, len(tt.src)), tt.block) {
			t.Errorf("%q: a read leaves %q out", tt.src, tt.block)
		}
	}
}
