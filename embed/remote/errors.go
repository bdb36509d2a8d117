package remote

import (
	"errors"
	"fmt"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/httpjson"
)

// Cause is what kind of failure a remote embedder's error is, so that a
// summary can name the fix: a server to start, a key, a model or a URL.
type Cause int

const (
	Unknown        Cause = iota // not a remote embedder's error
	NoAnswer                    // no connection, or no answer in time
	Failing                     // it answered errors only: 5xx, an answer too large
	Busy                        // 429: it is rate-limiting
	KeyRefused                  // 401 or 403: the API key is missing or wrong
	NoSuchModel                 // a 404 that names the model
	NotEmbeddings               // an answer that is not the API's embeddings (another server, a wrong path)
	WrongDimension              // vectors of another length than the model's known one
	Refused                     // another 4xx: the server refused the request
)

// CauseOf is the Cause of err, or Unknown when no remote embedder made it.
func CauseOf(err error) Cause {
	var f *failure
	if errors.As(err, &f) {
		return f.cause
	}
	return Unknown
}

// failure is the message of an error with its Cause; an *mdsearch.Error
// wraps it, so the kind, the endpoint and the hint stay where they are.
type failure struct {
	cause Cause
	err   error
}

func (f *failure) Error() string { return f.err.Error() }
func (f *failure) Unwrap() error { return f.err }

// fail builds an error naming the endpoint. Every failure of the server
// leaves the model unavailable: a search falls back to keyword results.
func (e *Embedder) fail(cause Cause, hint, format string, args ...any) error {
	return &mdsearch.Error{Op: "embed", Path: e.shown, Kind: mdsearch.KindUnavailable, Hint: hint,
		Err: &failure{cause, fmt.Errorf(format, args...)}}
}

// amend adds to err's message, keeping its one "embed URL:" prefix and
// its one hint: formatting err into a new fail repeated both.
func amend(err error, format string, args ...any) error {
	if me, ok := err.(*mdsearch.Error); ok {
		c := *me
		c.Err = fmt.Errorf("%w; "+format, append([]any{me.Err}, args...)...)
		return &c
	}
	return fmt.Errorf("%w; "+format, append([]any{err}, args...)...)
}

// gaveUp adds the number of attempts to err's message.
func gaveUp(err error, attempts int) error {
	if attempts < 2 {
		return err
	}
	return amend(err, "gave up after %d attempts", attempts)
}

// mask hides the API key in text taken from the server's answer
// (httpjson.Mask).
func (e *Embedder) mask(text string) string { return httpjson.Mask(text, e.opts.APIKey) }
