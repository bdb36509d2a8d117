package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
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

// SeedsAbsent reports that a fuzz target's seeds from outside the
// repository could not be loaded: in CI a failure; elsewhere a note on
// standard error, seen without -v as a skip is not, and the target fuzzes
// on from the seeds it has.
func SeedsAbsent(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		tb.Fatalf("%s (required when CI=true)", msg)
		return
	}
	fmt.Fprintf(os.Stderr, "%s: %s; fuzzing only the seeds in the repository\n", tb.Name(), msg)
	tb.Log(msg)
}

// CacheHome is where mdsearch keeps downloaded assets: $MDSEARCH_HOME,
// else mdsearch in the user's cache folder.
func CacheHome() string {
	if h := os.Getenv("MDSEARCH_HOME"); h != "" {
		return h
	}
	if x := os.Getenv("XDG_CACHE_HOME"); x != "" {
		return filepath.Join(x, "mdsearch")
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "mdsearch")
}

// Corpora is the path of the shared corpora joined with parts:
// $MDSEARCH_CORPORA when set, else shared/corpora beside the repository
// (as CI lays them out), found from the test's folder up to go.mod.
func Corpora(parts ...string) string {
	dir := os.Getenv("MDSEARCH_CORPORA")
	if dir == "" {
		dir = filepath.Join(moduleRoot(), "..", "shared", "corpora")
	}
	return filepath.Join(append([]string{dir}, parts...)...)
}

// NeedCorpora is Corpora(parts...) for a test that cannot run without
// it: where it is missing (a clone without shared/corpora beside it) the
// test ends by Absent, skipped locally and failed in CI.
func NeedCorpora(tb testing.TB, parts ...string) string {
	tb.Helper()
	p := Corpora(parts...)
	if _, err := os.Stat(p); err != nil {
		Absent(tb, "the shared corpora are missing (%v): put shared/corpora beside the repository, or set MDSEARCH_CORPORA", err)
	}
	return p
}

// moduleRoot is the nearest folder up from the working directory that
// holds go.mod (a test runs in its package's folder), or ".".
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "."
		}
		dir = up
	}
}

// RaceSlowdown is what a bound on time is multiplied by: 10 under the race
// detector, else 1.
func RaceSlowdown() time.Duration {
	if Race {
		return 10
	}
	return 1
}
