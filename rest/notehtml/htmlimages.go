package notehtml

import (
	"bytes"
	"html"
	"path"
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// HTML images. Raw HTML is omitted from the page, but an <img> a note
// writes in HTML (`<img src="attachments/photo.png" width="300">`, as
// docs sites and pasted snippets do) is an image as ![](…) is: shown when
// the vault holds it, else named as an image not shown. Only its src,
// alt, width and height are read; nothing else of the tag reaches the
// page. An HTML block of images in layout tags alone (`<p
// align="center">`, a link around it) shows the images alone.

// imgTag is an <img> tag alone, with its attributes.
var imgTag = regexp.MustCompile(`(?is)^<img(\s[^<>]*)?/?>$`)

// htmlImage reads an <img> tag alone (raw, white space around it
// allowed) as the image it shows; ok is false for any other HTML. An
// attribute given twice counts as first given, as browsers read it, and
// the value of one not read ('title="x src=y"') is skipped whole.
func htmlImage(raw []byte) (img *embeddedImage, ok bool) {
	m := imgTag.FindSubmatch(bytes.TrimSpace(raw))
	if m == nil {
		return nil, false
	}
	img = &embeddedImage{}
	seen := map[string]bool{}
	for attrs := string(m[1]); ; {
		name, value, rest, more := nextAttr(attrs)
		if !more {
			break
		}
		attrs = rest
		if seen[name] {
			continue
		}
		seen[name] = true
		switch v := html.UnescapeString(value); name {
		case "src":
			img.name = v
		case "alt":
			img.alt, img.hasAlt = v, true
		case "width":
			img.width = digits(v)
		case "height":
			img.height = digits(v)
		}
	}
	return img, img.name != ""
}

// nextAttr reads the first attribute of s (white space and '/' before
// it skipped): its name in lower case, its value (quoted either way, or
// bare; "" for none), and the rest of s; more is false when s holds none.
func nextAttr(s string) (name, value, rest string, more bool) {
	s = strings.TrimLeft(s, " \t\r\n\f/")
	i := strings.IndexAny(s, " \t\r\n\f/=>")
	if i < 0 {
		i = len(s)
	}
	if i == 0 {
		return "", "", "", false
	}
	name, s = strings.ToLower(s[:i]), strings.TrimLeft(s[i:], " \t\r\n\f")
	if !strings.HasPrefix(s, "=") {
		return name, "", s, true
	}
	s = strings.TrimLeft(s[1:], " \t\r\n\f")
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		if j := strings.IndexByte(s[1:], s[0]); j >= 0 {
			return name, s[1 : 1+j], s[2+j:], true
		}
		return name, s[1:], "", true
	}
	j := strings.IndexAny(s, " \t\r\n\f>")
	if j < 0 {
		j = len(s)
	}
	return name, s[:j], s[j:], true
}

// digits is s when it is a size in pixels ("300"), else "".
func digits(s string) string {
	if sizeRE.MatchString(s) && !strings.Contains(s, "x") {
		return s
	}
	return ""
}

// htmlBlockImages reads an HTML block made of <img> tags alone, one a
// line, or of images in layout tags and nothing else (wrappers), as their
// images; nil for any other block.
func htmlBlockImages(n *ast.HTMLBlock, src []byte) []*embeddedImage {
	var out []*embeddedImage
	for i := range n.Lines().Len() {
		line := n.Lines().At(i)
		v := line.Value(src)
		if len(bytes.TrimSpace(v)) == 0 {
			continue
		}
		img, ok := htmlImage(v)
		if !ok {
			return wrappedImages(n.Lines().Value(src))
		}
		out = append(out, img)
	}
	return out
}

// wrappers are the tags a block of images may hold them in, as READMEs
// and docs pages centre an image or link it: `<p align="center"><img
// src="logo.png"></p>`. The page shows the images alone.
var wrappers = map[atom.Atom]bool{atom.P: true, atom.Div: true, atom.Center: true, atom.Span: true, atom.A: true,
	atom.Picture: true, atom.Source: true, atom.Figure: true, atom.Br: true}

// wrappedImages reads raw, an HTML block, as the images it shows when it
// holds <img> tags, wrappers, comments and white space alone; nil when it
// holds any other tag or any text (a caption, which the page would have
// to show as HTML), or no image.
func wrappedImages(raw []byte) []*embeddedImage {
	var out []*embeddedImage
	z := xhtml.NewTokenizer(bytes.NewReader(raw))
	for {
		switch z.Next() {
		case xhtml.ErrorToken:
			return out // the end of raw (a reader of bytes fails no other way)
		case xhtml.TextToken:
			if len(bytes.TrimSpace(z.Text())) > 0 {
				return nil
			}
		case xhtml.CommentToken, xhtml.EndTagToken:
			if name, _ := z.TagName(); len(name) > 0 && !wrappers[atom.Lookup(name)] {
				return nil
			}
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			name, _ := z.TagName()
			if a := atom.Lookup(name); a == atom.Img {
				img, ok := htmlImage(z.Raw())
				if !ok {
					return nil
				}
				out = append(out, img)
			} else if !wrappers[a] {
				return nil
			}
		default: // a doctype
			return nil
		}
	}
}

// resolveHTMLImage sets where img, read from an <img> tag, is served:
// a path the vault holds an image at, as ![](…) is resolved; a URL, or a
// path the vault does not hold, is an image not shown (remote).
func (st *noteState) resolveHTMLImage(img *embeddedImage) {
	remote := strings.Contains(img.name, ":") || strings.HasPrefix(img.name, "//")
	if !img.hasAlt { // as an embed names it; a data: URI's text is no name
		img.alt = path.Base(unescapePath(img.name))
		if strings.HasPrefix(strings.ToLower(img.name), "data:") {
			img.alt = "image"
		}
	}
	if remote {
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
			img, ok := htmlImage(n.Segments.Value(src))
			if !ok {
				continue
			}
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
			for i, img := range imgs {
				st.resolveHTMLImage(img)
				if i > 0 { // one a line, shown apart
					p.AppendChild(p, ast.NewString([]byte(" ")))
				}
				p.AppendChild(p, img)
			}
			n.Parent().ReplaceChild(n.Parent(), n, p)
		}
	}
}
