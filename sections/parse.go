package sections

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/mdsearch/mdsearch/internal/wordcount"
)

func parse(name string, src []byte) *Document {
	d := &Document{Path: name, Src: src}
	buf, loneCR := parseCopy(src)
	d.shown = buf
	lines := newLineIndex(buf)
	d.lines = lines
	if loneCR {
		d.warn("lone CR line endings read as line breaks")
	}
	if LooksBinary(src) {
		d.warn("contains NUL bytes: probably not a text file")
	}
	if w := utf8Warning(src, lines); w != "" {
		d.warn(w)
	}
	d.Body = d.frontmatter(buf)
	if cost := ParseCost(buf[d.Body:]); cost > maxParseCost {
		d.parsePlain(buf, cost, lines)
		return d
	}
	w := &walker{buf: buf, base: d.Body, lines: lines}
	w.parse()
	if w.unclosed > 0 {
		d.warnf("code fence opened on line %d is never closed; it runs to the end of the file", w.unclosed)
	}
	if w.unclosedHighlight > 0 {
		d.warnf("highlight shortcode opened on line %d is never closed ({{< /highlight >}}); it runs to the end of the file as code", w.unclosedHighlight)
	}
	if w.unclosedComment > 0 {
		d.warnf("%%%% comment opened on line %d is never closed; indexed as text (Obsidian hides the rest of the note)", w.unclosedComment)
	}
	d.inlineComments, d.leftOut = w.inline, w.inline
	if len(w.attrLines) > 0 || len(w.comments) > 0 {
		d.leftOut = MergeRanges(MergeRanges(slices.Clone(w.inline), w.comments), w.attrLines)
	}
	// The blocks of anchors alone are left out once built: leftOut is read
	// in order as the blocks are made.
	if anchors := d.build(w.marks, lines); len(anchors) > 0 {
		d.leftOut = MergeRanges(slices.Clone(d.leftOut), anchors)
	}
	d.Nested = w.nested
	d.frontTags, d.inlineTags = frontmatterTags(d.Frontmatter, d.warn), w.tags
	d.Tags = d.TagsIn(0, len(src))
	d.Title = d.title()
	return d
}

// frontmatter reads YAML or TOML frontmatter after an optional BOM and
// returns where the body starts. A bad one is still stripped: it was meant
// as metadata.
func (d *Document) frontmatter(buf []byte) int {
	off := 0
	if bytes.HasPrefix(buf, bom) {
		off = len(bom)
	}
	fs, fe, after, toml, ok := splitFrontmatter(buf, off)
	if !ok {
		if first, next := lineAt(buf, off); len(buf) > off {
			// A rule and a blank line open a note as often as metadata.
			if opens, toml := frontmatterOpens(first); opens && (toml || !blankAfterOpen(buf, next)) {
				d.warnf("frontmatter opened on line 1 (%s) is never closed; read as markdown", first)
			}
		}
		return off
	}
	d.FrontmatterStart, d.FrontmatterEnd = fs, fe
	fm, node, warning := parseFrontmatter(buf[fs:fe], toml)
	if warning != "" {
		d.warn(warning)
	}
	d.Frontmatter, d.fmNode = fm, node
	return after
}

// build cuts the body into sections at the heading marks and gives each
// section its blocks.
func (d *Document) build(marks []mark, lines lineIndex) (anchors [][2]int) {
	var heads []int // indexes of heading marks
	for i, m := range marks {
		if m.heading != nil {
			heads = append(heads, i)
			d.Headings = append(d.Headings, *m.heading)
		}
	}
	end := len(d.Src)
	preEnd := end
	if len(heads) > 0 {
		preEnd = marks[heads[0]].start
	}
	if !isBlank(d.Src[d.Body:preEnd]) {
		s := Section{Parent: -1, StartByte: d.Body, BodyStart: d.Body, BodyEnd: preEnd, EndByte: preEnd, Path: []string{}}
		s.Blocks = d.blocks(marks[:firstOr(heads, len(marks))], d.Body, preEnd, &anchors)
		d.Sections = append(d.Sections, s)
	}
	var stack []int // open sections, by index into d.Sections
	for k, hi := range heads {
		h := marks[hi].heading
		next, nextMark := end, len(marks)
		if k+1 < len(heads) {
			nextMark = heads[k+1]
			next = marks[nextMark].start
		}
		for len(stack) > 0 && d.Sections[stack[len(stack)-1]].Level >= h.Level {
			stack = stack[:len(stack)-1]
		}
		s := Section{Level: h.Level, Heading: h.Text, Anchor: h.Anchor, Parent: -1, StartByte: h.StartByte,
			BodyStart: min(h.EndByte, next), BodyEnd: next, idText: h.idText}
		if len(stack) > 0 {
			s.Parent = stack[len(stack)-1]
			s.Path = append(append([]string{}, d.Sections[s.Parent].Path...), h.Text)
		} else {
			s.Path = []string{h.Text}
		}
		s.Blocks = d.blocks(marks[hi+1:nextMark], s.BodyStart, next, &anchors)
		stack = append(stack, len(d.Sections))
		d.Sections = append(d.Sections, s)
	}
	d.finish(lines)
	return anchors
}

// finish fills in indexes, extents, lines and word counts.
func (d *Document) finish(lines lineIndex) {
	for i := range d.Sections {
		s := &d.Sections[i]
		s.Index = i
		s.EndByte = len(d.Src)
		if s.Level == 0 {
			s.EndByte = s.BodyEnd
		}
		for j := i + 1; j < len(d.Sections) && s.Level > 0; j++ {
			if d.Sections[j].Level <= s.Level {
				s.EndByte = d.Sections[j].StartByte
				break
			}
		}
		s.StartLine = lines.line(s.StartByte)
		s.EndLine = lastLine(d.Src, lines, s.StartByte, s.EndByte)
		for _, b := range s.Blocks { // blocks and blank lines tile the body
			s.BodyWords += b.Words
		}
		s.Words = s.BodyWords + wordcount.Count(s.Heading)
		d.WordCount += s.Words
	}
	d.setIDs()
	// Add each section's words to its ancestors, deepest first.
	for i := len(d.Sections) - 1; i >= 0; i-- {
		if p := d.Sections[i].Parent; p >= 0 {
			d.Sections[p].Words += d.Sections[i].Words
		}
	}
}

// blocks tiles [start, end) into blocks at the given marks, each trimmed of
// trailing white space; text before the first mark gets a block of its own.
// Words are those shown, comments and attribute lines left out (leftOut);
// a block of nothing else is a Comment, but one of HTML comments and
// attribute lines alone is no block: blank lines, as it shows. Nor is a
// paragraph or HTML block of anchors alone, whose range is added to
// anchors for the caller to leave out too.
func (d *Document) blocks(marks []mark, start, end int, anchors *[][2]int) []Block {
	src := d.Src
	var out []Block
	add := func(kind BlockKind, list int32, code bool, s, e int) {
		s = SkipBlankLines(src, s, e)
		e = trimRight(src, s, e)
		if e > s && (kind == Paragraph || kind == Other) && anchorsOnly(src[s:e]) { // code shows its markup
			*anchors = append(*anchors, [2]int{s, e})
			return // markup a link lands on: no text of the note
		}
		if e > s {
			shown := visible(src, s, e, d.leftOut)
			if kind != Comment && isBlank(shown) {
				if d.noObsidianComment(s, e) {
					return // HTML comments and attribute lines alone: blank lines, as they show
				}
				kind = Comment
			}
			b := Block{Kind: kind, StartByte: s, EndByte: e, List: list, HoldsCode: code}
			if kind != Comment && kind != LinkDef { // their words are not shown
				b.Words = wordcount.Count(shownText(src, s, e, d.leftOut, true))
			}
			if kind == Table {
				b.HeaderEnd = headerEnd(src, s, e)
			}
			out = append(out, b)
		}
	}
	pos, cur := start, mark{kind: Other}
	for _, m := range marks {
		if m.start <= pos {
			cur = m
			continue
		}
		if m.start >= end {
			break
		}
		add(cur.kind, cur.list, cur.code, pos, m.start)
		pos, cur = m.start, m
	}
	add(cur.kind, cur.list, cur.code, pos, end)
	return out
}

// headerEnd is the offset just past a table's delimiter row (its second
// line), or end.
func headerEnd(src []byte, start, end int) int {
	pos := start
	for range 2 {
		i := bytes.IndexByte(src[pos:end], '\n')
		if i < 0 {
			return end
		}
		pos += i + 1
	}
	return pos
}

// SkipBlankLines returns the start of the first line in [pos, end) that
// has more than white space, counting from pos; pos itself when that line
// is not blank.
func SkipBlankLines(src []byte, pos, end int) int {
	for i := pos; i < end; i++ {
		switch src[i] {
		case '\n':
			pos = i + 1
		case ' ', '\t', '\r':
		default:
			return pos
		}
	}
	return pos
}

func trimRight(src []byte, start, end int) int {
	for end > start && isSpace(src[end-1]) {
		end--
	}
	return end
}

func isBlank(b []byte) bool { return trimRight(b, 0, len(b)) == 0 }

// lastLine is the last line of [start, end) that holds more than white space.
func lastLine(src []byte, lines lineIndex, start, end int) int {
	if e := trimRight(src, start, end); e > start {
		return lines.line(e - 1)
	}
	return lines.line(start)
}

func firstOr(xs []int, def int) int {
	if len(xs) > 0 {
		return xs[0]
	}
	return def
}

// title is the frontmatter title, else the first H1, else the file name.
func (d *Document) title() string {
	if t := frontmatterTitle(d.Frontmatter); t != "" {
		return t
	}
	_, drawing := d.Frontmatter["excalidraw-plugin"]
	for _, h := range d.Headings {
		if h.Level == 1 && h.Text != "" && !drawing { // a drawing's headings are the plugin's ("Text Elements")
			return h.Text
		}
	}
	base := path.Base(strings.ReplaceAll(d.Path, "\\", "/"))
	if ext := path.Ext(base); ext != "" && ext != base {
		base = strings.TrimSuffix(base, ext)
	}
	if drawing {
		base = strings.TrimSuffix(base, ".excalidraw")
	}
	return display([]byte(base))
}

// dedupFold drops later duplicates, ignoring case.
func dedupFold(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	out := []string{}
	for _, x := range xs {
		if k := strings.ToLower(x); !seen[k] {
			seen[k] = true
			out = append(out, x)
		}
	}
	return out
}

func (d *Document) warn(msg string) { d.Warnings = append(d.Warnings, msg) }

func (d *Document) warnf(format string, args ...any) { d.warn(fmt.Sprintf(format, args...)) }
