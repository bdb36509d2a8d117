package engine

import (
	"context"
	"math"
	"sort"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// Fusion sets how scores are made (see the package doc). Each part maps a
// raw signal onto 0–1 with constants, not with the query's own best hit, so
// a score means the same for every query.
type Fusion struct {
	// Keyword is the weight of the keyword score in hybrid search; the
	// semantic score gets 1 − Keyword.
	Keyword float64
	// BM25Half is the bm25 magnitude that scores 0.5: keyword score =
	// s / (s + BM25Half).
	BM25Half float64
	// CosFloor and CosCeil are the cosines that score 0 and 1: semantic
	// score = (cos − CosFloor) / (CosCeil − CosFloor), clamped.
	CosFloor, CosCeil float64
	// HeadingCos scales the cosine of a passage's heading window (its
	// heading path alone) before it competes with the text windows.
	HeadingCos float64
	// KeywordOnlyHalf is the per-term bm25 magnitude that scores 0.5 when
	// keywords alone score (keyword mode, or no vectors): score = t / (t +
	// KeywordOnlyHalf), t = s × cover / √terms. A long question matches
	// some words of almost any note, so bm25 alone grows with the query's
	// length; dividing by √terms keeps an off-topic question below 0.5.
	// cover is the share of the query's idf that the index holds at all
	// (see coverage): a query whose rarest word is in no note ("capital of
	// Mongolia" in a vault that mentions only "capitalize") is not a
	// strong match however well its other words do. Both are the same for
	// every result of a query, so they change no ranking.
	KeywordOnlyHalf float64
}

// DefaultFusion was chosen on the dev query sets (docs/evaluation.md).
var DefaultFusion = Fusion{Keyword: 0.6, BM25Half: 8, CosFloor: 0.2, CosCeil: 0.8, HeadingCos: 0.9, KeywordOnlyHalf: 4}

func (f Fusion) withDefaults() Fusion {
	d := DefaultFusion
	if f.Keyword <= 0 || f.Keyword > 1 {
		f.Keyword = d.Keyword
	}
	if f.BM25Half <= 0 {
		f.BM25Half = d.BM25Half
	}
	if f.KeywordOnlyHalf <= 0 {
		f.KeywordOnlyHalf = d.KeywordOnlyHalf
	}
	if f.HeadingCos <= 0 || f.HeadingCos > 1 {
		f.HeadingCos = d.HeadingCos
	}
	if f.CosCeil <= f.CosFloor || f.CosCeil == 0 {
		f.CosFloor, f.CosCeil = d.CosFloor, d.CosCeil
	}
	return f
}

// keyword maps a bm25 magnitude onto 0–1.
func (f Fusion) keyword(s float64) float64 { return s / (s + f.BM25Half) }

// keywordOnly maps a bm25 magnitude onto 0–1 when no semantic score joins
// it; scale is the query's cover / √terms (see KeywordOnlyHalf).
func (f Fusion) keywordOnly(s, scale float64) float64 {
	t := s * scale
	return t / (t + f.KeywordOnlyHalf)
}

// keywordScale is cover / √terms for a query of terms keyword terms.
func keywordScale(cover float64, terms int) float64 {
	return cover / math.Sqrt(float64(max(1, terms)))
}

// semantic maps a cosine onto 0–1.
func (f Fusion) semantic(cos float64) float64 {
	return clamp01((cos - f.CosFloor) / (f.CosCeil - f.CosFloor))
}

// candidate is one passage on its way to a result.
type candidate struct {
	id      int64
	doc     int64
	section int64    // the chunk's section: neighbours of one section merge
	index   int      // chunk index within the note
	bm25    float64  // bm25 magnitude; 0 when the keyword list did not find it
	cos     *float64 // best window's cosine, when vectors were used
	score   float64  // for ranking and display, 0–1
	// kwRank and semRank are its 1-based places in the keyword and
	// semantic lists; 0 where a list did not find it.
	kwRank, semRank int
	why             *mdsearch.Why // what its place rests on, when the search asks (explain)
}

// fuse ranks the keyword and semantic lists into one list of passages.
// sem holds windows; a passage takes its best window's cosine.
// kwScale is keywordScale's for the query, bm25Scale rowScale's for the
// index.
func (e *Engine) fuse(mode mdsearch.Mode, kw []store.KeywordHit, sem []hit, snap *snapshot, q []float32, kwScale, bm25Scale float64) []candidate {
	f := e.opts.Fusion
	byID := map[int64]*candidate{}
	var out []*candidate
	get := func(id, doc, section int64, index int) *candidate {
		c, ok := byID[id]
		if !ok {
			c = &candidate{id: id, doc: doc, section: section, index: index}
			byID[id] = c
			out = append(out, c)
		}
		return c
	}
	for _, h := range sem {
		c := get(snap.ids[h.row], snap.docs[h.row], snap.secs[h.row], int(snap.index[h.row]))
		if c.cos == nil { // windows come best first
			cos := float64(h.cos)
			c.cos = &cos
			c.semRank = len(out)
		}
	}
	var qv queryVec // quantised once, for the keyword hits the scan did not reach
	if snap != nil && mode == mdsearch.ModeHybrid {
		qv = quantizeQuery(q)
	}
	for i, h := range kw {
		c := get(h.ChunkID, h.DocID, h.Section, h.Index)
		c.kwRank = i + 1
		c.bm25 = math.Abs(h.BM25) * bm25Scale
		if c.cos == nil && snap != nil && mode == mdsearch.ModeHybrid {
			if cos, ok := snap.chunkCosine(qv, h.ChunkID); ok {
				c.cos = &cos
			}
		}
	}
	for _, c := range out {
		switch {
		case mode == mdsearch.ModeKeyword || (mode == mdsearch.ModeHybrid && snap == nil):
			c.score = f.keywordOnly(c.bm25, kwScale)
		case mode == mdsearch.ModeSemantic:
			c.score = f.semantic(cosOf(c))
		default:
			c.score = f.Keyword*f.keyword(c.bm25) + (1-f.Keyword)*f.semantic(cosOf(c))
		}
	}
	res := make([]candidate, len(out))
	for i, c := range out {
		res[i] = *c
	}
	sort.SliceStable(res, func(i, j int) bool {
		if res[i].score != res[j].score {
			return res[i].score > res[j].score
		}
		// Clamped scores tie below the cosine floor and above the ceiling:
		// the raw signals still order them.
		if ci, cj := cosOf(&res[i]), cosOf(&res[j]); ci != cj && mode != mdsearch.ModeKeyword {
			return ci > cj
		}
		if res[i].bm25 != res[j].bm25 {
			return res[i].bm25 > res[j].bm25
		}
		return res[i].id < res[j].id
	})
	return res
}

func cosOf(c *candidate) float64 {
	if c.cos == nil {
		return 0
	}
	return *c.cos
}

// coverage is the share of the query terms' idf, as bm25 weighs them, that
// belongs to terms some passage this search can return holds (found): 1
// when every term is found, and low when the rarest words are in no note
// searched. Counts stop at maxTermRows.
func coverage(ctx context.Context, rd *store.Reader, q *query) (float64, error) {
	if q.rowsErr != nil {
		return 1, q.rowsErr
	}
	if q.rows == 0 {
		return 1, nil
	}
	counts, err := q.termRows(ctx, rd)
	if err != nil {
		return 1, err
	}
	held, err := q.found(ctx, rd)
	if err != nil {
		return 1, err
	}
	var found, all float64
	for i, n := range counts {
		w := q.termWeight(i, n)
		all += w
		if held[i] {
			found += w
		}
	}
	return found / all, nil
}

// found reports, for each query term, whether a passage this search can
// return holds it. bm25's idf is the whole index's, but a word that only
// notes the filter leaves out hold (another collection, an excluded note,
// a path outside the prefix) is in no passage the search can return:
// "as if the vault did not hold them". Read once.
func (q *query) found(ctx context.Context, rd *store.Reader) ([]bool, error) {
	if q.held != nil {
		return q.held, nil
	}
	counts, err := q.termRows(ctx, rd)
	if err != nil {
		return nil, err
	}
	held := make([]bool, len(counts))
	var ask []string // the terms the index holds, asked of the scope
	for i, n := range counts {
		held[i] = n > 0
		if held[i] {
			ask = append(ask, q.terms[i])
		}
	}
	if !q.filter.IsZero() && len(ask) > 0 {
		in, err := rd.TermsInScope(ctx, ask, q.filter)
		if err != nil {
			return nil, err
		}
		for i := range held {
			if held[i] {
				held[i], in = in[0], in[1:]
			}
		}
	}
	q.held = held
	return held, nil
}

// idf is bm25's weight of a term in n of total rows, floored as FTS5
// floors it.
func idf(n, total int) float64 {
	return math.Max(idfFloor, math.Log((float64(total)-float64(n)+0.5)/(float64(n)+0.5)))
}

// maxTermRows bounds TermRows' counts. A term in more rows counts as in
// that many, which overstates its idf and so only raises cover, and
// counting a common word through a million passages would cost more than
// the search.
const maxTermRows = 1000

// rowScale raises the bm25 magnitudes of a small index to the scale the
// halves were chosen at. bm25's idf, ln((N − n + 0.5) / (n + 0.5)), is at
// most idfMax(N) (a term in one row of N), which shrinks with N: a word
// in one note of twelve weighs 2.0, of a thousand 6.5. So in a small vault
// an exact match of its rarest word scored like a weak one. The factor is
// idfMax(refRows) / idfMax(N), at most maxRowScale, and 1 from refRows
// rows on. In an index of two rows or fewer every idf is FTS5's floor,
// 1e-6: a word in one passage of two would weigh nothing and a two-note
// vault ranked by chance, so there the floor is raised to idfMax(refRows).
func rowScale(rows int) float64 {
	if rows >= refRows {
		return 1
	}
	m := idfMax(rows)
	if !(m > 0) { // two rows or fewer (NaN below one)
		return idfMax(refRows) / idfFloor
	}
	return math.Min(maxRowScale, idfMax(refRows)/m)
}

func idfMax(n int) float64 { return math.Log((float64(n) - 0.5) / 1.5) }

// refRows and maxRowScale: see rowScale.
const (
	idfFloor    = 1e-6 // FTS5's least idf
	refRows     = 100
	maxRowScale = 8
)
