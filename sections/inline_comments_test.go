package sections

import (
	"reflect"
	"testing"
)

// Inline comments ("%%" pairs that do not make whole lines: within a
// line, or opening or closing mid-line) are hidden as Obsidian hides them:
// left out of the text passages hold (their line breaks kept, so the
// text's lines stay the note's), of word counts, heading texts and tags;
// a heading inside one opens no section. "%%" in code is text.
func TestInlineComments(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		headings  []string
		tags      []string
		comments  []string // InlineComments, as text
		text      string   // PassageText of the body
		blocks    []string // the comment blocks
	}{
		{"within a line", "a %%hidden #x%% b #y\n", []string{}, []string{"y"}, []string{"%%hidden #x%%"},
			"a  b #y\n", []string{}},
		{"across lines", "Intro line %%\nmidword spans #x\n%% after.\n", []string{}, []string{}, []string{"%%\nmidword spans #x\n%%"},
			"Intro line \n\n after.\n", []string{}},
		{"a heading inside", "# A\n\ntext %%\n\n## Hidden\n\nsecret\n%% more\n\n## B\n", []string{"# A", "## B"}, []string{},
			[]string{"%%\n\n## Hidden\n\nsecret\n%%"}, "# A\n\ntext \n\n\n\n\n more\n\n## B\n", []string{}},
		{"in a heading", "# Title %%todo%%\n\nbody\n", []string{"# Title"}, []string{}, []string{"%%todo%%"},
			"# Title \n\nbody\n", []string{}},
		{"opens a line, closes mid-line", "%%\nx\n%% more\n## H\n", []string{"## H"}, []string{}, []string{"%%\nx\n%%"},
			"\n\n more\n## H\n", []string{}},
		{"in a code span", "a `%%x%%` b\n", []string{}, []string{}, []string{}, "a `%%x%%` b\n", []string{}},
		{"a code span inside", "a %%`x`%% b\n", []string{}, []string{}, []string{"%%`x`%%"}, "a  b\n", []string{}},
		{"in a fence", "```\nx %%y%%\n```\n", []string{}, []string{}, []string{}, "```\nx %%y%%\n```\n", []string{}},
		{"a line of comments alone", "a\n\n%%x%% %%y%%\n\nb\n", []string{}, []string{}, []string{"%%x%%", "%%y%%"},
			"a\n\n \n\nb\n", []string{"%%x%% %%y%%"}},
		{"beside a whole-line one", "a %%x%% b\n%%\ny\n%%\n", []string{}, []string{}, []string{"%%x%%"}, "a  b\n\n\n\n",
			[]string{"%%\ny\n%%"}},
	} {
		d := Parse("n.md", []byte(tt.src))
		if got := headingTexts(d); !reflect.DeepEqual(got, tt.headings) {
			t.Errorf("%s: headings %q, want %q", tt.name, got, tt.headings)
		}
		if !reflect.DeepEqual(d.Tags, tt.tags) {
			t.Errorf("%s: tags %q, want %q", tt.name, d.Tags, tt.tags)
		}
		if got := inlineTexts(d); !reflect.DeepEqual(got, tt.comments) {
			t.Errorf("%s: inline comments %q, want %q", tt.name, got, tt.comments)
		}
		if got := d.PassageText(d.Body, len(d.Src)); got != tt.text {
			t.Errorf("%s: passage text %q, want %q", tt.name, got, tt.text)
		}
		if got := commentTexts(d); !reflect.DeepEqual(got, tt.blocks) {
			t.Errorf("%s: comment blocks %q, want %q", tt.name, got, tt.blocks)
		}
		// Words are those of the text shown: the same as a note of it.
		if want := Parse("v.md", []byte(tt.text)).WordCount; d.WordCount != want {
			t.Errorf("%s: %d words, want %d", tt.name, d.WordCount, want)
		}
	}
}
