package mdsearch

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// ErrIndexReplaced is why a long-running process stops using its index:
// the index file was deleted, or replaced by another at the same path,
// while it had it open. Test with errors.Is.
var ErrIndexReplaced = errors.New("the index file was deleted or replaced while this process had it open")

// Error is a failure a user can act on: what failed, where, and what to do.
type Error struct {
	Op   string // what was being done, e.g. "read", "embed"
	Path string // the file or resource involved, if any
	Err  error
	Hint string // what to do about it, if anything
	Kind Kind
}

// Kind classifies an Error so adapters can map it (e.g. to HTTP status codes).
type Kind int

const (
	KindInternal    Kind = iota
	KindInvalid          // bad input from the caller
	KindNotFound         // no such note, section or collection
	KindForbidden        // a path outside the vault
	KindUnavailable      // a missing asset or service
)

// String names a kind as the JSON errors of the REST API and of the
// command line's --json spell it.
func (k Kind) String() string {
	switch k {
	case KindInvalid:
		return "invalid"
	case KindNotFound:
		return "not_found"
	case KindForbidden:
		return "forbidden"
	case KindUnavailable:
		return "unavailable"
	}
	return "internal"
}

func (e *Error) Error() string {
	msg := e.Op
	if e.Path != "" {
		msg += " " + ShortPath(e.Path)
	}
	if e.Err != nil && msg != "" {
		msg += ": " + e.Err.Error()
	} else if e.Err != nil { // no operation: the message alone (a request field's check)
		msg = e.Err.Error()
	}
	if e.Hint != "" {
		msg += " (" + e.Hint + ")"
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// ShortPath is path for a message: whole up to 160 bytes, else its first
// 100 and last 40 with "…" between, so a hostile 200 KB path makes no
// 200 KB message and the name's end, its file, still shows.
func ShortPath(path string) string {
	const head, tail = 100, 40
	if len(path) <= 160 {
		return path
	}
	h, t := head, len(path)-tail
	for h > 0 && !utf8.RuneStart(path[h]) { // cut between characters
		h--
	}
	for t < len(path) && !utf8.RuneStart(path[t]) {
		t++
	}
	return path[:h] + "…" + path[t:]
}

// Errorf builds an *Error of the given kind.
func Errorf(kind Kind, op, path, hint, format string, args ...any) *Error {
	return &Error{Op: op, Path: path, Kind: kind, Hint: hint, Err: fmt.Errorf(format, args...)}
}

// HintOf is the hint of err, or "".
func HintOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Hint
	}
	return ""
}

// KindOf reports the Kind of err, or KindInternal.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindInternal
}
