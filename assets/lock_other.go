//go:build !unix

package assets

import "context"

// lockHome does nothing where flock is unavailable: two setups at once
// may then fail, and a rerun finishes the install.
func lockHome(context.Context, string, func(string, ...any)) (func(), error) { return func() {}, nil }
