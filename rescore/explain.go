package rescore

import (
	"math"
	"slices"
)

// Factor is one kind of evidence the ranker weighs: the features that
// measure it. Several features of a kind move together (a score and the
// same score less the query's best), so a factor's effect, their sum, is
// what a person can read.
type Factor struct {
	Name     string
	Features []int
}

// Factors group Ranked: each of its features belongs to one, but for
// FirstStage's, which Effects shares out between keywords and meaning.
var Factors = []Factor{
	{"keywords", []int{KWRel}},                                              // bm25, against the query's best
	{"meaning", []int{CosRel}},                                              // the best window cosine, against the best
	{"coverage", []int{CoverAllRel, QText}},                                 // the share of the query's idf it holds
	{"heading", []int{CoverHeadRel, QHeading, HeadIn, HeadAll, HeadPhrase}}, // the query naming its heading
	{"phrase", []int{PairNear, PairPhrase}},                                 // the query's words side by side
	{"title", []int{BM25Title, TitleOnly}},                                  // the note's title and file name; the query naming it alone
	{"note", []int{PageTop, PageOther}},                                     // the note's other passages
	{"common_heading", []int{Boiler}},                                       // a heading many notes share
	{"length", []int{Words}},
	{"depth", []int{Depth}},
}

// The factors the first stage's score is shared out to.
const (
	FactorKeywords = 0
	FactorMeaning  = 1
)

// FirstStage are the features that carry the first stage's fused score,
// a sum of a keyword part and a meaning part.
var FirstStage = []int{FirstScore, FirstRel}

// Effects is, for each of a query's candidates, each factor's effect on
// the ranker's logit (in Factors' order): the sum over its features of
// weight × (x − the candidates' mean of x) / scale. parts[i] are the
// keyword and meaning parts of candidate i's FirstScore (they add up to
// it): its features' effect goes to keywords and meaning in those parts,
// so a hybrid result says which of the two lifted it. A candidate's
// effects add up to its logit less the candidates' mean logit, so they
// say what set it above or below the others.
func (l *Linear) Effects(xs []Vector, parts [][2]float64) [][]float64 {
	var mean Vector
	var meanPart [2]float64
	for i, x := range xs {
		for f := range x {
			mean[f] += x[f] / float64(len(xs))
		}
		meanPart[0] += parts[i][0] / float64(len(xs))
		meanPart[1] += parts[i][1] / float64(len(xs))
	}
	// FirstRel is FirstScore less a constant of the query's: against the
	// mean, both move as FirstScore does.
	var slope float64
	for _, f := range FirstStage {
		if l.Weights[f] != 0 {
			slope += l.Weights[f] / l.Scale[f]
		}
	}
	out := make([][]float64, len(xs))
	for i, x := range xs {
		out[i] = make([]float64, len(Factors))
		for k, fa := range Factors {
			for _, f := range fa.Features {
				if w := l.Weights[f]; w != 0 {
					out[i][k] += w * (x[f] - mean[f]) / l.Scale[f]
				}
			}
		}
		out[i][FactorKeywords] += slope * (parts[i][0] - meanPart[0])
		out[i][FactorMeaning] += slope * (parts[i][1] - meanPart[1])
	}
	return out
}

// ScoreFactors group the calibrator's inputs (CalNames) by what they
// read: a score says how likely the passage answers, which depends on
// the query as a whole as much as on the passage's rank.
var ScoreFactors = []Factor{
	{"ranking", []int{CalLogit, CalLogitRel, CalRank, CalGap}},   // the ranker's value and its lead over another section's best
	{"query_found", []int{CalQueryCover}},                        // the share of the query's idf the vault holds
	{"query_cosine", []int{CalQueryCos}},                         // the query's best cosine
	{"query_words", []int{CalQueryTerms}},                        // how many keyword terms it has
	{"best_match", []int{CalBestKW, CalBestCover, CalBestFirst}}, // how well its best candidates match
	{"top_note", []int{CalTopPage}},                              // the best passage's note among the first 10
	{"common_only", []int{CalCommonOnly}},                        // a query of common words alone, and the cap at Stage.Nothing
	{"top_words", []int{CalTopCover}},                            // the share of the query's idf the first result holds
}

// ScoreEffects splits a candidate's calibrated logit, whose sigmoid is its
// score, into a base (the logit of a candidate whose inputs are at the
// reference: the fit's means, but a query that asks for something, as
// most do) and each ScoreFactor's effect from there: the sum over its
// inputs of weight × (c − reference) / scale. The calibrator is the
// candidate's own (CalibOf): the best's, or Below's for the rest. What
// Score takes off besides is in a factor too: for a query that asks
// nothing, the cap at Nothing in common_only; for a candidate below the
// ranker's best, whose score best is, what keeps it under the best in
// ranking. So base and effects add up to the score's log-odds.
func (s *Stage) ScoreEffects(c [NumCalib]float64, best float64) (base float64, effects []float64) {
	l := s.CalibOf(c)
	ref := [NumCalib]float64(l.Mean)
	ref[CalCommonOnly] = 0
	base = l.Logit(ref[:])
	effects = make([]float64, len(ScoreFactors))
	sum := base
	for k, fa := range ScoreFactors {
		for _, f := range fa.Features {
			if w := l.Weights[f]; w != 0 {
				effects[k] += w * (c[f] - ref[f]) / l.Scale[f]
			}
		}
		sum += effects[k]
	}
	// What Score takes off the calibrated probability, each in its factor.
	p := Sigmoid(sum)
	if q := s.capped(c, p); q < p {
		effects[factorCommonOnly] += logOdds(q) - logOdds(p)
		p = q
	}
	if q := s.underBest(c, p, best); q < p {
		effects[factorRanking] += logOdds(q) - logOdds(p)
	}
	return base, effects
}

// factorCommonOnly and factorRanking are those factors' places in
// ScoreFactors.
var (
	factorCommonOnly = slices.IndexFunc(ScoreFactors, func(f Factor) bool { return f.Name == "common_only" })
	factorRanking    = slices.IndexFunc(ScoreFactors, func(f Factor) bool { return f.Name == "ranking" })
)

// logOdds is the inverse of Sigmoid.
func logOdds(p float64) float64 { return math.Log(p / (1 - p)) }
