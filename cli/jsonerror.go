package cli

import (
	"errors"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch"
)

// jsonError is what a command run with --json prints on stdout when it
// fails, so a script reads the failure as it reads an answer; the exit
// code and the message on stderr are as without --json.
type jsonError struct {
	Error jsonErrorBody `json:"error"`
}

type jsonErrorBody struct {
	// Kind is "usage" (exit 2), "interrupted" (exit 130), or the kind of
	// the engine's error (exit 1): invalid, not_found, forbidden,
	// unavailable or internal.
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

// wantsJSON reports whether a command's arguments ask for --json (before
// a "--" that ends the flags).
func wantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		name, val, set := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "json" {
			continue
		}
		if !set {
			return true
		}
		on, err := strconv.ParseBool(val)
		return err == nil && on
	}
	return false
}

// errorJSON is err as jsonError describes it, for the command cmd.
func errorJSON(cmd, kind string, err error) jsonError {
	var me *mdsearch.Error
	if !errors.As(err, &me) {
		if kind == "" {
			kind = mdsearch.KindInternal.String() // unclassified, as REST names it
		}
		return jsonError{jsonErrorBody{Kind: kind, Message: withoutOp(cmd, err)}}
	}
	if kind == "" {
		kind = me.Kind.String()
	}
	bare := *me
	bare.Hint = ""
	msg := withoutOp(cmd, &bare)
	if err.Error() != me.Error() { // wrapped: keep what the wrapping says
		msg = withoutOp(cmd, err)
	}
	return jsonError{jsonErrorBody{Kind: kind, Message: msg, Hint: me.Hint}}
}
