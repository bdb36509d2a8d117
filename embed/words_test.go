package embed

import (
	"strings"
	"testing"
)

var wordSamples = []string{
	"", " ", "a", " a ", "a b  c\n\td", "\u00a0x\u00a0y", "x\u0085y", "a\u3000b\u2003c\u2028d",
	"caf\xe9 na\xefve", "\xe2\xc2\xa0x", "\xf0\x9f\xc2\xa0y", "\xe2\x80", "\xe2\x80\x94dash\xe2\x80\x94",
	"emoji 😀 ok", "\xc2", "\xe3\x80\x80", "\xe1\x9a\x80z",
	// Eight bytes at a time: every ASCII control byte near a space, words
	// across the 8-byte blocks, non-ASCII inside and across them.
	"\x08\t\n\v\f\r\x0e\x1f \x7f!~ab", "abcdefgh ijklmnop\tqrstuvwx\nyz", "       a        b",
	"abcdefg\u00a0hijklmn\u3000opq", "abcdefgh\xe2\x80\x83ijklmnop", "a\x00b\x00\x00 c\x1f\x20d\x7f\x80 e",
}

// fieldsCount is the definition CountWords speeds up.
func fieldsCount(s string) int { return len(strings.Fields(s)) }

func TestCountWords(t *testing.T) {
	for _, s := range wordSamples {
		want := fieldsCount(s)
		if got := CountWords(s); got != want {
			t.Errorf("CountWords(%q) = %d, want %d", s, got, want)
		}
		if got := CountWords([]byte(s)); got != want {
			t.Errorf("CountWords([]byte(%q)) = %d, want %d", s, got, want)
		}
	}
}

func FuzzCountWords(f *testing.F) {
	for _, s := range wordSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := fieldsCount(s)
		if got := CountWords(s); got != want {
			t.Fatalf("CountWords(%q) = %d, want %d", s, got, want)
		}
		if got := CountWords([]byte(s)); got != want {
			t.Fatalf("CountWords([]byte(%q)) = %d, want %d", s, got, want)
		}
	})
}

// BenchmarkCountWords compares CountWords with strings.Fields on ASCII
// prose and on prose with a non-ASCII character in every sentence.
func BenchmarkCountWords(b *testing.B) {
	for _, bc := range []struct{ name, text string }{
		{"ascii", strings.Repeat("The quick brown fox - jumps over the lazy dog.\n  Is it? ", 2000)},
		{"mixed", strings.Repeat("The quick brown fox — jumps over the lazy dog. Ça va? ", 2000)},
	} {
		b.Run(bc.name+"/CountWords", func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			for b.Loop() {
				CountWords(bc.text)
			}
		})
		b.Run(bc.name+"/strings.Fields", func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			for b.Loop() {
				fieldsCount(bc.text)
			}
		})
	}
}
