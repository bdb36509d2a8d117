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
//	3: a task's box ("- [x] ", "- [ ] ") is no word of its passage
//	   (withoutTaskBoxes): "x" was a word of every done task.
//	4: a title or file name that opens with a zero-padded number
//	   ("0001-private-fields") also holds the number's value ("1") in
//	   the title column (paddedNumber), so "rfc 1" finds it.
const KeywordVersion = 4

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

// textKeywords is a passage's own text as its keyword row holds it: its
// task boxes left out (withoutTaskBoxes), then KeywordText.
func textKeywords(text string) string { return KeywordText(withoutTaskBoxes(text)) }

// withoutTaskBoxes is s with the box of each task ("- [x] ", "1. [ ] ",
// "> - [?] ", Obsidian's statuses too) left out: a box is no word of the
// note, and "x" was a word of every done task. A letter other than x or a
// digit in brackets stays ("- [1] Smith, 2019" cites).
func withoutTaskBoxes(s string) string {
	if !strings.Contains(s, "] ") && !strings.Contains(s, "]\n") && !strings.HasSuffix(s, "]") {
		return s
	}
	var b []byte
	for start := 0; start < len(s); {
		end := strings.IndexByte(s[start:], '\n') + start + 1
		if end == start {
			end = len(s)
		}
		if at := taskBox(s[start:end]); at >= 0 {
			if b == nil {
				b = []byte(s)
			}
			copy(b[start+at:], "   ")
		}
		start = end
	}
	if b == nil {
		return s
	}
	return string(b)
}

// taskBox is the offset of the "[" of line's task box, or -1: after
// indentation and quote markers, a list marker, white space, then "[c]"
// and white space or the line's end.
func taskBox(line string) int {
	i := skipSpace(line, 0)
	for i < len(line) && line[i] == '>' {
		i = skipSpace(line, i+1)
	}
	switch {
	case i < len(line) && strings.IndexByte("-*+", line[i]) >= 0:
		i++
	default:
		j := i
		for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j == i || j == len(line) || line[j] != '.' && line[j] != ')' {
			return -1
		}
		i = j + 1
	}
	if k := skipSpace(line, i); k > i && k+3 <= len(line) && line[k] == '[' && line[k+2] == ']' && boxMark(line[k+1]) &&
		(k+3 == len(line) || strings.IndexByte(" \t\r\n", line[k+3]) >= 0) {
		return k
	}
	return -1
}

// boxMark reports whether c may mark a task's box: a space, x, or a
// punctuation mark (Obsidian's "[/]", "[-]", "[?]", "[>]").
func boxMark(c byte) bool {
	return c == ' ' || c == 'x' || c == 'X' || c > ' ' && c < 0x7f && !isAlnum(c)
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// skipSpace is the offset of the first byte of line at or after i that
// is no space or tab.
func skipSpace(line string, i int) int {
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return i
}
