package wordcount

import (
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch/internal/swar"
)

// Count counts runs of non-space characters (unicode.IsSpace), on a
// string or bytes, each Unspaced character (with the marks written on it)
// being a word of its own: it is len(strings.Fields(SpaceUnspaced(s))). It
// is on the chunker's and the section parser's hot path: eight ASCII bytes
// are classified at once (SWAR), and only the bytes that can start a
// non-ASCII space or an Unspaced character are decoded (see wordClass).
func Count[T ~string | ~[]byte](s T) int {
	n, prev := 0, uint64(1) // prev is 1 after a space or an Unspaced character
	after := false          // the last character was Unspaced (or a mark on one)
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			v := swar.Load8(s, i)
			if v&swar.High == 0 {
				after = false
				sp := asciiSpaces(v)
				// A word starts at a byte that is not a space after one that is.
				n += bits.OnesCount64(^sp & swar.High & (sp<<8 | prev<<7))
				prev = sp >> 63
				i += 8
				continue
			}
		}
		c := uint64(wordClass[s[i]])
		size := 1
		if c == decode || after && s[i] >= utf8.RuneSelf {
			var r rune
			r, size = decodeRune(s[i:])
			switch {
			case after && unicode.IsMark(r):
				// Written on the Unspaced character before it.
				i += size
				continue
			case Unspaced(r):
				n, prev, after = n+1, 1, true
				i += size
				continue
			case unicode.IsSpace(r):
				c = 1
			default:
				c = 0
			}
		}
		after = false
		n += int(prev &^ c)
		prev = c
		i += size
	}
	return n
}

// End is the offset just past the first n words of src, as
// Count counts them: a character of a script written without spaces
// (with its marks) is a word.
func End[T ~string | ~[]byte](src T, n int) int {
	in := false // inside a word of spaced text
	for i := 0; i < len(src); {
		r, size := decodeRune(src[i:])
		switch {
		case unicode.IsSpace(r) || Unspaced(r):
			if in {
				if n--; n == 0 {
					return i
				}
			}
			in = false
			if unicode.IsSpace(r) {
				break
			}
			for i += size; i < len(src); i += size {
				if r, size = decodeRune(src[i:]); !unicode.IsMark(r) {
					break
				}
			}
			if n--; n == 0 {
				return i
			}
			continue
		default:
			in = true
		}
		i += size
	}
	return len(src)
}

// asciiSpaces has the high bit of each byte of v (eight ASCII bytes) that
// is a space: ' ', or '\t' through '\r'.
func asciiSpaces(v uint64) uint64 {
	blank := swar.ZeroBytes(v ^ ' '*swar.Ones)
	// With every byte below 0x80, adding 0x80-k sets a byte's high bit, without
	// carrying into the next, exactly when the byte is at least k.
	ctl := (v + (0x80-'\t')*swar.Ones) &^ (v + (0x80-'\r'-1)*swar.Ones) & swar.High
	return blank | ctl
}

func decodeRune[T ~string | ~[]byte](s T) (rune, int) {
	if len(s) > utf8.UTFMax {
		s = s[:utf8.UTFMax]
	}
	return utf8.DecodeRuneInString(string(s))
}

// wordClass sorts bytes for Count: 0 part of a word, 1 ASCII space,
// decode the first byte of a sequence that may encode a Unicode space
// (U+0085, U+00A0, U+1680, U+2000–U+205F, U+3000) or an Unspaced
// character (U+0E00 and above). Other bytes of multi-byte characters, and
// invalid bytes, are word bytes, as they are to a decoder.
var wordClass = func() (t [256]uint8) {
	for _, c := range "\t\n\v\f\r " {
		t[c] = 1
	}
	t[0xC2] = decode
	for c := 0xE0; c <= 0xF4; c++ {
		t[c] = decode
	}
	return t
}()

const decode = 2

// Unspaced reports whether r belongs to a script whose words are not
// separated by spaces (Chinese, Japanese, Thai, Lao, Khmer, Burmese).
// Each such character counts as a word (Count): there is no other
// boundary to go by.
func Unspaced(r rune) bool {
	switch {
	case r < 0x0E00:
		return false
	case r >= 0x4E00 && r <= 0x9FFF, r >= 0x3040 && r <= 0x30FF:
		return true // the common ideographs and kana
	case r >= 0x2000 && r < 0x2E80, r >= 0xAC00 && r <= 0xD7FF:
		return false // punctuation and symbols, common in any text; Hangul syllables
	}
	for _, b := range unspacedBlocks {
		if r < b[0] {
			return false
		}
		if r <= b[1] {
			return true
		}
	}
	return false
}

// unspacedBlocks are the Unicode blocks of Unspaced scripts, in order:
// Thai and Lao, Myanmar, Khmer, CJK radicals, ideographic marks (々〆〇),
// kana, kana extensions, CJK extension A, the ideographs, Myanmar
// extensions, compatibility ideographs, halfwidth kana, historic kana,
// CJK extensions B to H.
var unspacedBlocks = [...][2]rune{
	{0x0E00, 0x0EFF}, {0x1000, 0x109F}, {0x1780, 0x17FF}, {0x19E0, 0x19FF}, {0x2E80, 0x2FDF},
	{0x3005, 0x3007}, {0x3021, 0x3029}, {0x3040, 0x30FF}, {0x31F0, 0x31FF}, {0x3400, 0x4DBF},
	{0x4E00, 0x9FFF}, {0xA9E0, 0xA9FF}, {0xAA60, 0xAA7F}, {0xF900, 0xFAFF}, {0xFF66, 0xFF9F},
	{0x1B000, 0x1B16F}, {0x20000, 0x323AF},
}

// Hangul reports whether r is a Hangul syllable or letter. Korean is
// written with spaces, but a word takes its particles with none between
// (데이터베이스를), so keyword search reads Hangul a character at a time
// too, while word counts go by the spaces.
func Hangul(r rune) bool {
	return r >= 0xAC00 && r <= 0xD7FF || r >= 0x1100 && r <= 0x11FF || r >= 0x3130 && r <= 0x318F ||
		r >= 0xA960 && r <= 0xA97F || r >= 0xFFA0 && r <= 0xFFDC
}

// SpaceUnspaced is s with a space around every Unspaced character (the
// marks written on one stay with it), so that each is a word of its own,
// as Count counts it. Text of other scripts is returned as it is,
// without a copy.
func SpaceUnspaced(s string) string { return SpaceEach(s, Unspaced) }

// SpaceEach is s with a space around every character each reports (the
// marks written on one stay with it). Text holding none is returned as it
// is, without a copy. each reports no character below U+0800, as no
// script written without spaces has one.
func SpaceEach(s string, each func(rune) bool) string {
	i := firstOf(s, each)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/2)
	b.WriteString(s[:i])
	spaced := false // a character of each (and its marks) was written last
	last := ' '     // the last rune written, once spaced
	if i > 0 {
		last, _ = utf8.DecodeLastRuneInString(s[:i])
	}
	for rest := s[i:]; rest != ""; {
		r, size := utf8.DecodeRuneInString(rest)
		switch {
		case spaced && unicode.IsMark(r):
		case each(r):
			if !unicode.IsSpace(last) {
				b.WriteByte(' ')
			}
			spaced = true
		case spaced:
			if !unicode.IsSpace(r) {
				b.WriteByte(' ')
			}
			spaced = false
		}
		b.WriteString(rest[:size]) // not r: invalid UTF-8 stays as it was
		rest = rest[size:]
		last = r
	}
	return b.String()
}

// firstOf is the offset of s's first character that each reports, or -1.
// Neither Unspaced nor Hangul characters are below U+0E00.
func firstOf(s string, each func(rune) bool) int {
	for i := 0; i < len(s); {
		if s[i] < 0xE0 { // below the first byte of U+0800
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if each(r) {
			return i
		}
		i += size
	}
	return -1
}
