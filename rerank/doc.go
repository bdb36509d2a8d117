// Package rerank reorders search results with a cross-encoder served over
// HTTP. It is a stage of the engine's query: after the local ranking
// (keywords and meaning, fused and deduplicated) has picked the best
// passages, the engine sends the query and the texts of the first few to
// a Reranker, which scores each passage against the query, and shows them
// in the order of those scores.
//
// New returns the HTTP client. It speaks two protocols:
//
//   - Cohere-style, POST {"model", "query", "documents", "top_n"} and
//     answer {"results": [{"index", "relevance_score"}]}: llama.cpp's
//     server (/v1/rerank, also /rerank), Jina and Cohere (/v1/rerank,
//     /v2/rerank), Infinity (/rerank).
//   - Hugging Face TEI, POST /rerank {"query", "texts", "raw_scores"} and
//     answer [{"index", "score"}].
//
// In auto mode (the default) a URL whose path ends in /v1/rerank or
// /v2/rerank is Cohere-style; any other path is tried Cohere-style first,
// and the client switches to TEI for good when the server says the field
// "texts" is missing. Answers of either shape are read whatever was sent.
// A URL with no path gets /rerank, which llama.cpp, TEI and Infinity all
// serve.
//
// Results may come back in any order, and only some of them (top_n):
// each is placed by its index, and a passage the server left out has no
// score (NaN): the engine places it after those scored, in its own order. Servers return probabilities or raw logits: Options.Scores names the
// scale, or in auto mode it is decided per server, over all of a query's
// batches at once, never per answer (scale.go), and logits go through the
// logistic function, so a score is always a number from 0 to 1, in the
// same order, and one model output always shows as the same score.
//
// A search waits for the reranker at most Options.Timeout and never
// retries: a server that is down costs the reranking, not the answer.
//
// Room 6 of the pipeline (docs/architecture.md): the engine's optional last
// step of a query, after the second stage.
package rerank
