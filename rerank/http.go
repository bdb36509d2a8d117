package rerank

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/httpjson"
)

// maxBody bounds an answer: an index and a score per passage is a few KB,
// even with the passages' texts echoed back.
const maxBody = 4 << 20

// cohereRequest is the body of a Cohere-style rerank request.
type cohereRequest struct {
	Model     string   `json:"model,omitempty"`
	Query     string   `json:"query"`
	Documents []string `json:"documents"`
	TopN      int      `json:"top_n"`
}

// teiRequest is the body of TEI's POST /rerank. Truncate cuts a passage
// over the model's window instead of refusing the request.
type teiRequest struct {
	Query     string   `json:"query"`
	Texts     []string `json:"texts"`
	RawScores bool     `json:"raw_scores"`
	Truncate  bool     `json:"truncate"`
}

// ranked is one scored document of either answer.
type ranked struct {
	Index          *int     `json:"index"`
	RelevanceScore *float64 `json:"relevance_score"` // Cohere-style
	Score          *float64 `json:"score"`           // TEI
}

func (r ranked) score() *float64 {
	if r.RelevanceScore != nil {
		return r.RelevanceScore
	}
	return r.Score
}

func (c *client) request(api, query string, docs []string) []byte {
	var v any = cohereRequest{Model: c.opts.Model, Query: query, Documents: docs, TopN: len(docs)}
	if api == TEI {
		v = teiRequest{Query: query, Texts: docs, Truncate: true}
	}
	body, _ := json.Marshal(v) // strings and numbers only: cannot fail
	return body
}

// post sends body and returns the body of the 200 answer.
func (c *client) post(ctx context.Context, body []byte) ([]byte, error) {
	resp, data, err := httpjson.Post(ctx, c.opts.Client, c.endpoint, c.opts.APIKey, body, maxBody)
	if err != nil {
		return nil, c.transportError(ctx, err)
	}
	if len(data) > maxBody {
		return nil, c.fail(mdsearch.KindUnavailable, "is --reranker a rerank endpoint?", "the answer is over %d MB", maxBody>>20)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, c.statusError(resp, data)
	}
	return data, nil
}

// transportError explains a request that got no answer.
func (c *client) transportError(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return c.fail(mdsearch.KindUnavailable, "raise --reranker-timeout (MDSEARCH_RERANKER_TIMEOUT), or serve a smaller model",
			"no answer within %v", c.opts.Timeout)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if u := errors.Unwrap(err); u != nil { // drop the *url.Error, which repeats the URL
		err = u
	}
	return c.fail(mdsearch.KindUnavailable, "start it, or drop --reranker (MDSEARCH_RERANKER)", "cannot reach the reranker: %v", err)
}

// statusErr is a server's refusal: its status and what it said.
type statusErr struct {
	status string
	code   int
	msg    string
}

func (e *statusErr) Error() string { return "the server answered " + e.status + ": " + e.msg }

// mentionsTexts reports a refusal that asks for the field "texts": TEI's
// answer to a Cohere-style body.
func mentionsTexts(err error) bool {
	var se *statusErr
	return errors.As(err, &se) && se.code >= 400 && se.code < 500 && strings.Contains(se.msg, "texts")
}

// statusError explains a non-200 answer.
func (c *client) statusError(resp *http.Response, body []byte) error {
	code := resp.StatusCode
	hint := ""
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		hint = "set MDSEARCH_RERANKER_KEY to a valid key"
	case code == http.StatusNotFound || code == http.StatusMethodNotAllowed:
		hint = "is --reranker a rerank endpoint? mdsearch posts to " + c.shown
	case code == http.StatusBadRequest || code == http.StatusUnprocessableEntity:
		hint = "check --reranker-api (auto, cohere or tei) and --reranker-model"
	case code == http.StatusTooManyRequests:
		hint = "the server is rate-limiting; try again later"
	case code >= 300 && code < 400:
		hint = "the server redirects to " + httpjson.Redact(resp.Header.Get("Location")) + ": give --reranker as the address it points to"
	case code == http.StatusRequestEntityTooLarge:
		hint = "the server takes fewer passages at once than mdsearch sends (up to 32): start it with a larger batch size (TEI: --max-client-batch-size 32)"
	case code >= 500:
		hint = "the server failed; check its logs"
	}
	msg := httpjson.Clip(serverMessage(c.masked(body)), 300)
	return c.fail(mdsearch.KindUnavailable, hint, "%w", &statusErr{resp.Status, code, msg})
}

// serverMessage pulls the error text out of the usual error bodies:
// {"error": "..."} (TEI), {"error": {"message": "..."}} (llama.cpp),
// {"message": "..."} (Cohere), {"detail": "..."} (Infinity); else it
// shows the start of the body.
func serverMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage
		Message string
		Detail  json.RawMessage
	}
	if json.Unmarshal(body, &v) == nil {
		var s string
		var inner struct{ Message string }
		switch {
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			return s
		case json.Unmarshal(v.Error, &inner) == nil && inner.Message != "":
			return inner.Message
		case v.Message != "":
			return v.Message
		case json.Unmarshal(v.Detail, &s) == nil && s != "":
			return s
		case len(v.Detail) > 0:
			return httpjson.Clip(string(v.Detail), 200)
		}
	}
	if s := strings.TrimSpace(string(body)); s != "" {
		return strconv.Quote(httpjson.Clip(s, 200))
	}
	return "(empty body)"
}

// decode reads the raw scores of a 200 answer, of either shape, placed by
// index, and says which shape it was and the scale that shape tells.
func (c *client) decode(body []byte, n int) (scores []float64, shape, known string, err error) {
	var list []ranked
	shape = TEI
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		// Raw: a field of another type than llama.cpp's must not make a
		// good answer unreadable.
		var obj struct {
			Results []ranked
			Object  json.RawMessage
			ID      json.RawMessage
		}
		if err := json.Unmarshal(trimmed, &obj); err != nil {
			return nil, "", "", c.garbage(body, err)
		}
		list, shape = obj.Results, Cohere
		if llamaCpp(obj.Object, obj.ID) {
			known = Logits
		}
	} else if err := json.Unmarshal(trimmed, &list); err != nil {
		return nil, "", "", c.garbage(body, err)
	}
	if list == nil {
		return nil, "", "", c.garbage(body, nil)
	}
	scores, err = c.place(list, n)
	return scores, shape, known, err
}

// place puts each raw score at its document's index; the documents the
// server left out get NaN: no score.
func (c *client) place(list []ranked, n int) ([]float64, error) {
	scores := make([]float64, n)
	for i := range scores {
		scores[i] = math.NaN()
	}
	for _, r := range list {
		i, s := r.Index, r.score()
		if i == nil || *i < 0 || *i >= n || !math.IsNaN(scores[*i]) {
			return nil, c.fail(mdsearch.KindUnavailable, "", "the answer has a missing, repeated or out-of-range index (%s) for %d passages", indexText(i), n)
		}
		if s == nil || math.IsNaN(*s) || math.IsInf(*s, 0) {
			return nil, c.fail(mdsearch.KindUnavailable, "", "the answer has no usable score for passage %d", *i)
		}
		scores[*i] = *s
	}
	return scores, nil
}

// garbage explains a 200 answer that is not a rerank answer.
func (c *client) garbage(body []byte, err error) error {
	what := `JSON with neither "results" nor a list of scores`
	if err != nil {
		what = "invalid JSON (" + err.Error() + ")"
	}
	return c.fail(mdsearch.KindUnavailable, "is --reranker a Cohere-style or TEI rerank endpoint? mdsearch posts to "+c.shown,
		"the server answered with %s; the body starts %s", what, strconv.Quote(httpjson.Clip(strings.TrimSpace(string(c.masked(body))), 120)))
}

// masked is a server's body with the API key hidden (httpjson.Mask),
// before any of it is cut for a message: a key cut in two would not be
// found whole.
func (c *client) masked(body []byte) []byte {
	return []byte(httpjson.Mask(string(body), c.opts.APIKey))
}

// fail builds an error naming the endpoint.
func (c *client) fail(kind mdsearch.Kind, hint, format string, args ...any) error {
	return mdsearch.Errorf(kind, "rerank", c.shown, hint, format, args...)
}

func indexText(i *int) string {
	if i == nil {
		return "none"
	}
	return strconv.Itoa(*i)
}
