package testenv

import (
	"fmt"
	"testing"
)

// recorder is a testing.TB that records what a helper does with it.
type recorder struct {
	testing.TB
	fatal, logged, skipped bool
}

func (r *recorder) Helper()                  {}
func (r *recorder) Name() string             { return "FuzzX" }
func (r *recorder) Fatalf(string, ...any)    { r.fatal = true }
func (r *recorder) Log(...any)               { r.logged = true }
func (r *recorder) Skip(...any)              { r.skipped = true }
func (r *recorder) Skipf(f string, a ...any) { r.Skip(fmt.Sprintf(f, a...)) }

// Missing seeds fail in CI and elsewhere are told of, not skipped: the
// fuzz target fuzzes on from the seeds it has.
func TestSeedsAbsent(t *testing.T) {
	for _, ci := range []string{"true", ""} {
		t.Run("CI="+ci, func(t *testing.T) {
			t.Setenv("CI", ci)
			r := &recorder{TB: t}
			SeedsAbsent(r, "spec examples absent")
			if r.fatal != (ci == "true") || r.skipped || r.logged == (ci == "true") {
				t.Errorf("fatal %v, skipped %v, logged %v", r.fatal, r.skipped, r.logged)
			}
		})
	}
}
