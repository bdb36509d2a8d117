package mdsearch

import "math"

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
