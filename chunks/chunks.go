package chunks

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/internal/wordcount"
	"github.com/mdsearch/mdsearch/sections"
)

// Profile chooses where sections are cut.
type Profile string

const (
	// ProfileSections cuts at every heading.
	ProfileSections Profile = "sections"
	// ProfileH2H3 cuts at H1 and H2, subdivides at H3 only when a section
	// is over budget, and never cuts at H4 or deeper.
	ProfileH2H3 Profile = "h2h3"
)

// ParseProfile checks a profile name; "" means ProfileSections.
func ParseProfile(name string) (Profile, bool) {
	switch Profile(name) {
	case "", ProfileSections:
		return ProfileSections, true
	case ProfileH2H3:
		return ProfileH2H3, true
	}
	return "", false
}

// Options configure Split. Zero values mean the defaults.
type Options struct {
	MaxTokens int                // the window budget: model tokens a window holds, heading trail included; default 128
	Counter   embed.TokenCounter // default embed.Words{}
	Profile   Profile            // default ProfileSections
	Overlap   float64            // fraction of MaxTokens repeated between windows of a passage; default 0.1, negative for none
	StubWords int                // sections with fewer body words merge forward; default 50, negative for none
	// PassageWords is the reading budget of a passage (a Chunk) in words,
	// heading prefix included; default 300. Windows are cut within it.
	PassageWords int
	// CodeLines is how many lines of a code block the model reads, its
	// opening fence (with the language) first; the rest of the block is
	// left out of the embed texts, not of the passage or its keyword
	// index. Default 1, the fence alone; negative for all.
	CodeLines int
}

// Version numbers what Split makes of a note: bump it whenever the same
// note and Options give other passages, windows or embed texts, so that
// indexes re-cut (and re-embed what changed). Changelog:
//
//	1: passages, their windows and heading windows.
//	2: windows read only the first CodeLines lines of a code block, and
//	   overlap by 0.1 of the budget rather than 0.15.
//	3: passages carry their section's Anchor, so the index keeps two
//	   sections with one path apart.
//	4: windows read only the first KeepRun bytes of an ASCII word over
//	   LongRun bytes (base64, long URLs); in h2h3, headings deeper than
//	   H2 with none above them group only what is under them.
//	5: a note whose body is blank has one passage of its frontmatter's
//	   text (and re-cutting re-indexes every note's aliases, now read
//	   from "Aliases" and "alias" in any case, numbers too); Obsidian
//	   %% comments of whole lines are in no passage, and no passage
//	   spans one (sections.Comment); heading ids (Anchor) are made of
//	   the composed (NFC) heading and keep its marks.
//	6: each character of Chinese, Japanese, Thai, Lao, Khmer and Burmese
//	   text is a word (wordcount.Count), so passages of them are cut at
//	   PassageWords characters rather than running a section whole.
//	7: Hangul is counted by spaces again; text is cut after the full
//	   stops of Chinese and Japanese (。！？), and a piece cut inside a
//	   run of characters never starts with a mark (a Thai vowel); inline
//	   tags keep their marks and may follow an ideographic space.
//	8: a passage whose section's path does not name it (another reads the
//	   same, or its heading is empty) carries ReadSection, its "#id".
//	9: the text of a note with lone CR line endings (old Mac) has them as
//	   LFs, the line breaks they are read as (sections.Document.Shown); a
//	   passage with stub sections merged in carries ReadSections, the
//	   "#id" of each whose path does not name it; a note's TOML
//	   frontmatter ("+++", Hugo's) is read as YAML's, in no passage.
//	10: a heading keeps raw HTML that is text typed in angle brackets
//	   ("<angle>", "MaybeRef<T>") as written (sections.Heading.Text); its
//	   id stays that of its text without it.
//	11: a passage carries PassageTags, the tags its keyword row holds: the
//	   note's frontmatter tags and the inline #tags written in it, not
//	   those written elsewhere in the note.
//	12: Obsidian comments within a line or opening or closing mid-line
//	   (sections.InlineComments) are in no passage's Text (their line
//	   breaks kept), word count or embed text; a heading or block inside
//	   one opens nothing, and a line of such comments alone is a Comment.
//	13: a note's first passage carries Properties, the note's property
//	   values (sections.Document.PropertyText), which its keyword row holds too.
//	14: a block quote or callout (sections.Quote) is cut at lines, not
//	   sentences, and a passage's overlap starts at one of its lines, so
//	   no passage starts mid-line without the quote's "> ".
//	15: a note that opens with a rule ("---" and a blank line) has no
//	   frontmatter unless what runs to the next "---" reads as fields:
//	   its text up to there was dropped from every passage; a "%%" in a
//	   code span over two lines opens no comment (it hid what followed);
//	   a heading keeps its single tildes ("1~3") as text.
//	16: a tag may hold emoji ("#🚀launch"; sections.TagRune), as in
//	   Obsidian: such a tag ended at its first emoji, or was none; an
//	   Excalidraw drawing's title is its file name, not "Text Elements".
//	17: HTML comments ("<!-- ignore -->") are hidden as inline Obsidian
//	   comments are (sections' htmlcomments.go), whole lines too: in no
//	   passage's Text, word count or embed text; passages run across them.
//	   A whole-line %% comment's words no longer count. MkDocs
//	   admonitions and tabs ("!!! note", "=== "Tab"") hold prose, not
//	   indented code (sections.Admonition), so their bodies are embedded.
//	18: attr_list's "## Title {: #id}" and Pandoc's "## Title {-}" are the
//	   heading "Title" (sections' headingattrs.go): the block was in every
//	   passage's heading path and embed text. An HTML comment inside a
//	   line must close within the leaf block it opens in (paragraph, list
//	   item text, heading, table cell), as CommonMark reads it: "- a <!--
//	   x" before "- b --> c" hid item b; one opening an HTML block in a
//	   list item or quote closes within it. A window of a comment alone
//	   is left out, and a comment's line breaks part words in block word
//	   counts as in passage text.
//	19: a comment over lines of a block quote keeps the quote's markers
//	   ("> ") of the lines it spans in passage text, as read shows it.
//	20: Hugo's highlight shortcode, from "{{< highlight go >}}" to
//	   "{{< /highlight >}}", is a fenced code block (sections'
//	   hugohighlight.go): the model reads its opening line, and a
//	   "# comment" in it opens no section; a kramdown attribute list on
//	   the line under a heading ("{: .no_toc}") is in no passage's Text,
//	   word count or embed text, and its "#id" is the heading's Anchor.
//	21: a block of HTML anchors alone ('<a id="old-name"></a>') is in no
//	   passage: before a note's first heading it made a preamble into
//	   which the section after it merged ("(intro) + Closures").
//	22: a comment over lines of a list item keeps their indent in passage
//	   text, as a quote's markers are kept (19).
//	23: an attribute block ending a heading's line ("## Install {: #setup
//	   .wide}", "{-}") is in no passage's Text, keyword or embed text, as
//	   it is no word of the heading (18); an ATX heading's closing
//	   sequence before one is none of its text ("## Install ## {: #x}").
//	24: a quote inside a list item ("- > q") keeps its markers under a
//	   comment over its lines, as a quote does (19), and a line of fewer
//	   markers keeps those it has.
//	25: a note read as plain text (too much structure to parse in
//	   bounded memory) leaves a block of HTML anchors alone out of its
//	   passage text too, as it is left out of the passage's blocks (21).
//	26: an Obsidian comment of whole lines is hidden in passage text as an
//	   HTML comment is (17), and passages run across it; none starts or
//	   ends in one. A heading with one right under it was a passage of
//	   its own ("## Setup" alone), or joined the stub before it while its
//	   text came after without it.
//	27: a comment of whole lines over BigComment lines (a hidden draft)
//	   still cuts its section, and no stub merges across it: a passage
//	   across it showed thousands of blank lines.
//	28: a heading with nothing under it that no stub rule merged forward
//	   (at a note's end, or before a shallower heading) joins the passage
//	   before it, which lists it in Sections: alone it was a passage of
//	   its heading's words ("## See also"). A link reference definition
//	   ("[x]: https://…", sections.LinkDef) counts no words, so a heading
//	   over definitions alone is a stub, and it goes with the text before
//	   it: a section's last part was often such definitions alone. A list
//	   item holding a code block (sections.Block.HoldsCode) is cut into
//	   passages at lines, not sentences: "/* ... */" in its code started
//	   a passage mid-line. A note cut by another package's profile (index
//	   --profile fixed, SplitWith) has Split's passage of its frontmatter
//	   where it holds properties alone, and its first passage carries
//	   Properties: such a note had no passage, and no property value was
//	   keyword text.
const Version = 28

// Defaults.
const (
	DefaultMaxTokens = 128
	// DefaultOverlap was chosen on the dev query sets: 0.1 holds every
	// set's scores with 6 % fewer model tokens than 0.15; no overlap at
	// all loses queries whose answer straddles two windows.
	DefaultOverlap   = 0.1
	DefaultStubWords = 50
	// DefaultCodeLines was chosen on the dev query sets: the model makes
	// little of code, and the prose around a block says what it does.
	DefaultCodeLines = 1
	// DefaultPassageWords was chosen on the dev query sets
	// (docs/evaluation.md): long enough that a passage answers a question
	// on its own, short enough that BM25 still tells sections apart.
	DefaultPassageWords = 300
)

// DefaultOptions returns the options Split uses for zero values.
func DefaultOptions() Options {
	return Options{MaxTokens: DefaultMaxTokens, Counter: embed.Words{}, Profile: ProfileSections,
		Overlap: DefaultOverlap, StubWords: DefaultStubWords, PassageWords: DefaultPassageWords,
		CodeLines: DefaultCodeLines}
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.MaxTokens <= 0 {
		o.MaxTokens = d.MaxTokens
	}
	if o.Counter == nil {
		o.Counter = d.Counter
	}
	if p, ok := ParseProfile(string(o.Profile)); ok {
		o.Profile = p
	} else {
		o.Profile = d.Profile
	}
	switch {
	case o.Overlap == 0:
		o.Overlap = d.Overlap
	case o.Overlap < 0:
		o.Overlap = 0
	case o.Overlap > 0.5:
		o.Overlap = 0.5
	}
	o.StubWords = orNone(o.StubWords, d.StubWords)
	if o.PassageWords <= 0 {
		o.PassageWords = d.PassageWords
	}
	o.CodeLines = orNone(o.CodeLines, d.CodeLines)
	return o
}

// orNone reads an option where 0 means the default and a negative value
// means none (stored as 0).
func orNone(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// splitter holds what one Split call shares.
type splitter struct {
	doc      *sections.Document
	src      []byte
	opts     Options
	overhead int // tokens the counter adds to any text (special tokens)
	out      []mdsearch.Chunk
	fm       map[string]any
	prefixes []prefixed // by section index
	// fullPrefix is each section's whole prefix, "[Title > Heading > …] ",
	// by section index ("" until made); both splitters of a note share it.
	fullPrefix []string
	words      bool // the counter counts words, so block word counts are token counts
	// ranges counts ranges of the note when the counter can (valid UTF-8,
	// so a range's display text is its bytes), else it is nil.
	ranges embed.Ranges
	// headers caches each table's repeated header rows and their count.
	headers map[*sections.Block]counted
	// passages marks the splitter that cuts passages: they are labelled by
	// the section their text starts in, and from records the unit each
	// came from, for cutting its windows.
	passages bool
	from     []*unit
	// elided are the ranges of source, in order and apart, that counts
	// and embed texts leave out: the note's comments and attribute lines
	// (hidden, sections.Document.LeftOut) and, for the passage being cut into windows, code
	// past CodeLines and long runs past KeepRun (elided.go).
	elided [][2]int
	hidden [][2]int // what no passage's text holds (sections.Document.LeftOut)
	crop1  unit     // the passage being cut into windows (passages.go)
	// atomBuf and winBuf are reused scratch: the atoms of the unit being
	// packed, and the windows of the passage being cut (each window chunk
	// holds a one-window slice of winBuf until windows copies it out).
	atomBuf []atom
	winBuf  []mdsearch.Window
	// byID marks the sections read must name by "#id" (their path does
	// not name them); made for the first passage.
	byID []bool
	// unitBlock is where newUnit takes units from.
	unitBlock []unit
	// commentList is the note's comments (units.go), nil until asked.
	commentList [][2]int
}

// counted is a text with its count, without the counter's overhead.
type counted struct {
	text   string
	tokens int
}

// newSplitter prepares a splitter of doc with opts (defaults applied);
// its counter need not prepare the ranges of skip (see embed.RangeCounter).
// It shares full, the sections' whole prefixes, with the other splitter of
// the note (nil for the first).
func newSplitter(doc *sections.Document, opts Options, skip [][2]int, full []string) *splitter {
	if full == nil {
		full = make([]string, len(doc.Sections))
	}
	// The text as shown (lone CRs as LFs, same offsets): the embed text
	// must read as the passage's text does.
	s := &splitter{doc: doc, src: doc.Shown(), opts: opts, fm: doc.Frontmatter,
		prefixes: make([]prefixed, len(doc.Sections)), fullPrefix: full, hidden: doc.LeftOut()}
	s.elided = slices.Clone(s.hidden)
	_, s.words = s.opts.Counter.(embed.Words)
	s.overhead = s.opts.Counter.CountTokens("")
	if rc, ok := s.opts.Counter.(embed.RangeCounter); ok && !s.words && len(s.src) > 0 && utf8.Valid(s.src) {
		// The note's bytes, not a copy: Split does not change them, and a
		// counter reads them only until Release, which Split calls.
		s.ranges = rc.Ranges(unsafe.String(&s.src[0], len(s.src)), skip)
	}
	if s.fm == nil {
		s.fm = map[string]any{}
	}
	return s
}

// run emits the chunks of pieces with this splitter's budget: a note is
// cut into sections (or h2h3 groups) even when it would fit one passage,
// so every passage answers to its own heading.
func (s *splitter) run(pieces [][]piece) {
	for _, u := range s.units(pieces) {
		s.pack(u)
	}
}

// emit appends a chunk cut from unit u.
func (s *splitter) emit(c mdsearch.Chunk, u *unit) {
	s.out = append(s.out, c)
	if s.passages {
		s.from = append(s.from, u)
	}
}

// label picks the section a chunk of u over [start, end) belongs to, and
// the other sections it holds text of. A window takes the last such section
// (stubs merge forward, so its heading path is the deepest context); a
// passage the first: where its text starts.
func (u *unit) label(start, end int, first bool) (own *sections.Section, merged []*sections.Section) {
	if !first {
		for _, m := range u.members {
			if m.start < end && start < m.end && (!m.after || own == nil) {
				own = m.sec
			}
		}
		if own == nil {
			own = u.id
		}
		return own, nil
	}
	for _, m := range u.members {
		if m.start < end && start < m.end {
			if own != nil {
				merged = append(merged, own)
			}
			own = m.sec
		}
	}
	if own == nil {
		own = u.id
	}
	if first && len(merged) > 0 {
		own, merged = merged[0], append(merged[1:], own)
	}
	return own, merged
}

// readSection is the name read needs for section own where its path does
// not name it, else "".
func (s *splitter) readSection(own *sections.Section) string {
	if s.byID == nil {
		s.byID = s.doc.ReadsByID()
	}
	if s.byID[own.Index] {
		return "#" + own.ID
	}
	return ""
}

// chunk builds the chunk for [start, end) of unit u: a passage, or a
// window (only its byte range and Windows[0] are set). The caller fills in
// the index fields.
func (s *splitter) chunk(u *unit, start, end int) mdsearch.Chunk {
	if !s.passages {
		s.winBuf = append(s.winBuf, s.window(u, start, end))
		k := len(s.winBuf)
		return mdsearch.Chunk{StartByte: start, EndByte: end, Windows: s.winBuf[k-1 : k : k]}
	}
	own, merged := u.label(start, end, true)
	c := mdsearch.Chunk{
		Path:         s.doc.Path,
		Title:        s.doc.Title,
		Section:      own.Heading,
		SectionPath:  own.Path,
		Anchor:       own.ID,
		ReadSection:  s.readSection(own),
		HeadingLevel: own.Level,
		StartLine:    s.doc.Line(start),
		EndLine:      s.doc.Line(max(start, end-1)),
		StartByte:    start,
		EndByte:      end,
		Part:         1,
		Parts:        1,
		Tags:         s.doc.Tags,
		PassageTags:  s.doc.TagsIn(start, end),
		Frontmatter:  s.fm,
		Text:         s.doc.PassageText(start, end),
	}
	if len(merged) > 0 {
		c.Sections = append(c.Sections, own.Path)
		reads, ids := []string{c.ReadSection}, c.ReadSection != ""
		for _, m := range merged {
			c.Sections = append(c.Sections, m.Path)
			reads = append(reads, s.readSection(m))
			ids = ids || reads[len(reads)-1] != ""
		}
		if ids {
			c.ReadSections = reads
		}
	}
	c.WordCount = wordcount.Count(c.Text)
	return c
}

// window builds the window for [start, end) of unit u: prefixed with the
// deepest section it holds text of, counted and hashed.
func (s *splitter) window(u *unit, start, end int) mdsearch.Window {
	own, _ := u.label(start, end, false)
	prefix, header := s.prefix(own), s.tableHeader(u, start).text
	embedText := s.embedText(prefix, header, start, end)
	w := mdsearch.Window{StartByte: start, EndByte: end, EmbedText: embedText}
	n, ok := s.countHeaded(prefix+header, start, end)
	if !ok {
		n = s.opts.Counter.CountTokens(embedText)
	}
	w.TokenCount = n
	w.Hash = s.hash(embedText)
	return w
}

// hash is a window's Hash: the first 16 bytes of the SHA-256 of its embed
// text, in hex (the store keys its vector by the same bytes).
func (s *splitter) hash(embedText string) string {
	// The text's own bytes: Sum256 only reads them.
	sum := sha256.Sum256(unsafe.Slice(unsafe.StringData(embedText), len(embedText)))
	var h [32]byte
	hex.Encode(h[:], sum[:16])
	return string(h[:])
}

// tokens is the token count a chunk is held to: a passage's words, or a
// window's tokens.
func (s *splitter) tokens(c mdsearch.Chunk) int {
	if s.passages {
		return c.WordCount + s.overhead
	}
	return c.Windows[0].TokenCount
}

// embedText is prefix + header + the display text of [start, end), built
// in one allocation.
func (s *splitter) embedText(prefix, header string, start, end int) string {
	var b strings.Builder
	b.Grow(len(prefix) + len(header) + end - start)
	b.WriteString(prefix)
	b.WriteString(header)
	s.segments(start, end, func(start, end int) {
		if raw := s.src[start:end]; utf8.Valid(raw) {
			b.Write(raw)
		} else {
			b.WriteString(s.doc.Text(start, end))
		}
	})
	return b.String()
}

// tableHeader is the header and delimiter rows of the table whose rows
// start holds, followed by a newline, with their count; none when start is
// not inside a table's rows or the header would take more than half the
// room.
func (s *splitter) tableHeader(u *unit, start int) counted {
	if p := u.pieceAt(start); p != nil && p.kind == sections.Table && p.block != nil {
		b := p.block
		if start < b.HeaderEnd {
			return counted{}
		}
		if h := s.header(b); h.tokens <= s.unitRoom(u)/2 {
			return h
		}
	}
	return counted{}
}

// header is table b's header and delimiter rows, followed by a newline,
// with their count.
func (s *splitter) header(b *sections.Block) counted {
	if h, ok := s.headers[b]; ok {
		return h
	}
	text := s.doc.PassageText(b.StartByte, trimRight(s.src, b.StartByte, b.HeaderEnd)) + "\n"
	h := counted{text: text, tokens: s.countString(text)}
	if s.headers == nil {
		s.headers = map[*sections.Block]counted{}
	}
	s.headers[b] = h
	return h
}

func trimRight(src []byte, start, end int) int {
	for end > start && isSpace(src[end-1]) {
		end--
	}
	return end
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
