package sections

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

func headingTexts(d *Document) []string {
	out := []string{}
	for _, h := range d.Headings {
		out = append(out, strings.Repeat("#", h.Level)+" "+h.Text)
	}
	return out
}

func TestHeadings(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"atx and setext", "# One\n\nTwo\n===\n\nThree\n---\n###### Six\n", []string{"# One", "# Two", "## Three", "###### Six"}},
		{"markup stripped", "## *Hello* `co*de` [link](http://x) ![img](y.png) &amp; \\*x\\* ~~gone~~ <b>b</b>\n", []string{"## Hello co*de link img & *x* gone b"}},
		{"closing hashes", "## Title ##\n", []string{"## Title"}},
		{"one tilde is text", "# Range 1~3 and 5~7\n## 10時~12時 と ~~gone~~\n", []string{"# Range 1~3 and 5~7", "## 10時~12時 と gone"}},
		{"fence is not a heading", "# A\n```\n# not a heading\n```\n~~~\n## nor this\n~~~\n", []string{"# A"}},
		{"unclosed fence", "# A\n```\n# not a heading\n", []string{"# A"}},
		{"indented code", "    # code\n# A\n", []string{"# A"}},
		{"list and quote do not split", "- # in list\n\n> # in quote\n\n# Top\n", []string{"# Top"}},
		{"html block", "<div>\n# inside html\n</div>\n\n# Out\n", []string{"# Out"}},
		{"not headings", "#hashtag\n#123\n####### seven\n", []string{}},
		{"crlf", "# One\r\nbody\r\n\r\nTwo\r\n---\r\n", []string{"# One", "## Two"}},
		{"bom", "\ufeff# Title\n", []string{"# Title"}},
		{"lone cr", "Title\r===\rtext\r## Sub\r", []string{"# Title", "## Sub"}},
		{"multi-line setext", "Foo\nbar\n===\n", []string{"# Foo bar"}},
		{"empty heading", "#\n## \n", []string{"# ", "## "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Parse("n.md", []byte(tt.src))
			if got := headingTexts(d); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestHeadingPositions(t *testing.T) {
	src := "---\ntitle: x\n---\n\nintro\r\n\r\nSetext\r\n===\r\n\r\n## ATX\r\nbody\r\n"
	d := Parse("n.md", []byte(src))
	want := []Heading{
		{Level: 1, Text: "Setext", Line: 7, StartByte: strings.Index(src, "Setext"), EndByte: strings.Index(src, "\r\n\r\n## ATX") + 2, Setext: true},
		{Level: 2, Text: "ATX", Line: 10, StartByte: strings.Index(src, "## ATX"), EndByte: strings.Index(src, "body")},
	}
	if !reflect.DeepEqual(d.Headings, want) {
		t.Errorf("got %+v\nwant %+v", d.Headings, want)
	}
	if d.Body != strings.Index(src, "\nintro") {
		t.Errorf("Body = %d", d.Body)
	}
}

func TestFrontmatter(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		fm       map[string]any
		tags     []string
		title    string
		warning  string // substring of the only warning, if any
		bodyText string // the text of the first section
	}{
		{"yaml", "---\ntitle: My Note\ntags: [a, b]\n---\nbody\n", map[string]any{"title": "My Note", "tags": []any{"a", "b"}}, []string{"a", "b"}, "My Note", "", "body"},
		{"tag string", "---\ntag: \"#x, y z\"\n---\nbody\n", map[string]any{"tag": "#x, y z"}, []string{"x", "y", "z"}, "n", "", "body"},
		{"nested tag lists", "---\ntags: [[nested, list], {a: b}, [[deep]]]\n---\nbody\n",
			map[string]any{"tags": []any{[]any{"nested", "list"}, map[string]any{"a": "b"}, []any{[]any{"deep"}}}},
			[]string{"nested", "list", "deep"}, "n", `frontmatter field "tags" holds a map`, "body"},
		{"tags a map", "---\nTags: {a: b}\n---\nbody\n", map[string]any{"Tags": map[string]any{"a": "b"}}, []string{}, "n", `frontmatter field "Tags" holds a map`, "body"},
		{"tag scalars kept", "---\ntags: [2024, true, x]\n---\nbody\n", map[string]any{"tags": []any{2024, true, "x"}}, []string{"2024", "true", "x"}, "n", "", "body"},
		{"dates and odd values", "---\ndate: 2023-10-01\nn: .nan\nm: {1: a}\n---\n", map[string]any{"date": "2023-10-01", "n": "NaN", "m": map[string]any{"1": "a"}}, []string{}, "n", "", ""},
		{"bad yaml stripped", "---\ntitle: [unclosed\n---\nbody\n", nil, []string{}, "n", "not valid YAML", "body"},
		{"not a mapping", "---\n- a\n- b\n---\nbody\n", nil, []string{}, "n", "is a YAML list, not a mapping", "body"},
		{"plain text", "---\njust words\n---\nbody\n", nil, []string{}, "n", "is plain text, not a mapping", "body"},
		{"bad yaml's line in the file", "---\na: 1\nb: 2\nc: [x\nd: 4\n---\nbody\n", nil, []string{}, "n", "line 4: did not find expected ',' or ']'", "body"},
		{"scanner error's line", "---\na: 1\nb: c: d\ne: 2\n---\nbody\n", nil, []string{}, "n", "ignored: line 3: mapping values are not allowed", "body"},
		{"after a flow list over two lines", "---\na: [x,\n  y]\nb: 2\nc: d: e\n---\nbody\n", nil, []string{}, "n", "ignored: line 5: mapping values", "body"},
		{"after a quoted string over two lines", "---\ns: \"multi\n  line\"\nt: 1\nu: v: w\n---\nbody\n", nil, []string{}, "n", "ignored: line 5: ", "body"},
		{"duplicate key", "---\na: 1\nb: 2\na: 3\n---\nbody\n", nil, []string{}, "n", "line 4: mapping key \"a\" already defined at line 2", "body"},
		{"first line", "---\ntitle: [unclosed\n---\nbody\n", nil, []string{}, "n", "ignored: line 2: ", "body"},
		{"unclosed", "---\ntitle: x\nbody\n", nil, []string{}, "n", "never closed", "---\ntitle: x\nbody"},
		{"crlf and bom", "\ufeff---\r\ntitle: T\r\n---\r\nbody\r\n", map[string]any{"title": "T"}, []string{}, "T", "", "body"},
		{"dots close", "---\ntitle: T\n...\nbody\n", map[string]any{"title": "T"}, []string{}, "T", "", "body"},
		{"not at start", "\n---\ntitle: T\n---\n", nil, []string{}, "n", "", ""}, // a rule, then a setext H2
		// A rule and a blank line, then markdown up to another rule: no
		// frontmatter, nothing stripped, nothing warned.
		{"a rule first", "---\n\nSome text.\n\n# Intro\n\nMore.\n\n---\n\n# Next\n", nil, []string{}, "Intro", "", "---\n\nSome text."},
		{"a rule first, never closed", "---\n\nSome text.\n", nil, []string{}, "n", "", "---\n\nSome text."},
		{"fields after a blank line", "---\n\ntitle: T\n---\nbody\n", map[string]any{"title": "T"}, []string{}, "T", "", "body"},
		{"title falls back to H1", "# Heading One\n", nil, []string{}, "Heading One", "", ""},
		{"toml", "+++\ntitle = \"Hugo Post\"\ntags = [\"hugo\", \"toml\"]\ndate = 2024-01-05\ndraft = false\nweight = 3\n[params]\nauthor = \"bob\"\n+++\nbody\n",
			map[string]any{"title": "Hugo Post", "tags": []any{"hugo", "toml"}, "date": "2024-01-05", "draft": false, "weight": 3, "params": map[string]any{"author": "bob"}},
			[]string{"hugo", "toml"}, "Hugo Post", "", "body"},
		{"toml array of tables", "+++\n[[runs]]\nscore = nan\nwhen = 2024-01-05\n+++\nbody\n",
			map[string]any{"runs": []any{map[string]any{"score": "NaN", "when": "2024-01-05"}}}, []string{}, "n", "", "body"},
		{"toml with a zone", "+++\nupdated = 2024-01-05T10:00:00Z\n+++\nbody\n", map[string]any{"updated": "2024-01-05T10:00:00Z"}, []string{}, "n", "", "body"},
		{"bad toml", "+++\ntitle = \"x\"\ntags = [\"a\"\n+++\nbody\n", nil, []string{}, "n", "not valid TOML, ignored: line ", "body"},
		{"toml unclosed", "+++\ntitle = \"x\"\nbody\n", nil, []string{}, "n", "(+++) is never closed", "+++\ntitle = \"x\"\nbody"},
		{"yaml fence does not close toml", "+++\ntitle = \"x\"\n---\nbody\n", nil, []string{}, "n", "never closed", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Parse("dir/n.md", []byte(tt.src))
			if !reflect.DeepEqual(d.Frontmatter, tt.fm) {
				t.Errorf("frontmatter %#v, want %#v", d.Frontmatter, tt.fm)
			}
			if _, err := json.Marshal(d.Frontmatter); err != nil {
				t.Errorf("frontmatter does not encode as JSON: %v", err)
			}
			if !reflect.DeepEqual(d.Tags, tt.tags) {
				t.Errorf("tags %q, want %q", d.Tags, tt.tags)
			}
			if d.Title != tt.title {
				t.Errorf("title %q, want %q", d.Title, tt.title)
			}
			switch {
			case tt.warning == "" && len(d.Warnings) > 0:
				t.Errorf("unexpected warnings %q", d.Warnings)
			case tt.warning != "" && (len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], tt.warning)):
				t.Errorf("warnings %q, want one containing %q", d.Warnings, tt.warning)
			}
			if tt.bodyText != "" && (len(d.Sections) == 0 || strings.TrimRight(d.Text(d.Sections[0].Blocks[0].StartByte, d.Sections[0].BodyEnd), "\r\n") != tt.bodyText) {
				t.Errorf("sections %+v, want first block %q", d.Sections, tt.bodyText)
			}
		})
	}
}

func TestTags(t *testing.T) {
	src := "---\ntags: [Project]\n---\n" +
		"Text #tag1 and #nested/tag/ and (#notpreceded) #123 #y1984 #project\n" +
		"`#code` http://x.org/#anchor a#b #tag1\n\n" +
		"```\n#infence\n```\n\n" +
		"## Heading #inheading\n\n" +
		"<span>#inhtml</span> [#inlink](u) <http://y/#auto> #under_score_ok\n\n" +
		"ไปเที่ยว #ท่องเที่ยว 研修。#不是 日報\u3000#日報 #مُكَوِّن\n\n" +
		// Emoji, as Obsidian takes them: alone, with a skin tone, a joined
		// sequence; punctuation still ends a tag.
		"#🚀rocket #🌱 #👍🏽 #👩\u200d💻dev #3️⃣ #tip! #© #1°\n"
	d := Parse("n.md", []byte(src))
	want := []string{"Project", "tag1", "nested/tag", "y1984", "inheading", "inhtml", "inlink", "under_score_ok",
		"ท่องเที่ยว", "日報", "مُكَوِّن", "🚀rocket", "🌱", "👍🏽", "👩\u200d💻dev", "tip"}
	if !reflect.DeepEqual(d.Tags, want) {
		t.Errorf("tags %q, want %q", d.Tags, want)
	}
}

// TagsIn: the frontmatter's tags, then the inline tags written in the
// range, by the offset of their '#'.
func TestTagsIn(t *testing.T) {
	src := "---\ntags: [Meeting]\n---\n# A\n\nWe set the #budget.\n\n## B\n\nCoffee #todo, #Budget again.\n"
	d := Parse("n.md", []byte(src))
	b := strings.Index(src, "## B")
	for _, tt := range []struct {
		start, end int
		want       []string
	}{
		{0, len(src), []string{"Meeting", "budget", "todo"}},
		{d.Body, b, []string{"Meeting", "budget"}},
		{b, len(src), []string{"Meeting", "todo", "Budget"}},
		{strings.Index(src, "#todo"), strings.Index(src, "#todo") + 1, []string{"Meeting", "todo"}},
		{strings.Index(src, "#todo") + 1, strings.Index(src, "#Budget"), []string{"Meeting"}},
		{0, 0, []string{"Meeting"}},
	} {
		if got := d.TagsIn(tt.start, tt.end); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("TagsIn(%d, %d) = %q, want %q", tt.start, tt.end, got, tt.want)
		}
	}
	if want := []string{"Meeting", "budget", "todo"}; !reflect.DeepEqual(d.Tags, want) {
		t.Errorf("Tags %q, want %q", d.Tags, want)
	}
}

func TestInvalidUTF8(t *testing.T) {
	src := []byte("# Caf\xe9\n\nbad \xff\xfe bytes\n")
	d := Parse("n.md", src)
	if len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "invalid UTF-8: 3 bytes, first on line 1") {
		t.Errorf("warnings %q", d.Warnings)
	}
	if d.Title != "Caf\uFFFD" || d.Headings[0].Text != "Caf\uFFFD" {
		t.Errorf("title %q heading %q", d.Title, d.Headings[0].Text)
	}
	if &d.Src[0] != &src[0] {
		t.Error("Src is not the file's bytes")
	}
	if got := d.Text(0, len(src)); got != "# Caf\uFFFD\n\nbad \uFFFD\uFFFD bytes\n" {
		t.Errorf("Text = %q", got)
	}
}

func TestSectionTree(t *testing.T) {
	src := "intro words\n\n# T\n\none two\n\n#### Deep\n\nthree\n\n## B\n\nfour five\n\n### C\n\nsix\n\n# U\n"
	d := Parse("n.md", []byte(src))
	type row struct {
		Level            int
		Path             string
		Parent           int
		Lines            [2]int
		BodyWords, Words int
	}
	var got []row
	for _, s := range d.Sections {
		got = append(got, row{s.Level, strings.Join(s.Path, "/"), s.Parent, [2]int{s.StartLine, s.EndLine}, s.BodyWords, s.Words})
	}
	want := []row{
		{0, "", -1, [2]int{1, 1}, 2, 2},
		{1, "T", -1, [2]int{3, 17}, 2, 1 + 2 + (1 + 1) + (1 + 2 + (1 + 1))},
		{4, "T/Deep", 1, [2]int{7, 9}, 1, 2},
		{2, "T/B", 1, [2]int{11, 17}, 2, 5},
		{3, "T/B/C", 3, [2]int{15, 17}, 1, 2},
		{1, "U", -1, [2]int{19, 19}, 0, 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if d.WordCount != 2+10+1 {
		t.Errorf("WordCount = %d", d.WordCount)
	}
	// Sections tile the body: each runs to the next heading.
	for i, s := range d.Sections {
		if i+1 < len(d.Sections) && s.BodyEnd != d.Sections[i+1].StartByte {
			t.Errorf("section %d ends at %d, next starts at %d", i, s.BodyEnd, d.Sections[i+1].StartByte)
		}
	}
	// The text before the first heading is listed first, at level 0, under
	// the name that reads it.
	outline := d.Outline()
	if len(outline) != 6 || outline[0].Level != 0 || outline[0].Section != Preamble || outline[0].WordCount != 2 ||
		outline[2].Heading != "Deep" || outline[2].Level != 4 || outline[1].WordCount != 10 {
		t.Errorf("outline %+v", outline)
	}
	if s, err := d.Find(outline[0].Section); err != nil || s.Level != 0 {
		t.Errorf("the preamble's name %q reads %+v, %v", outline[0].Section, s, err)
	}
	if _, err := d.Find("no such heading"); err == nil || !strings.Contains(err.Error(), `"/" (the text before the first heading)`) {
		t.Errorf("a missed section does not offer the preamble: %v", err)
	}
	if o := Parse("n.md", []byte("# T\nx\n")).Outline(); len(o) != 1 || o[0].Level != 1 {
		t.Errorf("a note with no text before its first heading lists it: %+v", o)
	}
}

// TestNotFoundListsFew: a note of many sections lists its shallowest
// ones in a miss, and counts the rest, not every path.
func TestNotFoundListsFew(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Top\n\n")
	for i := range 8 {
		fmt.Fprintf(&b, "## Part %d\n\ntext\n\n", i)
		for j := range 5 {
			fmt.Fprintf(&b, "### Detail %d.%d\n\ntext\n\n", i, j)
		}
	}
	_, err := Parse("many.md", []byte(b.String())).Find("nowhere")
	msg := fmt.Sprint(err)
	if !strings.Contains(msg, `"Top/Part 7"`) || strings.Contains(msg, "Detail") || !strings.Contains(msg, "and 40 more") {
		t.Errorf("a miss in a note of 49 sections: %s", msg)
	}
}

func TestFind(t *testing.T) {
	src := "pre\n# Guide\n## Set-up  Steps\n### Linux\n## Usage\n### Linux\n## Input/Output\n"
	d := Parse("n.md", []byte(src))
	tests := []struct {
		query string
		want  string // joined path, or "error: substring"
	}{
		{"Guide/Set-up Steps/Linux", "Guide/Set-up Steps/Linux"},
		{"set up  steps", "Guide/Set-up Steps"},
		{"SET-UP STEPS / linux", "Guide/Set-up Steps/Linux"},
		{"usage/linux", "Guide/Usage/Linux"},
		{"Input/Output", "Guide/Input/Output"},
		{"Guide/Input/Output", "Guide/Input/Output"},
		{"output", "Guide/Input/Output"},
		{"", ""},
		{"linux", "Guide/Set-up Steps/Linux"}, // the first of two
		{"linu", `error: "Guide/Set-up Steps/Linux", "Guide/Usage/Linux"`},
		{"nowhere", `error: sections: "Guide", "Guide/Set-up Steps"`},
		{"usa", "Guide/Usage"},
	}
	for _, tt := range tests {
		s, err := d.Find(tt.query)
		if strings.HasPrefix(tt.want, "error: ") {
			var me *mdsearch.Error
			kind := mdsearch.KindNotFound
			if err != nil && strings.Contains(err.Error(), "matches several") {
				kind = mdsearch.KindInvalid
			}
			if err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(tt.want, "error: ")) || !errors.As(err, &me) || me.Kind != kind {
				t.Errorf("Find(%q) = %v, %v; want error containing %q", tt.query, s, err, tt.want)
			}
			continue
		}
		if err != nil || strings.Join(s.Path, "/") != tt.want {
			t.Errorf("Find(%q) = %v, %v; want %q", tt.query, s, err, tt.want)
		}
	}
	// Every section path, joined with '/', finds its own section, or the
	// first section with the same path.
	d = Parse("n.md", []byte(src+"## Usage\n"))
	for i, s := range d.Sections {
		got, err := d.Find(strings.Join(s.Path, "/"))
		if err != nil || got.Index != i && !(got.Index == 4 && i == 7) {
			t.Errorf("Find(%q) = %v, %v", strings.Join(s.Path, "/"), got, err)
		}
	}
}

func TestBadInputNeverPanics(t *testing.T) {
	big := strings.Repeat("# H\ntext\n", 10000)
	tests := []struct {
		name    string
		src     string
		warning string
	}{
		{"binary", "\x00\x01\x02# x\n\xff\x00", "NUL bytes"},
		{"10000 headings", big, ""},
		{"unclosed fence", "# A\n\n````go\n# x\n```\n", "line 3 is never closed"},
		{"closed fence", "# A\n\n````go\n# x\n`````\n", ""},
		{"malformed frontmatter", "---\n: : :\n\t- [\n---\n# A\n", "YAML"},
		{"empty", "", ""},
		{"only frontmatter", "---\na: 1\n---\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Parse("n.md", []byte(tt.src))
			w := strings.Join(d.Warnings, "; ")
			if (tt.warning == "") != (w == "") || !strings.Contains(w, tt.warning) {
				t.Errorf("warnings %q, want %q", w, tt.warning)
			}
		})
	}
	if d := Parse("n.md", []byte(big)); len(d.Sections) != 10000 {
		t.Errorf("%d sections", len(d.Sections))
	}
}

func TestBlocks(t *testing.T) {
	src := "# T\n\npara one\nstill one\n\n- item a\n- item b\n\n```\ncode\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<div>\nx\n</div>\n\n> quote\n\n---\n[ref]: /url\n"
	d := Parse("n.md", []byte(src))
	type row struct {
		Kind   BlockKind
		Text   string
		Header string
	}
	var got []row
	for _, b := range d.Sections[0].Blocks {
		r := row{Kind: b.Kind, Text: d.Text(b.StartByte, b.EndByte)}
		if b.HeaderEnd > 0 {
			r.Header = d.Text(b.StartByte, b.HeaderEnd)
		}
		got = append(got, r)
	}
	want := []row{
		{Paragraph, "para one\nstill one", ""},
		{Paragraph, "- item a", ""},
		{Paragraph, "- item b", ""},
		{Code, "```\ncode\n```", ""},
		{Table, "| a | b |\n|---|---|\n| 1 | 2 |", "| a | b |\n|---|---|\n"},
		{Other, "<div>\nx\n</div>", ""},
		{Quote, "> quote", ""},
		{Other, "---", ""},
		{LinkDef, "[ref]: /url", ""},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if c := d.Content(&d.Sections[0]); c != strings.TrimRight(src, "\n") {
		t.Errorf("Content = %q", c)
	}
}

// TestYAMLErrorLines: a frontmatter error names the line of the note, not
// of the YAML text after the opening "---".
func TestYAMLErrorLines(t *testing.T) {
	doc := Parse("n.md", []byte("---\na: 1\nb: 2\nc: : :\n---\nbody\n"))
	if len(doc.Warnings) != 1 || !strings.Contains(doc.Warnings[0], "line 4:") {
		t.Errorf("warnings %q, want one naming line 4", doc.Warnings)
	}
}

// An Excalidraw drawing's headings are the plugin's own ("Text Elements",
// "Excalidraw Data"): its title is its file name, without ".excalidraw".
func TestDrawingTitle(t *testing.T) {
	src := "---\nexcalidraw-plugin: parsed\ntags: [excalidraw]\n---\n==⚠  Switch to EXCALIDRAW VIEW ==\n\n\n# Text Elements\nmongoose den ^a1b2\n\n%%\n# Drawing\n```json\n{}\n```\n%%\n"
	for _, tt := range []struct{ path, title string }{
		{"Drawings/Garden layout.excalidraw.md", "Garden layout"},
		{"Plan.md", "Plan"},
	} {
		if d := Parse(tt.path, []byte(src)); d.Title != tt.title {
			t.Errorf("%s: title %q, want %q", tt.path, d.Title, tt.title)
		}
	}
	if d := Parse("n.md", []byte("# Text Elements\n")); d.Title != "Text Elements" {
		t.Errorf("a note's own H1: title %q", d.Title)
	}
}
