package embed

import (
	"math/bits"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch/internal/swar"
)

// CountWords counts runs of non-space characters (unicode.IsSpace), on a
// string or bytes. It is on the chunker's and the section parser's hot
// path: eight ASCII bytes are classified at once (SWAR), and only the
// bytes that can start a non-ASCII space are decoded (see wordClass).
func CountWords[T ~string | ~[]byte](s T) int {
	n, prev := 0, uint64(1) // prev is 1 after a space
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			v := swar.Load8(s, i)
			if v&swar.High == 0 {
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
		if c == maybeSpace {
			var r rune
			r, size = decodeRune(s[i:])
			c = 0
			if unicode.IsSpace(r) {
				c = 1
			}
		}
		n += int(prev &^ c)
		prev = c
		i += size
	}
	return n
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

// wordClass sorts bytes for CountWords: 0 part of a word, 1 ASCII space,
// maybeSpace the first byte of a sequence that may encode a Unicode space
// (U+0085, U+00A0, U+1680, U+2000–U+205F, U+3000). Other bytes of
// multi-byte characters, and invalid bytes, are word bytes, as they are to
// a decoder.
var wordClass = func() (t [256]uint8) {
	for _, c := range "\t\n\v\f\r " {
		t[c] = 1
	}
	for _, c := range []byte{0xC2, 0xE1, 0xE2, 0xE3} {
		t[c] = maybeSpace
	}
	return t
}()

const maybeSpace = 2
