package notehtml

import (
	"bytes"
	"html"
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// HTML images. Raw HTML is omitted from the page, but an <img> a note
// writes in HTML (`<img src="attachments/photo.png" width="300">`, as
// docs sites and pasted snippets do) is an image as ![](…) is: shown when
// the vault holds it, else named as an image not shown. Only its src,
// alt, width and height are read; nothing else of the tag reaches the
// page.

// imgTag is an <img> tag alone, with its attributes.
var imgTag = regexp.MustCompile(`(?is)^<img(\s[^<>]*)?/?>$`)

// imgAttr is one attribute of an <img> tag: its name and its value,
// quoted either way or bare.
var imgAttr = regexp.MustCompile(`(?i)(?:^|\s)(src|alt|width|height)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>` + "`" + `]+))`)

// htmlImage reads an <img> tag alone (raw, white space around it
// allowed) as the image it shows; ok is false for any other HTML.
func htmlImage(raw []byte) (src, alt, width, height string, ok bool) {
	m := imgTag.FindSubmatch(bytes.TrimSpace(raw))
	if m == nil {
		return "", "", "", "", false
	}
	for _, a := range imgAttr.FindAllSubmatch(m[1], -1) {
		v := html.UnescapeString(string(a[2]) + string(a[3]) + string(a[4]))
		switch strings.ToLower(string(a[1])) {
		case "src":
			src = v
		case "alt":
			alt = v
		case "width":
			width = digits(v)
		case "height":
			height = digits(v)
		}
	}
	return src, alt, width, height, src != ""
}

// digits is s when it is a size in pixels ("300"), else "".
func digits(s string) string {
	if sizeRE.MatchString(s) && !strings.Contains(s, "x") {
		return s
	}
	return ""
}

// htmlBlockImages reads an HTML block made of <img> tags alone, one a
// line, as their images; nil for any other block.
func htmlBlockImages(n *ast.HTMLBlock, src []byte) []*embeddedImage {
	var out []*embeddedImage
	for i := range n.Lines().Len() {
		line := n.Lines().At(i)
		v := line.Value(src)
		if len(bytes.TrimSpace(v)) == 0 {
			continue
		}
		s, alt, w, h, ok := htmlImage(v)
		if !ok {
			return nil
		}
		out = append(out, &embeddedImage{name: s, alt: alt, width: w, height: h})
	}
	return out
}

// resolveHTMLImage sets where img, read from an <img> tag, is served:
// a path the vault holds an image at, as ![](…) is resolved; a URL, or a
// path the vault does not hold, is an image not shown (remote).
func (st *noteState) resolveHTMLImage(img *embeddedImage) {
	if img.alt == "" {
		img.alt = img.name
	}
	if strings.Contains(img.name, ":") || strings.HasPrefix(img.name, "//") {
		img.remote = true
		return
	}
	at, ok := st.attachment(unescapePath(img.name))
	img.src, img.remote = at, !ok
}

// htmlImages replaces the inline <img> tags (RawHTML) and the HTML blocks
// of <img> tags alone among nodes with the images they show; a block
// becomes a paragraph of them, keeping its line.
func (st *noteState) htmlImages(nodes []ast.Node, src []byte) {
	for _, n := range nodes {
		switch n := n.(type) {
		case *ast.RawHTML:
			s, alt, w, h, ok := htmlImage(n.Segments.Value(src))
			if !ok {
				continue
			}
			img := &embeddedImage{name: s, alt: alt, width: w, height: h}
			st.resolveHTMLImage(img)
			n.Parent().ReplaceChild(n.Parent(), n, img)
		case *ast.HTMLBlock:
			imgs := htmlBlockImages(n, src)
			if imgs == nil {
				continue
			}
			p := ast.NewParagraph()
			if v, ok := n.AttributeString("data-line"); ok {
				p.SetAttributeString("data-line", v)
			}
			for _, img := range imgs {
				st.resolveHTMLImage(img)
				p.AppendChild(p, img)
			}
			n.Parent().ReplaceChild(n.Parent(), n, p)
		}
	}
}
