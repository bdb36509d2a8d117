package sentenceencoder

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func testTokenizer(t testing.TB) *Tokenizer {
	t.Helper()
	_, dir := testAssets(t)
	tok, err := LoadTokenizer(filepath.Join(dir, "vocab.json"))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestTokenizerMatchesReference(t *testing.T) {
	tok := testTokenizer(t)
	ref := loadReference(t)
	type tc struct {
		name, text string
		ids        []int32
	}
	var cases []tc
	for _, c := range ref.Cases {
		cases = append(cases, tc{c.Name, c.Text, c.IDs})
	}
	for i, c := range ref.TokenCases {
		cases = append(cases, tc{fmt.Sprintf("token case %d", i), c.Text, c.IDs})
	}
	for _, c := range cases {
		got := tok.Encode(c.text)
		if !slices.Equal(got, c.ids) && !(len(got) == 0 && len(c.ids) == 0) {
			t.Errorf("%s: Encode(%q)\n got %v\nwant %v", c.name, c.text, got, c.ids)
			continue
		}
		if n := tok.Count(c.text); n != len(c.ids) {
			t.Errorf("%s: Count(%q) = %d, want %d", c.name, c.text, n, len(c.ids))
		}
		for _, limit := range []int{0, 1, 5, ref.Window} {
			ids, n := tok.EncodeLimit(c.text, limit)
			want := c.ids[:min(limit, len(c.ids))]
			if n != len(c.ids) || !slices.Equal(ids, want) && len(want) > 0 {
				t.Errorf("%s: EncodeLimit(%q, %d) = %v, %d; want %v, %d", c.name, c.text, limit, ids, n, want, len(c.ids))
			}
		}
	}
}

func TestTokenizerHugeInputIsLinear(t *testing.T) {
	tok := testTokenizer(t)
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 10<<20/45)
	ids, n := tok.EncodeLimit(text, 128)
	if len(ids) != 128 || n < 1<<20 {
		t.Fatalf("EncodeLimit on 10 MB: %d ids, %d total", len(ids), n)
	}
	if want := tok.Encode(text[:500])[:128]; !slices.Equal(ids, want) {
		t.Fatalf("first ids of a huge text differ from a short prefix:\n got %v\nwant %v", ids, want)
	}
}

// TestUnread: texts in scripts the vocabulary lacks, or spells out a
// letter at a time, are all unread, and the model embeds them alike;
// English, code and accented Latin are read.
func TestUnread(t *testing.T) {
	tok := testTokenizer(t)
	cases := []struct {
		text     string
		min, max float64
	}{
		{"什么是响应式", 1, 1},
		{"안녕하세요 세계", 1, 1},
		{"שלום עולם", 1, 1},
		{"สวัสดี", 1, 1},
		{"как синхронизировать заметки", 0.9, 1},
		{"Πώς συγχρονίζω τις σημειώσεις", 0.9, 1},
		{"كيف أزامن ملاحظاتي", 0.9, 1},
		{"what is reactivity", 0, 0},
		{"' OR 1=1 --", 0, 0},
		{"Vec::new()", 0, 0},
		{"café naïve", 0, 0.3},
		{"Übergrößenträger Straße München", 0, 0.3},
		{"Łódź Kraków Gdańsk", 0, 0.4},
		{"Łódź", 0, 0.4},
		{"żółw", 0, 0.4},
		{"kůň úpěl", 0, 0.4},
		{"Hà Nội", 0, 0.4},
		{"useState 怎么用", 0.2, 0.4},
		{"", 0, 0},
		{"   ", 0, 0},
	}
	for _, c := range cases {
		if got := tok.Unread(c.text); got < c.min || got > c.max {
			t.Errorf("Unread(%q) = %.2f, want %.2f–%.2f", c.text, got, c.min, c.max)
		}
	}
	// Why it matters: two unknown words embed as any two unknown words.
	a, b := tok.Encode("什么 响应式"), tok.Encode("東京 タワー")
	if !slices.Equal(a, b) {
		t.Errorf("unknown texts of two words tokenize apart: %v vs %v", a, b)
	}
}

// Knows is true of the vocabulary's whole words alone: common words, not
// misspellings, parts of words or phrases.
func TestKnows(t *testing.T) {
	tok := testTokenizer(t)
	cases := []struct {
		word string
		want bool
	}{
		{"status", true},
		{"component", true},
		{"incident", true},
		{"stats", false},      // not among the model's whole words
		{"reactivty", false},  // a misspelling
		{"compnent", false},   // another
		{"ing", false},        // a piece, but not a word
		{"the status", false}, // two words
		{"", false},
	}
	_, dir := testAssets(t)
	words, err := LoadWords(filepath.Join(dir, "vocab.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if got := tok.Knows(c.word); got != c.want {
			t.Errorf("Knows(%q) = %v, want %v (pieces %v)", c.word, got, c.want, tok.Encode(c.word))
		}
		if got := words.Knows(c.word); got != c.want {
			t.Errorf("Words.Knows(%q) = %v, want %v", c.word, got, c.want)
		}
	}
	// Words, read without building a tokenizer, know what it knows.
	if len(words) < 5000 {
		t.Errorf("%d whole words", len(words))
	}
	for w := range words {
		if !tok.Knows(w) {
			t.Errorf("Words knows %q, the tokenizer does not", w)
		}
	}
}
