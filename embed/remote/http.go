package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mdsearch/mdsearch/internal/httpjson"
)

// maxBody bounds an answer: a batch of 32 vectors of 4096 floats is ~3 MB.
const maxBody = 64 << 20

// attemptError is one failed request and whether another may succeed.
type attemptError struct {
	err        error
	retry      bool
	dial       bool          // no connection at all: retried only once, so a stopped server fails fast
	retryAfter time.Duration // from a Retry-After header; 0 if none
}

// post sends body as JSON under policy p, retrying what may be
// transient, and returns the body of the 200 answer.
func (e *Embedder) post(ctx context.Context, p policy, body []byte) ([]byte, error) {
	attempts := 1 + max(p.retries, 0)
	var last *attemptError
	for try := 0; try < attempts; try++ {
		if try > 0 {
			if last.retryAfter > min(p.maxWait, p.left()) {
				return nil, amend(last.err, "the server asks to wait %v", last.retryAfter)
			}
			wait := p.wait(try, last.retryAfter)
			if wait+minAttempt > p.left() { // no room for another answer
				return nil, gaveUp(last.err, try)
			}
			if err := sleep(ctx, wait); err != nil {
				return nil, err
			}
		}
		out, aerr := e.once(ctx, p, body)
		if aerr == nil {
			return out, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		last = aerr
		if !aerr.retry {
			return nil, aerr.err
		}
		if aerr.dial && try >= 1 {
			return nil, gaveUp(aerr.err, try+1)
		}
	}
	return nil, gaveUp(last.err, attempts)
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// once makes one request under p's per-request timeout and deadline.
func (e *Embedder) once(ctx context.Context, p policy, body []byte) ([]byte, *attemptError) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	if !p.deadline.IsZero() {
		var stop context.CancelFunc
		ctx, stop = context.WithDeadline(ctx, p.deadline)
		defer stop()
	}
	resp, data, err := httpjson.Post(ctx, e.opts.Client, e.endpoint, e.opts.APIKey, body, maxBody)
	if err != nil {
		return nil, e.transportError(ctx, p, err)
	}
	if len(data) > maxBody {
		return nil, &attemptError{err: e.fail(Failing, "lower the batch size (MDSEARCH_EMBED_BATCH)",
			"the answer is over %d MB", maxBody>>20)}
	}
	if resp.StatusCode == http.StatusOK {
		return data, nil
	}
	return nil, e.statusError(resp, data, p)
}

// transportError explains a request that got no answer. A search's
// query is not retried after one: its budget is spent, or the server is
// not there.
func (e *Embedder) transportError(ctx context.Context, p policy, err error) *attemptError {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		if p.query {
			return &attemptError{err: e.fail(NoAnswer,
				"raise MDSEARCH_EMBED_QUERY_TIMEOUT if the server is only slow, as while it loads the model",
				"the server did not answer within %v, the time a search waits for its query's vector", e.opts.QueryTimeout)}
		}
		return &attemptError{retry: true, err: e.fail(NoAnswer,
			"raise MDSEARCH_EMBED_TIMEOUT or lower MDSEARCH_EMBED_BATCH",
			"no answer within %v", p.timeout)}
	}
	hint := "check that the server runs and --embed-url (MDSEARCH_EMBED_URL) points at it"
	if e.opts.API == Ollama {
		hint = "start Ollama (`ollama serve`), or point --embed-url (MDSEARCH_EMBED_URL) at it"
	}
	var op *net.OpError
	dial := errors.As(err, &op) && op.Op == "dial"
	return &attemptError{retry: !(p.query && dial), dial: dial, err: e.fail(NoAnswer, hint,
		"cannot reach the %s server: %v", e.opts.API, unwrapURL(err))}
}

// unwrapURL drops the *url.Error wrapper, which repeats the URL.
func unwrapURL(err error) error {
	if u := errors.Unwrap(err); u != nil {
		return u
	}
	return err
}

// statusError explains a non-200 answer; 429 and 5xx may be retried.
func (e *Embedder) statusError(resp *http.Response, body []byte, p policy) *attemptError {
	code := resp.StatusCode
	msg := e.serverMessage(body)
	ae := &attemptError{retry: code == http.StatusTooManyRequests || code >= 500}
	if ae.retry {
		ae.retryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	}
	hint, cause := "", Refused
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		hint, cause = "set MDSEARCH_EMBED_API_KEY (or OPENAI_API_KEY) to a valid key", KeyRefused
		if e.opts.API == Ollama { // OPENAI_API_KEY is never sent to Ollama
			hint = "set MDSEARCH_EMBED_API_KEY to a valid key"
		}
	case (code == http.StatusBadRequest || code == http.StatusRequestEntityTooLarge || code == http.StatusUnprocessableEntity) && overWindow(msg):
		hint = fmt.Sprintf("the model's window is under the %d tokens mdsearch cuts texts to: set MDSEARCH_EMBED_MAX_TOKENS to its window (in tokens) and run `mdsearch index` again; the index keeps it for later commands with this model", e.opts.MaxTokens)
	case code == http.StatusNotFound && strings.Contains(msg, "model"):
		hint, cause = "check --embed-model (MDSEARCH_EMBED_MODEL)", NoSuchModel
		if e.opts.API == Ollama {
			hint = "run `ollama pull " + e.opts.Model + "`, or pick another --embed-model"
		}
	case code == http.StatusNotFound || code == http.StatusMethodNotAllowed:
		hint, cause = fmt.Sprintf("is --embed-url an %s server? mdsearch posts to %s", apiTitle(e.opts.API), e.shown), NotEmbeddings
	case code >= 300 && code < 400:
		hint, cause = "the server redirects to "+httpjson.Redact(resp.Header.Get("Location"))+": give --embed-url as the address it points to", NotEmbeddings
	case code == http.StatusTooManyRequests && p.query:
		hint, cause = "the server is rate-limiting; try again later", Busy
	case code == http.StatusTooManyRequests:
		hint, cause = "the server is rate-limiting; lower MDSEARCH_EMBED_BATCH or try again later", Busy
	case code >= 500:
		hint, cause = "the server failed; check its logs", Failing
	}
	ae.err = e.fail(cause, hint, "the server answered %s: %s", resp.Status, msg)
	return ae
}

// overWindow reports whether a server's refusal says a text was longer
// than its model takes, as OpenAI ("maximum context length"), Ollama
// ("exceeds the context length"), TEI ("must have less than 512 tokens")
// and llama.cpp ("input is too large") word it.
func overWindow(msg string) bool {
	m := strings.ToLower(msg)
	has := func(s ...string) bool {
		return slices.ContainsFunc(s, func(s string) bool { return strings.Contains(m, s) })
	}
	return has("context length", "context window", "too long", "input is too large") ||
		has("token") && has("maximum", "less than", "exceed", "too many")
}

// serverMessage pulls the error text out of an Ollama ({"error": "..."})
// or OpenAI ({"error": {"message": "..."}}) error body, else shows the
// start of the body; the API key is masked before the body is cut, so
// no part of it shows.
func (e *Embedder) serverMessage(body []byte) string {
	var withText struct{ Error string }
	var withObject struct{ Error struct{ Message string } }
	switch {
	case json.Unmarshal(body, &withText) == nil && withText.Error != "":
		return e.mask(withText.Error)
	case json.Unmarshal(body, &withObject) == nil && withObject.Error.Message != "":
		return e.mask(withObject.Error.Message)
	}
	if s := e.mask(strings.TrimSpace(string(body))); s != "" {
		return strconv.Quote(clip(s, 200))
	}
	return "(empty body)"
}

// parseRetryAfter reads Retry-After in seconds or as an HTTP date.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// clip shortens s to at most n bytes, on a rune boundary.
func clip(s string, n int) string { return httpjson.Clip(s, n) }

func apiTitle(api API) string {
	if api == Ollama {
		return "Ollama"
	}
	return "OpenAI-compatible"
}
