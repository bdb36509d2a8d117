package engine

import (
	"strings"

	"github.com/mdsearch/mdsearch/internal/wordcount"
)

// cutWithin is the longest start of text, ended at a word and, where one
// is in its second half, at a sentence, whose estimated tokens fit budget;
// at least its first minWords words, so that a result says something. A
// token budget holds to a block's middle only where the block alone is
// over it (a long one-line paragraph). Where a word is longer than the
// budget (an embedded image, a minified line), the cut is inside it.
func cutWithin(text string, budget int) string {
	hi := wordcount.Count(text) // may not fit
	lo := min(minWords, hi)     // always kept
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if EstimateTokens(text[:wordcount.End(text, mid)]) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	cut := strings.TrimRight(text[:wordcount.End(text, lo)], " \t\r\n")
	if limit := max(budget, maxFloorTokens); EstimateTokens(cut) > limit {
		return cutBytes(cut, limit) // the words kept hold one over the budget
	}
	if end, bare := rowEnd(text, cut); end > 0 && (bare || end > len(cut)/2 && wordcount.Count(cut[:end]) >= min(minWords, hi)) {
		return cut[:end] // a bare marker goes, whatever the floor
	}
	if end := sentenceEnd(cut); end > len(cut)/2 && wordcount.Count(cut[:end]) >= min(minWords, hi) {
		return cut[:end]
	}
	return cut
}

// rowEnd is where a cut inside a table or a list should end instead: the
// end of its last whole line, when the line the cut falls in is a table
// row or a list item (half a row misreads its columns), or 0 where the
// cut is at a line's end already or the line is prose. bare says the
// line holds nothing past its marker: a lone "-".
func rowEnd(text, cut string) (end int, bare bool) {
	if len(cut) == len(text) || strings.HasPrefix(text[len(cut):], "\n") || strings.HasPrefix(text[len(cut):], "\r\n") {
		return 0, false // the cut ends a line
	}
	nl := strings.LastIndexByte(cut, '\n')
	if nl < 0 || !rowLine(cut[nl+1:]) {
		return 0, false
	}
	last := strings.Trim(cut[nl+1:], " \t>|-*+.)0123456789")
	kept := strings.TrimRight(cut[:nl], " \t\r\n")
	if lines := strings.Split(kept, "\n"); len(lines) > 2 && strings.HasPrefix(strings.TrimLeft(cut[nl+1:], " \t>"), "|") &&
		isDelimiterRow(lines[len(lines)-1]) {
		// A table's header and delimiter alone are no rows: end before them.
		kept = strings.TrimRight(strings.Join(lines[:len(lines)-2], "\n"), " \t\r\n")
	}
	return len(kept), last == ""
}

// isDelimiterRow reports whether line is a table's delimiter row
// (|---|:--:|).
func isDelimiterRow(line string) bool {
	t := strings.TrimLeft(line, " \t>")
	return strings.HasPrefix(t, "|") && strings.Contains(t, "-") && strings.Trim(t, " \t|-:") == ""
}

// rowLine reports whether a line is a table row or starts a list item.
func rowLine(line string) bool {
	t := strings.TrimLeft(line, " \t>")
	if strings.HasPrefix(t, "|") {
		return true
	}
	if len(t) >= 1 && strings.ContainsRune("-*+", rune(t[0])) && (len(t) == 1 || t[1] == ' ' || t[1] == '\t') {
		return true
	}
	digits := len(t) - len(strings.TrimLeft(t, "0123456789"))
	if digits == 0 || digits > 9 || len(t) == digits || t[digits] != '.' && t[digits] != ')' {
		return false
	}
	rest := t[digits+1:] // an item's marker is followed by a space or the line's end: "2.0 was" is prose
	return rest == "" || rest[0] == ' ' || rest[0] == '\t'
}

// minWords is the least of a block a cut inside it keeps.
const minWords = 12

// maxFloorTokens bounds what those minWords words may cost over the
// budget: twice what a dozen words of prose do. A word past it is cut.
const maxFloorTokens = 3 * minWords

// cutBytes is the longest start of text, ended at a rune, whose estimated
// tokens fit budget: a cut inside a word.
func cutBytes(text string, budget int) string {
	lo, hi := 0, len(text)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if EstimateTokens(text[:mid]) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return strings.TrimRight(text[:runeStart(text, lo)], " \t\r\n")
}

// sentenceEnd is the end of cut's last whole sentence ('.', '!' or '?'
// before a space, or a full stop of Chinese or Japanese), or 0.
func sentenceEnd(cut string) int {
	end := 0
	for _, stop := range []string{". ", "! ", "? ", ".\n", "。", "！", "？"} {
		if i := strings.LastIndex(cut, stop); i >= 0 {
			end = max(end, i+len(strings.TrimRight(stop, " \n")))
		}
	}
	return end
}

// A blockCut cuts a block over budget inside it: the text shown, and
// whether the end of its last line is left out (elided), which shorten
// marks "…"; the rest is read from that line.
type blockCut func(block string, budget int) (shown string, elided bool)

// atWord is a budget's blockCut (cutWithin): the rest of a line cut inside
// is read from that line.
func atWord(block string, budget int) (string, bool) { return cutWithin(block, budget), false }

// atLine is an opening's blockCut: it ends at a line's end, so the rest
// starts on the next line and no line shows twice. It backs off to the
// line before the cut (lineBefore), else runs on to the cut line's end
// where that costs at most half the budget more; a line longer still
// (a long one-line paragraph) is cut at a sentence or word, its end
// elided.
func atLine(block string, budget int) (string, bool) {
	in := cutWithin(block, budget)
	if endsLine(block, len(in)) {
		return in, false
	}
	if back, ok := lineBefore(in); ok {
		return back, false
	}
	end := len(block)
	if i := strings.IndexByte(block[len(in):], '\n'); i >= 0 {
		end = len(in) + i
	}
	if whole := strings.TrimRight(block[:end], " \t\r"); EstimateTokens(whole) <= budget+budget/2 {
		return whole, false
	}
	return in, true
}

// lineBefore is in up to its last line break, ok where that keeps at
// least half its words and does not end on what a cut at a block does
// not (cutBlocks): a heading, a label that opens what follows, link
// definitions.
func lineBefore(in string) (string, bool) {
	nl := strings.LastIndexByte(in, '\n')
	if nl < 0 {
		return "", false
	}
	kept := strings.TrimRight(in[:nl], " \t\r\n")
	last := kept[strings.LastIndex(kept, "\n\n")+1:]
	ok := kept != "" && 2*wordcount.Count(kept) >= wordcount.Count(in) &&
		!endsWithHeading(kept) && !opens(last) && !onlyDefinitions(last)
	return kept, ok
}

// endsLine reports whether text[:n] ends a line of text: only spaces
// follow it before a line break, or the text's end.
func endsLine(text string, n int) bool {
	rest := strings.TrimLeft(text[n:], " \t\r")
	return rest == "" || rest[0] == '\n'
}
