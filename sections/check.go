package sections

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"
)

// CheckSource reports why src cannot be indexed as a note, or nil: a NUL
// byte, a start that is mostly not text, or nesting too deep to parse (see
// CheckNesting). Indexing and `mdsearch chunk` both ask it, so they agree
// on what a note is.
func CheckSource(src []byte) error {
	if bytes.HasPrefix(src, []byte{0xff, 0xfe}) || bytes.HasPrefix(src, []byte{0xfe, 0xff}) {
		// Windows tools save notes so; its NUL bytes are not binary data.
		return fmt.Errorf("UTF-16 text (it starts with a UTF-16 byte order mark): save it as UTF-8 to index it")
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return fmt.Errorf("%w (NUL byte at offset %d)", ErrBinary, i)
	}
	if why, ok := looksBinary(src); ok {
		return fmt.Errorf("%w (%s)", ErrBinary, why)
	}
	return CheckNesting(src)
}

// ErrBinary is CheckSource's error for a file that is no text: a NUL
// byte, or a start mostly of other bytes.
var ErrBinary = errors.New("binary file")

// textSample is how much of a file looksBinary examines.
const textSample = 8 << 10

// maxNonText is the share of the sample that may be other than text. A
// note in Latin-1 or with a stray control character stays far below it;
// compressed, encrypted or executable data without NUL bytes is around
// half.
const maxNonText = 0.3

// looksBinary reports, with a reason, whether data is a binary file that
// happens to have no NUL byte: too much of its start is control characters
// (other than tab, line feed, form feed and carriage return) or bytes that
// are not UTF-8.
func looksBinary(data []byte) (string, bool) {
	sample := data[:min(len(data), textSample)]
	var runes, bad int
	for i := 0; i < len(sample); {
		r, size := utf8.DecodeRune(sample[i:])
		if r == utf8.RuneError && size == 1 && len(sample)-i >= utf8.UTFMax {
			bad++ // a rune cut by the sample's end is not counted
		} else if isControl(r) {
			bad++
		}
		runes++
		i += size
	}
	if runes == 0 || float64(bad)/float64(runes) <= maxNonText {
		return "", false
	}
	return fmt.Sprintf("%d%% of its first %d bytes is not text", 100*bad/runes, len(sample)), true
}

func isControl(r rune) bool {
	switch r {
	case '\t', '\n', '\f', '\r':
		return false
	}
	return r < 0x20 || (r >= 0x7f && r < 0xa0)
}
