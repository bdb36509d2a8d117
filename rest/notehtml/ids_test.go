package notehtml

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/internal/testenv"
	"github.com/mdsearch/mdsearch/sections"
)

// sectionIDs are the ids read takes for a note's headings, with their
// lines: its sections', and those of the headings inside lists, quotes and
// callouts (which read the section they sit in), in the order of lines.
func sectionIDs(src []byte) []Heading {
	out := []Heading{}
	d := sections.Parse("", src)
	for _, s := range d.Sections {
		if s.Level > 0 {
			out = append(out, Heading{ID: s.ID, Line: s.StartLine})
		}
	}
	for i, id := range d.NestedIDs() {
		out = append(out, Heading{ID: id, Line: d.Nested[i].Line})
	}
	slices.SortStableFunc(out, func(a, b Heading) int { return a.Line - b.Line })
	return out
}

// pageIDs are the page's ids of the headings read knows, with their lines.
func pageIDs(src []byte, known []Heading) []Heading {
	lines := map[int]bool{}
	for _, h := range known {
		lines[h.Line] = true
	}
	out := []Heading{}
	for _, h := range HTML(src, Options{}).Headings {
		if lines[h.Line] {
			out = append(out, Heading{ID: h.ID, Line: h.Line})
		}
	}
	return out
}

// The page's anchors are the ids read takes (`read --section '#setup-1'`):
// a heading in a callout, quote or list takes none of its sections' (read
// takes its own for the section it sits in), a heading's markup is read as
// sections reads it, and a comment is not shown, nor a heading in one,
// inline comments too.
func TestPageIDsAreReadIDs(t *testing.T) {
	src := []byte("# Ids\n> [!tip] Quick\n> ## Setup\n> Callout setup text.\n\n## Setup\nferrets\n## Setup\notters\n" +
		"Multi line\nsetext heading\n--------------\n## Q&amp;A\n## Link [text](https://example.com)\n" +
		"- ## Setup in a list\n\n%%\n## Hidden\n%%\n## After {#custom}\n## Custom\n> ## [[Other|Linked]] in a quote\n" +
		"## Noted %%todo%%\nText %%\n## Gone\n%% goes on.\n## Kram {: #kd .wide}\n> ## In quote {-}\n")
	want := sectionIDs(src)
	if got := pageIDs(src, want); !reflect.DeepEqual(got, want) {
		t.Errorf("page ids\n%v\nread's\n%v", got, want)
	}
	page := HTML(src, Options{})
	if strings.Contains(page.HTML, "Hidden") || strings.Contains(page.HTML, "%%") || strings.Contains(page.HTML, "todo") ||
		strings.Contains(page.HTML, "Gone") || !strings.Contains(page.HTML, "goes on.") ||
		strings.Contains(page.HTML, "{") || !strings.Contains(page.HTML, `<h2 id="kd" data-line="27">Kram</h2>`) {
		t.Errorf("a comment is shown: %s", page.HTML)
	}
	ids := map[string]int{}
	for _, h := range page.Headings {
		if ids[h.ID]++; ids[h.ID] > 1 {
			t.Errorf("id %q twice", h.ID)
		}
	}
}

// The same on every note of the Obsidian help vault.
func TestPageIDsOnVault(t *testing.T) {
	root := testenv.Corpora("obsidian-help", "en")
	if _, err := os.Stat(root); err != nil {
		testenv.Absent(t, "corpora missing: %v", err)
	}
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		want := sectionIDs(src)
		if got := pageIDs(src, want); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: page ids\n%v\nread's\n%v", p, got, want)
		}
		n++
		return nil
	})
	if err != nil || n < 100 {
		t.Fatalf("%d notes: %v", n, err)
	}
}

// The page leaves out Obsidian's comments as its reading view does: the
// whole-line ones sections reads, with every block on its own line, and
// those within a line or from inside one line to inside another; "%%" in
// code, and one never closed, are text. HTML comments are not shown either.
func TestPageHidesComments(t *testing.T) {
	for _, tt := range []struct {
		src       string
		want, not []string
	}{
		{"# A\n%%\nsecret\n%%\nVisible text after.\n", []string{`<p data-line="5">Visible text after.</p>`}, []string{"secret", "%%"}},
		{"# A\n\nIntro\n%%\nsecret\n%%\n\nmore\n", []string{`<p data-line="3">Intro</p>`, `<p data-line="8">more</p>`}, []string{"secret"}},
		{"Type `%%` here.\n\n%%\nsecret\n%%\n\nVisible.\n", []string{"<code>%%</code>", `<p data-line="7">Visible.</p>`}, []string{"secret"}},
		{"a %%inline%% b\n", []string{`<p data-line="1">a  b</p>`}, []string{"inline", "%%"}},
		{"text %%starts\nmore\nends%% after\n", []string{`<p data-line="1">text`, "after</p>"}, []string{"starts", "more", "ends", "%%", "<p data-line=\"2\""}},
		{"`%%x%%` and %%hidden%% ``a %% b``\n\n```\n%%kept%%\n```\n", []string{"<code>%%x%%</code> and", "<code>a %% b</code>", "%%kept%%\n</code></pre>"}, []string{"hidden"}},
		{"a %%[[Other]] **b** #tag%% c\n", []string{`<p data-line="1">a  c</p>`}, []string{"Other", "<strong>", "tag"}},
		{"a %%xhid\n\n- item\n\n> quote\n\nyhid%% b\n\nnext\n", []string{`<p data-line="1">a </p>`, `<p data-line="7"> b</p>`, `<p data-line="9">next</p>`}, []string{"item", "quote", "<ul", "<blockquote", "hid"}},
		{"## Title %%aside%%\n\n| a | b %%chid%% |\n|---|---|\n| %%dhid%% | e |\n", []string{">Title </h2>", "<th>b </th>", "<td></td>", "<td>e</td>"}, []string{">Title %%", "hid"}},
		{"> [!note] Title %%x%%\n> Body %%y%% text.\n", []string{`<div class="callout-title">Title </div>`, "<p>Body  text.</p>"}, []string{"%%"}},
		{"Save 50%% now, and more.\n", []string{"Save 50%% now, and more."}, nil},
		{"%%aside%% text\n\nIntro %%\n## Hidden\n%% more\n\nEnd.\n", []string{`<p data-line="1"> text</p>`, `<p data-line="7">End.</p>`},
			[]string{"aside", "Hidden", "%%", "<pre"}},
		// HTML comments, which sections hides too: the ids agree with read's.
		{"# A\n\n<!-- secret -->\n\nVisible.\n", []string{`<p data-line="5">Visible.</p>`}, []string{"secret"}},
		{"See [x](y)<!-- ignore --> more.\n", []string{`<a href="y">x</a> more.</p>`}, []string{"ignore"}},
		{"## Setup <!-- todo -->\n\n> [!note]\n> ## Inner <!-- c -->\n", []string{`<h2 id="setup"`, `<h2 id="inner">`}, []string{"todo"}},
		{"<!--\n## Draft\n-->\n\n## Real\n", []string{`<h2 id="real" data-line="5">`}, []string{"Draft"}},
	} {
		checkPage(t, tt.src, tt.want, tt.not)
	}
}

// Notes built to make goldmark's link parsing take quadratic time render
// in linear time: brackets past the bound are read as text. (Notes nested
// too deep to parse are refused before they are read: sections.CheckSource.)
func TestPathologicalNesting(t *testing.T) {
	deep := strings.Repeat("[", 200000) + "x" + strings.Repeat("]", 200000)
	if got := tameBrackets([]byte(deep)); strings.Count(string(got), "[") != maxBrackets || len(got) != len(deep) {
		t.Errorf("tameBrackets kept %d '[' of %d bytes", strings.Count(string(got), "["), len(got))
	}
	para := "[[a]] [b] and [c](d)\n\n" + strings.Repeat("[", 70) + "\n\n[[Other]]"
	if got := string(tameBrackets([]byte(para))); got != strings.Replace(para, strings.Repeat("[", 70), strings.Repeat("[", 64)+"      ", 1) {
		t.Errorf("tameBrackets(%q) = %q", para, got)
	}
	for _, src := range []string{deep, strings.Repeat("[[", 200000) + "x"} {
		page := HTML([]byte("# P\n\n"+src), Options{})
		if !strings.Contains(page.HTML, "x") {
			t.Errorf("%.10q…: the text is gone", src)
		}
	}
}

// Only comments of whole lines are blanked in the source: one inside a
// line, blanked, could make the rest of its line indented code.
func TestMaskCommentsWholeLinesOnly(t *testing.T) {
	for _, tt := range []struct {
		src, want string
		c         [2]int
	}{
		{"a\n%%\nx\n%%\nb", "a\n  \n \n  \nb", [2]int{2, 9}},
		{"%%x%% text\n", "%%x%% text\n", [2]int{0, 5}},
		{"a %%x%%\n", "a %%x%%\n", [2]int{2, 7}},
	} {
		if got := string(maskComments([]byte(tt.src), [][2]int{tt.c})); got != tt.want {
			t.Errorf("maskComments(%q, %v) = %q, want %q", tt.src, tt.c, got, tt.want)
		}
	}
}

// checkPage fails t unless the page of src holds every text of want and
// none of not.
func checkPage(t *testing.T, src string, want, not []string) {
	t.Helper()
	page := HTML([]byte(src), Options{}).HTML
	for _, w := range want {
		if !strings.Contains(page, w) {
			t.Errorf("%q: no %q in\n%s", src, w, page)
		}
	}
	for _, n := range not {
		if strings.Contains(page, n) {
			t.Errorf("%q: %q shown in\n%s", src, n, page)
		}
	}
}
