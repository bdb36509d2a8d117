// Package rescore is the engine's second stage: a small learned model that
// reorders the first stage's best candidates and gives each the
// probability that it answers the query.
//
// The pipeline runs vault → sections → chunks → embed → store → search;
// inside a search, the first stage (keyword and semantic lists, fused)
// proposes the top K passages, and this stage scores them on features the
// index already holds (see Names): BM25 per field, how much of the query's
// idf each field holds, term proximity, window cosines, the list ranks,
// the page's other evidence, how common the passage's heading is in the
// vault and how plainly the query names or quotes that heading. Many
// features are also given relative to the best candidate of the same
// query, which is what lets one linear model rank candidates
// of very different queries.
//
// The model is logistic regression (Fit), fitted on the dev query sets
// with other sets' queries as off-topic ones (every candidate wrong),
// their common words alone as queries that ask for nothing, and everyday
// questions whose words a vault happens to hold ("how do I bake bread");
// the calibrators read one-word queries too ("hooch"), which look alike
// but are answered. So its output is calibrated: the same probability means the same on every
// vault, and a question the vault cannot answer scores low. A query
// that asks nothing (common words alone) scores at most Stage.Nothing,
// a small prior: no passage can be known to answer it. The
// candidates below the ranker's best have a calibrator of their own
// (Stage.Below), fitted on the results shown after the first: one
// calibrator for all scored a result shown third as if it were nearly as
// likely to answer as the first. The fitted weights are model.json, embedded; `go test ./internal/eval -run
// TestRescoreModel -update` fits them again from the dev sets.
//
// Room 6 of the pipeline (docs/architecture.md): the engine's second stage,
// after package engine's first.
package rescore
