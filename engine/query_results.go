package engine

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/plural"
	"github.com/mdsearch/mdsearch/internal/wordcount"
	"github.com/mdsearch/mdsearch/sections"
	"github.com/mdsearch/mdsearch/store"
)

// maxMerged bounds how many neighbouring passages one result may join.
const maxMerged = 3

// group is one result on its way out: a passage, or neighbouring passages
// of one section that all ranked, in document order.
type group struct {
	best    candidate   // the best-ranked member: the result's score
	members []candidate // by chunk index
}

func (g *group) lo() int { return g.members[0].index }
func (g *group) hi() int { return g.members[len(g.members)-1].index }

// adjacent reports whether c continues g's run of one section's
// passages, at either end.
func (g *group) adjacent(c candidate, cont continued) bool {
	return cont.follows(g.members[len(g.members)-1], c) || cont.follows(c, g.members[0])
}

// continued gives, for a passage that merged stub sections, the section
// of its note's next passage, where it goes on in that section
// (store.Reader.Continued), else 0. nil knows of none.
type continued func(id int64) int64

// follows reports whether b is the passage after a in a's note and of
// its section: of one section id, or a's merged sections ending in b's.
func (cont continued) follows(a, b candidate) bool {
	if a.doc != b.doc || b.index != a.index+1 {
		return false
	}
	return b.section == a.section || cont != nil && cont(a.id) == b.section
}

func (g *group) add(c candidate) {
	if c.index < g.lo() {
		g.members = append([]candidate{c}, g.members...)
	} else {
		g.members = append(g.members, c)
	}
	if c.cos != nil && (g.best.cos == nil || *c.cos > *g.best.cos) {
		g.best.cos = c.cos
	}
}

// dedup keeps the best maxPerPage results of each note, n in total. A
// passage next to a kept one of the same section joins it instead of
// taking a place of its own. Joins are made as for at least the default
// number of results, so a search asking fewer gets the first of those
// as they are: with n=1 the best passage's neighbour, ranked below
// another note's, was left out of it.
func dedup(cands []candidate, n, maxPerPage int, cont continued) []*group {
	perDoc := map[int64]int{}
	var out []*group
	for _, c := range cands {
		if joined, freed := join(&out, c, cont); joined {
			perDoc[c.doc] -= freed // two of its results became one, or one was left out
			continue
		}
		if len(out) >= max(n, mdsearch.DefaultN) {
			break
		}
		if perDoc[c.doc] >= maxPerPage || nextToFull(out, c, cont) {
			continue
		}
		perDoc[c.doc]++
		out = append(out, &group{best: c, members: []candidate{c}})
	}
	return out[:min(n, len(out))]
}

// nextToFull reports whether c continues a kept group of its section
// that holds maxMerged passages already: the section is shown, and a
// result of its own would show it twice.
func nextToFull(gs []*group, c candidate, cont continued) bool {
	for _, g := range gs {
		if len(g.members) >= maxMerged && g.adjacent(c, cont) {
			return true
		}
	}
	return false
}

// continuedOf is continued read from rd when dedup asks, once a passage:
// dedup asks of a candidate only when the next passage of its note is a
// candidate of another section, which most searches never meet.
func continuedOf(ctx context.Context, rd *store.Reader) continued {
	var seen map[int64]int64 // made at the first ask: most searches never ask
	return func(id int64) int64 {
		if s, ok := seen[id]; ok {
			return s
		}
		if seen == nil {
			seen = map[int64]int64{}
		}
		m, err := rd.Continued(ctx, []int64{id})
		if err != nil {
			m = nil // the passages stay apart, as before it was asked
		}
		seen[id] = m[id]
		return m[id]
	}
}

// join adds c to a kept group it is next to, if any, and reports how many
// of the note's places that freed. A group that c makes touch another of
// the same section (passages 6 and 8 kept, then 7) takes that one in too,
// when the three fit in one result; the better ranked keeps its place.
func join(gs *[]*group, c candidate, cont continued) (joined bool, freed int) {
	for i, g := range *gs {
		if len(g.members) >= maxMerged || !g.adjacent(c, cont) {
			continue
		}
		g.add(c)
		for j, o := range *gs {
			if j == i || !(cont.follows(g.members[len(g.members)-1], o.members[0]) || cont.follows(o.members[len(o.members)-1], g.members[0])) {
				continue
			}
			if len(g.members)+len(o.members) > maxMerged {
				continue // too long for one result: both stay
			}
			keep, drop := g, o
			if j < i {
				keep, drop = o, g
			}
			ms := drop.members
			if drop.lo() < keep.lo() { // prepended one by one: nearest first
				ms = slices.Clone(ms)
				slices.Reverse(ms)
			}
			for _, m := range ms {
				keep.add(m)
			}
			*gs = slices.Delete(*gs, max(i, j), max(i, j)+1)
			return true, 1
		}
		return true, 0
	}
	return false, 0
}

// results loads the kept passages; a group's become one result (one a
// run, when cutRuns: the passages are chunks.Split's, whose parts say
// where a comment lies between two). A run is a result of its note like
// any other, but dedup counted its group once: a note's results past
// perNote, the weakest, are left out (each group keeps its best run, so
// as many results as groups remain). The stamps of their notes, loaded
// with them, tell which are stale.
func results(ctx context.Context, rd *store.Reader, kept []*group, cutRuns bool, perNote int) ([]mdsearch.Result, seams, map[noteKey]store.Stamp, error) {
	var ids []int64
	for _, g := range kept {
		for _, m := range g.members {
			ids = append(ids, m.id)
		}
	}
	rows, err := rd.Chunks(ctx, ids)
	if err != nil {
		return nil, nil, nil, err
	}
	stamps := make(map[noteKey]store.Stamp, len(kept))
	for _, r := range rows {
		stamps[noteKey{r.Collection, r.Path}] = r.Stamp
	}
	out := make([]mdsearch.Result, 0, len(kept))
	joins := seams{}
	cut := false
	for _, g := range kept {
		runs := []*group{g}
		if cutRuns {
			runs = g.runs(rows)
		}
		cut = cut || len(runs) > 1
		for _, run := range runs {
			if res, ss, ok := groupResult(run, rows); ok {
				out = append(out, res)
				if len(ss) > 0 {
					joins[keyOf(res)] = ss
				}
			}
		}
	}
	if cut { // a run cut off ranks by its own score
		slices.SortStableFunc(out, func(a, b mdsearch.Result) int { return cmp.Compare(b.Score, a.Score) })
	}
	return capNotes(out, perNote), joins, stamps, nil
}

// capNotes keeps the first perNote results of each note.
func capNotes(rs []mdsearch.Result, perNote int) []mdsearch.Result {
	count := make(map[noteKey]int, len(rs))
	out := rs[:0]
	for _, r := range rs {
		k := noteKey{r.Collection, r.Path}
		if count[k] < perNote {
			count[k]++
			out = append(out, r)
		}
	}
	return out
}

// runs cuts g where a member starts its section's text again after a
// comment (the first part of a unit of chunks.Split, which only a comment
// puts right after another passage of its section): only blank lines may
// lie between the passages of one result, whose text is the note's lines
// from its first to its last. Each run keeps its best member's score.
func (g *group) runs(rows map[int64]*store.ChunkRow) []*group {
	if len(g.members) == 1 {
		return []*group{g}
	}
	var out []*group
	for i, m := range g.members {
		if r, ok := rows[m.id]; i == 0 || ok && r.Part == 1 {
			out = append(out, &group{best: m})
		}
		run := out[len(out)-1]
		run.members = append(run.members, m)
		if m.id == g.best.id || m.score > run.best.score && run.best.id != g.best.id {
			run.best = m
		}
	}
	if len(out) == 1 {
		return []*group{g}
	}
	for _, run := range out { // the best cosine of its own members
		run.best.cos = nil
		for _, m := range run.members {
			if m.cos != nil && (run.best.cos == nil || *m.cos > *run.best.cos) {
				run.best.cos = m.cos
			}
		}
	}
	return out
}

// seam is where a later passage of a merged result starts: its first line
// in the note and its chunk index.
type seam struct{ line, chunk int }

// seams are the seams of each merged result, by its first passage.
type seams map[passageKey][]seam

type passageKey struct {
	collection, path string
	chunk            int
}

func keyOf(r mdsearch.Result) passageKey { return passageKey{r.Collection, r.Path, r.ChunkIndex} }

// cutAt ends the chunk range of a result cut after line end at the last
// passage any of whose text it still shows.
func (ss seams) cutAt(r *mdsearch.Result, end int) {
	r.ChunkEnd = 0
	for _, s := range ss[keyOf(*r)] {
		if s.line <= end {
			r.ChunkEnd = s.chunk
		}
	}
}

// groupResult builds the result of one group from its loaded rows. Members
// a concurrent re-index removed are left out.
func groupResult(g *group, rows map[int64]*store.ChunkRow) (mdsearch.Result, []seam, bool) {
	var res mdsearch.Result
	var texts []string
	var ss []seam
	for _, m := range g.members {
		r, ok := rows[m.id]
		if !ok {
			continue
		}
		if len(texts) == 0 {
			res = mdsearch.Result{
				Path: r.Path, Title: r.Title, Collection: r.Collection, Section: r.Section,
				SectionPath: r.SectionPath, ReadSection: r.ReadSection, ChunkIndex: r.ChunkIndex, TotalChunks: r.TotalChunks,
				PageWordCount: r.PageWordCount, StartLine: r.StartLine, Sections: r.Sections, ReadSections: r.ReadSections,
				Score: round4(g.best.score), Why: g.best.why,
			}
			if r.Parts > 1 {
				res.Part, res.Parts = r.Part, r.Parts
			}
		} else {
			res.ChunkEnd = r.ChunkIndex
			ss = append(ss, seam{r.StartLine, r.ChunkIndex})
			// The lines between two passages are blank: as many line
			// breaks as the note has, so a list split across them reads
			// as the note does.
			texts = append(texts, strings.Repeat("\n", max(1, r.StartLine-res.EndLine)))
		}
		res.EndLine = r.EndLine
		// A CRLF note's passage reads as any other's: '\n' alone ends its
		// lines, so results read alike in JSON, REST and MCP.
		texts = append(texts, strings.ReplaceAll(r.Text, "\r\n", "\n"))
	}
	if len(texts) == 0 {
		return res, nil, false
	}
	res.Text = strings.Join(texts, "")
	if res.SectionPath == nil {
		res.SectionPath = []string{}
	}
	if c := g.best.cos; c != nil {
		d := round4(1 - *c)
		res.Distance = &d
	}
	return res, ss, true
}

// dropCopies leaves out a result whose text a better one from another
// collection already shows: a folder indexed twice (a collection inside
// another, or a copy) would otherwise show each passage twice. A live
// copy takes the place of a stale one (its folder gone, its note edited),
// whose lines would not read what it shows.
//
// It keeps at most want results, and counts the copies left out before
// the last one it keeps.
func dropCopies(rs []mdsearch.Result, want int, stale func(mdsearch.Result) bool) ([]mdsearch.Result, int) {
	seen := make(map[string]int, len(rs)) // text → its place in out
	out, copies := rs[:0], 0
	for _, r := range rs {
		if i, ok := seen[r.Text]; ok && out[i].Collection != r.Collection {
			if len(out) < want {
				copies++
			}
			if stale != nil && stale(out[i]) && !stale(r) {
				out[i] = r
			}
			continue
		}
		if len(out) < want { // past it, only copies are read
			seen[r.Text] = len(out)
			out = append(out, r)
		}
	}
	return out, copies
}

// spansCollections reports whether q searches several collections, which
// may hold copies of a passage.
func (e *Engine) spansCollections(ctx context.Context, q *query) bool {
	if q.filter.CollectionID != 0 {
		return false
	}
	colls, err := e.st.Collections(ctx)
	return err == nil && len(colls) > 1
}

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
		frame += hintTokens(rs[i]) // cut, it says how to read the rest
		cut, lines := cutBlocks(rs[i].Text, left-frame, i == 0)
		if cut == "" {
			return rs[:i], len(rs) - i
		}
		r := &rs[i]
		in := cut
		if EstimateTokens(cut) > left-frame {
			in = cutWithin(cut, left-frame)
		}
		if len(in) < len(cut) {
			// The first block alone is over: cut inside it, and the rest
			// starts on the line of the cut (passages joined on one line
			// gained a line break: never past the end).
			last := min(r.StartLine+strings.Count(in, "\n"), r.EndLine)
			joins.cut(r, in, last, last, max(r.EndLine, ends[i]), "cut to fit the token budget")
		} else if end := r.StartLine + lines - 1; end < r.EndLine { // else one block, kept whole
			joins.cut(r, cut, end, end+1, max(r.EndLine, ends[i]), "cut to fit the token budget")
		}
		return rs[:i+1], len(rs) - i - 1
	}
	return rs, 0
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
		// Passages joined on one line gained a line break: never past the end.
		last := min(r.StartLine+strings.Count(r.Text[:end], "\n"), r.EndLine)
		joins.cut(r, r.Text[:end], last, min(last+next, r.EndLine), r.EndLine, fmt.Sprintf("cut at %d KB", maxResultBytes>>10))
	}
	return ends
}

// cut ends result r after line last with text, saying why and which
// lines, from..to, read the rest; a merged result's chunk range ends with
// it (cutAt).
func (ss seams) cut(r *mdsearch.Result, text string, last, from, to int, why string) {
	r.Text, r.Truncated = text, true
	r.ReadHint, r.RestFrom, r.RestTo = readHint(*r, why, from, to), from, to
	r.EndLine = last
	ss.cutAt(r, last)
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
	return n + whyTokens(r.Why)
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

// nameShared sets ReadPath on each result whose path another collection
// holds too, so that what a result shows reads the note in one call.
func nameShared(ctx context.Context, rd *store.Reader, res []mdsearch.Result) error {
	paths := make([]string, len(res))
	for i, r := range res {
		paths[i] = r.Path
	}
	shared, err := rd.SharedPaths(ctx, paths)
	if err != nil {
		return err
	}
	for i, r := range res {
		if shared[r.Path] {
			res[i].ReadPath = r.Collection + ":" + r.Path
		}
	}
	return nil
}

// nameColons gives a result whose path starts with a collection's name and
// a colon ("sample:x.md" in collection sample) its COLLECTION:PATH to read
// it by: the path alone would be read as that collection's "x.md".
func nameColons(res []mdsearch.Result, colls []store.Collection) {
	for i, r := range res {
		head, _, ok := strings.Cut(r.Path, ":")
		if !ok || r.ReadPath != "" || r.Collection == "" {
			continue
		}
		if slices.ContainsFunc(colls, func(c store.Collection) bool { return c.Name == head }) {
			res[i].ReadPath = r.Collection + ":" + r.Path
		}
	}
}

// readHint says why a result was cut and how to read the rest: lines from..to of
// its note, named COLLECTION:PATH (which names it even when another
// collection holds the same path). Lines read exactly what was left out,
// where a section would repeat what was shown, or, in a passage that
// merged several sections, miss some.
func readHint(r mdsearch.Result, why string, from, to int) string {
	note := r.Path
	if r.Collection != "" {
		note = r.Collection + ":" + r.Path
	}
	if strings.ContainsAny(note, " ,") && !strings.Contains(note, `"`) { // one argument, whole
		note = `"` + note + `"` // read strips them
	}
	more := plural.Count(to-from+1, "more line", "more lines")
	return fmt.Sprintf("%s, %s: read %s, lines %d-%d", why, more, note, from, to)
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
			if i < len(lines)-1 && (under >= 0 && wordcount.Count(kept[under:]) < stubWords || opens(last)) {
				continue // nor on a scrap of text under a heading, nor on one that opens what follows
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

// stubWords is the least text under a heading a cut may end with: fewer
// words are a scrap, as an HTML tag or a list label.
const stubWords = 4

// opens reports whether a block is a scrap that opens the text after it:
// an HTML tag (`<div class="composition-api">`) or a label ending in a
// colon ("For example:", "**Note:**").
func opens(block string) bool {
	t := strings.TrimSpace(block)
	return wordcount.Count(t) < stubWords && (strings.HasPrefix(t, "<") && !strings.HasPrefix(t, "</") || strings.HasSuffix(strings.TrimRight(t, "*_"), ":"))
}

// endsWithHeading reports whether text's last block is a heading: an ATX
// line ("## Title") or a setext one (a line, then "===" or "---").
func endsWithHeading(text string) bool {
	lines := strings.Split(text, "\n")
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
