package eval

import (
	"strings"
	"unicode"

	"github.com/mdsearch/mdsearch/sections"
)

// StyleTitles: a note's title asked alone ("canvas", "reactivity
// fundamentals") or as a question ("What is canvas?"), as someone looks
// a topic up, labelled with the note's opening text: the text before its
// first heading under the title, its subsections not counted.
const StyleTitles = "titles"

// maxTitleWords drops titles too long to be typed as a query.
const maxTitleWords = 6

// titleQueries asks the note's title, written as a query; the notes
// alternate between the title alone and the title as a question.
func (g *generator) titleQueries(n *parsedNote) {
	t := typedTitle(n.doc.Title)
	intro := openingSection(n.doc)
	if t == "" || intro == nil {
		return
	}
	words := strings.Fields(t)
	q := lowerHeading(words)
	if g.stats.ByStyle[StyleTitles]%2 == 1 {
		q = asQuestion(t, "")
	}
	g.add1(StyleTitles, q, ownLabel(n, intro), "")
}

// ownLabel labels section sec of note n, its own text alone.
func ownLabel(n *parsedNote, sec *sections.Section) Label {
	l := sectionLabel(n.path, sec)
	l.Own = true
	if sec.Level == 0 {
		l.SectionPath = []string{"/"} // as a query file labels the text before any heading
	}
	l.span.end = ownEnd(n.doc, sec)
	return l
}

// typedTitle is a title as someone would type it: a file name's words
// apart and its leading number left out ("0132-ufcs" is "ufcs"), "" for
// titles no one types (a file name of codes such as "ch15-03-drop", or a
// long one).
func typedTitle(title string) string {
	if !strings.Contains(title, " ") {
		title = strings.NewReplacer("-", " ", "_", " ").Replace(title)
	}
	words := strings.Fields(title)
	if len(words) > 1 && strings.IndexFunc(words[0], func(r rune) bool { return !unicode.IsDigit(r) }) < 0 {
		words = words[1:]
	}
	if len(words) == 0 || len(words) > maxTitleWords {
		return ""
	}
	for _, w := range words {
		if strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			return ""
		}
	}
	return strings.Join(words, " ")
}

// openingSection is the section whose own text opens the note: the text
// before any heading, else the section of the heading that is the
// note's title; nil when the note opens with another heading or the
// opening holds no words.
func openingSection(doc *sections.Document) *sections.Section {
	for i := range doc.Sections {
		s := &doc.Sections[i]
		if s.Level == 0 || strings.EqualFold(strings.TrimSpace(s.Heading), strings.TrimSpace(doc.Title)) {
			if s.BodyWords > 0 {
				return s
			}
			continue
		}
		return nil
	}
	return nil
}
