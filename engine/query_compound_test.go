package engine

import (
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// TestCompounds: neighbouring words the notes write as one and never
// apart pair up; common and short words, prefixes, phrases and words
// apart by another do not.
func TestCompounds(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.md", "# A\n\nThe spellcheck and the keyboard, a notebook, a database. A note book. Spell it, check it.\n\nSet privateData, a private word, some data.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, dir, "v")
	rt, err := e.st.BeginRead(bg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	for query, want := range map[string][]string{
		"turn off spell check":         {"spell check"},
		"key board and data base":      {"data base", "key board"},
		"note book":                    nil, // written apart too
		`"spell check"`:                nil,
		"spell* check":                 nil,
		"spell the check":              nil,
		"data-base":                    nil, // one word to the keyword index
		"the spell check on key board": {"key board", "spell check"},
		"spell, check":                 nil, // punctuation between
		"spell (check)":                nil,
		"private data":                 nil, // a name in code, privateData
	} {
		got, err := compounds(bg, rt.Reader, query)
		if err != nil {
			t.Fatal(err)
		}
		if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, want) {
			t.Errorf("%q: %v, want %v", query, keys, want)
		}
	}
}

// BenchmarkCompounds is what looking for compounds adds to a search whose
// every word the notes hold: a hybrid search over the Obsidian help vault
// (test embedder) of five words, four pairs, and beside it, in the same
// run, compounds of the query alone.
func BenchmarkCompounds(b *testing.B) {
	e := openEngine(b, filepath.Join(b.TempDir(), "index.db"), newBow("bow"))
	index(b, e, copyDir(b, helpVault(b)), "help")
	const query = "editor settings spell check behavior"
	b.Run("search", func(b *testing.B) {
		for b.Loop() {
			search(b, e, mdsearch.SearchRequest{Query: query, Mode: mdsearch.ModeHybrid})
		}
	})
	b.Run("compounds", func(b *testing.B) {
		for b.Loop() {
			rt, err := e.st.BeginRead(bg)
			if err != nil {
				b.Fatal(err)
			}
			_, err = compounds(bg, rt.Reader, query)
			rt.Close()
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// A respelling whose fixes the query does not hold as rewrite reads them
// ("spell, check": punctuation between the two words) offers nothing:
// not the query itself, with a notice that names no word.
func TestRespelledNothing(t *testing.T) {
	fixes := map[string]string{"spell check": "spellcheck"}
	if s := respelled("spell, check", nil, nil, fixes, nil, "", nil); s.query != "" || s.notice != "" {
		t.Errorf("%+v", s)
	}
	if s := respelled("spell check", nil, nil, fixes, nil, "", nil); s.query != "spellcheck" {
		t.Errorf("%+v", s)
	}
}
