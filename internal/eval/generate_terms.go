package eval

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch/sections"
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
// more, labelled with that section.
func (g *generator) termQueries(n *parsedNote) {
	if g.sectionsWith == nil {
		g.countSectionWords()
	}
	for i := range n.doc.Sections {
		s := &n.doc.Sections[i]
		if s.Level < 2 {
			continue
		}
		seen := map[string]int{}
		var order []string
		for _, w := range g.sectionWords(n, s) {
			if seen[strings.ToLower(w)]++; seen[strings.ToLower(w)] == 1 {
				order = append(order, w)
			}
		}
		for _, w := range order {
			if low := strings.ToLower(w); seen[low] >= 2 && g.sectionsWith[low] == 1 {
				g.add1(StyleTerms, w, n.path, s, "")
				break
			}
		}
	}
}

// countSectionWords counts, for each term-like word, the sections of the
// vault whose body holds it.
func (g *generator) countSectionWords() {
	g.sectionsWith = map[string]int{}
	for _, p := range g.order {
		n := g.notes[p]
		for i := range n.doc.Sections {
			held := map[string]bool{}
			for _, w := range g.sectionWords(n, &n.doc.Sections[i]) {
				if low := strings.ToLower(w); !held[low] {
					held[low] = true
					g.sectionsWith[low]++
				}
			}
		}
	}
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
