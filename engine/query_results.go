package engine

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
	"github.com/mdsearch/mdsearch/vault"
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
// taking a place of its own. Joins are made as for the default number of
// results and no further down, so a result holds the same passages
// whatever n asks: with n=1 the best passage's neighbour, ranked below
// another note's, was left out of it, and with n=20 a neighbour ranked
// 15th joined the first result that n=5 showed alone. Past the default
// number, a passage next to a kept one is not shown: its section is. With
// likely set (scores that are the second stage's probabilities), the cap
// gives way where it would show a passage of another note under likely
// ahead of a passage it left out that is at least likely: more of the
// note that answers, rather than another note's passage shown for the
// cap's sake (likelyAnswer). Such a passage keeps the place it was given,
// after other notes' likely ones, though it may score higher: ordered by
// score, it would push them down (page MRR fell on two dev sets), and a
// budget (MaxTokens) cuts it first.
func dedup(cands []candidate, n, maxPerPage int, cont continued, likely float64) []*group {
	d := &deduper{perDoc: map[int64]int{}, maxPerPage: maxPerPage, cont: cont, likely: likely, joining: true}
	rest := d.fill(cands, mdsearch.DefaultN)
	if n > mdsearch.DefaultN {
		d.joining = false
		d.fill(append(d.spill, rest...), n)
	}
	return d.out[:min(n, len(d.out))]
}

// deduper is dedup's state: the results kept so far, and the passages the
// cap left out that are at least likely, best first.
type deduper struct {
	out        []*group
	over       []candidate
	perDoc     map[int64]int
	maxPerPage int
	cont       continued
	likely     float64
	joining    bool        // whether a passage joins a kept neighbour, or is left out
	spill      []candidate // read for the first results, with no place left among them
}

// fill keeps results from cands until it holds want, and returns the
// candidates it did not read.
func (d *deduper) fill(cands []candidate, want int) []candidate {
	for i, c := range cands {
		joins := d.joining && joinable(d.out, c, d.cont) >= 0
		if len(d.out) >= want && !joins {
			return cands[i:]
		}
		if c.score < d.likely && d.perDoc[c.doc] < d.maxPerPage && !joins {
			for len(d.over) > 0 && len(d.out) < want {
				d.placeOver()
			}
		}
		d.admit(c, false, want) // after those: they may have made it a neighbour, or its note full
	}
	for len(d.out) < want && len(d.over) > 0 {
		d.placeOver()
	}
	return nil
}

// placeOver admits the best passage the cap left out, past the cap.
func (d *deduper) placeOver() {
	c := d.over[0]
	d.over = d.over[1:]
	d.admit(c, true, len(d.out)+1)
}

// admit joins c to a kept group or keeps it as a result of its own; a
// passage over the cap is left out (for later, if at least likely)
// unless pastCap.
func (d *deduper) admit(c candidate, pastCap bool, want int) {
	if !d.joining && (joinable(d.out, c, d.cont) >= 0 || nextToFull(d.out, c, d.cont)) {
		return // its section is shown
	}
	switch joined, freed := join(&d.out, c, d.cont); {
	case joined:
		d.perDoc[c.doc] -= freed // two of its results became one, or one was left out
	case d.perDoc[c.doc] >= d.maxPerPage && !pastCap:
		if d.likely > 0 && c.score >= d.likely {
			d.over = append(d.over, c)
		}
	case nextToFull(d.out, c, d.cont):
	case len(d.out) < want:
		d.perDoc[c.doc]++
		d.out = append(d.out, &group{best: c, members: []candidate{c}})
	case d.joining: // a passage placed past the cap took its place: the next results' first
		d.spill = append(d.spill, c)
	}
}

// likelyAnswer is dedup's line between a passage likely enough to answer
// to be shown past the per-note cap and one not worth a place the cap
// would give it: 7 %, chosen on the dev sets with each set left out in
// turn (docs/evaluation.md, "The per-note cap").
const likelyAnswer = 0.07

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
	if i := joinable(*gs, c, cont); i >= 0 {
		g := (*gs)[i]
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

// joinable is the index of the kept group c would join (join), or -1.
func joinable(gs []*group, c candidate, cont continued) int {
	for i, g := range gs {
		if len(g.members) < maxMerged && g.adjacent(c, cont) {
			return i
		}
	}
	return -1
}

// results loads the kept passages; a group's become one result (one a
// run, when cutRuns: the passages are chunks.Split's, whose parts say
// where a big comment lies between two). A run is a result of its note like
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
	allowed := map[noteKey]int{} // the results dedup gave each note: more than perNote where the cap gave way
	for _, g := range kept {
		runs := []*group{g}
		if cutRuns {
			runs = g.runs(rows)
		}
		cut = cut || len(runs) > 1
		for i, run := range runs {
			if res, ss, ok := groupResult(run, rows); ok {
				out = append(out, res)
				if len(ss) > 0 {
					joins[keyOf(res)] = ss
				}
				if i == 0 {
					allowed[noteKey{res.Collection, res.Path}]++
				}
			}
		}
	}
	if cut { // a run cut off ranks by its own score
		slices.SortStableFunc(out, func(a, b mdsearch.Result) int { return cmp.Compare(b.Score, a.Score) })
	}
	return capNotes(out, perNote, allowed), joins, stamps, nil
}

// capNotes keeps the first perNote results of each note, or as many as
// allowed gives it where that is more.
func capNotes(rs []mdsearch.Result, perNote int, allowed map[noteKey]int) []mdsearch.Result {
	count := make(map[noteKey]int, len(rs))
	out := rs[:0]
	for _, r := range rs {
		k := noteKey{r.Collection, r.Path}
		if count[k] < max(perNote, allowed[k]) {
			count[k]++
			out = append(out, r)
		}
	}
	return out
}

// runs cuts g where a member starts its section's text again after a
// big comment (the first part of a unit of chunks.Split, which only a
// comment over chunks.BigComment lines puts right after another passage of
// its section): only blank lines may
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

// A seam is where a merged result's next passage starts: its first line
// in the note, its chunk, and its offset in the result's text.
type seam struct{ line, chunk, at int }

// seams are the seams of each merged result, by its first passage.
type seams map[passageKey][]seam

type passageKey struct {
	collection, path string
	chunk            int
}

func keyOf(r mdsearch.Result) passageKey { return passageKey{r.Collection, r.Path, r.ChunkIndex} }

// lineAt is the note's line that holds offset off of r's text: counted
// from the passage that holds it, as passages joined on one line gained a
// line break between them.
func (ss seams) lineAt(r mdsearch.Result, off int) int {
	line, from := r.StartLine, 0
	for _, s := range ss[keyOf(r)] {
		if s.at > off || s.at > len(r.Text) {
			break
		}
		line, from = s.line, s.at
	}
	return min(line+strings.Count(r.Text[from:off], "\n"), r.EndLine)
}

// shift moves r's seams after offset off by delta bytes, for a text
// changed before them.
func (ss seams) shift(r mdsearch.Result, off, delta int) {
	for i, s := range ss[keyOf(r)] {
		if s.at > off {
			ss[keyOf(r)][i].at += delta
		}
	}
}

// cutAt ends the chunk range of a result cut short at the last
// passage any of whose text it still shows.
func (ss seams) cutAt(r *mdsearch.Result) {
	end := 0
	for _, s := range ss[keyOf(*r)] {
		if s.at < len(r.Text) { // some of that passage's text is still shown
			end = s.chunk
		}
	}
	r.SetChunkEnd(end)
}

// groupResult builds the result of one group from its loaded rows. Members
// a concurrent re-index removed are left out.
func groupResult(g *group, rows map[int64]*store.ChunkRow) (mdsearch.Result, []seam, bool) {
	var res mdsearch.Result
	var texts []string
	var ss []seam
	size := 0 // of texts joined
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
			res.SetChunkEnd(r.ChunkIndex)
			// The lines between two passages are blank: as many line
			// breaks as the note has, so a list split across them reads
			// as the note does.
			texts = append(texts, strings.Repeat("\n", max(1, r.StartLine-res.EndLine)))
			size += len(texts[len(texts)-1])
			ss = append(ss, seam{r.StartLine, r.ChunkIndex, size})
		}
		res.EndLine = r.EndLine
		// A CRLF note's passage reads as any other's: '\n' alone ends its
		// lines, so results read alike in JSON, REST and MCP.
		texts = append(texts, strings.ReplaceAll(r.Text, "\r\n", "\n"))
		size += len(texts[len(texts)-1])
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

// dropCopies leaves out a result whose text a better one already shows
// from another collection (a folder indexed twice: a collection inside
// another, or a copy), or from a note of its family: the note and the
// sync tool's conflict copies of it (vault.ConflictOriginal). Each passage
// would show twice. A live copy takes the place of a stale one (its
// folder gone, its note edited), whose lines would not read what it
// shows, and an original that scores as high the place of its conflict
// copy (one named by the query scores higher, and keeps its place).
//
// It keeps at most want results, and counts the copies left out before
// the last one it keeps.
func dropCopies(rs []mdsearch.Result, want int, stale func(mdsearch.Result) bool) ([]mdsearch.Result, copiesLeft) {
	seen := make(map[string][]int, len(rs)) // text → its places in out
	out := rs[:0]
	var fams []string     // each kept result's family, read once: made at the first text that repeats
	type counted struct { // a copy counted: its twin's place in out, its kind
		at   int
		kind copyKind
	}
	var copies []counted
	for _, r := range rs {
		fam := ""
		if len(seen[r.Text]) > 0 { // a family is read only where a text repeats
			fam = family(r.Path)
			if fams == nil {
				fams = make([]string, len(out), want)
			}
		}
		i, kind := copyIn(out, fams, seen[r.Text], r, fam)
		if kind != copyNone && len(out) < want {
			copies = append(copies, counted{i, kind})
		}
		switch kind {
		case copyCollection:
			if stale != nil && stale(out[i]) && !stale(r) {
				out[i], fams[i] = r, family(r.Path)
			}
			continue
		case copyConflict:
			if fam == r.Path && r.Score >= out[i].Score { // r is the original, of one family
				out[i] = r
			}
			continue
		}
		if len(out) < want { // past it, only copies are read
			seen[r.Text] = append(seen[r.Text], len(out))
			out = append(out, r)
			if fams != nil {
				fams = append(fams, fam)
			}
		}
	}
	left := copiesLeft{}
	for _, c := range copies { // the twins as kept: a live copy or an original may have taken a place
		left.twins = append(left.twins, copyTwin{of: keyOf(out[c.at]), conflict: c.kind == copyConflict})
	}
	return out, left
}

// copyKind is the kind of copy copyIn finds.
type copyKind int

const (
	copyNone copyKind = iota
	copyCollection
	copyConflict
)

// copyIn is the place among out's results at places (those of r's text)
// of one that r copies, and what kind of copy r is of it. fams are the
// families of out's results, fam r's; a family not yet read ("") is read
// into fams.
func copyIn(out []mdsearch.Result, fams []string, places []int, r mdsearch.Result, fam string) (int, copyKind) {
	for _, i := range places {
		if out[i].Collection != r.Collection {
			return i, copyCollection
		}
		if fams[i] == "" {
			fams[i] = family(out[i].Path)
		}
		if out[i].Path != r.Path && fams[i] == fam {
			return i, copyConflict
		}
	}
	return 0, copyNone
}

// copiesLeft are the copies of passages a search left out.
type copiesLeft struct {
	twins []copyTwin
}

// copyTwin is a copy left out: the result kept that it repeats, and
// whether it is a sync conflict copy's (else another collection's).
type copyTwin struct {
	of       passageKey
	conflict bool
}

func (c copiesLeft) n() int { return len(c.twins) }

// conflicts counts the copies from a note's family (a sync conflict copy).
func (c copiesLeft) conflicts() int {
	n := 0
	for _, t := range c.twins {
		if t.conflict {
			n++
		}
	}
	return n
}

// among is c without the copies of results not in res: a reranker that
// reorders more results than it returns shows only some of those kept.
func (c copiesLeft) among(res []mdsearch.Result) copiesLeft {
	shown := make(map[passageKey]bool, len(res))
	for _, r := range res {
		shown[keyOf(r)] = true
	}
	var out copiesLeft
	for _, t := range c.twins {
		if shown[t.of] {
			out.twins = append(out.twins, t)
		}
	}
	return out
}

// notice says what copies a search left out, or "".
func (c copiesLeft) notice() string {
	conflicts := c.conflicts()
	switch {
	case c.n() == 0:
		return ""
	case conflicts == 0:
		return nResults(c.n()) + " left out: the same passage, found in another collection too"
	case conflicts == c.n():
		return nResults(c.n()) + " left out: the same passage, found in a note and its sync conflict copy too"
	}
	return nResults(c.n()) + " left out: the same passage, found in another collection or in a note's sync conflict copy too"
}

// family is the path of the note p is a sync conflict copy of, or p.
func family(p string) string {
	if o, ok := vault.ConflictOriginal(p); ok {
		return o
	}
	return p
}
