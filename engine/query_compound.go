package engine

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch/store"
)

// compounds are the pairs of neighbouring words of query that the notes
// write as one word, and never as the two side by side: "spell check",
// where the notes write "spellcheck" ("data base", "note book"). Each is
// keyed by the two words as the index folds them, "spell check", its fix
// the word joined, as rewrite reads two-word keys. Words in quotes, a
// prefix (word*), common words and words under three letters pair with
// none.
func compounds(ctx context.Context, rd *store.Reader, query string) (map[string]string, error) {
	var pairs [][2]string
	prev := ""
	for chunk, phrase := range pieces(query) {
		ts := tokens(chunk)
		// A word alone in its field: punctuation between two ("spell,
		// check") keeps them apart, as rewrite does.
		if phrase || len(ts) != 1 || ts[0] != strings.ToLower(chunk) || !compoundHalf(ts[0]) {
			prev = ""
			continue
		}
		if prev != "" && len(pairs) < maxTerms {
			pairs = append(pairs, [2]string{prev, ts[0]})
		}
		prev = ts[0]
	}
	if len(pairs) == 0 {
		return nil, nil
	}
	joined := make([]string, len(pairs))
	for i, p := range pairs {
		joined[i] = `"` + p[0] + p[1] + `"`
	}
	held, err := rd.TermsInScope(ctx, joined, store.Filter{})
	if err != nil {
		return nil, err
	}
	var found [][2]string
	var apart []string
	for i, p := range pairs {
		if held[i] {
			found = append(found, p)
			apart = append(apart, `"`+p[0]+" "+p[1]+`"`)
		}
	}
	side, err := rd.TermsInScope(ctx, apart, store.Filter{})
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for i, p := range found {
		if side[i] {
			continue
		}
		// A name in code ("privateData", "defineEmits") is no word the
		// query split: the notes write it in mixed case.
		sp, err := rd.Spelling(ctx, p[0]+p[1])
		if err != nil {
			return nil, err
		}
		if plainWord(sp) {
			out[p[0]+" "+p[1]] = strings.ToLower(sp)
		}
	}
	return out, nil
}

// compoundHalf reports whether a word may be half of a compound: three
// letters or more, letters alone, and not a common word ("can not").
func compoundHalf(w string) bool {
	return utf8.RuneCountInString(w) >= 3 && !stopwords[w] && !strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })
}

// plainWord reports whether a word as notes spell it is a word of prose:
// lower case but for its first letter ("Spellcheck", not "privateData").
func plainWord(w string) bool {
	_, size := utf8.DecodeRuneInString(w)
	return w != "" && w[size:] == strings.ToLower(w[size:])
}
