//go:build !linux

package testenv

import "errors"

// setImmutable would set the file's immutable attribute; only Linux's is
// known here.
func setImmutable(string, bool) error {
	return errors.New("no immutable attribute known on this system")
}
