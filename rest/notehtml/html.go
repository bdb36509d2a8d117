package notehtml

import (
	"bytes"
	"context"
	"html"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/mdsearch/mdsearch/sections"
	"github.com/mdsearch/mdsearch/vault"
)

// Options tune how a note is rendered to HTML.
type Options struct {
	// FirstLine is the line number of the source's first line in its file,
	// so data-line attributes and Heading.Line match the file; 0 means 1.
	FirstLine int
	// Link resolves a link target to an href: a wikilink's note name
	// ("Note", "folder/Note"; wiki is true) or a relative markdown link's
	// destination (wiki is false), and a heading in it ("" for none; a
	// block reference "^id" names the block that id marks). ok is
	// false when no note matches; the link then renders as marked text.
	// Nil leaves every wikilink unresolved and markdown links as written.
	Link func(target, heading string, wiki bool) (href string, ok bool)
	// Attachment resolves an image a note embeds (![[diagram.png]], or
	// ![alt](assets/diagram.png)), by the name or path the note gives, to
	// the address it is served at; ok is false when the vault holds no
	// image by that name. Nil shows an embed as unresolved and an image as
	// its text.
	Attachment func(name string) (src string, ok bool)
	// Tag is the address of a search by tag, for a #tag in the note; nil
	// shows tags as styled text.
	Tag func(name string) string
	// IDs makes the heading ids; nil starts afresh with the source's custom
	// ids reserved. A section rendered alone passes the ids its note's
	// headings before it have taken (see SectionIDs).
	IDs *sections.IDs
}

// SectionIDs is the ids of a note's headings before line, taken, with
// every custom id of the note reserved: what Options.IDs needs to give
// a section rendered alone the ids the whole note gives it.
func SectionIDs(note []byte, line int) *sections.IDs {
	doc := sections.Parse("", note)
	ids := doc.CustomIDs()
	for _, h := range doc.Headings {
		if h.Line < line && h.Anchor == "" {
			ids.Generate(h.Text)
		}
	}
	return ids
}

// Heading is one heading of a rendered note, for tables of contents and for
// mapping a line of the file to the section that holds it.
type Heading struct {
	ID    string `json:"id"`
	Level int    `json:"level"`
	Text  string `json:"text"`
	Line  int    `json:"line"` // 1-based, in the file
	// Nested is set for a heading inside a list, quote or callout, which
	// opens no section: a link naming a heading's text means a section's
	// before it.
	Nested bool `json:"nested,omitempty"`
}

// Rendered is a note as safe HTML, with its headings in document order.
type Rendered struct {
	HTML     string    `json:"html"`
	Headings []Heading `json:"headings"`
}

// HTML renders note markdown to HTML that is safe to insert into a page:
// raw HTML in the note is omitted, dangerous link schemes are dropped, and
// heading attributes other than id are discarded. GFM tables,
// strikethrough, task lists and autolinks are on, and footnotes; Obsidian
// callouts, wikilinks, embeds, block ids, ==highlights==, #tags and %%
// comments are understood, and $math$ is kept as written. Headings get ids ("## Title
// {#custom-id}" sets one explicitly) and top-level blocks a data-line
// attribute, so a page can link to a section and mark a range of lines.
func HTML(src []byte, opts Options) Rendered {
	r, _ := HTMLContext(context.Background(), src, opts)
	return r
}

// HTMLContext is HTML that stops, with ctx's error, once ctx is done: it
// looks between top-level blocks, so a reader who left stops the work. A
// note over MaxRenderSize is shown as its text, not rendered.
func HTMLContext(ctx context.Context, src []byte, opts Options) (Rendered, error) {
	if err := ctx.Err(); err != nil {
		return Rendered{}, err
	}
	if r, ok := asText(src); ok {
		return r, nil
	}
	first := max(opts.FirstLine, 1)
	var out bytes.Buffer
	fm, body, ok := sections.Frontmatter(src)
	note := sections.Parse("", src)
	if ok {
		out.WriteString(`<details class="frontmatter" data-line="` + strconv.Itoa(first) + `"><summary>Properties</summary><pre>`)
		out.WriteString(html.EscapeString(string(fm)))
		out.WriteString("</pre></details>\n")
		frontTags(&out, note.TagsIn(0, 0), opts.Tag)
	}
	// Headings get the ids read takes (custom ids reserved first), from
	// the headings sections reads, by line; comments are left out.
	src = maskComments(src, note.Comments())
	src = tameBrackets(src)
	st := &noteState{opts: opts, lines: sections.NewLineIndex(src), base: body, first: first,
		ids: opts.IDs, heads: map[int]sections.Heading{}, comments: bodyRanges(note.InlineComments(), body)}
	if st.ids == nil {
		st.ids = note.CustomIDs()
	}
	for _, h := range note.Headings {
		st.heads[h.Line] = h
	}
	for _, h := range note.Nested { // their ids are the ones read takes (sections.NestedIDs)
		if _, top := st.heads[h.Line]; !top {
			st.heads[h.Line] = h
		}
	}
	if err := ctx.Err(); err != nil { // the reading above takes time too
		return Rendered{}, err
	}
	pc := parser.NewContext()
	pc.Set(noteStateKey, st)
	doc := noteMarkdown.Parser().Parse(text.NewReader(src[body:]), parser.WithContext(pc))
	if err := renderBlocks(ctx, &out, src[body:], doc); err != nil {
		if ctx.Err() != nil {
			return Rendered{}, ctx.Err()
		}
		// Rendering into a bytes.Buffer fails only on a renderer bug; show
		// the source rather than nothing.
		return Rendered{HTML: "<pre>" + html.EscapeString(string(src)) + "</pre>", Headings: []Heading{}}, nil
	}
	if st.headings == nil {
		st.headings = []Heading{}
	}
	return Rendered{HTML: out.String(), Headings: st.headings}, nil
}

// noteMarkdown renders every note. It holds no per-call state (that is in
// the parser.Context, under noteStateKey), so one instance serves
// concurrent calls.
var noteMarkdown = goldmark.New(
	// GFM's parts (strikethrough is obsidian's: two tildes), with a table cell's alignment left to noteTransformer:
	// the page's CSP refuses the style attribute goldmark would write.
	goldmark.WithExtensions(extension.Linkify, extension.TaskList,
		extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignNone)),
		extension.Footnote, &obsidian{}),
	goldmark.WithParserOptions(parser.WithAttribute(), sections.AdmonitionOption, sections.HeadingAttributeOption, sections.HugoHighlightOption,
		parser.WithBlockParsers(util.Prioritized(fencedDivParser{}, 750)),
		parser.WithInlineParsers(util.Prioritized(delimiterGuard{}, 499)), // before emphasis (500)
		// After the footnotes' transformer (999) has moved the footnotes to
		// the end of the note, so comments in them hide and links resolve.
		parser.WithASTTransformers(util.Prioritized(commentTransformer{}, 1000),
			util.Prioritized(admonitionTransformer{}, 1001), util.Prioritized(fencedDivTransformer{}, 1001),
			util.Prioritized(noteTransformer{}, 1002))),
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(&blockRenderer{}, 100), util.Prioritized(anchorRenderer{}, 100))),
)

// bodyRanges are rs, offsets in a note's source, as offsets in its body
// from body on (the frontmatter is not parsed).
func bodyRanges(rs [][2]int, body int) [][2]int {
	out := make([][2]int, 0, len(rs))
	for _, r := range rs {
		if r[1] > body {
			out = append(out, [2]int{max(r[0], body) - body, r[1] - body})
		}
	}
	return out
}

// noteStateKey holds one HTML call's *noteState in its parser.Context.
var noteStateKey = parser.NewContextKey()

// noteState is what one HTML call's transformer reads and collects.
type noteState struct {
	opts     Options
	lines    sections.LineIndex // over the whole source, frontmatter included
	base     int                // offset of the parsed body in the source
	comments [][2]int           // the inline comments, as offsets in the parsed body
	first    int                // the file's line number of the source's first line
	headings []Heading
	ids      *sections.IDs            // heading ids taken so far
	heads    map[int]sections.Heading // the headings sections reads, by line in the source
}

// line is the file's line number of offset off in the parsed body.
func (st *noteState) line(off int) int {
	return st.lines.Line(st.base+off) - 1 + st.first
}

// noteTransformer gives blocks their block ids, collects headings, strips
// heading attributes other than id, marks top-level blocks with their
// first line, resolves links and embeds the vault's images.
type noteTransformer struct{}

func (noteTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	st, _ := pc.Get(noteStateKey).(*noteState)
	if st == nil {
		return
	}
	src := reader.Source()
	blockIDs(doc, src)
	st.headingIDs(doc, src)
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if n.Kind() == extast.KindFootnoteList {
			continue // below the note, out of the order of its lines
		}
		if off, ok := firstOffset(n); ok {
			line := st.line(off)
			if n.Kind() == ast.KindFencedCodeBlock {
				line-- // its lines start below the opening fence
			}
			n.SetAttributeString("data-line", []byte(strconv.Itoa(line)))
		}
	}
	var images, htmls []ast.Node // replaced once the walk is done
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			st.heading(n, src)
		case *ast.Link:
			st.link(n)
		case *ast.Image:
			images = append(images, n)
		case *ast.RawHTML, *ast.HTMLBlock:
			htmls = append(htmls, n)
		case *wikiLink:
			if isImageEmbed(n) {
				images = append(images, n)
				break
			}
			if n.image = vault.IsAttachment(n.target); n.image {
				n.href, _ = st.attachment(n.target) // Obsidian opens the image
				break
			}
			n.resolve(st.opts.Link)
		case *extast.TableCell:
			if n.Alignment != extast.AlignNone {
				n.SetAttributeString("class", []byte("align-"+n.Alignment.String()))
			}
		case *tag:
			if st.opts.Tag != nil {
				n.href = st.opts.Tag(n.name)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range images {
		st.embedImage(n, src)
	}
	st.htmlImages(htmls, src)
}

func (st *noteState) heading(h *ast.Heading, src []byte) {
	id, _ := h.AttributeString("id")
	idb, _ := id.([]byte)
	line := 0
	if off, ok := firstOffset(h); ok {
		line = st.line(off)
	} else if h.Pos() >= 0 { // an empty heading ("## ") has no text to place it by
		line = st.line(h.Pos())
	}
	dataLine, hasLine := h.AttributeString("data-line")
	h.RemoveAttributes()
	h.SetAttributeString("id", idb)
	if hasLine {
		h.SetAttributeString("data-line", dataLine)
	}
	nested := !opensSection(h)
	st.headings = append(st.headings, Heading{ID: string(idb), Level: h.Level, Text: strings.TrimSpace(plainText(h, src)), Line: line, Nested: nested})
}

// link points a relative link to a note (e.g. "Other%20Note.md#Setup") at
// that note's page, leaving URLs with a scheme and in-page anchors alone.
func (st *noteState) link(l *ast.Link) {
	dest := string(l.Destination)
	if st.opts.Link == nil || dest == "" || strings.HasPrefix(dest, "#") || strings.Contains(dest, ":") || strings.HasPrefix(dest, "//") {
		return
	}
	target, heading, _ := strings.Cut(dest, "#")
	target = unescapePath(target)
	if href, ok := st.opts.Link(target, unescapePath(heading), false); ok {
		l.Destination = []byte(href)
		return
	}
	if st.opts.Attachment != nil && !isNotePath(target) {
		if src, ok := st.opts.Attachment(target); ok { // an image the page serves
			l.Destination = []byte(src)
			return
		}
	}
	// Followed, it would leave the page for a bare "not found".
	l.SetAttributeString(unresolvedAttr, []byte(target))
}

// unresolvedAttr marks a relative markdown link to a note or an image the
// vault does not hold, for blockRenderer.link; it is never written out.
const unresolvedAttr = "data-unresolved"

// isNotePath reports whether a relative link's target names a note: a
// .md file, or a name without an extension as Obsidian writes them.
func isNotePath(target string) bool {
	if target == "" {
		return false
	}
	ext := path.Ext(target)
	return ext == "" || strings.EqualFold(ext, ".md")
}

// firstOffset is the byte offset where a block's text starts.
func firstOffset(n ast.Node) (int, bool) {
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		return n.Lines().At(0).Start, true
	}
	if t, ok := n.(*ast.Text); ok {
		return t.Segment.Start, true
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if off, ok := firstOffset(c); ok {
			return off, true
		}
	}
	return 0, false
}

// plainText is the text of an inline tree as sections reads a heading's
// (markup dropped, escapes and entities resolved), with wikilinks read as
// their label and tags as written.
func plainText(n ast.Node, src []byte) string {
	return sections.PlainText(n, src, func(c ast.Node) (string, bool) {
		switch c := c.(type) {
		case *wikiLink:
			return c.label(), true
		case *tag:
			return "#" + c.written, true
		}
		return "", false
	})
}

// maskComments returns src with the Obsidian comments of whole lines (as
// sections finds them) blanked, line breaks kept: the page shows what
// Obsidian's reading view shows, and every line stays where it was. A
// comment inside a line is left to commentTransformer: blanked, it could
// turn the rest of its line into indented code.
func maskComments(src []byte, comments [][2]int) []byte {
	if len(comments) == 0 {
		return src
	}
	out := bytes.Clone(src)
	for _, c := range comments {
		if !wholeLines(src, c) {
			continue
		}
		for i := c[0]; i < c[1]; i++ {
			if out[i] != '\n' && out[i] != '\r' {
				out[i] = ' '
			}
		}
	}
	return out
}

// wholeLines reports whether c runs from a line's start to a line's end.
func wholeLines(src []byte, c [2]int) bool {
	startsLine := c[0] == 0 || src[c[0]-1] == '\n'
	endsLine := c[1] == len(src) || src[c[1]] == '\n' || src[c[1]] == '\r'
	return startsLine && endsLine
}

// headingIDs gives headings their ids: a top-level heading the id read
// gives its section (like goldmark's, but letters and digits of every
// script stay, so "Über uns" is "über-uns"), from the heading as sections
// reads it; then a heading inside a quote, callout or list one that no
// section has, as sections.NestedIDs gives it (read takes it for the
// section the heading sits in).
func (st *noteState) headingIDs(doc *ast.Document, src []byte) {
	for _, top := range []bool{true, false} {
		_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if h, ok := n.(*ast.Heading); entering && ok && !hasID(h) && opensSection(h) == top {
				text := plainText(h, src)
				if sh, ok := st.heads[st.lines.Line(st.base+headingOffset(h))]; ok {
					text = sh.Text
				}
				h.SetAttributeString("id", []byte(st.ids.Generate(text)))
			}
			return ast.WalkContinue, nil
		})
	}
}

// opensSection reports whether h opens a section, as sections reads the
// note: it sits at the top level, or inside docs sites' containers alone
// (fenced divs, which sections reads as text), not in a list, quote or callout.
func opensSection(h *ast.Heading) bool {
	p := h.Parent()
	for c, ok := p.(*callout); ok && c.docs; c, ok = p.(*callout) {
		p = p.Parent()
	}
	return p != nil && p.Kind() == ast.KindDocument
}

// hasID reports whether a heading has an id: "## Title {#id}".
func hasID(h *ast.Heading) bool {
	_, ok := h.AttributeString("id")
	return ok
}

// headingOffset is where a heading's line starts to be read: its text, or
// for an empty heading its position.
func headingOffset(h *ast.Heading) int {
	if off, ok := firstOffset(h); ok {
		return off
	}
	return max(h.Pos(), 0)
}

// blockRenderer renders code blocks with their data-line attribute;
// images that are not the vault's own (embedImage) as text, since the
// page loads nothing from outside; and links with a dangerous scheme
// (javascript: and the like) as plain text, not as dead links.
type blockRenderer struct{}

func (r *blockRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.code)
	reg.Register(ast.KindCodeBlock, r.code)
	reg.Register(ast.KindImage, r.image)
	reg.Register(ast.KindLink, r.link)
	reg.Register(ast.KindAutoLink, r.autoLink)
}

func (r *blockRenderer) link(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	dest := util.URLEscape(n.Destination, true)
	safe := !ghtml.IsDangerousURL(dest)
	if target, ok := n.AttributeString(unresolvedAttr); ok {
		if entering {
			what := "no note has the path "
			if !isNotePath(string(target.([]byte))) {
				what = "no note or image of the vault is "
			}
			_, _ = w.WriteString(`<span class="unresolved" title="` + what + html.EscapeString(string(target.([]byte))) + `">`)
		} else {
			_, _ = w.WriteString("</span>")
		}
		return ast.WalkContinue, nil
	}
	switch {
	case !entering && safe:
		_, _ = w.WriteString("</a>")
	case !entering:
		_, _ = w.WriteString("</span>")
	case safe:
		_, _ = w.WriteString(`<a href="` + string(util.EscapeHTML(dest)) + `"`)
		if n.Title != nil {
			_, _ = w.WriteString(` title="` + html.EscapeString(string(n.Title)) + `"`)
		}
		_, _ = w.WriteString(">")
	default:
		_, _ = w.WriteString(`<span class="removed-link" title="unsafe link removed">`)
	}
	return ast.WalkContinue, nil
}

func (r *blockRenderer) autoLink(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.AutoLink)
	dest := util.URLEscape(n.URL(src), false)
	label := html.EscapeString(string(n.Label(src)))
	if n.AutoLinkType == ast.AutoLinkEmail && !bytes.HasPrefix(bytes.ToLower(dest), []byte("mailto:")) {
		dest = append([]byte("mailto:"), dest...)
	}
	if ghtml.IsDangerousURL(dest) {
		_, _ = w.WriteString(`<span class="removed-link" title="unsafe link removed">` + label + `</span>`)
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<a href="` + string(util.EscapeHTML(dest)) + `">` + label + `</a>`)
	return ast.WalkContinue, nil
}

func (r *blockRenderer) code(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("<pre")
	if v, ok := n.AttributeString("data-line"); ok {
		_, _ = w.WriteString(` data-line="` + html.EscapeString(string(v.([]byte))) + `"`)
	}
	_, _ = w.WriteString("><code")
	if f, ok := n.(*ast.FencedCodeBlock); ok {
		if lang := f.Language(src); len(lang) > 0 {
			_, _ = w.WriteString(` class="language-` + html.EscapeString(string(lang)) + `"`)
		}
	}
	_, _ = w.WriteString(">")
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		_, _ = w.WriteString(html.EscapeString(string(seg.Value(src))))
	}
	_, _ = w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}

func (r *blockRenderer) image(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	img := n.(*ast.Image)
	label := plainText(img, src)
	if label == "" {
		label = string(img.Destination)
	}
	_, _ = w.WriteString(`<span class="embed" title="image not shown">` + html.EscapeString(label) + `</span>`)
	return ast.WalkSkipChildren, nil
}

// unescapePath decodes %XX escapes in a link destination, leaving it as
// written when it is malformed.
func unescapePath(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}
