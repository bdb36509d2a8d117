//go:build race

package testenv

// Race reports whether the race detector is on: it slows code several
// times, so tests that bound a time scale the bound by RaceSlowdown.
const Race = true
