package sentenceencoder

import (
	"strings"
	"testing"
)

// TestEightAtATime holds the eight-byte readers to their byte-by-byte
// definitions, for every byte value at every position of a block and for
// blocks cut short by the end of the text, and the short tables' keys of
// words up to 32 bytes to pack.
func TestEightAtATime(t *testing.T) {
	tok := testTokenizer(t)
	if !tok.plainUsual {
		t.Fatal("the default model's plain bytes are not the usual ones: skipPlain reads byte by byte")
	}
	bytePlain := func(s string, i int) int {
		for i < len(s) && tok.plain[s[i]] {
			i++
		}
		return i
	}
	byteASCII := func(s string, i int) int {
		for i < len(s) && s[i] < 0x80 {
			i++
		}
		return i
	}
	long := "abcdefghijklmnopqrstuvwxyz012345trailing"
	for from := range 8 {
		for to := from + 1; to <= from+32; to++ {
			var k shortKey
			packShortIn(&k, long[:min(len(long), to+(to-from)%9)], from, to)
			for j := range k {
				var want uint64
				if a := from + 8*j; a < to {
					want = pack(long[a:min(a+8, to)])
				}
				if k[j] != want {
					t.Fatalf("packShortIn(%q) key %d = %#x, want %#x", long[from:to], j, k[j], want)
				}
			}
		}
	}
	for c := range 256 {
		for pos := range 11 {
			b := []byte(strings.Repeat("abcdefgh", 2))[:pos+1+c%5]
			b[pos] = byte(c)
			s := string(b)
			for from := range len(s) {
				if got, want := tok.skipPlain(s, from), bytePlain(s, from); got != want {
					t.Fatalf("skipPlain(%q, %d) = %d, want %d", s, from, got, want)
				}
				if got, want := nextNonASCII(s, from), byteASCII(s, from); got != want {
					t.Fatalf("nextNonASCII(%q, %d) = %d, want %d", s, from, got, want)
				}
				for to := from + 1; to <= len(s) && to-from <= 8; to++ {
					if got, want := packIn(s, from, to), pack(s[from:to]); got != want {
						t.Fatalf("packIn(%q, %d, %d) = %#x, want %#x", s, from, to, got, want)
					}
				}
			}
		}
	}
}
