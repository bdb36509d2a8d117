package sections

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

// fullInline is md without skipInline: every paragraph's inlines parsed.
var fullInline = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough),
	goldmark.WithParserOptions(parser.WithHeadingAttribute(), HeadingAttributeOption, AdmonitionOption, HugoHighlightOption)).Parser()

// parseFull parses src as Parse does, but with every inline parsed.
func parseFull(name string, src []byte) *Document {
	saved := md
	md = fullInline
	defer func() { md = saved }()
	return Parse(name, src)
}

// sameAsFull reports where Parse and parseFull disagree on src.
func sameAsFull(t *testing.T, name string, src []byte) {
	t.Helper()
	got, want := Parse(name, src), parseFull(name, src)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: skipping tag-free inlines changed the document\nsource: %q\ngot:  %+v\nwant: %+v", name, src, got, want)
	}
}

// plainCases are the paragraphs skipInline must leave alone or get right:
// setext headings over plain text, tags, link definitions, tables, inline
// comments, and the blocks around them: highlight shortcodes and
// attribute lines.
var plainCases = []string{
	"Title\n=====\n\nbody text\n",
	"!!! note\n\n    ```\n    code\n\n    ```\n",
	"=== \"Tab\"\n\n    body #tag %%x%%\n\n!!! tip \"T\"\n    - a\n",
	"plain para\nstill para\n---\n\nafter\n",
	"[ref]: /url\nHeading over a definition\n===\n",
	"[ref]: /url\n===\n",
	"para with #tag and `#code`\n\n# Real heading\n",
	"- item one\n- item #two\n\n  loose para\n",
	"> quoted\n> #quoted-tag\n\n> plain quote\n",
	"| a | b |\n|---|---|\n| #c | d |\n\ntext\n",
	"a\\\n*b* _c_ [link](/x)\n\n## Next {#next}\n\n&#35;entity\n",
	"para\n    not code\n===\n",
	"x\n\n***\n\ny\n-\n",
	"a %%x #t%% b #u\n\n# H %%c%%\n\nend %%\n\n## hidden\n%% after\n",
	"- a <!-- x\n- b --> c\n\nd <!-- y\ne --> #f\n\n# H <!-- z\n| g --> |\n|---|\n",
	"text\n{{< highlight sh >}}\n# c #t\n{{< /highlight >}}\nafter #u\n\n- {{% highlight %}}\n  x\n",
	"## H\n{: #h .no_toc }\nplain\n\nSetext\n---\n{:toc}\n{: #two}\n\n> ## Q\n> {: .x}\n",
}

func TestSkipInlineSameDocument(t *testing.T) {
	for i, c := range plainCases {
		sameAsFull(t, "case"+string(rune('a'+i))+".md", []byte(c))
	}
	for _, ex := range loadSpec(t) {
		sameAsFull(t, ex.Section, []byte(ex.Markdown))
	}
}

// TestSkipInlineCorpora compares the two parses on every note of the
// shared corpora.
func TestSkipInlineCorpora(t *testing.T) {
	dir := os.Getenv("MDSEARCH_CORPORA")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "corpora")
	}
	n := 0
	eachNote(t, dir, func(p string, src []byte) {
		sameAsFull(t, p, src)
		n++
	})
	if n < 900 {
		t.Errorf("only %d corpus files", n)
	}
}

// eachNote calls f on every .md file under root, skipping the test when
// root is absent (unless CI=true).
func eachNote(t *testing.T, root string, f func(path string, src []byte)) {
	t.Helper()
	if _, err := os.Stat(root); err != nil {
		testenv.Absent(t, "corpus %s unavailable: %v", root, err)
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".md") {
			return err
		}
		src, err := os.ReadFile(p)
		if err == nil {
			f(p, src)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// FuzzSkipInline holds the skip to its promise on any input: the document
// is the one a full inline parse makes.
func FuzzSkipInline(f *testing.F) {
	for _, c := range plainCases {
		f.Add(c)
	}
	for _, ex := range specSeeds(f) {
		f.Add(ex.Markdown)
	}
	f.Fuzz(func(t *testing.T, src string) {
		sameAsFull(t, "fuzz.md", []byte(src))
	})
}
