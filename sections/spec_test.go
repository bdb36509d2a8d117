package sections

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

// specExample is one example of the CommonMark spec test suite.
type specExample struct {
	Markdown string `json:"markdown"`
	HTML     string `json:"html"`
	Section  string `json:"section"`
	Number   int    `json:"number"`
}

// loadSpec reads the CommonMark 0.31.2 examples, with "→" turned back into
// tabs. It skips the test when they are absent, unless CI=true.
func loadSpec(t testing.TB) []specExample {
	ex, err := readSpec(t)
	if err != nil {
		testenv.Absent(t, "CommonMark spec examples absent (%v); run `mdsearch setup --test-data`", err)
	}
	return ex
}

// specSeeds is loadSpec for a fuzz target, which fuzzes on from its other
// seeds when the examples are absent, unless CI=true.
func specSeeds(f *testing.F) []specExample {
	ex, err := readSpec(f)
	if err != nil {
		testenv.SeedsAbsent(f, "CommonMark spec examples absent (%v); run `mdsearch setup --test-data`", err)
	}
	return ex
}

// readSpec reads the examples; an error when the file cannot be read.
func readSpec(t testing.TB) ([]specExample, error) {
	p := filepath.Join(testenv.CacheHome(), "commonmark-spec-0.31.2", "tests.json")
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var ex []specExample
	if err := json.Unmarshal(b, &ex); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	for i := range ex {
		ex[i].Markdown = strings.ReplaceAll(ex[i].Markdown, "→", "\t")
		ex[i].HTML = strings.ReplaceAll(ex[i].HTML, "→", "\t")
	}
	return ex, nil
}

type specHeading struct {
	Level int
	Text  string
}

var (
	tagRE    = regexp.MustCompile(`(?s)<(/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>`)
	imgAltRE = regexp.MustCompile(`<img [^>]*alt="([^"]*)"[^>]*>`)
	rawHRE   = regexp.MustCompile(`(?i)<h[1-6]`)
)

// containers are the HTML elements a heading may sit in without being a
// child of the document.
var containers = map[string]bool{"blockquote": true, "li": true, "ul": true, "ol": true, "pre": true}

// topHeadings lists the <h1>–<h6> elements of a spec example's HTML that
// are not inside a block quote or list: the headings that split a note.
func topHeadings(doc string) []specHeading {
	var out []specHeading
	depth, open, openAt := 0, 0, -1
	for _, m := range tagRE.FindAllStringSubmatchIndex(doc, -1) {
		closing := doc[m[2]:m[3]] == "/"
		name := strings.ToLower(doc[m[4]:m[5]])
		switch {
		case containers[name] && !closing:
			depth++
		case containers[name] && closing:
			depth--
		case len(name) == 2 && name[0] == 'h' && name[1] >= '1' && name[1] <= '6' && depth == 0:
			if !closing {
				open, openAt = int(name[1]-'0'), m[1]
			} else if openAt >= 0 {
				inner := imgAltRE.ReplaceAllString(doc[openAt:m[0]], "$1")
				inner = html.UnescapeString(tagRE.ReplaceAllString(inner, ""))
				out = append(out, specHeading{open, strings.Join(strings.Fields(inner), " ")})
				openAt = -1
			}
		}
	}
	return out
}

// TestCommonMarkHeadings checks every spec example: the headings Parse
// finds, and their levels and text, must be the top-level headings of the
// spec's expected HTML.
func TestCommonMarkHeadings(t *testing.T) {
	examples := loadSpec(t)
	checked, withHeadings := 0, 0
	for _, ex := range examples {
		if rawHRE.MatchString(ex.Markdown) {
			continue // the HTML holds raw <hN> blocks, which are not headings
		}
		if _, _, _, _, ok := splitFrontmatter([]byte(ex.Markdown), 0); ok {
			continue // mdsearch reads a leading "---" or "+++" block as frontmatter
		}
		want := topHeadings(ex.HTML)
		d := Parse("spec.md", []byte(ex.Markdown))
		var got []specHeading
		for _, h := range d.Headings {
			got = append(got, specHeading{h.Level, h.Text})
		}
		checked++
		if len(want) > 0 {
			withHeadings++
		}
		if !equalHeadings(got, want) {
			t.Errorf("example %d (%s):\n%q\ngot  %v\nwant %v", ex.Number, ex.Section, ex.Markdown, got, want)
		}
		for _, h := range d.Headings {
			checkHeadingPosition(t, ex, d, h)
		}
	}
	if withHeadings < 30 {
		t.Errorf("only %d examples with headings checked; the spec file looks wrong", withHeadings)
	}
	t.Logf("%d examples checked, %d with top-level headings", checked, withHeadings)
}

func equalHeadings(a, b []specHeading) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkHeadingPosition checks that a heading's offsets and line point at
// its source: an ATX line starts with '#', a setext heading ends with an
// underline of '=' or '-'.
func checkHeadingPosition(t *testing.T, ex specExample, d *Document, h Heading) {
	t.Helper()
	src := ex.Markdown
	if h.Line < 1 || h.StartByte < 0 || h.EndByte > len(src) || h.StartByte >= h.EndByte ||
		d.Line(h.StartByte) != h.Line || (h.StartByte > 0 && src[h.StartByte-1] != '\n') {
		t.Errorf("example %d: bad heading position %+v", ex.Number, h)
		return
	}
	lines := strings.Split(strings.TrimSuffix(src[h.StartByte:h.EndByte], "\n"), "\n")
	first, last := strings.TrimLeft(lines[0], " "), strings.TrimSpace(lines[len(lines)-1])
	switch {
	case !h.Setext && !strings.HasPrefix(first, "#"):
		t.Errorf("example %d: ATX heading %+v does not start with '#': %q", ex.Number, h, lines[0])
	case h.Setext && (len(lines) < 2 || strings.Trim(last, "=") != "" && strings.Trim(last, "-") != ""):
		t.Errorf("example %d: setext heading %+v does not end with an underline: %q", ex.Number, h, lines)
	}
}
