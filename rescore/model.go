package rescore

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
)

// Linear is a fitted linear model over standardised features:
// Bias + Σ Weights[i] × (x[i] − Mean[i]) / Scale[i].
type Linear struct {
	Mean    []float64 `json:"mean"`
	Scale   []float64 `json:"scale"`
	Weights []float64 `json:"weights"`
	Bias    float64   `json:"bias"`
}

// Logit is the model's value at x.
func (l *Linear) Logit(x []float64) float64 {
	z := l.Bias
	for i, w := range l.Weights {
		if w != 0 {
			z += w * (x[i] - l.Mean[i]) / l.Scale[i]
		}
	}
	return z
}

// Sigmoid is the logistic function.
func Sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// The calibrator's inputs: the ranker's logit, as it is and relative to
// the query's best, and what the query's candidates say of the query as a
// whole (a question the vault cannot answer matches weakly everywhere).
const (
	CalLogit      = iota // the ranker's logit
	CalLogitRel          // it minus the query's best
	CalQueryCover        // QueryCover
	CalQueryCos          // QueryCos
	CalQueryTerms        // QueryTerms
	CalBestKW            // the query's best KW
	CalBestCover         // the query's best CoverAll
	CalBestFirst         // the query's best FirstScore
	CalRank              // 1/log2(1 + its rank by the ranker)
	CalGap               // its logit minus the best other section's best candidate's: how far the best leads
	CalTopPage           // PageTop of the ranker's best: an answer's note tends to hold several of the best passages
	CalCommonOnly        // CommonOnly: a query of common words alone asks for nothing a passage could answer (its score is capped at Stage.Nothing too)
	CalTopCover          // CoverAll of the ranker's best: whether the result a search puts first holds the query's words
	NumCalib
)

// CalUnusedSemantic are the calibrator inputs semantic mode's calibrators
// leave out: the logit's, so that a candidate's score rests on its rank
// and on what the query's candidates say of the query (how close the best
// is, how much of the query's idf the first result holds); bm25, which no
// list of its gives; and the query's words as hybrid reads them, the best
// coverage among the candidates and the share the vault holds, which its
// first result, found by meaning, often lacks: a word in the 40th
// candidate made a first result without it score 60–90 %
// (docs/evaluation.md, "Semantic mode's score"). Fitted with the logit,
// its weight came out below zero, which would reorder the candidates.
var CalUnusedSemantic = []int{CalLogit, CalLogitRel, CalGap, CalBestFirst, CalBestKW, CalBestCover, CalQueryCover}

// CalUnusedBelowSemantic are the inputs semantic mode's calibrator of the
// results below the first leaves out besides CalUnusedSemantic: whether
// the first result holds the query's words says nothing of whether the
// second does, and with it a passage holding no word of the query scored
// 42 % under a first that held them all.
var CalUnusedBelowSemantic = []int{CalTopCover}

// CalUnusedRanked are the calibrator inputs hybrid and keyword mode's
// calibrators leave out: their first result holds the query's words as
// the best candidates do (best_cover), so its own cover adds nothing; and
// the query's best cosine, which keyword mode lacks and which hybrid
// mode's ranker logit and first-stage score read already. Fitted with it,
// hybrid's weight on it came out below zero, so an everyday question
// whose words the vault happens to hold, and whose passages mean
// something else, scored higher for its low cosine (docs/evaluation.md,
// "Everyday questions").
var CalUnusedRanked = []int{CalTopCover, CalQueryCos}

// CalNames name the calibrator's inputs in their order.
var CalNames = [NumCalib]string{"logit", "logit_rel", "query_cover", "query_cos", "query_terms", "best_kw", "best_cover", "best_first", "rank", "gap", "top_page", "common_only", "top_cover"}

// CalTop is how many of a query's best-ranked candidates the calibrator
// is fitted on: the results a person reads, whose scores it must get
// right (a linear model fitted on every candidate underrates the top
// ones, which differ from the rest by more than a straight line allows).
const CalTop = 5

// Stage is the second stage for one search mode: a ranker that orders a
// query's candidates, and a calibrator that turns its logits into the
// probability that each candidate answers the query.
type Stage struct {
	Ranker *Linear `json:"ranker"`
	Calib  *Linear `json:"calibrator"`
	// Below, when set, is the calibrator of the candidates below the
	// ranker's best: fitted on the results shown after the first, which
	// one calibrator for all overrated (a result shown third, from
	// another note, answers far less often than the best one's inputs
	// say). A candidate below the best never scores above it.
	Below *Linear `json:"below,omitempty"`
	// Nothing is the score a candidate of a query that asks nothing
	// (CommonOnly: "in the", "how do I") may reach at most: such a query
	// names nothing, so no passage can be known to answer it. The fit
	// sets it to the smoothed share of those queries' first results that
	// answered, (answered + 1) / (queries + 2); its queries that ask
	// nothing are made from off-topic ones, so none did, and it is
	// 1 / (queries + 2), a small prior rather than a measured rate. A
	// linear calibrator alone could not hold them down: a string of
	// common words matches a passage or two far better than the rest,
	// and the lead (the gap) made "in the we the for the" score 59 % in
	// keyword mode on chroma-wikitexts.
	Nothing float64 `json:"nothing"`
}

// Score returns each candidate's ranker logit and calibrated probability.
// The probability rises with the logit within a query (Parse checks), so
// ordering by either gives the same order.
func (s *Stage) Score(xs []Vector, section []int64) (logits, probs []float64) {
	logits = make([]float64, len(xs))
	probs = make([]float64, len(xs))
	for i := range xs {
		logits[i] = s.Ranker.Logit(xs[i][:])
	}
	cal := CalInputs(s.Ranker, xs, logits, section)
	top := -1
	for i, c := range cal {
		if c[CalRank] == 1 { // 1/log2(1 + 1): the ranker's best
			top = i
		}
		probs[i] = s.capped(c, Sigmoid(s.CalibOf(c).Logit(c[:])))
	}
	if top >= 0 {
		for i, c := range cal {
			probs[i] = s.underBest(c, probs[i], probs[top])
		}
	}
	return logits, probs
}

// capped is p, a candidate's calibrated probability, at most Nothing when
// its query asks nothing.
func (s *Stage) capped(c [NumCalib]float64, p float64) float64 {
	if c[CalCommonOnly] == 1 {
		return min(p, s.Nothing)
	}
	return p
}

// underBest is p, the capped probability of a candidate with inputs c, at
// most best, the ranker's best's, when c's is below it and the stage has
// a calibrator of its own for those (Below).
func (s *Stage) underBest(c [NumCalib]float64, p, best float64) float64 {
	if s.Below != nil && c[CalRank] < 1 {
		return min(p, best)
	}
	return p
}

// CalibOf is the calibrator of a candidate with calibrator inputs c:
// Below for one under the ranker's best, where the stage has it.
func (s *Stage) CalibOf(c [NumCalib]float64) *Linear {
	if s.Below != nil && c[CalRank] < 1 {
		return s.Below
	}
	return s.Calib
}

// CalInputs are the calibrator's inputs for a query's candidates, whose
// logits ranker gave, and section says which section each lies in (nil:
// each its own). The best leads the best candidate of another section:
// a passage of its own section answers when it does, so it is no rival,
// and a long section's passages crowding the top would otherwise read as
// a close call (docs/evaluation.md, "A section is one answer").
func CalInputs(ranker *Linear, xs []Vector, logits []float64, section []int64) [][NumCalib]float64 {
	best := math.Inf(-1)
	var kw, cover, first float64
	for i := range xs {
		best = max(best, logits[i])
		kw, cover, first = max(kw, xs[i][KW]), max(cover, xs[i][CoverAll]), max(first, xs[i][FirstScore])
	}
	rank := Ranks(logits)
	top := slices.Index(rank, 1)
	second := math.Inf(-1)
	for i := range xs {
		if i != top && (section == nil || section[i] != section[top]) {
			second = max(second, logits[i])
		}
	}
	out := make([][NumCalib]float64, len(xs))
	for i := range xs {
		// The best is measured against another section's best; the
		// rest against the best. A lone candidate (a filter that leaves
		// one passage), or one whose rivals are all of its section,
		// leads the same passage had it held nothing of the query.
		gap := logits[i] - best
		switch {
		case rank[i] == 1 && !math.IsInf(second, -1):
			gap = logits[i] - second
		case rank[i] == 1:
			u := Unmatched(xs[i])
			gap = logits[i] - ranker.Logit(u[:])
		}
		out[i] = [NumCalib]float64{logits[i], logits[i] - best, xs[i][QueryCover], xs[i][QueryCos], xs[i][QueryTerms], kw, cover, first,
			1 / math.Log2(1+float64(rank[i])), gap, xs[top][PageTop], xs[i][CommonOnly], xs[top][CoverAll]}
	}
	return out
}

// Ranks are the 1-based places of logits sorted high to low (ties in
// their order).
func Ranks(logits []float64) []int {
	order := make([]int, len(logits))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return logits[order[a]] > logits[order[b]] })
	rank := make([]int, len(logits))
	for k, i := range order {
		rank[i] = k + 1
	}
	return rank
}

// Model is the second stage of every search mode it serves.
type Model struct {
	// Command is what made the model, so anyone can make it again.
	Command     string            `json:"command"`
	Features    []string          `json:"features"`
	Calibration []string          `json:"calibration"`
	Modes       map[string]*Stage `json:"modes"` // "hybrid", "keyword", "semantic"
	// Embedder is the model whose cosines the semantic features were
	// fitted on: a hybrid search with another embedder, whose cosines
	// mean something else, keeps the first stage's ranking.
	Embedder string `json:"embedder"`
	// Fitted says on what: the query sets and their counts.
	Fitted []string `json:"fitted"`
}

// For returns the stage for a search mode with an embedder (its model
// ID), or nil when there is none: keyword mode has no cosines, so any
// embedder will do; other modes need the one the model was fitted with.
func (m *Model) For(mode, embedder string) *Stage {
	if m == nil || (mode != "keyword" && embedder != m.Embedder) {
		return nil
	}
	return m.Modes[mode]
}

//go:embed model.json
var modelJSON []byte

var (
	defaultOnce  sync.Once
	defaultModel *Model
	defaultErr   error
)

// Default is the model shipped in model.json.
func Default() (*Model, error) {
	defaultOnce.Do(func() { defaultModel, defaultErr = Parse(modelJSON) })
	return defaultModel, defaultErr
}

// Parse reads a model and checks that it speaks of this package's
// features and keeps the ranker's order.
func Parse(b []byte) (*Model, error) {
	var m Model
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("rescore model: %w", err)
	}
	if !slices.Equal(m.Features, Names[:]) || !slices.Equal(m.Calibration, CalNames[:]) {
		return nil, fmt.Errorf("rescore model: fitted on features %v and %v, not this version's", m.Features, m.Calibration)
	}
	for mode, s := range m.Modes {
		if s.Ranker == nil || s.Calib == nil {
			return nil, fmt.Errorf("rescore model: mode %s lacks its ranker or calibrator", mode)
		}
		if err := s.Ranker.check(NumFeatures); err != nil {
			return nil, fmt.Errorf("rescore model: mode %s ranker: %w", mode, err)
		}
		if err := s.Calib.check(NumCalib); err != nil {
			return nil, fmt.Errorf("rescore model: mode %s calibrator: %w", mode, err)
		}
		if s.Below != nil {
			if err := s.Below.check(NumCalib); err != nil {
				return nil, fmt.Errorf("rescore model: mode %s calibrator below the best: %w", mode, err)
			}
		}
		if !(s.Nothing > 0 && s.Nothing < 1) {
			return nil, fmt.Errorf("rescore model: mode %s lacks the score of a query that asks nothing (nothing %v, want one between 0 and 1)", mode, s.Nothing)
		}
		if !s.Monotone() {
			return nil, fmt.Errorf("rescore model: mode %s: its calibrator would reorder the ranker's candidates", mode)
		}
	}
	return &m, nil
}

// Monotone reports whether the calibrated probability rises with the
// ranker's logit within a query. Without Below, the one calibrator scores
// every candidate: the three logit inputs together (for two candidates
// below the best, each moves with the logit), the gap alone (by which the
// best leads the rest) and the rank must each raise it. With Below, Calib
// scores the best alone, whose probability must rise with its logit and
// its lead, and Below must rise as Calib would without it (Score keeps
// the rest under the best's probability).
func (s *Stage) Monotone() bool {
	c := s.Calib
	if c.Weights[CalGap] < 0 {
		return false
	}
	if s.Below == nil {
		return risesBelow(c)
	}
	return slope(c, CalLogit)+slope(c, CalGap) >= 0 && risesBelow(s.Below)
}

// risesBelow reports whether c's probability rises with the logit for
// candidates below the best, where the gap is the logit less the best's.
func risesBelow(c *Linear) bool {
	return slope(c, CalLogit)+slope(c, CalLogitRel)+slope(c, CalGap) >= 0 && c.Weights[CalRank] >= 0
}

// slope is how far c's logit moves with its input i, per unit of i.
func slope(c *Linear, i int) float64 { return c.Weights[i] / c.Scale[i] }

func (l *Linear) check(n int) error {
	if len(l.Mean) != n || len(l.Scale) != n || len(l.Weights) != n {
		return fmt.Errorf("%d weights for %d inputs", len(l.Weights), n)
	}
	for _, s := range l.Scale {
		if !(s > 0) {
			return fmt.Errorf("a scale of %v", s)
		}
	}
	return nil
}

// Marshal writes m as model.json is kept.
func (m *Model) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
