package mdsearch

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// TokensPerWord is what a language model pays to read a word of English
// prose, about 1.3 tokens for common tokenizers; the evaluation's tokens
// per query estimate reading costs with it alone.
const TokensPerWord = 1.3

// BytesPerToken is what a token of code, tables, links and markup holds,
// about 4 bytes, where words undercount: "[[Note#Heading|alias]]" is one
// word of many tokens.
const BytesPerToken = 4

// ReadingTokens estimates the tokens a language model pays to read text of
// the given words and bytes: 1.3 a word, or a token every 4 bytes when
// that is more. On section-sized texts of the bundled corpora it is within
// 0.92–1.18× of a common LLM tokenizer's count for 80% of them (median
// 1.05×); words alone undercount code-heavy docs by a third. Search budgets,
// outlines and reads use it, rounded up.
func ReadingTokens(words, bytes int) int {
	return int(math.Ceil(max(TokensPerWord*float64(words), float64(bytes)/BytesPerToken)))
}

// HeadingTrail is the heading path a passage is read under: the note's
// title, then its section path without a first heading that repeats the
// title. The embedder's prefix and the results' "[A > B]" share it.
func HeadingTrail(title string, path []string) []string {
	parts := make([]string, 0, len(path)+1)
	if title != "" {
		parts = append(parts, title)
	}
	for i, h := range path {
		if i == 0 && len(parts) > 0 && strings.EqualFold(h, parts[0]) {
			continue
		}
		parts = append(parts, h)
	}
	return parts
}

// ParseLines reads a line range: "40-80", "40-" (to the end, returned as
// end 0) or "40" (that line alone). Lines are 1-based and inclusive.
func ParseLines(s string) (start, end int, err error) {
	a, b, dash := strings.Cut(strings.TrimSpace(s), "-")
	start, err = strconv.Atoi(strings.TrimSpace(a))
	if err == nil && dash && strings.TrimSpace(b) != "" {
		end, err = strconv.Atoi(strings.TrimSpace(b))
	} else if err == nil && !dash {
		end = start
	}
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, 0, fmt.Errorf("lines %q: a line number that large is no line; to read to the end, leave the end out (40-)", s)
	case err != nil:
		return 0, 0, fmt.Errorf("lines %q: want START-END, START- or LINE, as 40-80", s)
	case start < 1 || end != 0 && end < start:
		return 0, 0, fmt.Errorf("lines %q: lines count from 1, and the end is not before the start", s)
	}
	return start, end, nil
}
