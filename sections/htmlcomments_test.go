package sections

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// HTML comments are hidden as Obsidian's inline ones are, whole lines
// too: left out of the text passages hold (line breaks kept), of word
// counts and tags; none is a Comment block, so passages run across them
// whatever their size.
// "<!--" in code or in an Obsidian comment opens none; one never closed,
// or one inside a line that does not close within its paragraph, is text.
func TestHTMLComments(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		headings  []string
		tags      []string
		inline    []string // InlineComments, as text
		blocks    []string // the comment blocks
		text      string   // PassageText of the body
	}{
		{"a line", "# A\n\n<!-- Old headings. Do not remove. -->\n\ntext\n", []string{"# A"}, []string{},
			[]string{"<!-- Old headings. Do not remove. -->"}, []string{}, "# A\n\n\n\ntext\n"},
		{"after a link", "See [the chapter][ch]<!-- ignore --> for #more.\n", []string{}, []string{"more"},
			[]string{"<!-- ignore -->"}, []string{}, "See [the chapter][ch] for #more.\n"},
		{"lines with a heading and a tag", "<!--\n## Draft\n#secret\n-->\n## B\n", []string{"## B"}, []string{},
			[]string{"<!--\n## Draft\n#secret\n-->"}, []string{}, "\n\n\n\n## B\n"},
		{"a block over a blank line", "<!-- a\n\nb -->\ntext\n", []string{}, []string{}, []string{"<!-- a\n\nb -->"},
			[]string{}, "\n\n\ntext\n"},
		{"inline over a blank line is text", "x <!-- a\n\nb --> y\n", []string{}, []string{}, []string{}, []string{},
			"x <!-- a\n\nb --> y\n"},
		{"inline over two lines", "x <!-- a\nb --> y\n", []string{}, []string{}, []string{"<!-- a\nb -->"}, []string{},
			"x \n y\n"},
		{"text after the closer", "<!-- note --> shown\n", []string{}, []string{}, []string{"<!-- note -->"}, []string{},
			" shown\n"},
		{"in a heading", "# Title <!-- todo -->\n\nbody\n", []string{"# Title"}, []string{}, []string{"<!-- todo -->"},
			[]string{}, "# Title \n\nbody\n"},
		{"empty ones", "a <!--> b <!---> c\n", []string{}, []string{}, []string{"<!-->", "<!--->"}, []string{}, "a  b  c\n"},
		// CommonMark's HTML block runs to the end: "## B" is no heading.
		{"never closed", "# A\n\n<!-- open\n## B\n", []string{"# A"}, []string{}, []string{}, []string{},
			"# A\n\n<!-- open\n## B\n"},
		{"in a fence", "```html\n<!-- shown -->\n```\n", []string{}, []string{}, []string{}, []string{},
			"```html\n<!-- shown -->\n```\n"},
		{"in a code span", "Write `<!-- x -->` here.\n", []string{}, []string{}, []string{}, []string{},
			"Write `<!-- x -->` here.\n"},
		{"in indented code", "    <!-- x -->\n", []string{}, []string{}, []string{}, []string{}, "    <!-- x -->\n"},
		{"in an Obsidian comment", "a %%x <!-- y%% b -->\n", []string{}, []string{}, []string{"%%x <!-- y%%"}, []string{},
			"a  b -->\n"},
		{"beside an Obsidian one", "a <!-- x --> b %%y%% c\n", []string{}, []string{}, []string{"<!-- x -->", "%%y%%"},
			[]string{}, "a  b  c\n"},
	} {
		d := Parse("n.md", []byte(tt.src))
		if got := headingTexts(d); !reflect.DeepEqual(got, tt.headings) {
			t.Errorf("%s: headings %q, want %q", tt.name, got, tt.headings)
		}
		if !reflect.DeepEqual(d.Tags, tt.tags) {
			t.Errorf("%s: tags %q, want %q", tt.name, d.Tags, tt.tags)
		}
		if got := inlineTexts(d); !reflect.DeepEqual(got, tt.inline) {
			t.Errorf("%s: inline comments %q, want %q", tt.name, got, tt.inline)
		}
		if got := commentTexts(d); !reflect.DeepEqual(got, tt.blocks) {
			t.Errorf("%s: comment blocks %q, want %q", tt.name, got, tt.blocks)
		}
		if got := d.PassageText(d.Body, len(d.Src)); got != tt.text {
			t.Errorf("%s: passage text %q, want %q", tt.name, got, tt.text)
		}
		// Words are those of the text shown: the same as a note of it.
		if want := Parse("v.md", []byte(tt.text)).WordCount; d.WordCount != want {
			t.Errorf("%s: %d words, want %d", tt.name, d.WordCount, want)
		}
	}
}

// Finding HTML comments takes linear time: each far lookup (the next
// "-->", a line's code spans) is kept for the next "<!--". A scan from each one took 159 s for the first note below.
func TestHTMLCommentsLinear(t *testing.T) {
	for name, src := range map[string]string{
		"unclosed, no blank line": "# H\n\n" + strings.Repeat("a <!--\n", 200000),
		"on one line":             "# H\n\n" + strings.Repeat("a <!--", 200000),
		"closed, no blank line":   strings.Repeat("- item <!-- c -->\n", 60000),
		"with code spans":         strings.Repeat("`a` <!-- ", 100000),
		"obsidian on one line":    "# H\n\n" + strings.Repeat("a `b` %%", 100000),
	} {
		start := time.Now()
		Parse("n.md", []byte(src))
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: %d KB parsed in %v", name, len(src)>>10, d)
		}
	}
}

// An HTML comment inside a line is CommonMark's inline raw HTML: it must
// close within the leaf block it opens in (a paragraph, a list item's
// text, a heading, a table cell), as goldmark reads the note, or it is
// text. One in an HTML block closes within that block: at the next "-->"
// for one that opens the block, wherever a container does not end first.
func TestHTMLCommentBlockEnds(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		inline    []string // InlineComments, as text
		headings  []string
	}{
		{"the next list item", "- a <!-- x\n- b --> c\n", []string{}, []string{}},
		{"the next ordered item", "1. a <!-- x\n2. b --> c\n", []string{}, []string{}},
		{"a nested list's next item", "- a\n  - b <!-- x\n  - c --> d\n", []string{}, []string{}},
		{"a heading line", "a <!-- x\n# b --> c\n", []string{}, []string{"# b --> c"}},
		{"its own heading line", "# a <!-- x\nb --> c\n", []string{}, []string{"# a <!-- x"}},
		{"a block quote starts", "a <!-- x\n> b --> c\n", []string{}, []string{}},
		{"the block quote ends", "> a <!-- x\n- b --> c\n", []string{}, []string{}},
		{"a fence starts", "a <!-- x\n```\nb --> c\n```\n", []string{}, []string{}},
		{"a thematic break", "a <!-- x\n***\nb --> c\n", []string{}, []string{}},
		{"a setext underline", "a <!-- x\n---\nb --> c\n", []string{}, []string{"## a <!-- x"}},
		{"the next table cell", "| a <!-- x | b --> |\n|---|---|\n", []string{}, []string{}},
		{"the next table row", "| h |\n|---|\n| a <!-- x |\n| b --> |\n", []string{}, []string{}},
		{"a fence's info string", "```html <!-- x\nb -->\n```\n", []string{}, []string{}},
		{"an HTML block in a list item", "- <!-- x\n- b --> c\n", []string{}, []string{}},
		// Still comments: "-->" in the same leaf block.
		{"two lines of a paragraph", "a <!-- x\nb --> c\n", []string{"<!-- x\nb -->"}, []string{}},
		{"a setext heading's two lines", "a <!-- x\nb --> c\n===\n", []string{"<!-- x\nb -->"}, []string{"# a c"}},
		{"a list item's lazy line", "- a <!-- x\nb --> c\n", []string{"<!-- x\nb -->"}, []string{}},
		{"a list item's indented line", "- a <!-- x\n  b --> c\n", []string{"<!-- x\n  b -->"}, []string{}},
		{"a block quote's lazy line", "> a <!-- x\nb --> c\n", []string{"<!-- x\nb -->"}, []string{}},
		{"a block quote's next line", "> a <!-- x\n> b --> c\n", []string{"<!-- x\n> b -->"}, []string{}},
		{"one table cell", "| a <!-- x --> | b |\n|---|---|\n", []string{"<!-- x -->"}, []string{}},
		{"inside an HTML block", "<div>a <!-- x --> b</div>\n", []string{"<!-- x -->"}, []string{}},
		{"an HTML block in a block quote", "> <!-- x\n>\n> y -->\n", []string{"<!-- x\n>\n> y -->"}, []string{}},
		{"an HTML block in a list item, closed there", "- <!-- x\n\n  y -->\n- b\n", []string{"<!-- x\n\n  y -->"}, []string{}},
	} {
		d := Parse("n.md", []byte(tt.src))
		if got := inlineTexts(d); !reflect.DeepEqual(got, tt.inline) {
			t.Errorf("%s: inline comments %q, want %q", tt.name, got, tt.inline)
		}
		if got := headingTexts(d); !reflect.DeepEqual(got, tt.headings) {
			t.Errorf("%s: headings %q, want %q", tt.name, got, tt.headings)
		}
	}
}
