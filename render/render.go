package render

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/plural"
	"github.com/mdsearch/mdsearch/sections"
)

// Options tune Results.
type Options struct {
	// SectionPaths adds the section path to each footer, the exact value
	// read_note and `mdsearch read --section` accept.
	SectionPaths bool
}

// Percent formats a 0–1 score as "84.5%".
func Percent(score float64) string {
	return fmt.Sprintf("%.1f%%", score*100)
}

// Header is a result's first line: `1. **path** > Section > Sub (62.0%)`,
// with rank counted from 1. A passage before the first heading has no
// section, or "(intro)" when it runs on into others; one with stub
// sections merged in names the others after a "+":
// `> Sourdough + Starter Maintenance`; a stale one ends with StaleMark.
// The path is COLLECTION:PATH where another collection holds it too
// (ReadPath): what reads the note.
func Header(rank int, r mdsearch.Result) string { return header(rank, r, true) }

// header is Header, without the score for a list of notes, which has none
// (SearchResponse.Listing).
func header(rank int, r mdsearch.Result, scored bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d. **%s**%s", rank, cmp.Or(r.ReadPath, r.Path), sectionsShown(r))
	if scored {
		fmt.Fprintf(&b, " (%s)", Percent(r.Score))
	}
	if r.Stale {
		b.WriteString(" " + StaleMark)
	}
	return b.String()
}

// Place names a result as its header does, without rank, bold and score:
// `recipes/bread.md > Sourdough + Starter Maintenance`.
func Place(r mdsearch.Result) string {
	return cmp.Or(r.ReadPath, r.Path) + sectionsShown(r)
}

// sectionsShown is what a header shows after the path: the section path,
// and the sections merged in after a "+".
func sectionsShown(r mdsearch.Result) string {
	var b strings.Builder
	if len(r.SectionPath) > 0 {
		b.WriteString(" > ")
		b.WriteString(strings.Join(shownPath(r.SectionPath), " > "))
	} else if r.Section != "" {
		b.WriteString(" > ")
		b.WriteString(r.Section)
	}
	also := coveredAlso(r)
	if len(r.SectionPath) == 0 && r.Section == "" && len(also) > 0 {
		b.WriteString(" > " + sections.Intro) // the text before the first heading, read as section "/"
	}
	for _, p := range also {
		b.WriteString(" + ")
		b.WriteString(p)
	}
	return b.String()
}

// StaleMark follows the header of a result whose file changed on disk
// since it was indexed: its text may be out of date.
const StaleMark = "[stale: changed or deleted since indexed]"

// Prefix is the heading path a result's text is read under, as the model
// saw it: "[Title > Section > Sub] ".
func Prefix(r mdsearch.Result) string {
	parts := mdsearch.HeadingTrail(r.Title, r.SectionPath)
	if len(parts) == 0 {
		return ""
	}
	return "[" + strings.Join(parts, " > ") + "] "
}

// Footer places a passage in its page: "chunk 3/12 · part 2/3 · lines
// 40–58 · section continues to line 75 · page 4188 words" (part: of its
// section's text, when that was cut into several passages; section
// continues: its further parts or subsections follow), when its note
// last changed in a list ordered so, and, when the text was cut to a
// token budget, says how to read the rest.
func Footer(r mdsearch.Result) string {
	var b strings.Builder
	joined := r.ChunkEnd > r.ChunkIndex
	if joined {
		fmt.Fprintf(&b, "chunks %d–%d/%d", r.ChunkIndex+1, r.ChunkEnd+1, r.TotalChunks)
	} else {
		fmt.Fprintf(&b, "chunk %d/%d", r.ChunkIndex+1, r.TotalChunks)
	}
	switch {
	case r.Parts <= 1:
	case r.PartEnd > r.Part:
		fmt.Fprintf(&b, " · parts %d–%d/%d", r.Part, r.PartEnd, r.Parts)
	default:
		fmt.Fprintf(&b, " · part %d/%d", r.Part, r.Parts)
	}
	fmt.Fprintf(&b, " · %s", LineSpan(r.StartLine, r.EndLine))
	if r.SectionEnd > 0 {
		fmt.Fprintf(&b, " · section continues to line %d", r.SectionEnd)
	}
	fmt.Fprintf(&b, " · page %s", plural.Count(r.PageWordCount, "word", "words"))
	if r.Modified != "" { // a list ordered by it
		fmt.Fprintf(&b, " · changed %s", changed(r.Modified))
	}
	if r.Truncated {
		fmt.Fprintf(&b, " · %s", r.ReadHint)
	}
	return b.String()
}

// changed shows a result's Modified to the minute: "2026-12-01 14:03 UTC".
func changed(modified string) string {
	t, err := time.Parse(time.RFC3339, modified)
	if err != nil {
		return modified
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// LineSpan is "lines 40–58", or "line 40" for one.
func LineSpan(start, end int) string {
	if start == end {
		return fmt.Sprintf("line %d", start)
	}
	return fmt.Sprintf("lines %d–%d", start, end)
}

// coveredAlso names the other sections a merged passage covers, by their
// last heading.
func coveredAlso(r mdsearch.Result) []string {
	var out []string
	for i, p := range r.Sections {
		if len(p) > 0 && !isOwn(r, i) {
			out = append(out, shownHeading(p[len(p)-1]))
		}
	}
	return out
}

// isOwn reports whether r.Sections[i] is the passage's own section: the
// first. An index without ReadSections cannot tell a later section of the
// same path apart, so takes it for the own one too.
func isOwn(r mdsearch.Result, i int) bool {
	return i == 0 || len(r.ReadSections) == 0 && slices.Equal(r.Sections[i], r.SectionPath)
}

// coveredRead is the "#id" that reads r.Sections[i], or "" where its path
// does (or the index predates ReadSections).
func coveredRead(r mdsearch.Result, i int) string {
	if i < len(r.ReadSections) {
		return r.ReadSections[i]
	}
	return ""
}

// shownPath is a section path as a header shows it: an empty heading
// as sections.Untitled, so the line does not read "Note >  > Sub".
func shownPath(path []string) []string {
	if !slices.Contains(path, "") {
		return path
	}
	out := make([]string, len(path))
	for i, h := range path {
		out[i] = shownHeading(h)
	}
	return out
}

func shownHeading(h string) string { return cmp.Or(h, sections.Untitled) }

// manyCollections reports whether the index holds more than one collection
// (or, in an answer that does not say, the results come from several):
// each footer then names its own, since a path that several collections
// hold is read as COLLECTION:PATH.
func manyCollections(resp *mdsearch.SearchResponse) bool {
	if resp.CollectionCount > 1 {
		return true
	}
	for _, r := range resp.Results {
		if r.Collection != resp.Results[0].Collection {
			return true
		}
	}
	return false
}

// SectionPath joins a section path the way section reads accept it.
func SectionPath(p []string) string {
	return strings.Join(p, "/")
}

// Results writes every result of resp in full, as agents read them: header
// line, the whole chunk, footer, with a blank line between results. A notice
// from the engine comes first.
func Results(w io.Writer, resp *mdsearch.SearchResponse, o Options) error {
	var b strings.Builder
	if resp.Notice != "" {
		fmt.Fprintf(&b, "Note: %s\n\n", resp.Notice)
	}
	eachResult(&b, resp, func(r mdsearch.Result, many bool) {
		if text := strings.TrimSpace(r.Text); text != "" {
			b.WriteString(text)
			b.WriteByte('\n')
		}
		footer(&b, r, many)
		if o.SectionPaths {
			b.WriteString(readsAs(r))
		}
		b.WriteByte('\n')
		for _, l := range WhyLines(r.Why) {
			b.WriteString(l + "\n")
		}
	})
	_, err := io.WriteString(w, b.String())
	return err
}

// eachResult writes "No results" for an answer without any, else each
// result's header line and then what body writes, with a blank line
// between results; many is set when they come from several collections.
func eachResult(b *strings.Builder, resp *mdsearch.SearchResponse, body func(r mdsearch.Result, many bool)) {
	switch {
	case len(resp.Results) > 0:
	case resp.Listing:
		b.WriteString("No notes.\n")
	case mdsearch.ShortQuery(resp.Query):
		fmt.Fprintf(b, "No results for %q.\n", resp.Query)
	default: // a pasted log quoted back would cost more than the answer
		b.WriteString("No results.\n")
	}
	many := manyCollections(resp)
	for i, r := range resp.Results {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(header(resp.Offset+i+1, r, !resp.Listing)) // a list's next page goes on counting
		b.WriteByte('\n')
		body(r, many)
	}
}

// footer writes the line placing r in its page, and its collection when
// results come from several.
func footer(b *strings.Builder, r mdsearch.Result, many bool) {
	b.WriteString(Footer(r))
	if many {
		fmt.Fprintf(b, " · collection %s", r.Collection)
	}
}

// readsByID reports whether a section r shows is read by its "#id"
// alone, its path naming another (a heading the note repeats).
func readsByID(r mdsearch.Result) bool {
	return r.ReadSection != "" || slices.ContainsFunc(r.ReadSections, func(s string) bool { return s != "" })
}

// readsAs names the sections that read a result's passage whole: its own,
// and those of stub sections merged into it, each of which reads only its
// own part (" · sections "A/x", "A/y"").
func readsAs(r mdsearch.Result) string {
	var names, seen []string
	for i, p := range append([][]string{r.SectionPath}, r.Sections...) {
		n := SectionPath(p)
		switch {
		case i > 0 && isOwn(r, i-1):
			continue // its own, named first (by #id where the path names another)
		case i == 0 && r.ReadSection != "":
			n = r.ReadSection // the path names another section too
		case i > 0 && coveredRead(r, i-1) != "":
			n = coveredRead(r, i-1) // another section of the note has this path
		case len(p) == 0 && r.TotalChunks == 1 && len(r.Sections) == 0:
			continue // a note of one passage without headings: read it whole
		case len(p) == 0:
			n = sections.Preamble // the text before the first heading
		}
		if !slices.Contains(seen, n) {
			seen, names = append(seen, n), append(names, fmt.Sprintf("%q", n))
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return " · section " + names[0]
	}
	return " · sections " + strings.Join(names, ", ")
}

// Read writes a read_note answer: a notice first, then the text and a
// line saying which lines it is, or the outline a long note is answered
// with and how to read more.
func Read(w io.Writer, r *mdsearch.ReadResponse) error {
	var b strings.Builder
	if r.Notice != "" {
		fmt.Fprintf(&b, "Note: %s\n\n", r.Notice)
	}
	if r.Outline == nil {
		b.WriteString(r.Content)
		if r.EndLine > 0 { // where the text sits, to cite or read on from
			if !strings.HasSuffix(r.Content, "\n") {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "— %s · about %s\n", LineSpan(r.StartLine, r.EndLine), tokens(r.Tokens))
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	if r.Content != "" { // a long section: its own text, then its subsections
		b.WriteString(strings.TrimRight(r.Content, "\r\n") + "\n\n")
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return Outline(w, r.AsOutline())
}

// Outline writes a note's heading tree, indented by level, with each
// section's size and line range. A section is read by its heading, or,
// where another heading reads the same, by the name after "—".
func Outline(w io.Writer, o *mdsearch.Outline) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s", o.Path)
	if o.Title != "" {
		fmt.Fprintf(&b, " — %s", o.Title)
	}
	fmt.Fprintf(&b, " (%s, ~%s to read whole)\n", words(o.WordCount), tokens(o.Tokens))
	if len(o.Sections) == 0 || len(o.Sections) == 1 && o.Sections[0].Level == 0 {
		b.WriteString("(no headings)\n")
	}
	// Indented by depth in the tree, not by level: an H6 under an H1
	// is one step in, where ten spaces would make markdown of it a code
	// block.
	top := 0
	for _, s := range o.Sections {
		if d := depth(s); s.Level > 0 && (top == 0 || d < top) {
			top = d
		}
	}
	for _, s := range o.Sections {
		if s.Level == 0 {
			fmt.Fprintf(&b, "- %s — section %q · %s (~%s) · %s\n", sections.Intro,
				s.Section, words(s.WordCount), tokens(s.Tokens), LineSpan(s.StartLine, s.EndLine))
			continue
		}
		indent := strings.Repeat("  ", max(depth(s)-top, 0))
		name := s.Section
		if name == "" { // an entry made by hand
			name = SectionPath(s.SectionPath)
		}
		read := ""
		if name != s.Heading {
			read = fmt.Sprintf(" — section %q", name)
		}
		fmt.Fprintf(&b, "%s- %s %s%s · %s (~%s) · %s\n",
			indent, strings.Repeat("#", s.Level), s.Heading, read,
			words(s.WordCount), tokens(s.Tokens), LineSpan(s.StartLine, s.EndLine))
	}
	linkedFrom(&b, o)
	_, err := io.WriteString(w, b.String())
	return err
}

// shownBacklinks is how many places linking to a note an outline shows:
// a hub note may have hundreds, which an agent reading its outline would
// pay for.
const shownBacklinks = 10

// linkedFrom writes the places that link to a note (o.LinkedFrom), the
// first shownBacklinks of them, each with its section and line, and the
// notes not read past them; nothing when none links to it.
func linkedFrom(b *strings.Builder, o *mdsearch.Outline) {
	links := o.LinkedFrom
	if len(links) == 0 {
		return
	}
	notes := map[string]bool{}
	for _, l := range links {
		notes[l.Path] = true
	}
	fmt.Fprintf(b, "Linked from %s in %s", plural.Count(len(links), "place", "places"), plural.Count(len(notes), "note", "notes"))
	if o.LinkedFromMore > 0 {
		fmt.Fprintf(b, ", and from %s", plural.Count(o.LinkedFromMore, "more note", "more notes"))
	}
	b.WriteString(":\n")
	for _, l := range links[:min(len(links), shownBacklinks)] {
		if l.Section == "" {
			fmt.Fprintf(b, "- %s — properties · line %d: %s\n", l.Path, l.Line, l.Text)
			continue
		}
		fmt.Fprintf(b, "- %s — section %q · line %d: %s\n", l.Path, l.Section, l.Line, l.Text)
	}
	if more := len(links) - shownBacklinks; more > 0 {
		fmt.Fprintf(b, "- and %s\n", plural.Count(more, "more place", "more places"))
	}
}

// depth is how deep an outline's section is in the tree of headings
// (1 for a top one), its level where no path says.
func depth(s mdsearch.OutlineEntry) int {
	if len(s.SectionPath) == 0 {
		return s.Level
	}
	return len(s.SectionPath)
}

// words is "1 word" or "n words".
func words(n int) string { return plural.Count(n, "word", "words") }

// tokens is "1 token" or "n tokens".
func tokens(n int) string { return plural.Count(n, "token", "tokens") }

// Terminal writes results for a person at a terminal: the header line,
// the whole passage indented (or, with lines > 0, its first lines cut to
// width runes), and the footer placing it in its page.
func Terminal(w io.Writer, resp *mdsearch.SearchResponse, width, lines int) error {
	var b strings.Builder
	eachResult(&b, resp, func(r mdsearch.Result, many bool) {
		text := strings.Split(strings.TrimSpace(r.Text), "\n")
		if lines > 0 {
			text = Excerpt(r.Text, width-3, lines)
		}
		for _, l := range blankRuns(text) {
			if l = strings.TrimRight(l, " \t\r"); l != "" {
				b.WriteString("   ")
				b.WriteString(l)
			}
			b.WriteByte('\n')
		}
		b.WriteString("   — ")
		footer(&b, r, many)
		if readsByID(r) {
			b.WriteString(readsAs(r)) // the header's path alone would read another section
		}
		b.WriteByte('\n')
		for _, l := range WhyLines(r.Why) {
			b.WriteString("   " + l + "\n")
		}
	})
	_, err := io.WriteString(w, b.String())
	return err
}

// blankRuns drops, outside fenced code, the blank lines after a blank
// one: a comment blanked in the text (its lines kept, so line numbers
// hold) would show as a gap of several lines.
func blankRuns(lines []string) []string {
	out := lines[:0:0]
	fence, blank, indented := "", false, false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch run := fenceRun(t); {
		case fence == "" && len(run) >= 3:
			fence = run
		case fence != "" && len(run) >= len(fence) && run[0] == fence[0] && len(run) == len(t):
			fence = "" // a closing fence: the opening's character, as long or longer, alone
		case fence == "" && t == "" && blank && !(indented && nextIndented(lines[i:])):
			continue
		}
		if t != "" {
			indented = codeIndent(l)
		}
		blank = t == ""
		out = append(out, l)
	}
	return out
}

// codeIndent reports whether l is indented as a line of an indented code
// block: four spaces or a tab.
func codeIndent(l string) bool { return strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t") }

// nextIndented reports whether the first non-blank of lines is indented
// as code: blank lines between two such lines are the code's own.
func nextIndented(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return codeIndent(l)
		}
	}
	return false
}

// fenceRun is the run of backticks or tildes that starts t, "" for none.
func fenceRun(t string) string {
	if t == "" || t[0] != '`' && t[0] != '~' {
		return ""
	}
	n := len(t) - len(strings.TrimLeft(t, t[:1]))
	return t[:n]
}

// Excerpt is the first n non-blank lines of text, each cut to width runes,
// with "…" marking anything cut.
func Excerpt(text string, width, n int) []string {
	width = max(width, 20)
	var out []string
	rest := strings.TrimSpace(text)
	for rest != "" {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		line = strings.TrimRight(line, " \t\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if len(out) == n {
			out[n-1] = cut(out[n-1], width-1) + "…"
			return out
		}
		if r := []rune(line); len(r) > width {
			line = string(r[:width-1]) + "…"
		}
		out = append(out, line)
	}
	return out
}

func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return strings.TrimSuffix(s, "…")
}
