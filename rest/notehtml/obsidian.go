package notehtml

import (
	"html"
	"path"
	"regexp"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/mdsearch/mdsearch/sections"
)

// obsidian is the goldmark extension for Obsidian's syntax: [[wikilinks]],
// ![[embeds]], > [!type] callouts, ==highlights==, ~~strikethrough~~ (two
// tildes only), #tags and $math$.
type obsidian struct{}

func (obsidian) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		// Before the link parser (200), which would read "[[x]]" as text.
		// Math before all that reads inside it: its "\\", "_" and "[".
		parser.WithInlineParsers(util.Prioritized(mathParser{}, 150), util.Prioritized(wikiParser{}, 199), util.Prioritized(highlightParser, 500), util.Prioritized(strikeParser, 500),
			util.Prioritized(tagParser{}, 500)),
		// After the footnotes' (999), which move footnotes to the end, and
		// before noteTransformer, so a callout gets its data-line.
		parser.WithASTTransformers(util.Prioritized(calloutTransformer{}, 1001)),
	)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(obsidianRenderer{}, 100),
		util.Prioritized(extension.NewStrikethroughHTMLRenderer(), 500)))
}

var (
	kindWikiLink     = ast.NewNodeKind("WikiLink")
	kindCallout      = ast.NewNodeKind("Callout")
	kindCalloutTitle = ast.NewNodeKind("CalloutTitle")
)

// wikiLink is [[target#heading|alias]], or ![[...]] when embed is set.
type wikiLink struct {
	ast.BaseInline
	target, heading, alias string
	embed                  bool
	href                   string // "" while unresolved
	image                  bool   // a link (not an embed) to an image of the vault
}

func (n *wikiLink) Kind() ast.NodeKind { return kindWikiLink }

func (n *wikiLink) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Target": n.target, "Heading": n.heading}, nil)
}

// label is what Obsidian shows for the link: the alias, else
// "Note > Heading".
func (n *wikiLink) label() string {
	switch {
	case n.alias != "":
		return n.alias
	case n.heading != "" && n.target != "":
		return n.target + " > " + n.heading
	case n.heading != "":
		return n.heading
	}
	return n.target
}

func (n *wikiLink) resolve(link func(target, heading string, wiki bool) (string, bool)) {
	if link == nil {
		return
	}
	if href, ok := link(n.target, n.heading, true); ok {
		n.href = href
	}
}

// wikiParser reads [[...]] and ![[...]] on one line.
type wikiParser struct{}

func (wikiParser) Trigger() []byte { return []byte{'[', '!'} }

func (wikiParser) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, _ := block.PeekLine()
	n, l := sections.ParseWikiLink(line)
	if n == 0 {
		return nil
	}
	block.Advance(n)
	return &wikiLink{target: l.Target, heading: l.Heading, alias: l.Alias, embed: l.Embed}
}

// callout is a blockquote that opens with "[!type] Title"; fold is '+' or
// '-' for a foldable one (open or closed), else 0.
type callout struct {
	ast.BaseBlock
	kind string
	fold byte
	// docs: a fenced div (fenceddivs.go), which sections
	// does not read: a heading inside it opens a section.
	docs bool
}

func (n *callout) Kind() ast.NodeKind { return kindCallout }

func (n *callout) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Type": n.kind}, nil)
}

// calloutTitle holds the title's inline nodes.
type calloutTitle struct{ ast.BaseBlock }

func (n *calloutTitle) Kind() ast.NodeKind { return kindCalloutTitle }

func (n *calloutTitle) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

var calloutRE = regexp.MustCompile(`^\[!([A-Za-z0-9_-]+)\]([+-]?)[ \t]*`)

type calloutTransformer struct{}

func (calloutTransformer) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	for _, q := range nodesOf[*ast.Blockquote](doc) {
		toCallout(q, reader.Source())
	}
}

// nodesOf are the nodes of type T in doc, in document order, collected
// before a transformer replaces any: replacing them during the walk would
// derail it.
func nodesOf[T ast.Node](doc ast.Node) []T {
	var out []T
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := n.(T); ok && entering {
			out = append(out, t)
		}
		return ast.WalkContinue, nil
	})
	return out
}

// kindTitle is the title of a callout of the kind that writes none: its
// kind, capitalised.
func kindTitle(kind string) *calloutTitle {
	title := &calloutTitle{}
	title.AppendChild(title, ast.NewString([]byte(strings.ToUpper(kind[:1])+kind[1:])))
	return title
}

// fill gives c its title, then moves from's children into it.
func (c *callout) fill(title *calloutTitle, from ast.Node) {
	c.AppendChild(c, title)
	for child := from.FirstChild(); child != nil; child = from.FirstChild() {
		from.RemoveChild(from, child)
		c.AppendChild(c, child)
	}
}

// toCallout replaces q with a callout when its first line is "[!type]":
// the rest of that line becomes the title, the other lines the body.
func toCallout(q *ast.Blockquote, src []byte) {
	para, ok := q.FirstChild().(*ast.Paragraph)
	if !ok || para.Lines().Len() == 0 {
		return
	}
	first := para.Lines().At(0)
	m := calloutRE.FindSubmatch(first.Value(src))
	if m == nil {
		return
	}
	c := &callout{kind: strings.ToLower(string(m[1]))}
	c.Lines().Append(first) // where the callout starts, for data-line
	if len(m[2]) > 0 {
		c.fold = m[2][0]
	}
	title := &calloutTitle{}
	moveTitle(para, title, first.Start+len(m[0]), first.Stop)
	if !title.HasChildren() {
		title = kindTitle(c.kind)
	}
	if !para.HasChildren() {
		q.RemoveChild(q, para)
	}
	c.fill(title, q)
	q.Parent().ReplaceChild(q.Parent(), q, c)
}

// moveTitle moves the inline nodes of the paragraph's first line into
// title, dropping the "[!type]" marker that ends at titleStart.
func moveTitle(para ast.Node, title ast.Node, titleStart, lineStop int) {
	for n := para.FirstChild(); n != nil; {
		next := n.NextSibling()
		t, isText := n.(*ast.Text)
		if isText && t.Segment.Stop <= titleStart {
			para.RemoveChild(para, n) // part of the marker
			if t.SoftLineBreak() || t.HardLineBreak() {
				return // no title on the marker's line
			}
			n = next
			continue
		}
		if isText && t.Segment.Start < titleStart {
			t.Segment = t.Segment.WithStart(titleStart)
		}
		para.RemoveChild(para, n)
		title.AppendChild(title, n)
		if isText && (t.SoftLineBreak() || t.HardLineBreak() || t.Segment.Stop >= lineStop) {
			t.SetSoftLineBreak(false)
			t.SetHardLineBreak(false)
			return
		}
		n = next
	}
}

type obsidianRenderer struct{}

func (obsidianRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindWikiLink, renderWikiLink)
	reg.Register(kindCallout, renderCallout)
	reg.Register(kindCalloutTitle, renderCalloutTitle)
	registerMarks(reg)
}

func renderWikiLink(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*wikiLink)
	class := "wikilink"
	if n.embed {
		class += " embed"
	}
	label := html.EscapeString(n.label())
	if n.href == "" {
		missing := "no note by this name"
		if n.image {
			missing = "no image by this name in the vault"
		} else if ext := fileExt(n.target); ext != "" {
			missing = "a " + ext + " file: the page shows notes and images only"
		}
		_, _ = w.WriteString(`<span class="` + class + ` unresolved" title="` + html.EscapeString(missing) + `">` + label + `</span>`)
		return ast.WalkContinue, nil
	}
	if n.image {
		class += " attachment"
	}
	_, _ = w.WriteString(`<a class="` + class + `" href="` + html.EscapeString(n.href) + `">` + label + `</a>`)
	return ast.WalkContinue, nil
}

// fileExt is the extension of a link's target that names a file other
// than a note (".pdf", ".canvas"), lower-cased, or "": a note's name may
// hold a dot ("Release 1.2"), so it needs a letter and no space.
func fileExt(target string) string {
	if i := strings.IndexAny(target, "#|"); i >= 0 {
		target = target[:i]
	}
	ext := strings.ToLower(path.Ext(target))
	if len(ext) < 2 || len(ext) > 12 || ext == ".md" || ext == ".markdown" ||
		strings.ContainsAny(ext, " \t") || !strings.ContainsFunc(ext, unicode.IsLetter) {
		return ""
	}
	return ext
}

func renderCallout(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*callout)
	tag := "div"
	if n.fold != 0 {
		tag = "details"
	}
	if !entering {
		_, _ = w.WriteString("</" + tag + ">\n")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("<" + tag + ` class="callout" data-callout="` + html.EscapeString(n.kind) + `"`)
	if v, ok := n.AttributeString("data-line"); ok {
		_, _ = w.WriteString(` data-line="` + html.EscapeString(string(v.([]byte))) + `"`)
	}
	if n.fold == '+' {
		_, _ = w.WriteString(" open")
	}
	_, _ = w.WriteString(">\n")
	return ast.WalkContinue, nil
}

func renderCalloutTitle(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	tag := "div"
	if node.Parent().(*callout).fold != 0 {
		tag = "summary"
	}
	if entering {
		_, _ = w.WriteString("<" + tag + ` class="callout-title">`)
	} else {
		_, _ = w.WriteString("</" + tag + ">\n")
	}
	return ast.WalkContinue, nil
}
