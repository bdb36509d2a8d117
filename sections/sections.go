package sections

import (
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/mdsearch/mdsearch"
)

// Document is one parsed note.
type Document struct {
	Path        string         // as given to Parse, '/'-separated
	Title       string         // frontmatter title, else first H1, else file name
	Frontmatter map[string]any // nil when absent or unparsable
	Tags        []string       // frontmatter tags then inline #tags, deduplicated, in order
	Src         []byte         // the file's bytes, unchanged
	Body        int            // offset where the text after BOM and frontmatter starts
	// FrontmatterStart and FrontmatterEnd bound the frontmatter's YAML or
	// TOML, between its --- or +++ lines (both 0 when there is none).
	FrontmatterStart, FrontmatterEnd int
	Headings                         []Heading // headings that split (top level of the document only)
	// Nested are the headings inside lists, quotes and callouts, in order:
	// they open no section, but a page gives them ids (NestedIDs).
	Nested    []Heading
	Sections  []Section // preamble (if any) then one per heading, in document order
	WordCount int       // words of the body
	Warnings  []string  // what was odd about the file; parsing never fails

	lines  lineIndex
	shown  []byte     // Src as shown and read by lines: lone CRs as LFs (parseCopy)
	fmNode *yaml.Node // the YAML frontmatter's mapping, scalars as written (PropertyText); nil for TOML or none
	// frontTags and inline are the tags Tags joins: the frontmatter's, and
	// the inline #tags where they are written, in order.
	frontTags  []string
	inlineTags []inlineTag
	// inlineComments are the comments that are no Comment block
	// (InlineComments), HTML comments among them; leftOut is they, the
	// comments of whole lines and the attribute lines under headings
	// (LeftOut).
	inlineComments, leftOut [][2]int
	// hidden are the ranges Text leaves out, but for their line breaks:
	// every comment in a copy made by WithoutComments, else none.
	hidden [][2]int
}

// inlineTag is a #tag written in a note's text: its name without the '#',
// and the offset of its '#'.
type inlineTag struct {
	name string
	at   int
}

// TagsIn is what a passage of [start, end) is tagged with: the note's
// frontmatter tags, then the inline #tags written in [start, end),
// deduplicated ignoring case, in order. Tags is TagsIn of the whole note.
func (d *Document) TagsIn(start, end int) []string {
	tags := slices.Clone(d.frontTags)
	for _, t := range d.inlineTags {
		if t.at >= start && t.at < end {
			tags = append(tags, t.name)
		}
	}
	return dedupFold(tags)
}

// Line is the 1-based line holding byte offset off.
func (d *Document) Line(off int) int {
	if len(d.lines) == 0 {
		return 1
	}
	return d.lines.line(off)
}

// Shown is Src as it is shown and read by lines: the same bytes, the
// same length, but each lone CR (an old Mac line ending) an LF.
func (d *Document) Shown() []byte {
	if d.shown == nil {
		return d.Src
	}
	return d.shown
}

// Heading is one heading that opens a section.
type Heading struct {
	Level     int    // 1–6
	Text      string // plain text, inline markup stripped
	Anchor    string // the custom id of "## Text {#id}", or ""
	Line      int    // 1-based line of the heading's first line
	StartByte int    // offset of the heading's first line
	EndByte   int    // offset just past the heading's last line (its newline included)
	Setext    bool
	idText    string // what its id is made of, when not Text (headingText)
	// containerEnd is, for a heading of Nested, the offset where what follows
	// its innermost list item, quote or callout starts inside the same
	// top-level block, or 0 when nothing does (FindNested).
	containerEnd int
	// container tells the list item, quote or callout that holds a heading of
	// Nested apart from another (1, 2, …, in order): a later heading ends
	// what it heads only where it shares it.
	container int
}

// Section is a heading and what follows it. The preamble (text before the
// first heading) is a section with Level 0 and an empty Path.
type Section struct {
	Index     int
	Level     int      // 0 for the preamble
	Heading   string   // heading text; "" for the preamble
	Anchor    string   // the custom id of "## Heading {#id}", or ""
	ID        string   // the id the page gives the heading: Anchor, else made from its text (see IDs); "" for the preamble
	Path      []string // heading texts from the top, this one last
	Parent    int      // index of the enclosing section, -1 at the top
	StartLine int      // 1-based, inclusive: the heading line
	EndLine   int      // last line of the section, subsections included
	StartByte int      // heading start (body start for the preamble)
	EndByte   int      // next heading of the same or a higher level, or end of file (see Content)
	BodyStart int      // just past the heading
	BodyEnd   int      // the next heading of any level (or end of file)
	BodyWords int      // words of the section's own body
	Words     int      // words of the whole section, subsections included
	Blocks    []Block  // top-level blocks of the own body
	idText    string   // what its id is made of, when not Heading (headingText)
}

// BlockKind tells the chunker how a block may be cut.
type BlockKind int

const (
	Paragraph BlockKind = iota // prose and list items: cut at sentences, lines, words
	Code                       // fenced or indented code: cut at lines
	Table                      // cut at rows, repeating the header
	Other                      // HTML, thematic breaks, …: cut at lines
	Comment                    // an Obsidian %% comment of whole lines, or a block of inline comments alone: in no passage text (comments.go)
	Quote                      // a block quote or callout: cut at lines, so each piece keeps its "> "
	LinkDef                    // a link reference definition ("[x]: https://…"): no word shown, so none counted; kept with the text before it
)

// Block is a byte range of a section body that the chunker keeps whole when
// it can: a paragraph, a list item, a code block, a table.
type Block struct {
	Kind      BlockKind
	StartByte int
	EndByte   int
	HeaderEnd int   // for tables: offset just past the delimiter row
	Words     int   // as wordcount.Count counts them
	List      int32 // for a list's items: which list of the note, from 1 (an id on its own line after it names them all)
	HoldsCode bool  // a list item holding a code block: a passage cuts it at lines, as it cuts code
}

// Parse parses a note. It never fails: problems are reported in Warnings.
func Parse(path string, src []byte) *Document {
	return parse(path, src)
}

// Find resolves a section query, ignoring case, punctuation and extra white
// space. A query names a heading, or a path of headings joined with '/'
// ("Setup/Linux"); a full path wins, then a path suffix, then a heading
// containing the query. Every section's Path joined with '/' finds it. A
// name several sections answer to (a heading repeated) finds the first in
// the note, as Obsidian opens [[Note#Heading]]. "" finds the preamble.
// A miss is an mdsearch.Error of kind KindNotFound, and a query that
// merely appears in several headings of different paths one of kind
// KindInvalid; the hint lists the section paths to choose from.
func (d *Document) Find(query string) (*Section, error) {
	s, _, err := d.find(query)
	return s, err
}

// Matches is Find that also returns the other sections the query names,
// in order, for a read to say how to name each alone.
func (d *Document) Matches(query string) (sec *Section, others []*Section, err error) {
	s, idx, err := d.find(query)
	for _, i := range idx {
		others = append(others, &d.Sections[i])
	}
	return s, others, err
}

// Names is, for each section, the name an outline gives it: the shortest
// query that reads that section (its heading, its path, or its "#id").
func (d *Document) Names() []string {
	return d.names()
}

// ReadsByID reports, for each section, whether its path fails to name it
// (another reads the same, or its heading is empty), so that read must be
// given its "#"+ID instead.
func (d *Document) ReadsByID() []bool {
	return d.byID()
}

// Outline lists the headings with the size of their sections.
func (d *Document) Outline() []mdsearch.OutlineEntry {
	return d.outline()
}

// Subsections lists the sections below s, as Outline lists them; none for
// the text before the first heading.
func (d *Document) Subsections(s *Section) []mdsearch.OutlineEntry {
	return d.subsections(s)
}
