package engine

import (
	"context"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/rescore"
	"github.com/mdsearch/mdsearch/store"
	"github.com/mdsearch/mdsearch/vault"
)

// secondK is how many of the first stage's candidates the second stage
// scores: the labelled section is among them for nearly every dev query
// (docs/evaluation.md), and each costs a few lookups.
const secondK = 50

// Observed is one candidate as the second stage saw it, for fitting the
// model (Options.Observe).
type Observed struct {
	Path        string
	SectionPath []string
	Sections    [][]string
	Section     int64   // its sections row: passages of one section share it
	First       float64 // the first stage's score
	Features    rescore.Vector
}

// rescore reorders the first secondK of cands (the first stage's order)
// by the model's probability that each answers the query, which becomes
// its score. Those below them keep their order, scored no higher.
func (e *Engine) rescore(ctx context.Context, rd *store.Reader, q *query, cands []candidate) ([]candidate, error) {
	stage := e.stage(q.mode)
	if !e.readsFeatures(q) || len(cands) == 0 {
		return cands, nil
	}
	cands, top := q.stageRead(cands)
	xs, copyOf, ok := q.seen.get(top)
	if !ok {
		var err error
		if xs, copyOf, err = e.features(ctx, rd, q, top); err != nil {
			return nil, err
		}
		q.seen.put(top, xs, copyOf)
		if e.opts.Observe != nil {
			if err := e.observe(ctx, rd, q, top, xs); err != nil {
				return nil, err
			}
		}
	}
	var logits, probs []float64
	var cal [][rescore.NumCalib]float64
	if stage != nil {
		logits, probs, cal = scoreDistinct(stage, xs, sectionsOf(top), copyOf, q.req.Explain)
	}
	if q.req.Explain { // before the scores below replace the first stage's
		whys(q, e.opts.Fusion, cands, top, xs, stage, cal, probs)
	}
	if stage == nil {
		return cands, nil
	}
	// Ranks are stable: equal logits keep the first stage's order.
	sorted := make([]candidate, len(top))
	low := 1.0
	for i, r := range rescore.Ranks(logits) {
		sorted[r-1] = top[i]
		sorted[r-1].score = probs[i]
		low = min(low, probs[i])
	}
	copy(top, sorted)
	for i := len(top); i < len(cands); i++ {
		cands[i].score = min(cands[i].score, low)
	}
	return cands, nil
}

// observe hands the candidates and their features to Options.Observe.
func (e *Engine) observe(ctx context.Context, rd *store.Reader, q *query, top []candidate, xs []rescore.Vector) error {
	ids := make([]int64, len(top))
	for i, c := range top {
		ids[i] = c.id
	}
	rows, err := rd.Chunks(ctx, ids)
	if err != nil {
		return err
	}
	var out []Observed
	for i, c := range top {
		if r, ok := rows[c.id]; ok {
			out = append(out, Observed{Path: r.Path, SectionPath: r.SectionPath, Sections: r.Sections, Section: c.section, First: c.score, Features: xs[i]})
		}
	}
	e.opts.Observe(q.req.Query, out)
	return nil
}

// features computes the second stage's features of top, in the first
// stage's order (see package rescore for what each means), and which of
// them are copies of another (copiesOf).
func (e *Engine) features(ctx context.Context, rd *store.Reader, q *query, top []candidate) ([]rescore.Vector, []int, error) {
	xs := make([]rescore.Vector, len(top))
	ids := make([]int64, len(top))
	for i, c := range top {
		ids[i] = c.id
	}
	var cosines sync.WaitGroup
	if q.snap != nil { // from memory, while SQLite reads the passages
		cosines.Go(func() { e.semanticFeatures(q, top, xs) })
	}
	copyOf, err := e.readFeatures(ctx, rd, q, top, ids, xs)
	cosines.Wait()
	if err != nil {
		return nil, nil, err
	}
	listFeatures(top, xs)
	// A query of common words, or of no word the keyword index reads
	// ("?", "->"), asks for nothing a passage's words could answer.
	if q.nothing || len(q.terms) == 0 {
		for i := range xs {
			xs[i][rescore.CommonOnly] = 1
		}
	}
	if rescore.IsQuestion(withoutContractions(q.req.Query)) { // "what's" opens a question
		for i := range xs {
			xs[i][rescore.Question] = 1
			xs[i][rescore.QHeading] = xs[i][rescore.CoverHeading]
			xs[i][rescore.QText] = xs[i][rescore.CoverText]
		}
	}
	relative(xs, rescore.FirstScore, rescore.FirstRel)
	relative(xs, rescore.KW, rescore.KWRel)
	relative(xs, rescore.CoverAll, rescore.CoverAllRel)
	relative(xs, rescore.CoverHeading, rescore.CoverHeadRel)
	for i := range xs { // the best of text and heading windows
		xs[i][rescore.CosRel] = max(xs[i][rescore.Cos], xs[i][rescore.CosHead])
	}
	relative(xs, rescore.CosRel, rescore.CosRel)
	return xs, copyOf, nil
}

// readFeatures are the features read from the index: the candidates'
// passages, read once, then their keyword and passage features, and which
// candidates are copies of another.
func (e *Engine) readFeatures(ctx context.Context, rd *store.Reader, q *query, top []candidate, ids []int64, xs []rescore.Vector) ([]int, error) {
	ps, err := rd.Passages(ctx, ids)
	if err != nil {
		return nil, err
	}
	if err := e.keywordFeatures(ctx, rd, q, ids, ps, xs); err != nil {
		return nil, err
	}
	return copiesOf(top, ps), e.passageFeatures(ctx, rd, q, ids, ps, xs)
}

// copiesOf is, for each candidate, the place in top of an earlier one of
// another note whose passage it repeats word for word, under the same
// heading, tags and note title (a folder indexed in two collections, a
// note copied under its title, a sync tool's conflict copy), or -1. The
// title column is not compared, as a copy's file name is another; the
// note's title is, so a template section two notes share ("Summary")
// stays two answers, the query naming one of them.
func copiesOf(top []candidate, ps map[int64]store.Passage) []int {
	out := make([]int, len(top))
	first := make(map[[4]string]int, len(top))
	for i, c := range top {
		out[i] = -1
		p, ok := ps[c.id]
		if !ok {
			continue
		}
		key := [4]string{p.Keywords[0], p.Keywords[1], p.Keywords[3], copiedTitle(p.Title)}
		if j, ok := first[key]; ok && top[j].doc != c.doc {
			out[i] = j
			continue
		}
		first[key] = i
	}
	return out
}

// copiedTitle is a note's title as its original's: a conflict copy's
// title taken from its file name ("recipe.sync-conflict-20240102-…") is
// the original's ("recipe").
func copiedTitle(title string) string {
	name := title // lower case: Syncthing's device part is upper case in a file's name
	if i := strings.LastIndexByte(name, '-'); i >= 0 {
		name = name[:i] + strings.ToUpper(name[i:])
	}
	if orig, ok := vault.ConflictOriginal(name + ".md"); ok {
		return strings.TrimSuffix(orig, ".md")
	}
	return title
}

// scoreDistinct scores xs as stage.Score does with only one of each set
// of copies (copyOf), the one the ranker puts highest, then gives every
// copy that one's logit, probability and calibrator inputs (these only
// when explain): a passage found twice is one answer, not its own close
// rival, whose tie would take most of its score. Copies tie, so they rank
// side by side (in the first stage's order), and scores fall with rank.
func scoreDistinct(stage *rescore.Stage, xs []rescore.Vector, section []int64, copyOf []int, explain bool) ([]float64, []float64, [][rescore.NumCalib]float64) {
	calib := func(xs []rescore.Vector, section []int64, l []float64) [][rescore.NumCalib]float64 {
		if !explain {
			return nil
		}
		return rescore.CalInputs(stage.Ranker, xs, l, section)
	}
	if !slices.ContainsFunc(copyOf, func(c int) bool { return c >= 0 }) { // most searches: no copy
		l, p := stage.Score(xs, section)
		return l, p, calib(xs, section, l)
	}
	rep := make([]int, len(xs)) // by a set's first: the copy the ranker puts highest
	best := map[int]float64{}   // the set's best logit so far, by its first
	for i, c := range copyOf {
		first := i
		if c >= 0 {
			first = c
		}
		if l := stage.Ranker.Logit(xs[i][:]); c < 0 || l > best[first] {
			best[first], rep[first] = l, i
		}
	}
	keep := make([]int, 0, len(xs)) // xs's place of each one scored
	at := make([]int, len(xs))      // each scored one's place in keep
	for i, c := range copyOf {
		if c < 0 {
			at[rep[i]] = len(keep)
			keep = append(keep, rep[i])
		}
	}
	sub, subSection := make([]rescore.Vector, len(keep)), make([]int64, len(keep))
	for k, i := range keep {
		sub[k], subSection[k] = xs[i], section[i]
	}
	l, p := stage.Score(sub, subSection)
	c := calib(sub, subSection, l)
	logits, probs := make([]float64, len(xs)), make([]float64, len(xs))
	var cal [][rescore.NumCalib]float64
	if explain {
		cal = make([][rescore.NumCalib]float64, len(xs))
	}
	for i, c0 := range copyOf {
		first := i
		if c0 >= 0 {
			first = c0
		}
		k := at[rep[first]]
		logits[i], probs[i] = l[k], p[k]
		if explain {
			cal[i] = c[k]
		}
	}
	return logits, probs, cal
}

// sectionsOf are the sections of cands: passages of one section are one
// answer, so none is the best's rival (rescore.CalInputs). A part 1 that
// took in a short section before it keeps that section's id, as results
// read it: its part 2 answers only the long section, so each may be
// right where the other is not (docs/evaluation.md, "A section is one
// answer").
func sectionsOf(cands []candidate) []int64 {
	out := make([]int64, len(cands))
	for i, c := range cands {
		out[i] = c.section
	}
	return out
}

// relative sets feature to of every vector to its feature from minus the
// best value of from among them.
func relative(xs []rescore.Vector, from, to int) {
	best := math.Inf(-1)
	for i := range xs {
		best = max(best, xs[i][from])
	}
	for i := range xs {
		xs[i][to] = xs[i][from] - best
	}
}

// listFeatures are those of the first stage's lists and of the page.
func listFeatures(top []candidate, xs []rescore.Vector) {
	inTop := map[int64]int{}
	for _, c := range top[:min(10, len(top))] {
		inTop[c.doc]++
	}
	for i, c := range top {
		x := &xs[i]
		x[rescore.FirstScore] = c.score
		x[rescore.KW] = math.Log1p(c.bm25)
		x[rescore.KWRank] = rankFeature(c.kwRank)
		x[rescore.SemRank] = rankFeature(c.semRank)
		if c.kwRank > 0 && c.semRank > 0 {
			x[rescore.Both] = 1
		}
		x[rescore.PageTop] = float64(inTop[c.doc])
		for j, o := range top {
			if j != i && o.doc == c.doc {
				x[rescore.PageOther] = max(x[rescore.PageOther], o.score)
			}
		}
	}
}

// rankFeature is 1/log2(1 + rank) for a 1-based rank, 0 for none.
func rankFeature(rank int) float64 {
	if rank <= 0 {
		return 0
	}
	return 1 / math.Log2(1+float64(rank))
}

// keywordFeatures scores each query term, and each pair of adjacent terms
// as a phrase and within a few words, on the candidates' fields.
func (e *Engine) keywordFeatures(ctx context.Context, rd *store.Reader, q *query, ids []int64, ps map[int64]store.Passage, xs []rescore.Vector) error {
	if len(q.terms) == 0 {
		return nil
	}
	if q.rowsErr != nil {
		return q.rowsErr
	}
	counts, err := q.termRows(ctx, rd)
	if err != nil {
		return err
	}
	found, err := q.found(ctx, rd)
	if err != nil {
		return err
	}
	weights := make([]float64, len(q.terms))
	var all, held float64
	for i, n := range counts {
		weights[i] = q.termWeight(i, n)
		all += weights[i]
		if found[i] {
			held += weights[i]
		}
	}
	exprs := append([]string(nil), q.terms...)
	pairs := adjacentPairs(q.terms)
	for _, p := range pairs {
		exprs = append(exprs, p[0]+" + "+p[1], "NEAR("+p[0]+" "+p[1]+", 8)")
	}
	m, err := store.MatchPassages(ctx, exprs, ps)
	if err != nil {
		return err
	}

	for k, id := range ids {
		x := &xs[k]
		x[rescore.QueryCover] = held / all
		x[rescore.QueryTerms] = math.Log1p(float64(len(q.terms)))
		var bm [4]float64
		var text, head, title, any float64
		for i := range q.terms {
			f, ok := m[i][id]
			if !ok {
				continue
			}
			if q.req.Explain {
				q.noteFields(id, i, f)
			}
			for c := range bm {
				bm[c] += f[c]
			}
			text += weights[i] * b2f(f[0] > 0)
			head += weights[i] * b2f(f[1] > 0)
			title += weights[i] * b2f(f[2] > 0)
			any += weights[i]
		}
		x[rescore.BM25Text], x[rescore.BM25Heading] = math.Log1p(bm[0]), math.Log1p(bm[1])
		x[rescore.BM25Title], x[rescore.BM25Tags] = math.Log1p(bm[2]), math.Log1p(bm[3])
		x[rescore.CoverText], x[rescore.CoverHeading] = text/all, head/all
		x[rescore.CoverTitle], x[rescore.CoverAll] = title/all, any/all
		if len(pairs) > 0 {
			var phrase, near float64
			for j := range pairs {
				_, p := m[len(q.terms)+2*j][id]
				_, n := m[len(q.terms)+2*j+1][id]
				phrase += b2f(p)
				near += b2f(n)
			}
			x[rescore.PairPhrase] = phrase / float64(len(pairs))
			x[rescore.PairNear] = near / float64(len(pairs))
		}
	}
	if q.req.Explain {
		return q.noteProperties(ctx, ps)
	}
	return nil
}

// adjacentPairs are the query's neighbouring terms, left out where either
// is a prefix query (which a phrase cannot hold).
func adjacentPairs(terms []string) [][2]string {
	var out [][2]string
	for i := 0; i+1 < len(terms); i++ {
		if !strings.HasSuffix(terms[i], "*") && !strings.HasSuffix(terms[i+1], "*") {
			out = append(out, [2]string{terms[i], terms[i+1]})
		}
	}
	return out
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// passageFeatures are the passage's length, depth, how common its
// heading is and how much of the heading the query names.
func (e *Engine) passageFeatures(ctx context.Context, rd *store.Reader, q *query, ids []int64, ps map[int64]store.Passage, xs []rescore.Vector) error {
	var err error
	if q.heads == nil {
		if q.heads, err = e.headingNotes(ctx, rd); err != nil {
			return err
		}
	}
	heads := q.heads
	h := sectionHeadings(q.req.Query, ids, ps)
	in, titled, err := headingWords(ctx, h)
	if err != nil {
		return err
	}
	phrase := headingPhrases(h)
	quotedOverTitle(h, phrase, titled)
	for i, id := range ids {
		p := ps[id]
		xs[i][rescore.HeadPhrase] = phrase[i]
		xs[i][rescore.Words] = math.Log1p(float64(p.Words))
		xs[i][rescore.Depth] = float64(p.Level)
		xs[i][rescore.Boiler] = math.Log(float64(max(1, heads[p.Heading])))
		xs[i][rescore.HeadIn] = in[i]
		xs[i][rescore.HeadAll] = b2f(in[i] == 1)
		xs[i][rescore.TitleOnly] = titled[i]
	}
	return nil
}

// semanticFeatures are the candidates' window cosines: the best and
// second-best text window, and the heading window (unweighted).
func (e *Engine) semanticFeatures(q *query, top []candidate, xs []rescore.Vector) {
	qv := quantizeQuery(q.vec)
	s := q.snap
	best := math.Inf(-1)
	for i, c := range top {
		x := &xs[i]
		first, ok := s.firstRow(c.id)
		if !ok {
			continue
		}
		var b1, b2 float64 = -1, -1
		for r := int(first); r < len(s.ids) && s.ids[r] == c.id; r++ {
			cos := float64(float32(dotRow(qv, s, r)) * qv.scale * s.scales[r])
			if s.heads != nil && s.heads[r] {
				x[rescore.CosHead] = cos / e.opts.Fusion.HeadingCos
				continue
			}
			if cos > b1 {
				b1, b2 = cos, b1
			} else if cos > b2 {
				b2 = cos
			}
		}
		if b1 > -1 {
			x[rescore.Cos] = b1
			x[rescore.Cos2] = b1
			if b2 > -1 {
				x[rescore.Cos2] = b2
			}
		}
		best = max(best, x[rescore.Cos], x[rescore.CosHead])
	}
	for i := range xs {
		xs[i][rescore.QueryCos] = best
	}
}

// readsFeatures reports whether a search computes the second stage's
// features: to score with them, to hand them to Options.Observe (the
// fit's samples), or to explain.
func (e *Engine) readsFeatures(q *query) bool {
	return e.stage(q.mode) != nil || e.opts.Observe != nil || q.req.Explain
}

// stage is the second stage that rescores searches of mode with this
// engine's embedder, or nil.
func (e *Engine) stage(mode mdsearch.Mode) *rescore.Stage {
	var embedder string
	if e.emb != nil {
		embedder = e.emb.ModelID()
	}
	return e.model.For(string(mode), embedder)
}

// whileEmbedding reads, while the query is embedded, what the second
// stage will read later whatever the query's vector: a fresh process
// (a command-line search) waits tens of milliseconds for its model, and
// counting the index's headings takes several. Later searches find it
// remembered.
func (e *Engine) whileEmbedding(ctx context.Context, rd *store.Reader, q *query) error {
	if q.mode != mdsearch.ModeHybrid || e.stage(q.mode) == nil {
		return nil
	}
	var err error
	q.heads, err = e.headingNotes(ctx, rd)
	return err
}

// headingNotes are store.HeadingNotes as of one generation of the index.
type headingNotes struct {
	gen   int64
	notes map[string]int
}

// headingNotes returns how many notes share each heading text, counted
// again after the index changed.
func (e *Engine) headingNotes(ctx context.Context, rd *store.Reader) (map[string]int, error) {
	gen, err := rd.Generation(ctx)
	if err != nil {
		return nil, err
	}
	if h := e.headings.Load(); h != nil && h.gen == gen {
		return h.notes, nil
	}
	notes, err := rd.HeadingNotes(ctx)
	if err != nil {
		return nil, err
	}
	e.headings.Store(&headingNotes{gen: gen, notes: notes})
	return notes, nil
}

// stageMemo keeps a query's last candidates and their features: when a
// search ranks again, deeper (distinct drops copies, rank reads on while
// long notes crowd out others), its first stage's best 50 are most often
// the same, and their features need not be computed again.
type stageMemo struct {
	keys   []candKey
	xs     []rescore.Vector
	copyOf []int
}

type candKey struct {
	id     int64
	score  float64
	kwRank int // a phrase's passage past the list read ranks by the depth read (withHolders)
}

// get returns the features and copies of top when they were the last put.
func (m *stageMemo) get(top []candidate) ([]rescore.Vector, []int, bool) {
	if len(m.keys) != len(top) {
		return nil, nil, false
	}
	for i, c := range top {
		if m.keys[i] != (candKey{c.id, c.score, c.kwRank}) {
			return nil, nil, false
		}
	}
	return m.xs, m.copyOf, true
}

func (m *stageMemo) put(top []candidate, xs []rescore.Vector, copyOf []int) {
	m.keys = m.keys[:0]
	for _, c := range top {
		m.keys = append(m.keys, candKey{c.id, c.score, c.kwRank})
	}
	m.xs, m.copyOf = xs, copyOf
}
