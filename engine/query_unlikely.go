package engine

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/plural"
)

// Unlikely is the score under which a search's best result most likely
// does not answer it. Measured on the dev sets (docs/evaluation.md, "When
// no result is likely to answer"), each left out of the fit, 70–99 % of
// questions about other things score under it, and 0–1.2 % of right top
// hits (8–17 % of qmd-eval's two-word queries); at 0.2, with an earlier
// fit, it was 18–21 % of right top hits on rust-book and qmd-eval.
const Unlikely = 0.1

// isUnlikely reports whether the best of results, as the second stage
// scored it (scored: the search's mode has one), is unlikely to answer: a
// person or an agent can stop there, or ask otherwise. A query of common
// words alone, or of none, has its own notice, and a reranker's scores
// mean something else.
func isUnlikely(q *query, scored bool, results []mdsearch.Result) bool {
	return scored && !q.reranked && !q.nothing && !q.noWords && len(results) > 0 && results[0].Score < Unlikely
}

// lowCut reports whether a search's results after the first that score
// under Unlikely show their openings: each most likely does not answer,
// and whole they cost an agent hundreds of tokens more than the answer
// it came for. Not where the first is unlikely too (cutUnlikely decides),
// nor in semantic mode, whose right answers score low, nor where a
// reranker's scores, which mean something else, order them or will.
func lowCut(q *query, scored, weak bool) bool {
	return scored && !weak && !q.reranked && !q.deferred && q.mode != mdsearch.ModeSemantic
}

// respell is what a search found of a misspelling in its query: a word
// no passage holds with a near one the notes hold, the respelled query
// offered (a Suggestion) or only named (it found no strong answer).
type respell int

const (
	noRespell respell = iota
	respellOffered
	respellNamed
	// respellLost: offered, though its search in the request's mode found
	// no likelier answer (Engine.offer).
	respellLost
	// respellWeak: named, and its search in the request's mode found no
	// answer even as likely as Unlikely: the misspelling is not why the
	// results are weak ("runny yolk" → "runny york").
	respellWeak
)

// offered says the notice offers the respelled query (did you mean).
func (s respell) offered() bool { return s == respellOffered || s == respellLost }

// named says the notice names the misspelled words without offering
// their respelling (lackingNotice).
func (s respell) named() bool { return s == respellNamed || s == respellWeak }

// mayDiffer says the respelled query was not searched as the request
// asks, or found no strong answer: its results may be otherwise.
func (s respell) mayDiffer() bool { return s == respellOffered || s == respellNamed }

// unlikelyNotice says a search whose best scores best is unlikely to
// answer (isUnlikely). With a word respelled (spell) the misspelling may
// be why, and in semantic mode meaning alone, which misses answers that
// hybrid finds (3–5 % of its right top hits on the link-context dev sets
// score under the mark, under 1 % in hybrid), so neither says the notes
// lack the answer.
func unlikelyNotice(best float64, spell respell, semantic bool) string {
	const hybrid = "a search by meaning alone misses answers that the default hybrid search finds"
	switch {
	case semantic && !spell.mayDiffer():
		return fmt.Sprintf("no result is likely to answer: the best scores %.1f%% (under %.0f%%); %s, so try it before concluding the notes lack one",
			100*best, 100*Unlikely, hybrid)
	case spell.mayDiffer():
		why := "with the respelled query the results may differ"
		if spell == respellNamed { // its notice names the word: respelled, it found no strong answer either
			why = "a misspelled word may be why (the notice names it)"
		}
		msg := fmt.Sprintf("no result is likely to answer the query as typed: the best scores %.1f%% (under %.0f%%); %s",
			100*best, 100*Unlikely, why)
		if semantic {
			msg += ", and " + hybrid
		}
		return msg
	}
	return fmt.Sprintf("no result is likely to answer: the best scores %.1f%% (under %.0f%%, the notes most likely do not hold the answer; ask in other words, or read before relying on it)",
		100*best, 100*Unlikely)
}

// unreadableNotice is unlikelyNotice for a query the model cannot read
// (Chinese, Japanese, Korean, …), ranked by keywords alone: its scores
// run low even where the keywords found the answer, as the second stage
// was fitted on English queries, so the notes are not said to lack it.
func unreadableNotice(best float64) string {
	return fmt.Sprintf("the best scores %.1f%% (under %.0f%%), but a query the model cannot read scores low even where its words found the answer: read the results, by their order, before concluding the notes lack one",
		100*best, 100*Unlikely)
}

// unreadNotice is unlikelyNotice for a search of a collection whose
// first index run has not read every note (unfinished): the answer may
// be in one not read yet, so the notes are not said to lack it.
func unreadNotice(best float64, unfinished string) string {
	return fmt.Sprintf("no result is likely to answer: the best scores %.1f%% (under %.0f%%); %s, so the answer may be in a note not indexed yet",
		100*best, 100*Unlikely, unfinished)
}

// cutUnlikely cuts each result of a search whose best is unlikely to
// answer (isUnlikely) to its opening, as a list shows a note's, each
// saying which lines read the rest (cutNotice counts them): the results
// say what the notes hold nearest the query, and whole they cost an
// agent some 300–700 tokens each for text that most likely does not
// answer it (docs/evaluation.md, "When no result is likely to answer").
// So are those of a query of common words alone, in every mode: it asks
// nothing, and no result can be known to answer it.
// Left whole: results the query's quoted phrases or tasks chose (their
// openings may not show them), those of a query the model cannot read,
// and semantic mode's, whose right answers score low too
// (unreadableNotice; 2–6 % of semantic mode's right top hits on the
// link-context dev sets, against 0–1 % in hybrid): cut, semantic mode
// lost answering text from its first five on vue-docs and rust-book
// (span@5 −0.007, −0.023).
func (f *found) cutUnlikely() {
	f.cutFrom(0)
}

// cutFrom cuts the results from the i-th on to their openings, as
// cutUnlikely: all of them where the best is unlikely to answer or the
// query asks nothing, else those under Unlikely that show one section
// (lowCut): one that joins several keeps them all in sight, as the
// opening would show the first alone.
func (f *found) cutFrom(i int) {
	all := f.weak || f.nothing
	for ; i < len(f.resp.Results); i++ {
		r := &f.resp.Results[i]
		if (all || r.Score < Unlikely && len(r.Sections) <= 1) && EstimateTokens(r.Text) > unlikelyPreview {
			f.joins.opening(r, f.ends[i], unlikelyCut)
		}
	}
}

// cutNotice says how many of results cutFrom cut, or is "": with low,
// those under Unlikely after a first result that is not.
func cutNotice(results []mdsearch.Result, low bool) string {
	cut := 0
	for _, r := range results {
		if strings.HasPrefix(r.ReadHint, unlikelyCut+",") {
			cut++
		}
	}
	if cut == 0 {
		return ""
	}
	what := plural.Count(cut, "result", "results")
	if low {
		what += fmt.Sprintf(" scoring under %.0f%%", 100*Unlikely)
	}
	return fmt.Sprintf("%s cut to %s "+cutTail, what, plural.Noun(cut, "its", "their"))
}

// cutTail ends cutNotice's count.
const cutTail = "opening: each names the lines that read the rest"

// cutCount matches cutNotice's count within a notice, with the "; " that
// joined it to another.
var cutCount = regexp.MustCompile(`(?:; )?\d+ results?(?: scoring under \d+%)? cut to (?:its|their) ` + cutTail)

// WithoutCutNotice is notice without its count of the results cut to their
// openings: for a caller that prints no result's text (search --files).
func WithoutCutNotice(notice string) string {
	return strings.TrimPrefix(cutCount.ReplaceAllString(notice, ""), "; ")
}

// unlikelyCut is why the read hint of a result cutUnlikely cut says it
// was cut.
const unlikelyCut = "cut as unlikely to answer"

// unlikelyPreview is about how many tokens of each result a search that
// is unlikely to answer shows: a list's preview (opening), some 60 words.
const unlikelyPreview = listPreview
