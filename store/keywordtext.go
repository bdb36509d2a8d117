package store

import (
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/mdsearch/mdsearch/internal/swar"
	"github.com/mdsearch/mdsearch/internal/wordcount"
)

// KeywordVersion numbers how text is prepared for the keyword index (see
// KeywordText). Text indexed under another version must be indexed again:
// queries are built for this one.
//
// Changelog:
//
//	1: every character of a script written without spaces between words
//	   (Han, kana, Hangul, Thai, Lao, Khmer, Myanmar) is a word of its own.
//	2: text is folded (KeywordFold): NFKC, so full-width Latin, half-width
//	   kana and decomposed Hangul match what people type, and without the
//	   optional vowel marks of Arabic and Hebrew; tags are folded the same.
const KeywordVersion = 2

// KeywordText is s as the keyword index takes it in: folded (KeywordFold),
// every KeywordChar a word of its own. FTS5's unicode61 tokenizer would
// otherwise read a whole run of them, up to the next space or punctuation
// mark, as one word.
func KeywordText(s string) string { return wordcount.SpaceEach(KeywordFold(s), KeywordChar) }

// KeywordFold is s in the one form the keyword index and its queries
// compare: NFKC (ｄｏｃｋｅｒ is docker, ﾃﾞｰﾀ is データ, a decomposed
// Hangul syllable is one), without Arabic and Hebrew vowel marks, which
// writers add or leave out at will (unicode61 would split a word at each).
// Text that needs no change is returned as it is, without a copy.
func KeywordFold(s string) string {
	if swar.ASCII(s) {
		return s
	}
	s = norm.NFKC.String(s)
	if strings.IndexFunc(s, optionalMark) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if optionalMark(r) {
			return -1
		}
		return r
	}, s)
}

// optionalMark reports whether r is a Hebrew point or cantillation mark,
// or an Arabic vowel mark.
func optionalMark(r rune) bool {
	switch {
	case r < 0x0591 || r > 0x06ED:
		return false
	case r <= 0x05C7: // Hebrew, but for its punctuation (maqaf, paseq, sof pasuq, nun hafukha)
		return r != 0x05BE && r != 0x05C0 && r != 0x05C3 && r != 0x05C6
	case r >= 0x06D6: // Quranic marks, but for signs and small letters that are not
		return r != 0x06DD && r != 0x06DE && r != 0x06E5 && r != 0x06E6 && r != 0x06E9
	}
	return r >= 0x0610 && r <= 0x061A || r >= 0x064B && r <= 0x065F || r == 0x0670
}

// KeywordChar reports whether the keyword index reads r as a word alone:
// a character of a script written without spaces, or Hangul, whose words
// take their particles with no space between.
func KeywordChar(r rune) bool { return wordcount.Unspaced(r) || wordcount.Hangul(r) }
