package engine

import (
	"context"
	"slices"

	"github.com/mdsearch/mdsearch/store"
)

// headings are the words the heading features read, each tokenized
// once: the query's, each passage's section heading's (nil for the
// note's title and text before any heading: a question names the note
// it is about, which says nothing of which section answers it), and the
// note's title for those passages instead: the note's opening, as far as
// a passage tells (text before any heading, or under the heading that is
// the title).
type headings struct {
	query  []string
	heads  [][]string
	titles [][]string
	docs   []int64 // each passage's note
}

// sectionHeadings tokenizes the query and the passages' headings, their
// clitics read alike (unclitic): "what's canvas" names the title Canvas.
func sectionHeadings(query string, ids []int64, ps map[int64]store.Passage) headings {
	h := headings{query: tokens(unclitic(query)), heads: make([][]string, len(ids)), titles: make([][]string, len(ids)), docs: make([]int64, len(ids))}
	for i, id := range ids {
		p := ps[id]
		h.docs[i] = p.Doc
		if p.Level > 0 && p.Heading != p.Title {
			h.heads[i] = tokens(unclitic(p.Heading))
		} else {
			h.titles[i] = tokens(unclitic(p.Title))
		}
	}
	return h
}

// headingWords are the heading features that read words as the keyword
// index stems them, common words left aside, from one read of the stems:
//
//   - in, for each passage, the share of its section heading's words
//     that the query holds. A sentence that names a section ("use
//     shallowRef() instead", "see Event Modifiers") points at it.
//   - titled, for a note's opening (headings), how much of the note's
//     title the query names when it names nothing else: the title's words
//     it holds over the title's words, 0 when the query holds a word the
//     title lacks. Asked "what are callouts" or "canvas", a person wants
//     the page's opening, which says what the thing is, not the section
//     "Nested callouts" whose heading also holds the word; a question
//     that names the note and more ("what did Barker study") asks for
//     a section of it.
func headingWords(ctx context.Context, h headings) (in, titled []float64, err error) {
	in, titled = make([]float64, len(h.heads)), make([]float64, len(h.heads))
	words := slices.Clone(h.query)
	asked := len(words)
	at := make([][2]int, 2*len(h.heads)) // each heading's, then each title's, words in words
	for i, list := range slices.Concat(h.heads, h.titles) {
		at[i][0] = len(words)
		for _, w := range list {
			if !stopwords[w] {
				words = append(words, w)
			}
		}
		at[i][1] = len(words)
	}
	if len(words) == asked { // no heading or title has a word
		return in, titled, nil
	}
	stems, err := store.Stems(ctx, words)
	if err != nil {
		return nil, nil, err
	}
	inQuery, named := map[string]bool{}, map[string]bool{}
	for i, s := range stems[:asked] {
		inQuery[s] = true
		if !stopwords[h.query[i]] {
			named[s] = true
		}
	}
	for i, r := range at {
		set := map[string]bool{}
		for _, s := range stems[r[0]:r[1]] {
			set[s] = true
		}
		if i < len(h.heads) {
			in[i] = shareHeld(set, inQuery)
		} else if len(named) > 0 && holdsEvery(set, named) {
			titled[i-len(h.heads)] = shareHeld(set, named)
		}
	}
	return in, titled, nil
}

// shareHeld is the share of set's words that held holds (0 for none).
func shareHeld(set, held map[string]bool) float64 {
	if len(set) == 0 {
		return 0
	}
	n := 0
	for w := range set {
		if held[w] {
			n++
		}
	}
	return float64(n) / float64(len(set))
}

// holdsEvery reports whether set holds every word of words.
func holdsEvery(set, words map[string]bool) bool {
	for w := range words {
		if !set[w] {
			return false
		}
	}
	return true
}

// headingPhrases is, for each passage, how plainly the query quotes its
// section heading: when the query holds the heading word for word and in
// order, its words (up to three) over three, else 0. A sentence that
// quotes a heading ("see the “Integer Types” section", "use shallowRef()
// instead", "the v-else-if directive") names that section; the longer the
// heading, the less it is there by chance (a question "about the
// construction of the tower" quotes the heading "Construction" of every
// building's note). Unlike headingWords it reads the words as written,
// unstemmed and with common ones, so "Types of Integers" is not "integer
// types". A heading of common words alone ("What", "About") names
// nothing.
func headingPhrases(h headings) []float64 {
	out := make([]float64, len(h.heads))
	for i, head := range h.heads {
		if slices.ContainsFunc(head, func(w string) bool { return !stopwords[w] }) && holdsRun(h.query, head) {
			out[i] = min(float64(len(head)), 3) / 3
		}
	}
	return out
}

// quotedOverTitle clears a note opening's titled reading where the
// query quotes a heading of the same note that holds every word the query
// names and common words of it the title lacks: the query is then the
// heading, phrased, more than the title. "what is a composable" asks for
// the section "What is a Composable?", not the opening of the note
// Composables, while "composables" still asks for the opening, and so
// does "what is reactivity in depth" of the note Reactivity in Depth,
// whose section "What is Reactivity?" lacks "depth".
func quotedOverTitle(h headings, phrase, titled []float64) {
	for i, t := range titled {
		if t == 0 {
			continue
		}
		for j, head := range h.heads {
			if phrase[j] > 0 && h.docs[j] == h.docs[i] && namesQuery(h.query, head) && slices.ContainsFunc(head, func(w string) bool {
				return stopwords[w] && !slices.Contains(h.titles[i], w)
			}) {
				titled[i] = 0
				break
			}
		}
	}
}

// namesQuery reports whether head holds every word of query but common
// ones, as written.
func namesQuery(query, head []string) bool {
	for _, w := range query {
		if !stopwords[w] && !slices.Contains(head, w) {
			return false
		}
	}
	return true
}

// holdsRun reports whether run is a contiguous part of words.
func holdsRun(words, run []string) bool {
	for i := 0; i+len(run) <= len(words); i++ {
		if slices.Equal(words[i:i+len(run)], run) {
			return true
		}
	}
	return false
}
