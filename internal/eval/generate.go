package eval

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/plural"
	"github.com/mdsearch/mdsearch/internal/wordcount"
	"github.com/mdsearch/mdsearch/sections"
)

// Query styles that Generate makes from a vault's own text. A generated
// query carries its style in Difficulty, so reports can split by style.
const (
	StyleLinks    = "links"    // the sentence around a link to a heading of another note
	StyleHeadings = "headings" // the first sentence of a section's body
)

// minQueryWords drops sentences too short to say what they look for
// ("See [Setup](#setup).").
const minQueryWords = 5

// maxQueryWords drops run-on "sentences" (lists and tables read as one).
const maxQueryWords = 80

// ParseStyles reads --style: "all" (or empty), or a comma-separated
// list of links, headings, sentences and questions ("both" is links and
// headings, as it was before the other two).
func ParseStyles(s string) ([]string, error) {
	s = strings.ToLower(strings.TrimSpace(s)) // as --config's names
	switch s {
	case "", "all":
		return AllStyles, nil
	case "both":
		return []string{StyleLinks, StyleHeadings}, nil
	}
	var out []string
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "all" || p == "both" {
			return nil, fmt.Errorf("style %q stands alone: give it by itself, or a list of %s", p, strings.Join(AllStyles, ", "))
		}
		if !slices.Contains(AllStyles, p) {
			return nil, fmt.Errorf("style %q is unknown: use all, or some of %s", p, strings.Join(AllStyles, ", "))
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// GenStats counts what Generate found, per style.
type GenStats struct {
	Notes      int            `json:"notes"`
	Links      int            `json:"links"`      // links to a heading of a note
	SameNote   int            `json:"same_note"`  // of those, to the linking note itself
	Unresolved int            `json:"unresolved"` // of those, naming no note or no heading of it
	Short      int            `json:"short"`      // sentences under minQueryWords words or over maxQueryWords
	Duplicate  int            `json:"duplicate"`  // the same query and label seen before
	ByStyle    map[string]int `json:"by_style"`
}

// Generate builds labelled queries from a vault's own text, without
// hand-made labels (see StyleLinks and StyleHeadings). A link query
// excludes its source note: the query is that note's own text.
func Generate(ctx context.Context, dir string, styles []string) (*QuerySet, *GenStats, error) {
	g := &generator{notes: map[string]*parsedNote{}, byBase: map[string][]string{}, props: map[string]bool{},
		seen: map[string]bool{}, stats: &GenStats{ByStyle: map[string]int{}}}
	if err := eachNote(ctx, dir, func(p string, src []byte, doc *sections.Document) error {
		g.add(p, src, doc)
		return nil
	}); err != nil {
		return nil, nil, err
	}
	g.stats.Notes = len(g.order)
	for _, style := range styles {
		for _, p := range g.order {
			switch style {
			case StyleLinks:
				g.linkQueries(g.notes[p])
			case StyleHeadings:
				g.headingQueries(g.notes[p])
			case StyleSentences, StyleVague:
				g.vague = style == StyleVague
				g.sentenceQueries(g.notes[p])
			case StyleQuestions:
				g.questionQueries(g.notes[p])
			case StyleTitles:
				g.titleQueries(g.notes[p])
			case StyleAspects:
				g.aspectQueries(g.notes[p])
			case StyleTerms:
				if err := g.termQueries(ctx, g.notes[p]); err != nil {
					return nil, nil, err
				}
			}
		}
	}
	switch {
	case g.stats.Notes == 0:
		return nil, g.stats, mdsearch.Errorf(mdsearch.KindInvalid, "eval", dir, "give a folder of markdown notes, files ending .md",
			"the vault has no notes to make queries from")
	case len(g.out) == 0 && slices.Equal(styles, []string{StyleLinks}):
		return nil, g.stats, mdsearch.Errorf(mdsearch.KindInvalid, "eval", dir, "links queries are sentences that link to a heading of another note; try --style all",
			"no link to a heading of another note that resolves (%s to a heading: %d to the same note, %d unresolved)",
			plural.Count(g.stats.Links, "link", "links"), g.stats.SameNote, g.stats.Unresolved)
	case len(g.out) == 0:
		return nil, g.stats, mdsearch.Errorf(mdsearch.KindInvalid, "eval", dir, "",
			"found nothing to make %s queries from", strings.Join(styles, " or "))
	}
	style := strings.Join(styles, ",")
	if slices.Equal(styles, AllStyles) {
		style = "all"
	}
	return &QuerySet{File: "generated from " + dir, Queries: g.out, Style: style}, g.stats, nil
}

// parsedNote is a note with its sections and its prose.
type parsedNote struct {
	path  string
	doc   *sections.Document
	paras []para
}

// generator holds the vault's notes and the queries made so far.
type generator struct {
	notes  map[string]*parsedNote
	order  []string            // paths, sorted (as eachNote gives them), for a stable output
	byBase map[string][]string // file name without .md → paths, for wikilinks
	seen   map[string]bool
	props  map[string]bool // the notes' property names, lower case (plainQuery)
	out    []Query
	stats  *GenStats
	// vague: sentence queries leave out their rarest words, counted in
	// notesWith (notes holding each word), made on first use.
	vague     bool
	notesWith map[string]int
	// sectionsWith counts the sections holding each term-like word by
	// its key (termKey: its stem, or its spelling), for termQueries, made
	// on first use.
	sectionsWith map[string]int
	termKey      map[string]string
	termWords    map[*sections.Section][]string // each section's term-like words, as written
}

// add takes in one note; notes come in path order.
func (g *generator) add(p string, src []byte, doc *sections.Document) {
	n := &parsedNote{path: p, doc: doc}
	n.paras = paragraphsOf(src[doc.Body:], doc.Body)
	g.notes[p] = n
	g.order = append(g.order, p)
	g.addProperties("", doc.Frontmatter)
	base := strings.ToLower(strings.TrimSuffix(path.Base(p), path.Ext(p)))
	g.byBase[base] = append(g.byBase[base], p)
}

// linkQueries makes a query of every sentence that links to a heading of
// another note.
func (g *generator) linkQueries(n *parsedNote) {
	for _, pa := range n.paras {
		for _, l := range pa.links {
			target, anchor, ok := splitTarget(l.target, l.wiki)
			if !ok {
				continue
			}
			g.stats.Links++
			to := g.resolveNote(n.path, target, l.wiki)
			if to != nil && to.path == n.path {
				g.stats.SameNote++
				continue
			}
			if to == nil {
				g.stats.Unresolved++
				continue
			}
			sec := findAnchor(to.doc, anchor, l.wiki)
			if sec == nil {
				g.stats.Unresolved++
				continue
			}
			g.emit(StyleLinks, pa.sentenceAround(l.start, l.end), to.path, sec, n.path)
		}
	}
}

// headingQueries makes a query of the first sentence of every section
// below the top level, labelled with that section.
func (g *generator) headingQueries(n *parsedNote) {
	for i := range n.doc.Sections {
		s := &n.doc.Sections[i]
		if s.Level < 2 {
			continue // a note's title section holds the whole note
		}
		for _, pa := range n.paras {
			if pa.start >= s.BodyStart && pa.start < s.BodyEnd {
				g.emit(StyleHeadings, pa.firstSentence(), n.path, s, "")
				break
			}
		}
	}
}

// emit adds a query labelled with section sec of note to, unless it is
// too short, too long or seen before. The label is resolved here, to the
// very section: its heading path may be shared by another section of the
// note (two "## Usage"), which resolving by path could not tell apart.
func (g *generator) emit(style, text, to string, sec *sections.Section, exclude string) {
	if w := wordcount.Count(text); w < minQueryWords || w > maxQueryWords {
		g.stats.Short++
		return
	}
	g.add1(style, text, sectionLabel(to, sec), exclude)
}

// sectionLabel labels section sec of note to, its subsections with it.
func sectionLabel(to string, sec *sections.Section) Label {
	return Label{Path: to, SectionPath: sec.Path,
		span: span{resolved: true, path: sec.Path, start: sec.StartLine, end: sec.EndLine}}
}

// add1 adds a query labelled l unless the same one was made before.
func (g *generator) add1(style, text string, l Label, exclude string) {
	text = g.plainQuery(text)
	key := fmt.Sprintf("%s\x00%s\x00%q", text, l.Path, l.span.path)
	if g.seen[key] {
		g.stats.Duplicate++
		return
	}
	g.seen[key] = true
	q := Query{Text: text, Difficulty: style, Relevant: []Label{l}, Exclude: exclude}
	q.Line = len(g.out) + 1
	g.out = append(g.out, q)
	g.stats.ByStyle[style]++
}
