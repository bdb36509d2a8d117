package eval

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch/rescore"

	"github.com/mdsearch/mdsearch/sections"
)

// More query styles: queries that do not copy the first words of a
// section, which a keyword search finds trivially.
const (
	// StyleSentences: a sentence from the middle of a section's body, with
	// its common words and every third other word left out, as someone
	// recalls a passage they read.
	StyleSentences = "sentences"
	// StyleQuestions: a section's heading asked as a question ("How do I
	// configure the cache?"), labelled with that section.
	StyleQuestions = "questions"
	// StyleVague: a sentences query with also its two rarest words (in
	// the fewest notes) left out, as someone recalls the gist but not the
	// term: a keyword search alone rarely finds it.
	StyleVague = "vague"
)

// AllStyles are every style Generate makes, in the order it makes them.
var AllStyles = []string{StyleLinks, StyleHeadings, StyleSentences, StyleVague, StyleQuestions, StyleTerms, StyleTitles, StyleAspects}

// sentenceQueries makes a query of a sentence from the middle of every
// section below the top level that has at least two paragraphs or two
// sentences.
func (g *generator) sentenceQueries(n *parsedNote) {
	for i := range n.doc.Sections {
		s := &n.doc.Sections[i]
		if s.Level < 2 {
			continue
		}
		var sents []string
		for _, pa := range n.paras {
			if pa.start >= s.BodyStart && pa.start < s.BodyEnd {
				sents = append(sents, pa.sentences()...)
			}
		}
		if len(sents) < 2 {
			continue
		}
		words := thin(sents[len(sents)/2])
		if g.vague {
			g.emit(StyleVague, strings.Join(g.dropRarest(words, 2), " "), n.path, s, "")
		} else {
			g.emit(StyleSentences, strings.Join(words, " "), n.path, s, "")
		}
	}
}

// dropRarest leaves out the n words of ws found in the fewest notes.
func (g *generator) dropRarest(ws []string, n int) []string {
	if g.notesWith == nil {
		g.notesWith = map[string]int{}
		for _, p := range g.order {
			seen := map[string]bool{}
			for _, pa := range g.notes[p].paras {
				for _, w := range strings.Fields(strings.ToLower(pa.text)) {
					if w = bare(w); !seen[w] {
						seen[w] = true
						g.notesWith[w]++
					}
				}
			}
		}
	}
	order := make([]int, len(ws))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return g.notesWith[bare(strings.ToLower(ws[order[a]]))] < g.notesWith[bare(strings.ToLower(ws[order[b]]))]
	})
	drop := map[int]bool{}
	for _, i := range order[:min(n, len(order))] {
		drop[i] = true
	}
	var out []string
	for i, w := range ws {
		if !drop[i] {
			out = append(out, w)
		}
	}
	return out
}

// bare is a word without the punctuation around it.
func bare(w string) string {
	return strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
}

// questionQueries asks every heading below the top level as a question.
func (g *generator) questionQueries(n *parsedNote) {
	for i := range n.doc.Sections {
		s := &n.doc.Sections[i]
		if s.Level < 2 || s.Heading == "" {
			continue
		}
		g.emitShort(StyleQuestions, asQuestion(s.Heading, n.doc.Title), n.path, s)
	}
}

// sentences splits p's text at its sentence ends.
func (p para) sentences() []string {
	var out []string
	from := 0
	for i := 0; i < len(p.text); i++ {
		if p.ends(i) && (i+1 == len(p.text) || p.text[i+1] == ' ') {
			out = append(out, strings.TrimSpace(p.text[from:i+1]))
			from = i + 1
		}
	}
	if rest := strings.TrimSpace(p.text[from:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// thin leaves out a sentence's common words and every third other word.
func thin(sentence string) []string {
	var kept []string
	n := 0
	for _, w := range strings.Fields(sentence) {
		if b := bare(strings.ToLower(w)); b == "" || commonWords[b] {
			continue
		}
		n++
		if n%3 == 0 {
			continue
		}
		kept = append(kept, strings.TrimRight(w, ".,;:!?"))
	}
	return kept
}

// asQuestion turns a heading into a question, with the note's title for
// context where the heading alone says little.
func asQuestion(heading, title string) string {
	h := strings.TrimRight(strings.TrimSpace(heading), "?:.")
	words := strings.Fields(h)
	if len(words) == 0 {
		return ""
	}
	first := strings.ToLower(words[0])
	switch {
	case rescore.IsQuestion(h):
		return h + "?"
	case strings.HasSuffix(first, "ing"):
		return "How does " + lowerHeading(words) + " work?"
	case len(words) <= 2 && title != "" && !strings.EqualFold(title, h):
		return "What about " + lowerHeading(words) + " in " + title + "?"
	}
	return "What is " + lowerHeading(words) + "?"
}

// lowerHeading writes a heading's words as words inside a sentence. A
// Title Case heading ("Restore Drill") loses every capital that Title
// Case put there; a sentence-case one ("Working with Obsidian vaults")
// only its first, so the names in it keep theirs. A word with another
// capital than its first (DNS, VLANs, GitHub) keeps its case either way.
func lowerHeading(words []string) string {
	out := slices.Clone(words)
	for i, w := range out {
		if i == 0 || titleCase(words) {
			out[i] = lowerWord(w)
		}
	}
	return strings.Join(out, " ")
}

// titleCase reports whether every word of a heading that starts with a
// letter, its common words ("of", "and") aside, starts with a capital,
// and there are two such words at least: one alone says nothing of the
// style.
func titleCase(words []string) bool {
	n := 0
	for _, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		switch {
		case !unicode.IsLetter(r) || commonWords[strings.ToLower(w)]:
		case !unicode.IsUpper(r):
			return false
		default:
			n++
		}
	}
	return n >= 2
}

// lowerWord lowers w's first letter when the rest of it is lower case.
func lowerWord(w string) string {
	r, size := utf8.DecodeRuneInString(w)
	if strings.ContainsFunc(w[size:], unicode.IsUpper) {
		return w
	}
	return string(unicode.ToLower(r)) + w[size:]
}

// emitShort is emit for queries that may be shorter than a sentence.
func (g *generator) emitShort(style, text, to string, sec *sections.Section) {
	if len(strings.Fields(text)) < 2 {
		g.stats.Short++
		return
	}
	g.add1(style, text, sectionLabel(to, sec), "")
}

// commonWords are those a sentence query leaves out.
var commonWords = setOf(`a about after all also an and any are as at be been but by can could did do does for from had has
	have how i if in into is it its may more most must no not of on one only or other our out over same should so some
	such than that the their them then there these they this those through to too up us was we were what when where
	which while who will with would you your`)

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
