package rescore

import (
	"slices"
	"strings"
)

// Feature indexes: the order of a feature vector. A Model names its
// features, so a model fitted on another list is refused (Load), never
// read in the wrong order.
const (
	FirstScore   = iota // the first stage's fused score, 0–1
	FirstRel            // FirstScore minus the query's best
	KW                  // log(1 + bm25 magnitude over all fields, as ranked)
	KWRel               // KW minus the query's best
	BM25Text            // log(1 + bm25) of the passage text alone, among the candidates (store.MatchPassages)
	BM25Heading         // of the heading path alone
	BM25Title           // of the title and file name alone
	BM25Tags            // of the tags alone
	CoverText           // share of the query's idf whose terms the text holds
	CoverHeading        // … the heading path holds
	CoverTitle          // … the title holds
	CoverAll            // … any field holds
	CoverAllRel         // CoverAll minus the query's best
	CoverHeadRel        // CoverHeading minus the query's best
	PairPhrase          // share of adjacent query-term pairs found as a phrase
	PairNear            // share of adjacent pairs found within a few words
	Cos                 // best cosine of a text window (0 without vectors)
	Cos2                // second-best text window's cosine (the best again for one window)
	CosHead             // cosine of the heading window
	CosRel              // max(Cos, CosHead) minus the query's best
	KWRank              // 1/log2(1 + rank) in the keyword list; 0 when absent
	SemRank             // 1/log2(1 + rank) in the semantic list; 0 when absent
	Both                // 1 when both lists found it
	Words               // log(1 + the passage's words)
	Depth               // heading depth of its section (0 for the text before any heading)
	PageTop             // passages of its note among the first stage's top 10
	PageOther           // best first-stage score of another passage of its note
	Boiler              // log(notes whose section has the same heading text)
	QueryCover          // share of the query's idf that the whole index holds
	QueryTerms          // log(1 + keyword terms of the query)
	QueryCos            // the query's best cosine over its candidates
	Question            // 1 when the query is asked as a question (a question word first, or a '?')
	QHeading            // Question × CoverHeading: a question's words in a heading count for other than a phrase's
	QText               // Question × CoverText
	HeadIn              // share of the section heading's words the query holds (0 for the note's title, or no heading)
	HeadAll             // 1 when the query holds every word of the section heading
	CommonOnly          // 1 when every word of the query is a common one ("how do I"): it asks for nothing in particular
	HeadPhrase          // the query holds the section heading word for word, in order: its words, up to three, over three
	TitleOnly           // for the passage opening a note: the share of its title's words the query holds, when it holds no other (0 else)
	NumFeatures
)

// Names name the features in their order (model.json lists them).
var Names = [NumFeatures]string{
	"first_score", "first_rel", "kw", "kw_rel", "bm25_text", "bm25_heading", "bm25_title", "bm25_tags",
	"cover_text", "cover_heading", "cover_title", "cover_all", "cover_all_rel", "cover_heading_rel",
	"pair_phrase", "pair_near", "cos", "cos2", "cos_head", "cos_rel", "kw_rank", "sem_rank", "both",
	"words", "depth", "page_top", "page_other", "boiler", "query_cover", "query_terms", "query_cos",
	"question", "q_heading", "q_text", "head_in", "head_all", "common_only", "head_phrase",
	"title_only",
}

// Vector is one candidate's features.
type Vector [NumFeatures]float64

// Semantic are the features a keyword-only search cannot have: a model
// for keyword mode is fitted with them left out (see Fit's mask).
var Semantic = []int{Cos, Cos2, CosHead, CosRel, SemRank, Both, QueryCos}

// RankedSemantic are the features semantic mode's ranker weighs: the
// first stage's score alone, the cosine's share, so a search by meaning
// keeps the first stage's order exactly (its ties, beyond the cosine's
// clamp, too), and its stage adds the calibrated score (docs/evaluation.md,
// "Semantic mode's score"), for which the query's words count
// (CalUnusedSemantic).
var RankedSemantic = []int{FirstScore}

// PerQuery are the features every candidate of a query shares: a ranker
// cannot learn from them (FitRanker), a calibrator can.
var PerQuery = []int{QueryCover, QueryTerms, QueryCos, Question, CommonOnly}

// Unmatched is x as it would be had its passage held nothing of the
// query: what the passage is (its length, depth, heading, note) and what
// the query is kept, every match zero, and the features relative to the
// query's best as far below it as x's match is above zero.
func Unmatched(x Vector) Vector {
	var u Vector
	for _, i := range append(slices.Clone(PerQuery), Words, Depth, Boiler, PageTop, PageOther) {
		u[i] = x[i]
	}
	u[FirstRel] = x[FirstRel] - x[FirstScore]
	u[KWRel] = x[KWRel] - x[KW]
	u[CoverAllRel] = x[CoverAllRel] - x[CoverAll]
	u[CoverHeadRel] = x[CoverHeadRel] - x[CoverHeading]
	u[CosRel] = x[CosRel] - max(x[Cos], x[CosHead])
	return u
}

// IsQuestion reports whether a query is asked as a question.
func IsQuestion(query string) bool {
	q := strings.ToLower(strings.TrimSpace(query))
	if strings.HasSuffix(q, "?") {
		return true
	}
	first, _, _ := strings.Cut(q, " ")
	return questionWords[first]
}

var questionWords = map[string]bool{"how": true, "what": true, "why": true, "when": true, "where": true,
	"which": true, "who": true, "whom": true, "whose": true, "can": true, "does": true, "do": true,
	"is": true, "are": true, "should": true, "could": true, "would": true, "will": true}

// Ranked are the features the ranker weighs. Each was kept because, with
// the others, it raised the ranking of every dev set when that set was
// left out of the fit (docs/evaluation.md); features that helped one
// style of query and cost another (heading-field bm25 lifts link-context
// queries and sinks questions) are computed but left out. PairPhrase and
// BM25Title came last: the query's words as a phrase, and the note's title
// naming them, tell the note that treats a topic from one whose heading
// merely names one of its words (docs/evaluation.md). HeadPhrase came
// after them: a link's sentence quotes the heading it points at.
var Ranked = []int{FirstScore, FirstRel, KWRel, CosRel, CoverAllRel, CoverHeadRel, QHeading, QText,
	PairNear, Boiler, Depth, PageTop, PageOther, Words, HeadIn, HeadAll, PairPhrase, BM25Title, HeadPhrase, TitleOnly}

// Unranked are the features not in Ranked.
func Unranked() []int { return Unlisted(Ranked) }

// Unlisted are the features not in list.
func Unlisted(list []int) []int {
	var out []int
	for i := range NumFeatures {
		if !slices.Contains(list, i) {
			out = append(out, i)
		}
	}
	return out
}
