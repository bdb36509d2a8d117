//go:build !linux

package store

// notByMode says why path cannot be written when its mode is not the
// reason; elsewhere than on Linux the hint names the mode alone.
func notByMode(string) string { return "" }

// appendOnly reports whether path may only be appended to: known on Linux.
func appendOnly(string) bool { return false }
