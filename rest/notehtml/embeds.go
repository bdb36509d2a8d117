package notehtml

import (
	"html"
	"path"
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"

	"github.com/mdsearch/mdsearch/vault"
)

// embeddedImage is an image a note embeds from its vault, an attachment:
// ![[diagram.png|300]], or ![alt|300](assets/diagram.png). src is where
// it is served (Options.Attachment); "" when the vault has no image by
// that name.
type embeddedImage struct {
	ast.BaseInline
	name, src, alt, width, height string
	remote                        bool // an <img> of a URL: shown as its text, as ![](https://…) is
	hasAlt                        bool // an <img> gave alt, maybe "" (a decorative image)
}

var kindEmbeddedImage = ast.NewNodeKind("EmbeddedImage")

func (n *embeddedImage) Kind() ast.NodeKind { return kindEmbeddedImage }

func (n *embeddedImage) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Name": n.name, "Src": n.src}, nil)
}

// sizeRE is an image's size as Obsidian writes it after "|": a width, or
// width x height, in pixels.
var sizeRE = regexp.MustCompile(`^(\d{1,5})(?:x(\d{1,5}))?$`)

// newEmbeddedImage is the image name names, its label (an embed's alias,
// an image's alt text) read as Obsidian reads it: a size ("300",
// "300x200"), or alt text, or alt text, "|" and a size. The alt text is
// the file's name where the label gives none.
func newEmbeddedImage(name, label string) *embeddedImage {
	img := &embeddedImage{name: name, alt: path.Base(name)}
	text, size := label, strings.TrimSpace(label)
	if i := strings.LastIndexByte(label, '|'); i >= 0 {
		text, size = label[:i], strings.TrimSpace(label[i+1:])
	}
	if m := sizeRE.FindStringSubmatch(size); m != nil {
		img.width, img.height = m[1], m[2]
		if text == label {
			text = ""
		}
	} else {
		text = label
	}
	if t := strings.TrimSpace(text); t != "" {
		img.alt = t
	}
	return img
}

// isImageEmbed reports whether n is ![[...]] of an attachment.
func isImageEmbed(n *wikiLink) bool { return n.embed && vault.IsAttachment(n.target) }

// embedImage replaces an image embed, and a markdown image whose
// destination is a path the vault holds an image at, with an
// embeddedImage. A markdown image of a URL, or of a path the vault does
// not hold, stays (shown as its text).
func (st *noteState) embedImage(n ast.Node, src []byte) {
	var img *embeddedImage
	switch n := n.(type) {
	case *wikiLink:
		img = newEmbeddedImage(n.target, n.alias)
		img.src, _ = st.attachment(n.target)
	case *ast.Image:
		dest := string(n.Destination)
		if dest == "" || strings.Contains(dest, ":") || strings.HasPrefix(dest, "//") {
			return
		}
		name := unescapePath(dest)
		at, ok := st.attachment(name)
		if !ok {
			return
		}
		img = newEmbeddedImage(name, plainText(n, src))
		img.src = at
	default:
		return
	}
	n.Parent().ReplaceChild(n.Parent(), n, img)
}

// attachment is where the image a link names is served, if the vault
// holds one by that name.
func (st *noteState) attachment(name string) (string, bool) {
	if st.opts.Attachment == nil {
		return "", false
	}
	return st.opts.Attachment(name)
}

func renderEmbeddedImage(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*embeddedImage)
	if n.remote {
		_, _ = w.WriteString(`<span class="embed" title="image not shown">` + html.EscapeString(n.alt) + `</span>`)
		return ast.WalkContinue, nil
	}
	if n.src == "" {
		_, _ = w.WriteString(`<span class="wikilink embed unresolved" title="no image by this name in the vault">` +
			html.EscapeString(n.name) + `</span>`)
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<img class="attachment" src="` + html.EscapeString(n.src) + `" alt="` + html.EscapeString(n.alt) + `"`)
	if n.width != "" {
		_, _ = w.WriteString(` width="` + n.width + `"`)
	}
	if n.height != "" {
		_, _ = w.WriteString(` height="` + n.height + `"`)
	}
	_, _ = w.WriteString(` loading="lazy">`)
	return ast.WalkContinue, nil
}
