package wordcount

import (
	"strings"
	"testing"
	"unicode/utf8"
)

var wordSamples = []string{
	"", " ", "a", " a ", "a b  c\n\td", "\u00a0x\u00a0y", "x\u0085y", "a\u3000b\u2003c\u2028d",
	"caf\xe9 na\xefve", "\xe2\xc2\xa0x", "\xf0\x9f\xc2\xa0y", "\xe2\x80", "\xe2\x80\x94dash\xe2\x80\x94",
	"emoji 😀 ok", "\xc2", "\xe3\x80\x80", "\xe1\x9a\x80z",
	// Eight bytes at a time: every ASCII control byte near a space, words
	// across the 8-byte blocks, non-ASCII inside and across them.
	"\x08\t\n\v\f\r\x0e\x1f \x7f!~ab", "abcdefgh ijklmnop\tqrstuvwx\nyz", "       a        b",
	"abcdefg\u00a0hijklmn\u3000opq", "abcdefgh\xe2\x80\x83ijklmnop", "a\x00b\x00\x00 c\x1f\x20d\x7f\x80 e",
	// Each character of a script written without spaces is a word, with
	// the marks on it.
	"我们的数据库设计。下一步", "Rust的所有权abcdefgh", "サーバーを再起動", "ที่นี่ ภาษาไทย", "데이터베이스를 사용",
	"数\u0301x", "数\xe6", "\xe0\xb8", "𠀀𠀁 abc", "a数 b", "数abcdefghij数",
}

// fieldsCount is the definition Count speeds up.
func fieldsCount(s string) int { return len(strings.Fields(SpaceUnspaced(s))) }

func TestCountWords(t *testing.T) {
	for _, s := range wordSamples {
		want := fieldsCount(s)
		if got := Count(s); got != want {
			t.Errorf("Count(%q) = %d, want %d", s, got, want)
		}
		if got := Count([]byte(s)); got != want {
			t.Errorf("Count([]byte(%q)) = %d, want %d", s, got, want)
		}
	}
}

func FuzzCountWords(f *testing.F) {
	for _, s := range wordSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := fieldsCount(s)
		if got := Count(s); got != want {
			t.Fatalf("Count(%q) = %d, want %d", s, got, want)
		}
		if got := Count([]byte(s)); got != want {
			t.Fatalf("Count([]byte(%q)) = %d, want %d", s, got, want)
		}
	})
}

// BenchmarkCountWords compares Count with strings.Fields on ASCII
// prose and on prose with a non-ASCII character in every sentence.
func BenchmarkCountWords(b *testing.B) {
	for _, bc := range []struct{ name, text string }{
		{"ascii", strings.Repeat("The quick brown fox - jumps over the lazy dog.\n  Is it? ", 2000)},
		{"mixed", strings.Repeat("The quick brown fox — jumps over the lazy dog. Ça va? ", 2000)},
	} {
		b.Run(bc.name+"/CountWords", func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			for b.Loop() {
				Count(bc.text)
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

func TestSpaceUnspaced(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain English text", "plain English text"},
		{"Café naïve", "Café naïve"},
		{"数据库", "数 据 库"},
		{"我们的数据库设计。下一步", "我 们 的 数 据 库 设 计 。 下 一 步"},
		{"Rust的所有权", "Rust 的 所 有 权"},
		{"サーバーを再起動", "サ ー バ ー を 再 起 動"},
		{"ภาษาไทย", "ภ า ษ า ไ ท ย"},
		{"ที่นี่", "ที่ นี่"},        // the marks stay on their letter
		{"데이터베이스를 사용", "데이터베이스를 사용"}, // Korean is written with spaces
		{"see 数据库, then", "see 数 据 库 , then"},
		{"x\u0301", "x\u0301"},
		{"", ""},
		{"\xff数", "\xff 数"},
		{"a 数", "a 数"},
	} {
		if got := SpaceUnspaced(tt.in); got != tt.want {
			t.Errorf("SpaceUnspaced(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// SpaceUnspaced only ever adds spaces: the text's own bytes, in order, are
// all still there.
func FuzzSpaceUnspaced(f *testing.F) {
	for _, s := range []string{"数据库", "Rust的所有权", "ที่นี่", "a\u0301b", "\xe0\xb8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := SpaceUnspaced(s)
		i := 0
		for j := 0; j < len(got); j++ {
			if i < len(s) && got[j] == s[i] {
				i++
			} else if got[j] != ' ' {
				t.Fatalf("SpaceUnspaced(%q) = %q: byte %d is neither the text's nor a space", s, got, j)
			}
		}
		if i != len(s) {
			t.Fatalf("SpaceUnspaced(%q) = %q lost bytes", s, got)
		}
		if utf8.ValidString(s) != utf8.ValidString(got) {
			t.Fatalf("SpaceUnspaced(%q) = %q changed validity", s, got)
		}
	})
}

// End stops after n words as Count counts them, in any
// script.
func TestWordsEnd(t *testing.T) {
	for _, s := range []string{
		"one two  three\tfour\nfive", "我们每天晚上备份数据库，并且每个月做一次恢复演练。", "ที่นี่ ภาษาไทย",
		"Rust的所有权 rules", "데이터베이스를 매일 백업합니다", "  lead", "e\u0301t\u00e9 \u3000 x",
	} {
		total := Count(s)
		for n := 1; n <= total+1; n++ {
			end := End(s, n)
			if got := Count(s[:end]); got != min(n, total) || !utf8.ValidString(s[:end]) {
				t.Errorf("End(%q, %d) = %d: %q holds %d words", s, n, end, s[:end], got)
			}
		}
	}
}
