//go:build !unix

package assets

import "context"

// locking says setups of one cache take turns here: they do not, so none
// may take a download folder it finds for a leftover.
const locking = false

// lockHome does nothing where flock is unavailable: two setups at once
// may then fail, and a rerun finishes the install.
func lockHome(context.Context, string, func(string, ...any)) (func(), error) { return func() {}, nil }
