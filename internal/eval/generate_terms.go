package eval

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch/sections"
	"github.com/mdsearch/mdsearch/store"
)

// StyleTerms: a word that one section of the vault holds and no other,
// written there at least twice, asked alone ("turbofish", "hooch"), as
// someone looks a name or a term up.
const StyleTerms = "terms"

// minTermLetters is the shortest word a terms query asks: shorter ones
// are mostly abbreviations that mean little alone.
const minTermLetters = 5

// termQueries asks, of every section below the top level, the first word
// of its body that no other section holds and that it holds twice or
// more, labelled with that section. Words are told apart as the keyword
// index tells them, by their stems ("watching" is held wherever "watch"
// is); a word written in capitals only at a sentence's start is asked in
// lower case, as it would be typed.
func (g *generator) termQueries(ctx context.Context, n *parsedNote) error {
	if g.sectionsWith == nil {
		if err := g.countSectionWords(ctx); err != nil {
			return err
		}
	}
	for i := range n.doc.Sections {
		s := &n.doc.Sections[i]
		if s.Level < 2 {
			continue
		}
		times := map[string]int{}
		for _, w := range g.termWords[s] {
			times[g.termKey[w]]++
		}
		for _, w := range g.termWords[s] { // the first, in the order written
			if k := g.termKey[w]; times[k] >= 2 && g.sectionsWith[k] == 1 {
				g.add1(StyleTerms, typedTerm(w), sectionLabel(n.path, s), "")
				break
			}
		}
	}
	return nil
}

// countSectionWords reads each section's term-like words once
// (termWords) and counts, for each word's key (termKey), the sections of
// the vault whose body holds it.
func (g *generator) countSectionWords(ctx context.Context) error {
	var plain []string
	g.termKey, g.termWords = map[string]string{}, map[*sections.Section][]string{}
	for _, p := range g.order {
		n := g.notes[p]
		for i := range n.doc.Sections {
			s := &n.doc.Sections[i]
			g.termWords[s] = g.sectionWords(n, s)
			for _, w := range g.termWords[s] {
				if _, ok := g.termKey[w]; !ok {
					g.termKey[w] = strings.ToLower(w)
					if isLetters(w) {
						plain = append(plain, w)
					}
				}
			}
		}
	}
	// A word of letters alone is keyed by its stem; one joined by '_' or
	// '-' or holding digits by its spelling, which the tokenizer would
	// split into words of their own.
	stems, err := store.Stems(ctx, plain)
	if err != nil {
		return err
	}
	for i, w := range plain {
		g.termKey[w] = stems[i]
	}
	g.sectionsWith = map[string]int{}
	for _, words := range g.termWords {
		held := map[string]bool{}
		for _, w := range words {
			if k := g.termKey[w]; !held[k] {
				held[k] = true
				g.sectionsWith[k]++
			}
		}
	}
	return nil
}

// typedTerm is w as someone would type it: in lower case when only its
// first letter is a capital ("Triaging" starting a sentence), else as
// written ("TcpListener", "partial_cmp").
func typedTerm(w string) string {
	r, size := utf8.DecodeRuneInString(w)
	if unicode.IsUpper(r) && strings.ToLower(w[size:]) == w[size:] {
		return strings.ToLower(w)
	}
	return w
}

// isLetters reports whether w holds letters alone.
func isLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// sectionWords are the term-like words of a section's own body (not its
// subsections'), as written: letters and digits with inner '_' or '-'
// alone, a letter among them, minTermLetters long or more, no common
// word.
func (g *generator) sectionWords(n *parsedNote, s *sections.Section) []string {
	var out []string
	for _, pa := range n.paras {
		if pa.start < s.BodyStart || pa.start >= s.BodyEnd {
			continue
		}
		for _, w := range strings.Fields(pa.text) {
			if w = bare(w); termLike(w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// termLike reports whether w, a word without the punctuation around it,
// can be asked as a term.
func termLike(w string) bool {
	if utf8.RuneCountInString(w) < minTermLetters || commonWords[strings.ToLower(w)] {
		return false
	}
	letter := false
	for _, r := range w {
		switch {
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsDigit(r), r == '_', r == '-':
		default:
			return false
		}
	}
	return letter
}
