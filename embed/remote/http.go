package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mdsearch/mdsearch"
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

// post sends body as JSON, retrying what may be transient, and returns
// the body of the 200 answer.
func (e *Embedder) post(ctx context.Context, body []byte) ([]byte, error) {
	attempts := 1 + max(e.opts.Retries, 0)
	var last *attemptError
	for try := 0; try < attempts; try++ {
		if try > 0 {
			wait := e.backoff(try, last.retryAfter)
			if last.retryAfter > e.opts.MaxBackoff {
				return nil, e.fail(mdsearch.KindUnavailable, "try again later",
					"%v; the server asks to wait %v", last.err, last.retryAfter)
			}
			if err := sleep(ctx, wait); err != nil {
				return nil, err
			}
		}
		out, aerr := e.once(ctx, body)
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

// gaveUp adds the number of attempts to err's message.
func gaveUp(err error, attempts int) error {
	if attempts < 2 {
		return err
	}
	if me, ok := err.(*mdsearch.Error); ok {
		c := *me
		c.Err = fmt.Errorf("%w; gave up after %d attempts", me.Err, attempts)
		return &c
	}
	return fmt.Errorf("%w; gave up after %d attempts", err, attempts)
}

// backoff is the wait before attempt try (1-based among retries): the
// server's Retry-After if it sent one, else Backoff doubled per retry,
// capped at MaxBackoff, with the upper half jittered so clients spread out.
func (e *Embedder) backoff(try int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return retryAfter
	}
	d := e.opts.Backoff << (try - 1)
	if d > e.opts.MaxBackoff || d <= 0 {
		d = e.opts.MaxBackoff
	}
	return d/2 + rand.N(d/2+1)
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

// once makes one request under the per-request timeout.
func (e *Embedder) once(ctx context.Context, body []byte) ([]byte, *attemptError) {
	ctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	resp, data, err := httpjson.Post(ctx, e.opts.Client, e.endpoint, e.opts.APIKey, body, maxBody)
	if err != nil {
		return nil, e.transportError(ctx, err)
	}
	if len(data) > maxBody {
		return nil, &attemptError{err: e.fail(mdsearch.KindUnavailable, "lower the batch size (MDSEARCH_EMBED_BATCH)",
			"the answer is over %d MB", maxBody>>20)}
	}
	if resp.StatusCode == http.StatusOK {
		return data, nil
	}
	return nil, e.statusError(resp, data)
}

// transportError explains a request that got no answer.
func (e *Embedder) transportError(ctx context.Context, err error) *attemptError {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &attemptError{retry: true, err: e.fail(mdsearch.KindUnavailable,
			"raise MDSEARCH_EMBED_TIMEOUT or lower MDSEARCH_EMBED_BATCH",
			"no answer within %v", e.opts.Timeout)}
	}
	hint := "check that the server runs and --embed-url (MDSEARCH_EMBED_URL) points at it"
	if e.opts.API == Ollama {
		hint = "start Ollama (`ollama serve`), or point --embed-url (MDSEARCH_EMBED_URL) at it"
	}
	var op *net.OpError
	return &attemptError{retry: true, dial: errors.As(err, &op) && op.Op == "dial", err: e.fail(mdsearch.KindUnavailable, hint,
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
func (e *Embedder) statusError(resp *http.Response, body []byte) *attemptError {
	code := resp.StatusCode
	msg := serverMessage(body)
	ae := &attemptError{retry: code == http.StatusTooManyRequests || code >= 500}
	if ae.retry {
		ae.retryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	}
	hint := ""
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		hint = "set MDSEARCH_EMBED_API_KEY (or OPENAI_API_KEY) to a valid key"
	case code == http.StatusNotFound && strings.Contains(msg, "model"):
		hint = "check --embed-model (MDSEARCH_EMBED_MODEL)"
		if e.opts.API == Ollama {
			hint = "run `ollama pull " + e.opts.Model + "`, or pick another --embed-model"
		}
	case code == http.StatusNotFound || code == http.StatusMethodNotAllowed:
		hint = fmt.Sprintf("is --embed-url an %s server? mdsearch posts to %s", apiTitle(e.opts.API), e.endpoint)
	case code == http.StatusTooManyRequests:
		hint = "the server is rate-limiting; lower MDSEARCH_EMBED_BATCH or try again later"
	case code >= 500:
		hint = "the server failed; check its logs"
	}
	ae.err = e.fail(mdsearch.KindUnavailable, hint, "the server answered %s: %s", resp.Status, msg)
	return ae
}

// serverMessage pulls the error text out of an Ollama ({"error": "..."})
// or OpenAI ({"error": {"message": "..."}}) error body, else shows the
// start of the body.
func serverMessage(body []byte) string {
	var withText struct{ Error string }
	var withObject struct{ Error struct{ Message string } }
	switch {
	case json.Unmarshal(body, &withText) == nil && withText.Error != "":
		return withText.Error
	case json.Unmarshal(body, &withObject) == nil && withObject.Error.Message != "":
		return withObject.Error.Message
	}
	if s := strings.TrimSpace(string(body)); s != "" {
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
