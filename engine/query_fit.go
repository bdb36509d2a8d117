package engine

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/plural"
	"github.com/mdsearch/mdsearch/internal/wordcount"
	"github.com/mdsearch/mdsearch/sections"
)

// EstimateTokens is what a language model pays to read text
// (mdsearch.ReadingTokens), rounded up.
func EstimateTokens(text string) int {
	return mdsearch.ReadingTokens(wordcount.Count(text), len(text))
}

// fitBudget keeps whole results while their estimated tokens, header and
// footer included (frameTokens), fit budget (0: no budget). The first result that does not fit is cut at a block
// boundary, if any of it fits, and says which lines read the rest; the
// others are dropped, and how many is returned. The first result is
// always kept, cut if need be (inside its first block when that alone is
// over, at a sentence or word, or inside a word longer than the budget);
// a merged one's chunk range then ends at the last passage it still shows
// (joins).
//
// ends are the results' last lines before capResults cut any: the rest a
// hint names runs to the passage's end.
func fitBudget(rs []mdsearch.Result, budget int, joins seams, ends []int) ([]mdsearch.Result, int) {
	if budget <= 0 {
		return rs, 0
	}
	left := budget
	for i := range rs {
		frame := frameTokens(rs[i])
		t := resultTokens(rs[i])
		if t <= left {
			left -= t
			continue
		}
		frame += hintTokens(rs[i]) - shownHint(rs[i]) // cut, it says how to read the rest, in place of a hint it had
		if !joins.shorten(&rs[i], left-frame, i == 0, ends[i], "cut to fit the token budget", atWord) {
			return rs[:i], len(rs) - i
		}
		return rs[:i+1], len(rs) - i - 1
	}
	return rs, 0
}

// shorten cuts r's text to about budget tokens, at whole blocks where it
// can, else inside the first (with first, the first block is kept however
// long; without, a first block over the budget leaves nothing, and shorten
// reports false), as inside cuts it. The hint says why (why) and which
// lines, to end, read the rest.
func (joins seams) shorten(r *mdsearch.Result, budget int, first bool, end int, why string, inside blockCut) bool {
	cut, lines := cutBlocks(r.Text, budget, first)
	if cut == "" {
		return false
	}
	in, elided := cut, false
	if EstimateTokens(cut) > budget {
		in, elided = inside(cut, budget)
	}
	if to := max(r.EndLine, end); len(in) < len(cut) {
		// The first block alone is over: cut inside it, and the rest
		// starts on the line of the cut, or the next where the cut ends
		// it (lineAt counts it from its passage: passages joined on one
		// line gained a line break). A line elided ("…") is read again
		// whole: the words after the cut are read by no other line.
		last := joins.lineAt(*r, len(in))
		from := last
		if endsLine(cut, len(in)) {
			from++
		}
		if elided {
			in += " …"
		}
		joins.cut(r, in, last, from, to, why)
	} else if e := joins.lineAt(*r, len(cut)); lines > 0 && e < r.EndLine { // else one block, kept whole
		joins.cut(r, cut, e, e+1, to, why)
	}
	return true
}

// maxResultBytes bounds one result's text, budget or not. A passage is at
// most a few hundred words, but a word may be megabytes (an embedded
// image, a minified line): 32 KB is some 8,000 tokens, more than any
// passage of text needs.
const maxResultBytes = 32 << 10

// capResults cuts a result over maxResultBytes at its last line break
// before the bound, or, when that would keep less than half of it, inside
// the long line after, and says which lines read the rest. It returns
// each result's last line before the cut, for fitBudget.
func capResults(rs []mdsearch.Result, joins seams) []int {
	ends := make([]int, len(rs))
	for i := range rs {
		r := &rs[i]
		ends[i] = r.EndLine
		if len(r.Text) <= maxResultBytes {
			continue
		}
		end := strings.LastIndexByte(r.Text[:maxResultBytes], '\n')
		next := 1 // the rest starts on the line after the cut
		if end < maxResultBytes/2 {
			end, next = runeStart(r.Text, maxResultBytes), 0
		}
		last, from := joins.lineAt(*r, end), joins.lineAt(*r, end+next) // from their passages: those joined on one line gained a line break
		joins.cut(r, r.Text[:end], last, from, r.EndLine, fmt.Sprintf("cut at %d KB", maxResultBytes>>10))
	}
	return ends
}

// cut ends result r after line last with text, saying why and which
// lines, from..to, read the rest; a merged result's chunk range ends with
// it (cutAt).
func (ss seams) cut(r *mdsearch.Result, text string, last, from, to int, why string) {
	if r.Truncated && r.RestFrom > 0 && r.RestFrom < from { // long runs it shows shortened are read with the rest
		from = r.RestFrom
	}
	ss.sectionsShown(r, text)
	r.Text, r.Truncated = text, true
	r.ReadHint, r.RestFrom, r.RestTo = readHint(*r, why, from, to), from, to
	r.EndLine = last
	ss.cutAt(r)
}

// sectionsShown trims the sections a result names (Sections, with their
// ReadSections) to those whose headings the text it is cut to, shown,
// still holds: a passage that merges stub sections names every one, and
// cut to its opening it may show the first alone. Sections are its first
// passage's, each after its own opened by a heading of its text; where
// the headings do not read as Sections say, they are left as they are.
func (ss seams) sectionsShown(r *mdsearch.Result, shown string) {
	own := r.Text
	if s := ss[keyOf(*r)]; len(s) > 0 && s[0].at <= len(own) {
		own = own[:s[0].at]
	}
	if len(r.Sections) < 2 || len(shown) >= len(own) {
		return
	}
	all, left := headingsIn(own), headingsIn(shown)
	if all > len(r.Sections) || all < len(r.Sections)-1 || left > all {
		return
	}
	n := len(r.Sections) - (all - left)
	if n < 2 { // its own section alone: Sections is for more than one
		r.Sections, r.ReadSections = nil, nil
		return
	}
	r.Sections = r.Sections[:n]
	if len(r.ReadSections) > n {
		r.ReadSections = r.ReadSections[:n]
	}
	if !slices.ContainsFunc(r.ReadSections, func(s string) bool { return s != "" }) {
		r.ReadSections = nil // none left needs an "#id"
	}
}

// headingsIn counts the headings that open sections in text, read as a
// note's.
func headingsIn(text string) int {
	return len(sections.Parse("", []byte(text)).Headings)
}

// resultTokens estimates what a result costs: its text, header and footer.
func resultTokens(r mdsearch.Result) int {
	return EstimateTokens(r.Text) + frameTokens(r)
}

// frameTokens estimates what a result costs besides its text: the header
// and footer every adapter prints around it, which name its path and
// section (each about twice) and its place in the page.
func frameTokens(r mdsearch.Result) int {
	name := r.Collection + ":" + r.Path + " " + strings.Join(r.SectionPath, " > ")
	n := 2*EstimateTokens(name) + 16 + EstimateTokens(r.ReadSection)
	// A merged passage's header names each other section by its heading
	// ("+ Setup"), and its footer by its path.
	for i, p := range r.Sections {
		if len(p) > 0 && !slices.Equal(p, r.SectionPath) {
			n += EstimateTokens(p[len(p)-1]) + EstimateTokens(strings.Join(p, "/")) + 4
		}
		if i < len(r.ReadSections) {
			n += EstimateTokens(r.ReadSections[i])
		}
	}
	if r.SectionEnd > 0 { // " · section continues to line 525"
		n += EstimateTokens(fmt.Sprintf(" · section continues to line %d", r.SectionEnd))
	}
	return n + shownHint(r) + whyTokens(r.Why)
}

// shownHint is what the read hint of a result cut already (a long run, a
// list's opening) adds to its footer, or 0.
func shownHint(r mdsearch.Result) int {
	if !r.Truncated {
		return 0
	}
	return EstimateTokens(r.ReadHint)
}

// whyTokens estimates what a result's why lines cost (render.WhyLines):
// the lists' places and cosines, each word and its fields, each factor.
func whyTokens(w *mdsearch.Why) int {
	if w == nil {
		return 0
	}
	n := 14
	if w.Cosine != nil {
		n += 8
	}
	for i, m := range w.Words {
		n += EstimateTokens(m.Word) + 2*len(m.In) + 3 + 2*int(b2f(i == 0))
	}
	n += 5*len(w.Factors) + 3*int(b2f(len(w.Factors) > 0))
	n += 5*len(w.ScoreFactors) + 6*int(b2f(len(w.ScoreFactors) > 0))
	if w.Reranker != nil {
		n += 12
	}
	return n
}

// hintTokens estimates what a cut result's read hint adds to its footer.
func hintTokens(r mdsearch.Result) int {
	return EstimateTokens(readHint(r, "cut to fit the token budget", 1000, 1000))
}

// readHint says why a result was cut and how to read the rest: lines from..to of
// its note, named COLLECTION:PATH (which names it even when another
// collection holds the same path). Lines read exactly what was left out,
// where a section would repeat what was shown, or, in a passage that
// merged several sections, miss some.
func readHint(r mdsearch.Result, why string, from, to int) string {
	more := plural.Count(to-from+1, "more line", "more lines")
	return fmt.Sprintf("%s, %s: read %s, lines %d-%d", why, more, readArg(r), from, to)
}

// readArg is r's note as a read hint names it for read to take.
func readArg(r mdsearch.Result) string {
	note := r.Path
	if r.Collection != "" {
		note = r.Collection + ":" + r.Path
	}
	if strings.ContainsAny(note, " ,") && !strings.Contains(note, `"`) { // one argument, whole
		note = `"` + note + `"` // read strips them
	}
	return note
}

// cutBlocks returns the longest prefix of text made of whole blocks
// (ending at a blank line outside code fences, or at the end) that fits
// budget tokens, and how many lines it has. With first, the first block is
// returned even when it does not fit.
func cutBlocks(text string, budget int, first bool) (string, int) {
	lines := strings.SplitAfter(text, "\n")
	best, bestLines := "", 0
	var fences sections.Fences
	var b strings.Builder
	under := -1 // where the text under the last heading starts, once one is seen
	prev := 0   // the kept text's length at the last boundary
	for i, l := range lines {
		code := fences.Line([]byte(strings.TrimRight(l, "\r\n")))
		b.WriteString(l)
		if (!code && strings.TrimSpace(l) == "") || i == len(lines)-1 {
			kept := strings.TrimRight(b.String(), "\n \t")
			if len(kept) == prev && kept != "" && i < len(lines)-1 {
				continue // another blank line: no new block
			}
			last := kept[prev:] // the last block
			prev = len(kept)
			if kept == "" || (i < len(lines)-1 && endsWithHeading(kept)) {
				under = len(kept)
				continue // a cut never ends on a heading whose text it leaves out
			}
			if i < len(lines)-1 && (under >= 0 && wordcount.Count(kept[under:]) < stubWords || opens(last) || onlyDefinitions(last)) {
				continue // nor on a scrap of text under a heading, nor on one that opens what follows, nor on what shows nothing
			}
			if EstimateTokens(kept) > budget && (best != "" || !first) {
				break
			}
			best, bestLines = kept, strings.Count(kept, "\n")+1
			if EstimateTokens(kept) > budget {
				break
			}
		}
	}
	return best, bestLines
}

// refDefinition matches a line that is a link reference definition of
// one line, which a rendered note does not show: "[label]: destination",
// the destination in angle brackets or not, a title after it in quotes
// or brackets. A footnote ("[^1]: text") is shown, so it is not one.
var refDefinition = regexp.MustCompile(`^ {0,3}\[((?:\\.|[^\\\[\]])+)\]:[ \t]*(?:<[^<>\n]*>|[^\s<]\S*)(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^()]*\)))?[ \t]*\r?$`)

// isDefinition reports whether line is a link reference definition
// (refDefinition) whose label holds more than spaces.
func isDefinition(line string) bool {
	m := refDefinition.FindStringSubmatch(line)
	return m != nil && strings.TrimSpace(m[1]) != "" && !strings.HasPrefix(m[1], "^")
}

// onlyDefinitions reports whether a block is link reference definitions
// alone, which show nothing.
func onlyDefinitions(block string) bool {
	some := false
	for _, l := range strings.Split(strings.TrimSpace(block), "\n") {
		if !isDefinition(l) {
			return false
		}
		some = true
	}
	return some
}

// stubWords is the least text under a heading a cut may end with: fewer
// words are a scrap, as an HTML tag or a list label.
const stubWords = 4

// opens reports whether a block is a scrap that opens the text after it:
// an HTML tag (`<div class="composition-api">`), a label ending in a
// colon ("For example:", "**Note:**"), or one in bold alone, as a list
// item too (an API page's "- **Type**", its code under it).
func opens(block string) bool {
	t := strings.TrimSpace(block)
	return wordcount.Count(t) < stubWords && (strings.HasPrefix(t, "<") && !strings.HasPrefix(t, "</") ||
		strings.HasSuffix(strings.TrimRight(t, "*_"), ":") || boldLabel(t))
}

// boldLabel reports whether t is bold text alone ("**Type**", "__Details__"),
// after a list item's marker.
func boldLabel(t string) bool {
	for _, m := range []string{"- ", "* ", "+ "} {
		t = strings.TrimPrefix(t, m)
	}
	for _, b := range []string{"**", "__"} {
		if inner, ok := strings.CutPrefix(t, b); ok && len(inner) > len(b) && strings.HasSuffix(inner, b) && !strings.Contains(strings.TrimSuffix(inner, b), b) {
			return true
		}
	}
	return false
}

// endsWithHeading reports whether text's last block is a heading: an ATX
// line ("## Title") or a setext one (a line, then "===" or "---"), with
// any link reference definitions under it (an RFC's "[drawbacks]:
// #drawbacks"), which show nothing.
func endsWithHeading(text string) bool {
	lines := strings.Split(text, "\n")
	for len(lines) > 1 && isDefinition(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	last := strings.TrimRight(lines[len(lines)-1], "\r")
	trimmed := strings.TrimLeft(last, " ")
	if len(last)-len(trimmed) <= 3 {
		n := len(trimmed) - len(strings.TrimLeft(trimmed, "#"))
		if n >= 1 && n <= 6 && (len(trimmed) == n || trimmed[n] == ' ' || trimmed[n] == '\t') {
			return true
		}
	}
	t := strings.TrimSpace(last)
	setext := t != "" && (strings.Trim(t, "=") == "" || strings.Trim(t, "-") == "")
	return setext && len(lines) >= 2 && strings.TrimSpace(lines[len(lines)-2]) != ""
}
