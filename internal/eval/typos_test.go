package eval

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch/store"
)

func TestMisspell(t *testing.T) {
	cases := []struct {
		text string
		ok   bool
		word string // the word misspelled
	}{
		{"What adaptations were made based on the game?", true, "adaptations"},
		{"how to prevent models from memorizing data", true, "memorizing"},
		{"API versioning", true, "versioning"},
		{"CAP theorem", true, "theorem"},
		{"a b cat", false, ""},       // no word of four letters
		{"utf8decode v2", false, ""}, // letters beside digits are no word
		{"café au lai", false, ""},   // letters beside non-ASCII ones neither
		{"snake_case_words her", false, ""},
		{"lait", true, "lait"},
	}
	for _, c := range cases {
		got, ok := Misspell(c.text)
		if ok != c.ok {
			t.Errorf("Misspell(%q): ok %v, want %v", c.text, ok, c.ok)
			continue
		}
		if !ok {
			if got != c.text {
				t.Errorf("Misspell(%q) changed it to %q", c.text, got)
			}
			continue
		}
		if again, _ := Misspell(c.text); again != got {
			t.Errorf("Misspell(%q) is not deterministic: %q, then %q", c.text, got, again)
		}
		i := strings.Index(c.text, c.word)
		before, after := c.text[:i], c.text[i+len(c.word):]
		if !strings.HasPrefix(got, before) || !strings.HasSuffix(got, after) {
			t.Errorf("Misspell(%q) = %q: changed more than %q", c.text, got, c.word)
		}
	}
}

// FuzzMisspell checks that a misspelling is one edit (or one swap) in one
// word, never in its first letter, and leaves the rest of the text alone.
func FuzzMisspell(f *testing.F) {
	for _, s := range []string{"What adaptations were made?", "CAP theorem", "aabbcc ddeeff", "zzzzz", "Hello, World"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) || len(text) > 200 {
			return
		}
		got, ok := Misspell(text)
		if !ok {
			if got != text {
				t.Fatalf("not misspelled, yet changed: %q → %q", text, got)
			}
			return
		}
		if got == text {
			t.Fatalf("misspelled to itself: %q", text)
		}
		// The common start and end leave the changed stretch.
		p := 0
		for p < len(text) && p < len(got) && text[p] == got[p] {
			p++
		}
		s := 0
		for s < len(text)-p && s < len(got)-p && text[len(text)-1-s] == got[len(got)-1-s] {
			s++
		}
		a, b := []rune(text[p:len(text)-s]), []rune(got[p:len(got)-s])
		if d := store.EditDistance(a, b, 2); d != 1 {
			t.Fatalf("%q → %q: %d edits", text, got, d)
		}
		if p == 0 || !isASCIILetter(text[p-1]) && !isASCIILetter(got[p-1]) {
			t.Fatalf("%q → %q: the first letter of a word changed", text, got)
		}
	})
}
