package engine

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/rescore"
	"github.com/mdsearch/mdsearch/store"
)

// fieldNames name the keyword index's fields in store.MatchPassages'
// order, as Why.Words says them, then "properties": the note's property
// values, which its first passage's text field holds (noteProperties).
var fieldNames = [5]string{"text", "heading", "title", "tags", "properties"}

// propertiesField is the bit of "properties" in noteFields' bits.
const propertiesField = 4

// minEffect is the smallest factor effect Why lists: less moves no
// passage past another.
const minEffect = 0.05

// whys gives each candidate a Why (SearchRequest.Explain): top, in the
// first stage's order, from its features xs (and, with a stage, the
// ranker's effects and the calibrator's from its inputs cal, its scores
// probs, as scoreDistinct made them); those below it from the first stage
// alone. It runs before the second stage replaces their scores.
func whys(q *query, f Fusion, cands []candidate, top []candidate, xs []rescore.Vector, stage *rescore.Stage, cal [][rescore.NumCalib]float64, probs []float64) {
	var effects [][]float64
	best := 0.0 // the best's score: none below it scores more
	if stage != nil {
		effects = stage.Ranker.Effects(xs, firstParts(q, f, top))
		best = slices.Max(probs)
	}
	for i := range top {
		w := firstWhy(&top[i])
		w.Words = q.wordsOf(top[i].id)
		if q.snap != nil {
			cos, head := round4(xs[i][rescore.Cos]), round4(xs[i][rescore.CosHead])
			w.Cosine, w.HeadingCosine = &cos, &head
		}
		if effects != nil {
			w.Factors = factors(rescore.Factors, effects[i])
			bias, scored := stage.ScoreEffects(cal[i], best)
			w.ScoreBase, w.ScoreFactors = round4(rescore.Sigmoid(bias)), factors(rescore.ScoreFactors, scored)
		}
		top[i].why = w
	}
	for i := len(top); i < len(cands); i++ {
		cands[i].why = firstWhy(&cands[i])
	}
}

// firstParts are the keyword and meaning parts of each candidate's first
// stage score, as fuse added them up.
func firstParts(q *query, f Fusion, top []candidate) [][2]float64 {
	out := make([][2]float64, len(top))
	for i, c := range top {
		kw := c.score // keyword mode, or hybrid without vectors
		switch {
		case q.mode == mdsearch.ModeSemantic:
			kw = 0
		case q.mode == mdsearch.ModeHybrid && q.snap != nil:
			kw = f.Keyword * f.keyword(c.bm25)
		}
		out[i] = [2]float64{kw, c.score - kw}
	}
	return out
}

// firstWhy is what the first stage says of c.
func firstWhy(c *candidate) *mdsearch.Why {
	w := &mdsearch.Why{KeywordRank: c.kwRank, SemanticRank: c.semRank, FirstStage: round4(c.score)}
	if c.cos != nil {
		cos := round4(*c.cos)
		w.Cosine = &cos
	}
	return w
}

// factors are a candidate's effects of kinds that move it, largest first.
func factors(kinds []rescore.Factor, effects []float64) []mdsearch.Factor {
	var out []mdsearch.Factor
	for k, v := range effects {
		if math.Abs(v) >= minEffect {
			out = append(out, mdsearch.Factor{Name: kinds[k].Name, Effect: math.Round(v*1000) / 1000})
		}
	}
	slices.SortStableFunc(out, func(a, b mdsearch.Factor) int { return cmp.Compare(math.Abs(b.Effect), math.Abs(a.Effect)) })
	return out
}

// noteFields records which fields of passage id hold each query term
// (bit c for fieldNames[c]), for Why.
func (q *query) noteFields(id int64, term int, f [4]float64) {
	if q.fields == nil {
		q.fields = map[int64][]uint8{}
	}
	bits := q.fields[id]
	if bits == nil {
		bits = make([]uint8, len(q.terms))
		q.fields[id] = bits
	}
	for c := range f {
		if f[c] > 0 {
			bits[term] |= 1 << c
		}
	}
}

// noteProperties tells a term the text field holds by its note's
// property values apart from one the passage's own text holds, for the
// passages whose text field holds both.
func (q *query) noteProperties(ctx context.Context, ps map[int64]store.Passage) error {
	m, err := store.MatchProperties(ctx, q.terms, ps)
	if err != nil {
		return err
	}
	for term, byID := range m {
		for id, f := range byID {
			bits := q.fields[id]
			if len(bits) <= term {
				continue
			}
			if f[0] <= 0 {
				bits[term] &^= 1 // the text field held it through the properties alone
			}
			if f[1] > 0 {
				bits[term] |= 1 << propertiesField
			}
		}
	}
	return nil
}

// wordsOf is Why.Words of passage id: each query term and its fields.
func (q *query) wordsOf(id int64) []mdsearch.WordMatch {
	if len(q.terms) == 0 {
		return nil
	}
	bits := q.fields[id]
	out := make([]mdsearch.WordMatch, len(q.terms))
	for i, t := range q.terms {
		out[i] = mdsearch.WordMatch{Word: termText(t), In: []string{}, Stem: q.shownStems[t]}
		if typed, ok := q.typed[t]; ok { // "validatio*", read as the stem's prefix "valid*"
			out[i].Word, out[i].Stem = termText(typed), strings.TrimSuffix(termText(t), "*")
		}
		if i < len(bits) {
			for c, name := range fieldNames {
				if bits[i]&(1<<c) != 0 {
					out[i].In = append(out[i].In, name)
				}
			}
		}
	}
	return out
}

// stemsShown finds, for each of q's one-word terms, its stem where the
// stem is minStemCut or more letters shorter (WordMatch.Stem): "handle"
// as "handl" says nothing, "validation" as "valid" why "valid" matched.
func (q *query) stemsShown(ctx context.Context) {
	var words, terms []string
	for _, t := range q.terms {
		if w := termText(t); !strings.ContainsAny(w, "\" *") {
			words, terms = append(words, w), append(terms, t)
		}
	}
	stems, err := store.Stems(ctx, words)
	if err != nil {
		return // the words are shown without
	}
	q.shownStems = map[string]string{}
	for i, s := range stems {
		if utf8.RuneCountInString(words[i])-utf8.RuneCountInString(s) >= minStemCut {
			q.shownStems[terms[i]] = s
		}
	}
}

// minStemCut is how much shorter than its word a stem must be to be shown.
const minStemCut = 3

// termText is an FTS5 term as a person reads it: `"word"` → word,
// `"pre"*` → pre*, a phrase keeps its quotes.
func termText(t string) string {
	prefix := strings.HasSuffix(t, "*")
	s := strings.TrimSuffix(t, "*")
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' && !strings.Contains(s, " ") {
		s = strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	}
	if prefix {
		s += "*"
	}
	return s
}
