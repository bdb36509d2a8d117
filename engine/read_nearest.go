package engine

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/sections"
	"github.com/mdsearch/mdsearch/store"
)

// nearestSections adds to err, a section the note lacks, the one or two
// sections whose heading is nearest to query as "did you mean", by name
// as an outline gives it: the edit distance that respells a query's word
// (store.EditDistance), between the two with case, spaces and punctuation
// left out ("Watch Effect" is watchEffect()), within a third of the
// query's letters.
func nearestSections(doc *sections.Document, query string, err error) error {
	var me *mdsearch.Error
	if mdsearch.KindOf(err) != mdsearch.KindNotFound || !errors.As(err, &me) || me.Op != "find section" {
		return err
	}
	q := []rune(squash(query))
	limit := len(q) / 3
	if limit == 0 {
		return err
	}
	type near struct{ i, d int }
	var found []near
	for i, s := range doc.Sections {
		if s.Level == 0 {
			continue
		}
		if d := store.EditDistance(q, []rune(squash(s.Heading)), limit); d <= limit {
			found = append(found, near{i, d})
		}
	}
	if len(found) == 0 {
		// Nothing spelled near: the sections whose heading path holds
		// every word of the query ("Lifetimes in structs" of
		// "Validating References with Lifetimes/In Struct Definitions").
		for i, s := range doc.Sections {
			if s.Level > 0 && holdsAll(s.Path, query) {
				found = append(found, near{i, len(s.Path)})
			}
		}
	}
	if len(found) == 0 {
		return err
	}
	slices.SortStableFunc(found, func(a, b near) int { return a.d - b.d })
	names := doc.Names()
	var like []string
	for _, n := range found[:min(2, len(found))] {
		like = append(like, strconv.Quote(names[n.i]))
	}
	me.Hint = "did you mean " + strings.Join(like, " or ") + "? " + me.Hint
	return err
}

// holdsAll reports whether the headings of path hold every word of query
// that is not a common one, a word's plural or singular alike; false for
// a query of common words alone.
func holdsAll(path []string, query string) bool {
	have := map[string]bool{}
	for _, h := range path {
		for _, w := range tokens(h) {
			have[singular(w)] = true
		}
	}
	asked := 0
	for _, w := range tokens(query) {
		if stopwords[w] {
			continue
		}
		asked++
		if !have[singular(w)] {
			return false
		}
	}
	return asked > 0
}

// singular is a word without a plural's "s" ("structs", "lifetimes").
func singular(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		return w[:len(w)-1]
	}
	return w
}

// squash is s in lower case with only its letters and digits.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}
