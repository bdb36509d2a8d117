package mdsearch

// Why says what a result's place and score rest on, for a search that
// asks (SearchRequest.Explain): which of the query's words the passage
// holds and where, its places in the keyword and meaning lists, its
// cosines, and what the second stage weighed for and against it.
type Why struct {
	// Words are the query's keyword terms (a quoted phrase is one, a
	// prefix ends in "*"), each with the fields of the passage that hold
	// it: "text", "heading" (its heading path), "title" (the note's title
	// and file name), "tags", "properties" (the note's property values,
	// which its first passage is found by). A term no field holds has none.
	Words []WordMatch `json:"words,omitempty"`
	// KeywordRank and SemanticRank are the passage's places in the first
	// stage's two lists, from 1; 0 where a list did not find it (semantic
	// mode has no keyword list, keyword mode no semantic one).
	KeywordRank  int `json:"keyword_rank"`
	SemanticRank int `json:"semantic_rank"`
	// Cosine is the query's cosine with the passage's best text window,
	// HeadingCosine with its heading path alone; absent without vectors.
	Cosine        *float64 `json:"cosine,omitempty"`
	HeadingCosine *float64 `json:"heading_cosine,omitempty"`
	// FirstStage is the first stage's fused score, 0–1, which the second
	// stage starts from.
	FirstStage float64 `json:"first_stage"`
	// Factors are what the second stage weighed, largest effect first:
	// how far each kind of evidence moved the passage's ranking value
	// (a log-odds) from that of the query's average candidate. Absent
	// where no second stage ranked it (semantic mode, another embedder, a
	// passage below the 50 it scores).
	Factors []Factor `json:"factors,omitempty"`
	// ScoreBase and ScoreFactors say what set the score, where the second
	// stage gave it: ScoreBase is the score of a candidate whose every
	// reading is the fit's average, and each of ScoreFactors moved the
	// score's log-odds from there (how high the passage ranked and by how
	// much it leads, how much of the query's idf the vault holds, the
	// query's best cosine, ...), largest effect first.
	ScoreBase    float64  `json:"score_base,omitempty"`
	ScoreFactors []Factor `json:"score_factors,omitempty"`
	// Reranker is the remote reranker's score, where one reordered the
	// results: the result's Score is then this, and LocalScore the score
	// mdsearch's own ranking gave it. LocalScore alone: the reranker left
	// the passage out (the result's Score is 0).
	Reranker   *float64 `json:"reranker,omitempty"`
	LocalScore *float64 `json:"local_score,omitempty"`
}

// WordMatch is one query term and the passage's fields that hold it.
type WordMatch struct {
	Word string   `json:"word"`
	In   []string `json:"in"`
	// Stem is the form the keyword index matches the word by, where it is
	// much shorter than the word ("validation" is "valid", which the word
	// "valid" holds too), so a match on another word of the stem is read.
	Stem string `json:"stem,omitempty"`
}

// Factor is one kind of evidence the second stage weighs (see
// docs/evaluation.md for what each holds) and its effect on a passage:
// positive lifted it above the query's average candidate.
type Factor struct {
	Name   string  `json:"name"`
	Effect float64 `json:"effect"`
}
