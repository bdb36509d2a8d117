package sections

import (
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/embed"
)

var wordSamples = []string{
	"", " ", "a", " a ", "a b  c\n\td", "\u00a0x\u00a0y", "x\u0085y", "a\u3000b\u2003c\u2028d",
	"caf\xe9 na\xefve", "\xe2\xc2\xa0x", "\xf0\x9f\xc2\xa0y", "\xe2\x80", "\xe2\x80\x94dash\xe2\x80\x94",
	"emoji 😀 ok", "\xc2", "\xe3\x80\x80", "\xe1\x9a\x80z",
}

// TestCountWords checks CountWords against embed.CountWords, the
// definition it speeds up.
func TestCountWords(t *testing.T) {
	for _, s := range wordSamples {
		if got, want := CountWords(s), embed.CountWords(s); got != want {
			t.Errorf("CountWords(%q) = %d, want %d", s, got, want)
		}
		if got, want := CountWordsBytes([]byte(s)), embed.CountWords(s); got != want {
			t.Errorf("CountWordsBytes(%q) = %d, want %d", s, got, want)
		}
	}
}

func FuzzCountWords(f *testing.F) {
	for _, s := range wordSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := CountWords(s), embed.CountWords(s); got != want {
			t.Fatalf("CountWords(%q) = %d, want %d", s, got, want)
		}
		if got, want := CountWordsBytes([]byte(s)), embed.CountWords(s); got != want {
			t.Fatalf("CountWordsBytes(%q) = %d, want %d", s, got, want)
		}
	})
}

// BenchmarkCountWords compares CountWords with embed.CountWords on prose.
func BenchmarkCountWords(b *testing.B) {
	text := strings.Repeat("The quick brown fox — jumps over the lazy dog. Ça va? ", 2000)
	b.Run("sections", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			CountWords(text)
		}
	})
	b.Run("embed", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			embed.CountWords(text)
		}
	})
}
