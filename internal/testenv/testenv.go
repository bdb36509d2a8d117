// Package testenv holds the one rule for tests that need something from
// outside the repository (model assets, npm, Chromium, the shared corpora):
// where it is absent they skip, except in CI, where its absence is a failure.
// It also holds the helpers tests of several packages share (files.go).
package testenv

import (
	"fmt"
	"os"
	"testing"
)

// InCI reports whether the tests run in CI (CI=true), where every asset
// must be present.
func InCI() bool { return os.Getenv("CI") == "true" }

// Absent ends the test for want of something it needs: it skips locally,
// and fails in CI, so CI can never pass by skipping.
func Absent(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		tb.Fatalf("%s (required when CI=true)", msg)
	}
	tb.Skip(msg)
}
