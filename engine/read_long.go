package engine

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/plural"
	"github.com/mdsearch/mdsearch/internal/wordcount"
	"github.com/mdsearch/mdsearch/sections"
)

// Reads of more than mdsearch.LongNoteWords words or LongNoteBytes bytes
// (mdsearch.IsLong), unless the whole text is
// asked for, answer with what to choose from instead: a note with its
// outline, a section with its own text and the outline of its subsections,
// and either without headings to choose from with its first lines and the
// lines to read on (Rest).

// longNote answers a read of a whole long note with its outline, which
// costs a few tokens a heading instead of the whole text. A note with one
// heading or none has no outline worth choosing from (false).
func longNote(resp *mdsearch.ReadResponse, n *note) bool {
	outline := n.doc.Outline()
	if len(outline) < 2 {
		return false
	}
	resp.Outline = outline
	// Each adapter says how to ask for a section or the whole note in its
	// own terms: an answer with an outline is this one.
	leadNotice(resp, fmt.Sprintf("this note is %s: here is its outline; read one of its sections, or the whole note",
		size(n.doc.WordCount, n.shownSize(0, len(n.src)))))
	return true
}

// longSection answers a read of a long section with its own text (up to
// its first subsection) and the outline of its subsections, or, when it
// has none, with its first lines. Tokens stays the whole section's cost.
func longSection(resp *mdsearch.ReadResponse, n *note, sec *sections.Section) {
	sub := n.doc.Subsections(sec)
	if len(sub) == 0 {
		preview(resp, n, span{from: sec.StartByte, to: sec.EndByte, what: "section", words: sec.Words})
		return
	}
	if n.long(sec.BodyWords, sec.StartByte, sec.BodyEnd) { // its own text is long too: its start
		preview(resp, n, span{from: sec.StartByte, to: sec.BodyEnd, what: "section's own text", words: sec.BodyWords, own: true})
		resp.WordCount, resp.Tokens = sec.Words, mdsearch.ReadingTokens(sec.Words, len(n.doc.Content(sec)))
	} else {
		resp.Content = n.doc.OwnContent(sec)
	}
	resp.Outline = sub
	leadNotice(resp, fmt.Sprintf("this section is %s: here is its text before its first subsection, "+
		"and the outline of its subsections; read one of them, or the whole section", size(sec.Words, n.shownSize(sec.StartByte, sec.EndByte))))
}

// size says how a long text is long: "2100 words (over 1500)", or, for
// one of few but long words, "2600 KB (over 64 KB)".
func size(words, bytes int) string {
	if words > mdsearch.LongNoteWords {
		return fmt.Sprintf("%d words (over %d)", words, mdsearch.LongNoteWords)
	}
	return fmt.Sprintf("%d KB (over %d KB)", bytes>>10, mdsearch.LongNoteBytes>>10)
}

// span is a stretch of a note read in part: bytes [from, to), what it is
// called in notices, and its words.
type span struct {
	from, to int
	what     string
	words    int
	own      bool // a section's own text, before the outline of its subsections
	lines    bool // a range of lines a read asked for
}

// preview answers a read of a long note, section or section's own text
// (s) with no outline to choose from with its first whole lines, up to LongNoteWords
// words, ending at a blank line when one is in the second half: an agent
// reads on by lines (More, Rest), not the whole text at once. When those
// lines are short of half the limit, the long line after them is cut at a
// word; only the whole text holds the rest of it.
func preview(resp *mdsearch.ReadResponse, n *note, s span) {
	src, limit := n.src, mdsearch.LongNoteWords
	from, to, what, words := s.from, s.to, s.what, s.words
	end, shown, took := n.firstShownLines(from, to, limit)
	end += from
	first := bytes.Count(src[:from], []byte{'\n'}) + 1
	last := lineCount(src[:to])
	long := size(words, n.shownSize(from, to))
	msg := fmt.Sprintf("this %s is %s with no outline to choose from", what, long)
	if s.own {
		msg = fmt.Sprintf("its own text is %s", long)
	}
	if s.lines {
		msg = fmt.Sprintf("lines %d–%d are %s", first, last, long)
	}
	if took < limit/2 && shown < previewBytes/2 && end < to {
		// The next line is long: its first words, or bytes, as lines
		// cannot split it.
		cut := wordcount.End(src[end:to], limit-took)
		how := plural.Count(limit-took, "word", "words")
		if room := previewBytes - shown; cut > room {
			cut, how = runeStart(src[end:to], room), fmt.Sprintf("%d KB", (shown+room)>>10)
		}
		end += cut
		line := bytes.Count(src[:end], []byte{'\n'}) + 1 // the line cut, after any short ones
		resp.EndLine = line
		msg += fmt.Sprintf(": here is its start, to line %d cut after %s; the rest of that line comes only with the whole %s",
			line, how, what)
	} else {
		resp.EndLine, resp.More = bytes.Count(src[:end], []byte{'\n'}), true
		resp.Rest = fmt.Sprintf("%d-", resp.EndLine+1)
		if to < len(src) {
			resp.Rest += fmt.Sprint(last)
		}
		lines := fmt.Sprint(last)
		if from > 0 {
			lines = fmt.Sprintf("%d–%d", first, last)
		}
		msg += fmt.Sprintf(": here are lines %d–%d of %s; read on from line %d, or the whole %s",
			first, resp.EndLine, lines, resp.EndLine+1, what)
	}
	resp.Content = n.doc.Text(from, end)
	resp.WordCount, resp.Tokens = wordcount.Count(resp.Content), EstimateTokens(resp.Content)
	leadNotice(resp, msg)
}

// previewBytes bounds the start of a long text a read returns, as limit
// bounds its words: 16 KB is some 4,000 tokens.
const previewBytes = 16 << 10

// runeStart is the largest offset of at most n that starts a character
// of src (or ends it).
func runeStart[T ~string | ~[]byte](src T, n int) int {
	if n >= len(src) {
		return len(src)
	}
	for n > 0 && !utf8.RuneStart(src[n]) {
		n--
	}
	return n
}

// firstLines is the length of src's first whole lines holding at most
// limit words and previewBytes bytes, moved back to a blank line when one
// is in the second half, and the words of those lines before the move.
func firstLines(src []byte, limit int) (end, words int) {
	blank := 0
	for off := 0; off < len(src); {
		next := len(src)
		if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
			next = off + i + 1
		}
		w := wordcount.Count(src[off:next])
		if words+w > limit || next > previewBytes {
			break
		}
		if words += w; w == 0 {
			blank = next
		}
		end, off = next, next
	}
	if blank > end/2 {
		end = blank
	}
	return end, words
}

// firstShownLines is firstLines of src[from:to] as a read shows it:
// with comments hidden, their words and bytes are not counted, so a
// template's hidden instructions at the top do not take the preview's
// room. Hidden comments keep their lines, so the end is the same line's
// in the note's bytes; shown is the size of those lines as shown.
func (n *note) firstShownLines(from, to, limit int) (end, shown, words int) {
	if !n.doc.HidesComments() {
		end, words = firstLines(n.src[from:to], limit)
		return end, end, words
	}
	text := n.doc.Text(from, to)
	shown, words = firstLines([]byte(text), limit)
	if shown == len(text) {
		return to - from, shown, words
	}
	return lineOffset(n.src[from:to], strings.Count(text[:shown], "\n")+1), shown, words
}

// leadNotice puts msg before the notice resp already has.
func leadNotice(resp *mdsearch.ReadResponse, msg string) {
	resp.Notice = strings.TrimSuffix(msg+"; "+resp.Notice, "; ")
}
