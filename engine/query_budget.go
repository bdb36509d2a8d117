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
	if end := sentenceEnd(cut); end > len(cut)/2 && wordcount.Count(cut[:end]) >= min(minWords, hi) {
		return cut[:end]
	}
	return cut
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
