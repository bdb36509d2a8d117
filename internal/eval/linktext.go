package eval

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch/internal/wordcount"
	"github.com/mdsearch/mdsearch/sections"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// para is one paragraph (or tight list item) as plain text, with its links.
type para struct {
	start int // byte offset of its first line in the note
	text  string
	links []linkSpan
	code  map[int]bool // offsets in text of '.', '!' and '?' inside code spans: not sentence ends
}

// linkSpan is a link's display text [start, end) in para.text and where it
// points: a markdown link's destination, or a wikilink's "Note#Heading".
type linkSpan struct {
	start, end int
	target     string
	wiki       bool
}

// Markers for markdown links in the text built from the syntax tree; the
// decoding pass turns them into spans.
const (
	linkOpen  = '\x01' // then the link's index, then linkText
	linkText  = '\x02'
	linkClose = '\x03'
	codeOpen  = '\x04' // a code span's text follows, up to codeClose
	codeClose = '\x05'
	lineBreak = '\x06' // a line break inside the paragraph: a space, but where it ends a callout's title
)

// calloutRe matches an Obsidian callout's type marker, "[!note]-".
var calloutRe = regexp.MustCompile(`^\[![A-Za-z-]+\][+-]?`)

// mdParser reads notes as sections does (sections/markdown.go): CommonMark
// plus GFM tables, strikethrough, heading attributes and Hugo's highlight
// blocks, so tables are table nodes, with or without leading pipes, and
// highlight blocks code. goldmark parsers are safe for concurrent use.
var mdParser = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough),
	goldmark.WithParserOptions(parser.WithHeadingAttribute(), sections.HeadingAttributeOption, sections.HugoHighlightOption)).Parser()

// paragraphsOf returns the prose of a note body: markup stripped, link text
// kept, code blocks, headings, tables and HTML left out. off is the body's
// offset in the note.
func paragraphsOf(body []byte, off int) []para {
	doc := mdParser.Parse(text.NewReader(body))
	var out []para
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindParagraph, ast.KindTextBlock:
			if lines := n.Lines(); lines.Len() > 0 {
				var b strings.Builder
				var targets []string
				inline(&b, &targets, n, body)
				p := decode(b.String(), targets)
				if p.text != "" {
					p.start = off + lines.At(0).Start
					out = append(out, p)
				}
			}
			return ast.WalkSkipChildren, nil
		case ast.KindHeading, ast.KindFencedCodeBlock, ast.KindCodeBlock, ast.KindHTMLBlock, east.KindTable:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}

// inline writes the plain text of n's inline children, marking links.
func inline(b *strings.Builder, targets *[]string, n ast.Node, src []byte) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			v := c.Segment.Value(src)
			if !bytes.HasPrefix(bytes.TrimSpace(v), []byte(":::")) { // a container fence line
				b.Write(v)
			}
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(lineBreak)
			}
		case *ast.CodeSpan:
			b.WriteRune(codeOpen)
			inline(b, targets, c, src)
			b.WriteRune(codeClose)
		case *ast.String:
			b.Write(c.Value)
		case *ast.Link:
			b.WriteRune(linkOpen)
			b.WriteString(strconv.Itoa(len(*targets)))
			b.WriteRune(linkText)
			*targets = append(*targets, string(c.Destination))
			inline(b, targets, c, src)
			b.WriteRune(linkClose)
		case *ast.AutoLink:
			b.Write(c.Label(src))
		case *ast.RawHTML:
			// An element started right where another ended parts words:
			// "<span>option</span><span>defineEmits</span>" (a docs page's
			// two alternatives) is two; "H<sub>2</sub>O" one, and "the
			// <b>gap</b>." one sentence still.
			if prev, ok := c.PreviousSibling().(*ast.RawHTML); ok && startTag(c.Segments.Value(src)) && bytes.HasPrefix(prev.Segments.Value(src), []byte("</")) {
				b.WriteByte(' ')
			}
		case *ast.Image:
		default:
			inline(b, targets, c, src)
		}
	}
}

// startTag reports whether raw HTML opens an element ("<span …>"), not
// closes one, nor is a comment ("<!-- ignore -->" after a link in the Rust
// book) or a declaration.
func startTag(raw []byte) bool {
	return len(raw) > 1 && raw[0] == '<' && ('a' <= raw[1] && raw[1] <= 'z' || 'A' <= raw[1] && raw[1] <= 'Z')
}

// decode turns marked text into clean text with whitespace collapsed and
// the spans of its markdown links and wikilinks ("[[Note#H|shown]]" shows
// "shown"; an embed "![[...]]" shows nothing).
func decode(s string, targets []string) para {
	var out strings.Builder
	var links []linkSpan
	code, inCode := map[int]bool{}, false
	title := false // in a callout's title line
	space := true  // drop leading whitespace
	write := func(r rune) {
		if unicode.IsSpace(r) {
			if !space {
				out.WriteByte(' ')
			}
			space = true
			return
		}
		out.WriteRune(r)
		space = false
	}
	var open []int // start offsets of unclosed markdown links
	for i := 0; i < len(s); {
		switch {
		case s[i] == linkOpen:
			j := strings.IndexByte(s[i:], linkText)
			idx, _ := strconv.Atoi(s[i+1 : i+j])
			links = append(links, linkSpan{start: out.Len(), end: -1, target: targets[idx]})
			open = append(open, len(links)-1)
			i += j + 1
		case s[i] == codeOpen || s[i] == codeClose:
			inCode = s[i] == codeOpen
			i++
		case s[i] == linkClose:
			if len(open) > 0 {
				links[open[len(open)-1]].end = out.Len()
				open = open[:len(open)-1]
			}
			i++
		case strings.HasPrefix(s[i:], "[!") && calloutRe.MatchString(s[i:]):
			title = out.Len() == 0 // a callout's first line is its title
			i += len(calloutRe.FindString(s[i:]))
		case s[i] == lineBreak:
			if title {
				if endTitle(&out); out.Len() == 0 { // dropped, with its links and code
					links, open, code = links[:0], open[:0], map[int]bool{}
				}
				title, space = false, out.Len() == 0 || strings.HasSuffix(out.String(), " ")
			}
			write(' ')
			i++
		case strings.HasPrefix(s[i:], "![["): // an embed shows another note, not words
			if end := strings.Index(s[i:], "]]"); end > 0 {
				i += end + 2
				continue
			}
			write('!')
			i++
		case strings.HasPrefix(s[i:], "[["):
			end := strings.Index(s[i:], "]]")
			if end < 0 {
				write('[')
				i++
				continue
			}
			// A code span in a wikilink's text ([[F#hasTag|`hasTag`]]) is
			// its text: its markers are not.
			target, shown, ok := strings.Cut(strings.Map(unmarked, s[i+2:i+end]), "|")
			if !ok {
				shown = strings.ReplaceAll(target, "#", " ")
			}
			i += end + 2
			start := out.Len()
			for _, r := range shown {
				write(r)
			}
			links = append(links, linkSpan{start: start, end: out.Len(), target: target, wiki: true})
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if inCode && isStop(s[i]) {
				code[out.Len()] = true
			}
			write(r)
			i += size
		}
	}
	t := strings.TrimRight(out.String(), " ")
	kept := links[:0]
	for _, l := range links {
		if l.end > l.start && l.end <= len(t) {
			kept = append(kept, l)
		}
	}
	return para{text: t, links: kept, code: code}
}

// endTitle ends a callout's title, all out holds, so it is not read as
// the start of the body's first sentence ("> [!tip] Tip" made "Tip If
// you want"): a title too short for a query ("Tip") is dropped, so the
// body's first sentence is the section's first; a longer one ends as a
// sentence of its own.
func endTitle(out *strings.Builder) {
	t := strings.TrimRight(out.String(), " ")
	switch {
	case wordcount.Count(t) < minQueryWords:
		out.Reset()
	case !isStop(t[len(t)-1]):
		out.Reset()
		out.WriteString(strings.TrimSuffix(t, ":") + ".")
	}
}

// unmarked drops the markers inline writes, keeping the text.
func unmarked(r rune) rune {
	if r >= linkOpen && r <= lineBreak {
		return -1
	}
	return r
}

// sentenceAround is the sentence of p that holds [start, end).
func (p para) sentenceAround(start, end int) string {
	text := p.text
	from := 0
	for i := start; i > 0; i-- {
		if wideStopBefore(text, i) {
			from = i
			break
		}
		if i < start && text[i] == ' ' && p.ends(i-1) {
			from = i + 1
			break
		}
	}
	to := len(text)
	for i := end; i < len(text); i++ {
		if p.ends(i) && (i+1 == len(text) || text[i+1] == ' ') {
			to = i + 1
			break
		}
		if n := wideStopAt(text, i); n > 0 {
			to = i + n
			break
		}
	}
	return strings.TrimSpace(text[from:to])
}

// firstSentence is p's text up to its first sentence end.
func (p para) firstSentence() string {
	for i := 0; i < len(p.text); i++ {
		if p.ends(i) && (i+1 == len(p.text) || p.text[i+1] == ' ') {
			return p.text[:i+1]
		}
		if n := wideStopAt(p.text, i); n > 0 {
			return p.text[:i+n]
		}
	}
	return p.text
}

// wideStops are the full stops of Chinese and Japanese, which end a
// sentence with no space after them.
var wideStops = []string{"。", "！", "？"}

// wideStopAt is the length of a wide stop at text[i:], or 0.
func wideStopAt(text string, i int) int {
	for _, s := range wideStops {
		if strings.HasPrefix(text[i:], s) {
			return len(s)
		}
	}
	return 0
}

// wideStopBefore reports whether text[:i] ends with a wide stop.
func wideStopBefore(text string, i int) bool {
	return slices.ContainsFunc(wideStops, func(s string) bool { return strings.HasSuffix(text[:i], s) })
}

// ends reports whether the byte at i may end a sentence: a stop outside
// code ("format!" and ".0" in code do not end one).
func (p para) ends(i int) bool { return isStop(p.text[i]) && !p.code[i] }

func isStop(c byte) bool { return c == '.' || c == '!' || c == '?' }
