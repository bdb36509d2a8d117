package rerank

import (
	"encoding/json"
	"math"
	"slices"

	"github.com/mdsearch/mdsearch"
)

// How a server's scores become the 0–1 score mdsearch shows. A
// cross-encoder ends in one number per pair, a logit; some servers send it
// as it is, others through the logistic function first. One number means
// another thing on each scale (0.9 as a logit is 71 %), so the scale is the
// server's and is never read from one answer: if it were, the passages a
// query happens to find would change the scores of the others.
//
// Options.Scores names the scale, or Auto decides it from what the servers
// are known to send:
//
//   - llama.cpp's server answers a Cohere-style request with {"model",
//     "object": "list", "usage", "results"} and no "id" (every version of
//     its rerank endpoint; Cohere and Infinity send an "id", Infinity's
//     "object" is "rerank", Jina's and Cohere's answers have none). Its
//     scores are the model's output as it is: logits for a classification
//     head (bge-reranker, jina-reranker, gte); a Qwen3 reranker's it passes
//     through a softmax, so those need Probabilities set.
//   - TEI asked with raw_scores false (as mdsearch asks), Cohere, Jina and
//     Infinity send probabilities, 0–1.
//   - A shape several servers share cannot tell (llama.cpp's answer to a
//     TEI-style request is TEI's; a proxy may reshape llama.cpp's answer as
//     Jina's): every answer but llama.cpp's is read as probabilities until
//     the server sends a score outside 0–1, and as logits from then on
//     (client.sawLogits). A server of probabilities never sends one, so
//     this never misreads it.

// scaleAll maps a query's raw scores, every batch's, to 0–1 in place (a
// NaN, a passage left out, stays one); known is the scale an answer's
// shape tells, or "".
func (c *client) scaleAll(scores []float64, known string) ([]float64, error) {
	given := slices.DeleteFunc(slices.Clone(scores), math.IsNaN)
	logits := c.scaleOf(given, known) == Logits
	for i, s := range scores {
		switch {
		case math.IsNaN(s):
		case logits:
			scores[i] = logistic(s)
		case outside(s): // only where Probabilities was set: Auto turned to Logits
			return nil, c.fail(mdsearch.KindUnavailable, "its scores are logits: set --reranker-scores logits or auto (MDSEARCH_RERANKER_SCORES)",
				"the server sent the score %g, outside 0–1, and --reranker-scores is probabilities", s)
		}
	}
	return scores, nil
}

// scaleOf is the scale of a query's scores: the one set, else the one
// its shape tells, else Logits once the server has sent a score outside
// 0–1.
func (c *client) scaleOf(scores []float64, known string) string {
	if c.opts.Scores != Auto {
		return c.opts.Scores
	}
	if known != "" {
		return known
	}
	if slices.ContainsFunc(scores, outside) {
		c.sawLogits.Store(true)
	}
	if c.sawLogits.Load() {
		return Logits
	}
	return Probabilities
}

// llamaCpp reports an answer of llama.cpp's rerank endpoint by its fields
// "object" and "id" (see above).
func llamaCpp(object, id json.RawMessage) bool {
	var o string
	return id == nil && json.Unmarshal(object, &o) == nil && o == "list"
}

func outside(s float64) bool { return s < 0 || s > 1 }

func logistic(s float64) float64 { return 1 / (1 + math.Exp(-s)) }
