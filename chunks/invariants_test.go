package chunks

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/wordcount"
	"github.com/mdsearch/mdsearch/sections"
)

// checkChunks returns the first broken invariant of a Split result, or nil.
//
// Passages (Chunks):
//   - indexes, ids, lines, title and path are consistent; Text is the
//     display text of the source slice [StartByte, EndByte) without its
//     comments but for their line breaks (PassageText), which starts
//     at a line start or a non-blank byte and ends with a non-blank byte;
//     WordCount counts it, and it has as many lines as the passage;
//   - they tile the note: in order, without overlap, with only white space
//     between and around them, so every non-blank byte of the body is in
//     exactly one passage; Part/Parts number consecutive runs; a comment
//     of whole lines (sections.Comment) lies between passages or inside
//     one, where its text is hidden, never at a passage's first or last byte;
//   - a passage is labelled by the section its first byte is in (in h2h3,
//     by that section or an ancestor of it, the unit it was cut from); it
//     holds text of its own section only, unless Sections is set: then
//     Sections[0] is its own path and Sections lists exactly the sections it
//     holds text of, in document order (in h2h3, the H1/H2 groups they sit
//     in);
//   - reading budget: WordCount + w(prefix) <= PassageWords, where prefix
//     is "[Title > Heading > …] " of its label (the title left out when it
//     equals the first heading) and w counts words, whenever that prefix
//     has at most PassageWords/2 words; when it is longer (the chunker
//     shortens it) just WordCount <= PassageWords. There is no exception
//     for uncuttable blocks: passages are cut down to single words.
//
// Windows:
//   - every passage has at least one; each lies within its passage, starts
//     and ends inside it in order (starts and ends strictly increasing),
//     and together they cover every non-blank byte of the passage;
//   - EmbedText = head + the display text of [StartByte, EndByte), less
//     the inline comments and the code it leaves out: of every code block (as far as it lies in the
//     passage) only the first CodeLines lines, from the passage's view of
//     the block, are embedded; that text is not empty; TextStart is the
//     window's start in Text;
//   - the head is a prefix "[…] " (or "") taking at most half of MaxTokens
//     by the counter, followed only when the window starts among a table's
//     rows by that table's header and delimiter rows and a newline;
//   - TokenCount is the counter's count of EmbedText and at most MaxTokens
//     unless the window's text is a single character; Hash is the hex of
//     the first 16 bytes of SHA-256 of EmbedText;
//   - the last window may be the heading window: empty, at the passage's
//     start, its EmbedText the passage's prefix "[…]" alone; only a passage
//     with a non-empty prefix has one;
//   - a window that overlaps the one before never starts inside a code
//     block, and starts at a line start (only blanks before it on its line)
//     or just after a sentence end (".", "!" or "?", closing quotes or
//     brackets, white space).
func checkChunks(doc *sections.Document, opts Options, cs []mdsearch.Chunk) error {
	opts = opts.withDefaults()
	if pd := propertiesDoc(doc); pd != doc {
		// A note of properties alone: its passage is the frontmatter's text.
		cp := *pd
		cp.Src, cp.Body = pd.Src[:pd.Sections[0].EndByte], pd.Sections[0].StartByte
		doc = &cp
	}
	src := doc.Src
	prevEnd := doc.Body
	for i, c := range cs {
		wrap := func(err error) error {
			return fmt.Errorf("passage %d (%s, bytes %d-%d): %w", i, strings.Join(c.SectionPath, " > "), c.StartByte, c.EndByte, err)
		}
		if err := checkChunk(doc, opts, i, len(cs), c); err != nil {
			return wrap(err)
		}
		if c.StartByte < prevEnd {
			return wrap(fmt.Errorf("starts before the previous passage ends at %d", prevEnd))
		}
		if gap := firstMissing(doc, prevEnd, c.StartByte, false); gap >= 0 {
			return fmt.Errorf("byte %d (line %d, %q) is in no passage", gap, doc.Line(gap), src[gap])
		}
		if end := commentEnd(doc, c.StartByte, c.StartByte+1); end > 0 {
			return wrap(fmt.Errorf("starts in a comment (ending at %d)", end))
		}
		if end := commentEnd(doc, c.EndByte-1, c.EndByte); end > 0 {
			return wrap(fmt.Errorf("ends in a comment (ending at %d)", end))
		}
		prevEnd = c.EndByte
		if err := checkParts(cs, i); err != nil {
			return err
		}
		if err := checkSections(doc, opts, c); err != nil {
			return wrap(err)
		}
		if err := checkPassageWords(doc, opts, c); err != nil {
			return wrap(err)
		}
		if err := checkWindows(doc, opts, c); err != nil {
			return wrap(err)
		}
	}
	if gap := firstMissing(doc, prevEnd, len(src), false); gap >= 0 {
		return fmt.Errorf("byte %d (line %d, %q) is in no passage", gap, doc.Line(gap), src[gap])
	}
	return nil
}

// firstMissing is firstNonBlank but for the note's comments, which are in
// no passage, and its HTML comments, attribute lines and blocks of HTML
// anchors alone (LeftOut), which may be in none; between windows
// (windows set) any inline comment may be in none.
func firstMissing(doc *sections.Document, start, end int, windows bool) int {
	for {
		gap := firstNonBlank(doc.Src, start, end)
		if gap < 0 {
			return -1
		}
		e := max(commentEnd(doc, gap, gap+1), leftOutEnd(doc, gap, windows))
		if e == 0 {
			return gap
		}
		start = e
	}
}

// leftOutEnd is the end of the range left out (an inline comment, an
// attribute line) that starts at pos, or 0 when it is an Obsidian comment
// and passages must hold it: one of HTML comments or attribute lines
// alone is no block (sections), so it may lie between passages; any may
// lie between windows (windows), having nothing to embed.
func leftOutEnd(doc *sections.Document, pos int, windows bool) int {
	for _, c := range doc.LeftOut() {
		if c[0] == pos && (windows || !bytes.HasPrefix(doc.Src[pos:], []byte("%%"))) {
			return c[1]
		}
	}
	return 0
}

// commentEnd is the end of the first comment that overlaps [start, end),
// or 0.
func commentEnd(doc *sections.Document, start, end int) int {
	for _, c := range doc.Comments() {
		if c[0] < end && start < c[1] {
			return c[1]
		}
	}
	return 0
}

// firstNonBlank returns the offset of the first byte of src[start:end]
// that is not white space, or -1.
func firstNonBlank(src []byte, start, end int) int {
	for i := start; i < end; i++ {
		if !isSpace(src[i]) {
			return i
		}
	}
	return -1
}

func checkChunk(doc *sections.Document, opts Options, i, n int, c mdsearch.Chunk) error {
	switch {
	case c.ChunkIndex != i || c.TotalChunks != n || c.ID != doc.Path+"#"+strconv.Itoa(i):
		return fmt.Errorf("index %d/%d id %q", c.ChunkIndex, c.TotalChunks, c.ID)
	case c.StartByte < doc.Body || c.StartByte >= c.EndByte || c.EndByte > len(doc.Src):
		return fmt.Errorf("bad byte range")
	case isBlank(doc.Src[c.EndByte-1]) || isBlank(doc.Src[c.StartByte]) && c.StartByte > 0 && doc.Src[c.StartByte-1] != '\n' && doc.Src[c.StartByte-1] != '\r':
		return fmt.Errorf("ends with white space, or starts with it inside a line")
	case c.Text != doc.PassageText(c.StartByte, c.EndByte):
		return fmt.Errorf("text is not the source slice without its inline comments")
	case strings.Count(c.Text, "\n") != strings.Count(string(doc.Shown()[c.StartByte:c.EndByte]), "\n"):
		return fmt.Errorf("text has other lines than the passage")
	case c.StartLine != doc.Line(c.StartByte) || c.EndLine != doc.Line(c.EndByte-1) || c.StartLine > c.EndLine:
		return fmt.Errorf("lines %d-%d do not match bytes", c.StartLine, c.EndLine)
	case c.WordCount != wordcount.Count(c.Text):
		return fmt.Errorf("word count %d", c.WordCount)
	case c.Part < 1 || c.Part > c.Parts:
		return fmt.Errorf("part %d of %d", c.Part, c.Parts)
	case c.Title != doc.Title || c.Path != doc.Path:
		return fmt.Errorf("title %q path %q", c.Title, c.Path)
	}
	return nil
}

// isBlank reports whether c is white space to markdown (unlike '\v' and
// '\f', which make a paragraph).
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:16])
}

// checkParts checks that passage i continues the parts of its section:
// part 1 opens a run of Parts passages numbered in order.
func checkParts(cs []mdsearch.Chunk, i int) error {
	c := cs[i]
	if c.Part == 1 {
		if i > 0 && cs[i-1].Part != cs[i-1].Parts {
			return fmt.Errorf("passage %d opens a section before passage %d closed one (part %d of %d)", i, i-1, cs[i-1].Part, cs[i-1].Parts)
		}
		if i == len(cs)-1 && c.Parts != 1 {
			return fmt.Errorf("last passage is part 1 of %d", c.Parts)
		}
		return nil
	}
	if p := cs[i-1]; p.Part != c.Part-1 || p.Parts != c.Parts {
		return fmt.Errorf("passage %d is part %d of %d after part %d of %d", i, c.Part, c.Parts, p.Part, p.Parts)
	}
	return nil
}

// sectionAt returns the index of the section whose own text holds offset
// pos: its heading or its own body, subsections excluded; or -1.
func sectionAt(doc *sections.Document, pos int) int {
	secs := doc.Sections
	i := sort.Search(len(secs), func(i int) bool { return secs[i].BodyEnd > pos })
	if i < len(secs) && secs[i].StartByte <= pos {
		return i
	}
	return -1
}

// held returns the sections whose own non-blank text intersects [start,
// end), in document order.
func held(doc *sections.Document, start, end int) []int {
	var out []int
	secs := doc.Sections
	for i := sort.Search(len(secs), func(i int) bool { return secs[i].BodyEnd > start }); i < len(secs) && secs[i].StartByte < end; i++ {
		if start < trimRight(doc.Src, secs[i].StartByte, secs[i].BodyEnd) {
			out = append(out, i)
		}
	}
	return out
}

// checkSections checks the label of c and that it holds text only of the
// sections it lists (see checkChunks). In the h2h3 profile a section counts
// as the H1/H2 section (or preamble) it sits in.
func checkSections(doc *sections.Document, opts Options, c mdsearch.Chunk) error {
	h2h3 := opts.Profile == ProfileH2H3
	group := func(i int) int {
		for h2h3 && i > 0 && doc.Sections[i].Level != 1 && doc.Sections[i].Level != 2 {
			i--
		}
		return i
	}
	at := sectionAt(doc, c.StartByte)
	if at < 0 {
		return fmt.Errorf("starts in no section")
	}
	first := doc.Sections[at]
	if h2h3 {
		if len(c.SectionPath) > len(first.Path) || !slices.Equal(c.SectionPath, first.Path[:len(c.SectionPath)]) || c.HeadingLevel > first.Level {
			return fmt.Errorf("labelled %q (level %d), not the section it starts in, %q, or an ancestor", c.SectionPath, c.HeadingLevel, first.Path)
		}
	} else if !slices.Equal(c.SectionPath, first.Path) || c.HeadingLevel != first.Level || c.Section != first.Heading {
		return fmt.Errorf("labelled %q %q (level %d), not by the section it starts in, %q (level %d)", c.Section, c.SectionPath, c.HeadingLevel, first.Path, first.Level)
	}
	hs := held(doc, c.StartByte, c.EndByte)
	if len(c.Sections) == 0 {
		for _, i := range hs {
			if group(i) != group(at) {
				return fmt.Errorf("holds text of section %q but lists no sections", doc.Sections[i].Path)
			}
		}
		return nil
	}
	if len(c.Sections) < 2 || !slices.Equal(c.Sections[0], c.SectionPath) {
		return fmt.Errorf("sections %q: not its own path %q first and others after", c.Sections, c.SectionPath)
	}
	if !h2h3 {
		var want [][]string
		for _, i := range hs {
			want = append(want, doc.Sections[i].Path)
		}
		if !slices.EqualFunc(c.Sections, want, slices.Equal) {
			return fmt.Errorf("lists sections %q, holds text of %q", c.Sections, want)
		}
		return nil
	}
	// h2h3: every listed path names a section, in document order, and
	// every section held is in the group of a listed one. The first is the
	// label: the section the chunk starts in or an ancestor, so the nearest
	// section at or before that one with its path (paths need not be
	// unique: "#" twice makes two sections with the path [""]).
	allowed := map[int]bool{}
	last := -1
	for i := at; i >= 0; i-- {
		if slices.Equal(doc.Sections[i].Path, c.Sections[0]) {
			allowed[group(i)], last = true, i
			break
		}
	}
	if last < 0 {
		return fmt.Errorf("listed section %q is not the section the chunk starts in or an ancestor", c.Sections[0])
	}
	for _, p := range c.Sections[1:] {
		// A path listed once may stand for several sections of that path
		// ("### " then "#"): each is allowed, the first is the next last.
		first := -1
		for i := last + 1; i < len(doc.Sections); i++ {
			if slices.Equal(doc.Sections[i].Path, p) {
				allowed[group(i)] = true
				if first < 0 {
					first = i
				}
			}
		}
		if last = first; first < 0 {
			return fmt.Errorf("listed section %q is no section after the one before it", p)
		}
	}
	for _, i := range hs {
		if !allowed[group(i)] {
			return fmt.Errorf("holds text of section %q, not among %q", doc.Sections[i].Path, c.Sections)
		}
	}
	return nil
}

// fullPrefix is "[Title > Heading > …] " for a section path, without the
// title when the first heading repeats it, or "" for neither.
func fullPrefix(title string, path []string) string {
	parts := mdsearch.HeadingTrail(title, path)
	if len(parts) == 0 {
		return ""
	}
	return "[" + strings.Join(parts, " > ") + "] "
}

// checkPassageWords checks the reading budget (see checkChunks).
func checkPassageWords(doc *sections.Document, opts Options, c mdsearch.Chunk) error {
	budget := opts.PassageWords
	if p := wordcount.Count(fullPrefix(doc.Title, c.SectionPath)); p <= opts.PassageWords/2 {
		budget -= p
	}
	if c.WordCount > budget {
		return fmt.Errorf("%d words over the reading budget of %d (%d less the prefix)", c.WordCount, budget, opts.PassageWords)
	}
	return nil
}

// checkHeadingWindow checks a passage's heading window (see checkChunks).
func checkHeadingWindow(opts Options, c mdsearch.Chunk, w mdsearch.Window) error {
	first := c.Windows[0]
	switch {
	case w.StartByte != c.StartByte:
		return fmt.Errorf("heading window at byte %d, not the passage's start %d", w.StartByte, c.StartByte)
	case w.EmbedText == "" || !strings.HasPrefix(w.EmbedText, "[") || !strings.HasSuffix(w.EmbedText, "]"):
		return fmt.Errorf("heading window embed text %q is not a heading path", w.EmbedText)
	case w.TextStart != 0:
		return fmt.Errorf("heading window text start %d", w.TextStart)
	case !strings.HasPrefix(first.EmbedText, w.EmbedText) && len(c.Sections) == 0:
		return fmt.Errorf("heading window %q is not the prefix of the first window %q", w.EmbedText, first.EmbedText)
	case w.TokenCount != opts.Counter.CountTokens(w.EmbedText) || w.Hash != hashOf(w.EmbedText):
		return fmt.Errorf("heading window count or hash")
	}
	return nil
}

// checkWindows checks the windows of passage c (see checkChunks).
func checkWindows(doc *sections.Document, opts Options, c mdsearch.Chunk) error {
	if len(c.Windows) == 0 {
		return fmt.Errorf("no windows")
	}
	if last := c.Windows[len(c.Windows)-1]; last.Heading {
		if err := checkHeadingWindow(opts, c, last); err != nil {
			return err
		}
		c.Windows = c.Windows[:len(c.Windows)-1]
		if len(c.Windows) == 0 {
			return fmt.Errorf("only a heading window")
		}
	}
	src := doc.Src
	overhead := opts.Counter.CountTokens("")
	covered := c.StartByte
	verbatim := len(c.Text) == c.EndByte-c.StartByte // no U+FFFD shown for a byte
	offset := func(pos int) int {                    // of source offset pos in c.Text
		if verbatim {
			return pos - c.StartByte
		}
		return len(doc.PassageText(c.StartByte, pos))
	}
	for j, w := range c.Windows {
		wrap := func(format string, args ...any) error {
			return fmt.Errorf("window %d (bytes %d-%d): %s", j, w.StartByte, w.EndByte, fmt.Sprintf(format, args...))
		}
		if w.StartByte < c.StartByte || w.EndByte > c.EndByte || w.StartByte >= w.EndByte {
			return wrap("not within the passage")
		}
		if j > 0 {
			prev := c.Windows[j-1]
			if w.StartByte <= prev.StartByte || w.EndByte <= prev.EndByte {
				return wrap("does not move on from window %d (bytes %d-%d)", j-1, prev.StartByte, prev.EndByte)
			}
			if w.StartByte < prev.EndByte {
				if err := checkOverlapStart(doc, w.StartByte); err != nil {
					return wrap("overlap %v", err)
				}
			}
		}
		if gap := firstMissing(doc, covered, w.StartByte, true); gap >= 0 {
			return wrap("byte %d of the passage (line %d, %q) is in no window", gap, doc.Line(gap), src[gap])
		}
		covered = max(covered, w.EndByte)

		text := embeddedText(doc, opts, c, w.StartByte, w.EndByte)
		n := len(text)
		switch {
		case n == 0:
			return wrap("no text: only the heading window has none")
		case len(w.EmbedText) < n || w.EmbedText[len(w.EmbedText)-n:] != text:
			return wrap("embed text does not end with the window's text")
		case w.TextStart != offset(w.StartByte):
			return wrap("text start %d, not the window's offset %d in the passage text", w.TextStart, offset(w.StartByte))
		case w.TokenCount != opts.Counter.CountTokens(w.EmbedText):
			return wrap("token count %d is not the counter's %d", w.TokenCount, opts.Counter.CountTokens(w.EmbedText))
		case w.TokenCount > opts.MaxTokens && utf8.RuneCountInString(strings.TrimSpace(text)) > 1:
			return wrap("%d tokens over the budget of %d", w.TokenCount, opts.MaxTokens)
		case w.Hash != hashOf(w.EmbedText):
			return wrap("hash")
		}
		head := w.EmbedText[:len(w.EmbedText)-n]
		prefix := head
		if h := tableHeaderAt(doc, w.StartByte); h != "" && strings.HasSuffix(head, h) {
			prefix = head[:len(head)-len(h)]
		}
		if prefix != "" && (!strings.HasPrefix(prefix, "[") || !strings.HasSuffix(prefix, "] ")) {
			return wrap("head %q is not a prefix \"[…] \" and a table header", head)
		}
		if t := opts.Counter.CountTokens(prefix) - overhead; prefix != "" && t > opts.MaxTokens/2 {
			return wrap("prefix %q of %d tokens takes more than half the budget", prefix, t)
		}
	}
	if gap := firstMissing(doc, covered, c.EndByte, true); gap >= 0 {
		return fmt.Errorf("byte %d (line %d, %q) of the passage is in no window", gap, doc.Line(gap), src[gap])
	}
	return nil
}

// blockAt returns the block holding offset pos, or nil.
func blockAt(doc *sections.Document, pos int) *sections.Block {
	i := sectionAt(doc, pos)
	if i < 0 {
		return nil
	}
	bs := doc.Sections[i].Blocks
	j := sort.Search(len(bs), func(j int) bool { return bs[j].EndByte > pos })
	if j < len(bs) && bs[j].StartByte <= pos {
		return &bs[j]
	}
	return nil
}

// tableHeaderAt is the header rows (and a newline) of the table whose rows
// hold pos, or "".
func tableHeaderAt(doc *sections.Document, pos int) string {
	b := blockAt(doc, pos)
	if b == nil || b.Kind != sections.Table || pos < b.HeaderEnd {
		return ""
	}
	return doc.PassageText(b.StartByte, trimRight(doc.Src, b.StartByte, b.HeaderEnd)) + "\n"
}

// checkOverlapStart checks where a window that repeats the end of the one
// before starts: not in a code block, and at a line start or after a
// sentence end.
func checkOverlapStart(doc *sections.Document, pos int) error {
	if b := blockAt(doc, pos); b != nil && b.Kind == sections.Code {
		return fmt.Errorf("starts inside a code block (bytes %d-%d)", b.StartByte, b.EndByte)
	}
	src := doc.Shown() // a lone CR ends a line, as the splitter reads it
	if lineStartIfFirst(src, pos) != pos || pos == 0 || src[pos-1] == '\n' {
		return nil
	}
	if afterSentenceEnd(src, pos) {
		return nil
	}
	line := pos
	for line > 0 && src[line-1] != '\n' {
		line--
	}
	return fmt.Errorf("starts mid-sentence at %q", doc.Text(line, min(len(src), pos+10)))
}

// afterSentenceEnd reports whether pos follows white space after ".", "!"
// or "?" and any closing quotes, brackets or emphasis.
func afterSentenceEnd(src []byte, pos int) bool {
	i := pos - 1
	if i < 0 || !isSpace(src[i]) {
		return false
	}
	for i >= 0 && isSpace(src[i]) {
		i--
	}
	for i >= 0 && strings.IndexByte(")\"']*_", src[i]) >= 0 {
		i--
	}
	return i >= 0 && strings.IndexByte(".!?", src[i]) >= 0
}

// embeddedText is the display text of [start, end) of passage c as its
// windows embed it: each code block the passage holds reads its first
// opts.CodeLines lines, counted from where the block enters the passage,
// up to the last non-blank byte of the last of them.
func embeddedText(doc *sections.Document, opts Options, c mdsearch.Chunk, start, end int) string {
	var left [][2]int // what the model does not read, in order
	for _, sec := range doc.Sections {
		for _, blk := range sec.Blocks {
			bs, be := max(blk.StartByte, c.StartByte), min(blk.EndByte, c.EndByte)
			if bs >= be {
				continue
			}
			cut := be
			if blk.Kind == sections.Code && opts.CodeLines > 0 {
				lines, src := 0, doc.Shown() // a lone CR ends a line
				for i := bs; i < be; i++ {
					if src[i] == '\n' {
						if lines++; lines == opts.CodeLines {
							cut = i
							for cut > bs && isSpace(src[cut-1]) {
								cut--
							}
							break
						}
					}
				}
			}
			if cut < be {
				left = append(left, [2]int{cut, be})
			}
		}
	}
	// Long runs, found over the passage's text outside code tails.
	var all [][2]int
	from := c.StartByte
	for _, l := range append(left, [2]int{c.EndByte, c.EndByte}) {
		all = append(all, longASCIIRuns(doc.Src, from, l[0])...)
		if l[0] < l[1] {
			all = append(all, l)
		}
		from = l[1]
	}
	left = all
	// Inline comments and attribute lines too, which may meet what is left
	// out already.
	left = append(left, doc.LeftOut()...)
	sort.Slice(left, func(i, j int) bool { return left[i][0] < left[j][0] })
	var b strings.Builder
	pos := start
	for _, l := range left {
		if l[1] <= pos || l[0] >= end {
			continue
		}
		b.WriteString(doc.Text(pos, max(pos, l[0])))
		pos = max(pos, l[1])
	}
	if pos < end {
		b.WriteString(doc.Text(pos, end))
	}
	return b.String()
}

// longASCIIRuns are the parts past KeepRun of the whitespace-delimited
// words of src[start:end] that are ASCII and over LongRun bytes, found
// here word by word, apart from the chunker's scan.
func longASCIIRuns(src []byte, start, end int) [][2]int {
	var out [][2]int
	for pos := start; pos < end; {
		word := bytes.IndexFunc(src[pos:end], func(r rune) bool { return !unicode.IsSpace(r) || r > 0x7f })
		if word < 0 {
			break
		}
		a := pos + word
		n := bytes.IndexFunc(src[a:end], func(r rune) bool { return r <= 0x7f && unicode.IsSpace(r) })
		b := end
		if n >= 0 {
			b = a + n
		}
		if b-a > LongRun && bytes.IndexFunc(src[a:b], func(r rune) bool { return r > 0x7f }) < 0 {
			out = append(out, [2]int{a + KeepRun, b})
		}
		pos = b
	}
	return out
}
