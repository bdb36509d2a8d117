package sections

import (
	"bytes"
	"fmt"
)

// goldmark keeps a node for every block, container and line of a note,
// and sections a mark, block and section for each: a few megabytes of
// headings, list items or nested quotes took gigabytes to index. A note
// whose estimated cost is over maxParseCost is therefore read as plain
// text: one section, cut into blocks at blank lines (plainMarks).

// maxParseCost is the memory, in bytes as ParseCost estimates it, that
// parsing one note as markdown may take.
const maxParseCost = 64 << 20

// The weights of ParseCost: resident memory measured per unit while
// indexing notes made of nothing else, rounded up.
const (
	costHeading    = 1200 // a heading line
	costHeadingRun = 16   // each byte of a heading's text: its inline nodes
	costBlock      = 600  // another line that starts a block (a paragraph, a list item)
	costLevel      = 400  // each container (quote, list item) a line opens
	costLine       = 160  // any other non-blank line
)

// maxHeading is the longest heading parsed as markdown: goldmark parses a
// heading's inline markup in time quadratic in it (a 4 MB heading of links
// and emphasis took minutes), and no heading is this long.
const maxHeading = 64 << 10

// ParseCost estimates the memory, in bytes, that parsing src as markdown
// takes, from its lines alone: blocks, containers and heading text cost
// the most. Rendering a note costs a few times more than reading its
// sections (notehtml.HTML uses it too).
func ParseCost(src []byte) int {
	var fences Fences
	cost, prevLen, blank := 0, 0, true
	for rest := src; len(rest) > 0; {
		end := bytes.IndexByte(rest, '\n')
		if end < 0 {
			end = len(rest)
		}
		text := rest[:end]
		rest = rest[min(end+1, len(rest)):]
		cost += lineCost(text, &fences, blank, prevLen)
		blank, prevLen = len(bytes.TrimSpace(text)) == 0, len(text)
	}
	return cost
}

// lineCost is ParseCost's share for one line; after says the line before
// was blank, prevLen is its length (a setext underline makes it a heading).
func lineCost(text []byte, fences *Fences, after bool, prevLen int) int {
	switch {
	case fences.Line(text):
		return costLine
	case len(bytes.TrimSpace(text)) == 0:
		return 0
	case isATX(bytes.TrimLeft(text, " ")):
		return headingCost(len(text))
	case !after && isUnderline(text):
		return headingCost(prevLen)
	}
	d := lineDepth(text)
	if after || d > 0 {
		return costBlock + costLevel*d
	}
	return costLine
}

// headingCost is a heading's share of ParseCost, over the budget on its
// own when its text is over maxHeading.
func headingCost(n int) int {
	if n > maxHeading {
		return maxParseCost + 1
	}
	return costHeading + costHeadingRun*n
}

// isUnderline reports whether line is a run of '=' or '-' (a setext
// heading's underline, or a thematic break), spaces around it allowed.
func isUnderline(line []byte) bool {
	t := bytes.TrimSpace(line)
	return len(t) > 0 && (t[0] == '=' || t[0] == '-') && len(bytes.Trim(t, string(t[:1]))) == 0
}

// plainBlock is the length past which plainMarks starts a block at the
// next line: short enough that a block rarely needs cutting, since the
// chunker holds every cut of a section at once (one per line of a block of
// megabytes), long enough to keep a few lines of prose together.
const plainBlock = 192

// plainMarks cuts buf[base:] into Paragraph blocks at line starts, each
// block at least plainBlock bytes long but for the last.
func plainMarks(buf []byte, base int) []mark {
	marks := []mark{{start: base, kind: Paragraph}}
	for pos := base; pos < len(buf); {
		end := bytes.IndexByte(buf[pos:], '\n')
		if end < 0 {
			break
		}
		pos += end + 1
		if pos < len(buf) && pos-marks[len(marks)-1].start >= plainBlock {
			marks = append(marks, mark{start: pos, kind: Paragraph})
		}
	}
	return marks
}

// parsePlain fills d from the body as plain text, with a warning that says
// why.
func (d *Document) parsePlain(buf []byte, cost int, lines lineIndex) {
	d.warn(fmt.Sprintf("too much structure to parse as markdown in bounded memory (about %d MB estimated, over %d MB): read as plain text "+
		"(no sections, inline tags or comments)", (cost+1<<20-1)>>20, maxParseCost>>20)) // rounded up: over the limit reads so
	d.leftOut = d.build(plainMarks(buf, d.Body), lines) // blocks of anchors alone, as a parsed note's
	d.frontTags = frontmatterTags(d.Frontmatter, d.warn)
	d.Tags = d.TagsIn(0, len(d.Src))
	d.Title = d.title()
}
