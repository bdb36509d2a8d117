package sections

import (
	"reflect"
	"strings"
	"testing"
)

// commentTexts lists a note's comment blocks, as text.
func commentTexts(d *Document) []string {
	out := []string{}
	for _, s := range d.Sections {
		for _, b := range s.Blocks {
			if b.Kind == Comment {
				out = append(out, string(d.Src[b.StartByte:b.EndByte]))
			}
		}
	}
	return out
}

// inlineTexts are the texts of d's inline comments, in order.
func inlineTexts(d *Document) []string {
	out := []string{}
	for _, c := range d.InlineComments() {
		out = append(out, string(d.Src[c[0]:c[1]]))
	}
	return out
}

func TestComments(t *testing.T) {
	excalidraw := "# Excalidraw Data\n## Text Elements\nServer rack ^a1\n\n%%\n## Drawing\n```compressed-json\nN4KAkARALgnmD\n\nYQAdgdgTAHAzB\n```\n%%\n"
	for _, tt := range []struct {
		name     string
		src      string
		headings []string
		comments []string
		tags     []string
	}{
		{"a heading inside is no section", "# A\n\n%%\n## Private\nsecret #hidden\n%%\n\n## B\n#shown\n",
			[]string{"# A", "## B"}, []string{"%%\n## Private\nsecret #hidden\n%%"}, []string{"shown"}},
		{"one line", "# A\n%% an aside %%\ntext\n", []string{"# A"}, []string{"%% an aside %%"}, nil},
		{"inside a paragraph's lines", "text\n%%\nhidden\n%%\nmore\n", []string{}, []string{"%%\nhidden\n%%"}, nil},
		{"inline pair is text", "a %%hidden%% b\n", []string{}, []string{}, nil},
		{"text after the closer", "%%\nx\n%% more\n## H\n", []string{"## H"}, []string{}, nil},
		{"never closed", "# A\n%%\n## B\n", []string{"# A", "## B"}, []string{}, nil},
		{"in code", "```\n%%\n## not a heading\n%%\n```\n", []string{}, []string{}, nil},
		{"code inside", "%%\n```\n%%\n```\n%%\n# After\n", []string{"# After"}, []string{"%%\n```\n%%\n```\n%%"}, nil},
		{"in a code span", "Type `%%` here.\n\n%%\nsecret\n%%\n\nVisible #shown\n\n%%\nsecret2\n%%\n", []string{},
			[]string{"%%\nsecret\n%%", "%%\nsecret2\n%%"}, []string{"shown"}},
		{"in a double-backtick span", "``a `%%` b`` x\n%%\nc\n%%\n", []string{}, []string{"%%\nc\n%%"}, nil},
		// A code span over two lines hides its "%%" too: read as a
		// comment's opening, it hid heading B and its text.
		{"in a code span over two lines", "# A\n\nUse `printf\n\"%%d\"` here.\n\n# B\n\nAnd `%%` here and 5 %% off.\n\n# C\n",
			[]string{"# A", "# B", "# C"}, []string{}, nil},
		{"in a fence in a list", "1. one\n   ```\n   %%\n   ```\n%%\nh\n%%\n", []string{}, []string{"%%\nh\n%%"}, nil},
		{"inline pair before a block one", "a %%x%% b\n%%\ny\n%%\n", []string{}, []string{"%%\ny\n%%"}, nil},
		{"indented four is code", "    %%\n# A\n    %%\n", []string{"# A"}, []string{}, nil},
		{"excalidraw", excalidraw, []string{"# Excalidraw Data", "## Text Elements"},
			[]string{"%%\n## Drawing\n```compressed-json\nN4KAkARALgnmD\n\nYQAdgdgTAHAzB\n```\n%%"}, nil},
	} {
		d := Parse("n.md", []byte(tt.src))
		if got := headingTexts(d); !reflect.DeepEqual(got, tt.headings) {
			t.Errorf("%s: headings %q, want %q", tt.name, got, tt.headings)
		}
		if got := commentTexts(d); !reflect.DeepEqual(got, tt.comments) {
			t.Errorf("%s: comments %q, want %q", tt.name, got, tt.comments)
		}
		if tt.tags != nil && !reflect.DeepEqual(d.Tags, tt.tags) {
			t.Errorf("%s: tags %q, want %q", tt.name, d.Tags, tt.tags)
		}
		for _, s := range d.Sections { // blocks still tile the body
			for _, b := range s.Blocks {
				if b.Kind != Comment && strings.Contains(string(d.Src[b.StartByte:b.EndByte]), "hidden\n%%") {
					t.Errorf("%s: %q is not a comment block", tt.name, d.Src[b.StartByte:b.EndByte])
				}
			}
		}
	}
}

// BenchmarkComments parses a note of 20,000 one-line comments, one of
// 20,000 inline ones and one of 20,000 HTML ones, next to the same note with plain lines in their
// place: finding and hiding comments must stay linear (each lookup a
// binary search).
func BenchmarkComments(b *testing.B) {
	for _, bc := range []struct{ name, unit string }{
		{"comments", "%% an aside %%\nsome text #tag\n\n"},
		{"inline", "an %%aside%% here\nsome text #tag\n\n"},
		{"html", "an <!-- aside --> here\nsome text #tag\n\n"},
		{"plain", "plain aside line\nsome text #tag\n\n"},
	} {
		src := []byte(strings.Repeat(bc.unit, 20000))
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				Parse("n.md", src)
			}
		})
	}
}

// A "%%" starting a line that nothing closes is text, as before, with a
// warning: Obsidian hides the rest of the note, which search will show.
func TestUnclosedComment(t *testing.T) {
	for src, want := range map[string]string{
		"# A\n\n%%\n## Hidden\n":         "%% comment opened on line 3 is never closed",
		"# A\n\nsee 50%% of it\n":        "",
		"# A\n\n%%\nx\n%%\n":             "",
		"# A\n\n```\n%%\n```\n":          "",
		"# A\n\n%% aside\n\n%% b %% c\n": "",
	} {
		d := Parse("n.md", []byte(src))
		got := strings.Join(d.Warnings, "; ")
		if want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("%q: warnings %q, want %q", src, got, want)
		}
	}
}

// WithoutComments: Text leaves out every comment, whole lines and inline,
// but for its line breaks (CRLF kept), and leaves the original as it was.
func TestWithoutComments(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"a %%x%% b\n", "a  b\n"},
		{"# H\r\n\r\n%%\r\nhidden\r\n%%\r\ntext\r\n", "# H\r\n\r\n\r\n\r\n\r\ntext\r\n"},
		{"p %%one\ntwo%% q\n\n%%\nblock\n%%\n", "p \n q\n\n\n\n\n"},
		{"no comments here\n", "no comments here\n"},
		{"`%%code%%` stays\n", "`%%code%%` stays\n"},
		// A comment over a quote's lines keeps their markers.
		{"> a %%x\n> y%% b\n> c\n", "> a \n>  b\n> c\n"},
		{"> > a %%x\r\n> > y\r\n> > z%% b\n", "> > a \r\n> > \r\n> >  b\n"},
		{">a <!-- x\n>y --> b\n", ">a \n> b\n"},
		{"a %%x\n> y%% b\n", "a \n b\n"},                   // begun outside the quote: all hidden
		{"- item %%a\n  b%% tail\n", "- item \n   tail\n"}, // a list item's indent
		{"> - q %%a\n>   b%% c\n", "> - q \n>    c\n"},
		{"- > q1 %%x\n  > q2%% q3\n", "- > q1 \n  >  q3\n"}, // a quote in a list item
		{"> > a %%x\n> y%% b\n", "> > a \n>  b\n"},          // fewer markers on the next line
	} {
		d := Parse("n.md", []byte(tt.src))
		w := d.WithoutComments()
		if got := w.Text(0, len(tt.src)); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.src, got, tt.want)
		}
		if n := w.shownLen(0, len(tt.src)); n != len(tt.want) {
			t.Errorf("%q: shownLen %d, want %d", tt.src, n, len(tt.want))
		}
		if got := d.Text(0, len(tt.src)); got != tt.src {
			t.Errorf("%q: the original's text changed: %q", tt.src, got)
		}
		if n := strings.Count(tt.want, "\n"); n != strings.Count(tt.src, "\n") {
			t.Errorf("%q: %d line breaks, want %d", tt.src, n, strings.Count(tt.src, "\n"))
		}
	}
	// Lone CRs are line breaks (shown as LFs): the quote's markers are kept.
	const crSrc = "> a %%x\r> y%% b\r"
	cr := Parse("n.md", []byte(crSrc)).WithoutComments()
	if got, n := cr.Text(0, len(crSrc)), cr.shownLen(0, len(crSrc)); got != "> a \n>  b\n" || n != len(got) {
		t.Errorf("lone CRs: %q, shownLen %d", got, n)
	}
	d := Parse("n.md", []byte("a %%x%% b\n\n%%\nblock\n%%\n"))
	if n := d.CommentsIn(0, 100); n != 2 {
		t.Errorf("CommentsIn: %d, want 2", n)
	}
	if n := d.CommentsIn(0, 5); n != 1 {
		t.Errorf("CommentsIn of the first line: %d, want 1", n)
	}
	// A line of inline comments alone is a Comment block: two comments.
	if n := Parse("n.md", []byte("# T\n\n%%a%% %%b%%\n")).CommentsIn(0, 100); n != 2 {
		t.Errorf("CommentsIn of a line of two inline comments: %d, want 2", n)
	}
}

// TestShownEnd: a copy that hides comments shows a range to its last byte
// in no comment, white space trimmed; the note itself, to its last byte
// but white space.
func TestShownEnd(t *testing.T) {
	for _, tt := range []struct{ name, src, hidden, shown string }{
		{"no comment", "# A\n\ntext\n\n", "# A\n\ntext", "# A\n\ntext"},
		{"a drawing at the end", "# A\n\nlabel\n\n%%\n## Drawing\ndata\n%%\n", "# A\n\nlabel", "# A\n\nlabel\n\n%%\n## Drawing\ndata\n%%"},
		{"an inline one at the end", "# A\n\ntext %%aside%%\n", "# A\n\ntext", "# A\n\ntext %%aside%%"},
		{"two at the end", "# A\n\ntext\n\n%% a %%\n\n%%\nb\n%%\n", "# A\n\ntext", "# A\n\ntext\n\n%% a %%\n\n%%\nb\n%%"},
		{"one inside", "# A\n\ntext\n\n%%\nb\n%%\n\nmore\n", "# A\n\ntext\n\n\n\n\n\nmore", "# A\n\ntext\n\n%%\nb\n%%\n\nmore"},
		{"an HTML one at the end", "# A\n\ntext\n<!-- note -->\n", "# A\n\ntext", "# A\n\ntext\n<!-- note -->"},
		{"comments alone", "%%\nb\n%%\n", "", "%%\nb\n%%"},
		{"in a quote", "# A\n\n> quoted\n> %%\n> hidden\n> %%\n", "# A\n\n> quoted", "# A\n\n> quoted\n> %%\n> hidden\n> %%"},
		{"in a nested quote", "# A\n\n> > quoted\n> > %%\n> > hidden\n> > %%\n", "# A\n\n> > quoted", "# A\n\n> > quoted\n> > %%\n> > hidden\n> > %%"},
		{"a quote's own line", "# A\n\n> %% hidden %%\n", "# A", "# A\n\n> %% hidden %%"},
	} {
		d := Parse("n.md", []byte(tt.src))
		h := d.WithoutComments()
		if got := h.Text(0, h.ShownEnd(0, len(d.Src))); got != tt.hidden {
			t.Errorf("%s: hidden %q, want %q", tt.name, got, tt.hidden)
		}
		if got := d.Text(0, d.ShownEnd(0, len(d.Src))); got != tt.shown {
			t.Errorf("%s: shown %q, want %q", tt.name, got, tt.shown)
		}
	}
}
