package eval

import (
	"strings"
)

// StyleAspects: a note's title with the heading of one of its sections
// ("async closures drawbacks", "props one-way data flow"), as someone
// asks for one part of a topic, the template headings many notes share
// ("Drawbacks", "Examples") most of all; labelled with that section, its
// subsections with it. A note whose title no one would type (typedTitle)
// asks none, nor a heading of over six words or one that holds the
// title already (the questions and headings styles ask those).
const StyleAspects = "aspects"

// aspectQueries asks the note's title with each heading below it.
func (g *generator) aspectQueries(n *parsedNote) {
	t := typedTitle(n.doc.Title)
	if t == "" {
		return
	}
	title := lowerHeading(strings.Fields(t))
	for i := range n.doc.Sections {
		s := &n.doc.Sections[i]
		words := strings.Fields(s.Heading)
		if s.Level < 2 || len(words) == 0 || len(words) > maxTitleWords ||
			strings.Contains(strings.ToLower(s.Heading), strings.ToLower(t)) {
			continue
		}
		g.emitShort(StyleAspects, title+" "+lowerHeading(words), n.path, s)
	}
}
