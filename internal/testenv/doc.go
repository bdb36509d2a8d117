// Package testenv holds the one rule for tests that need something from
// outside the repository (model assets, npm, Chromium, the shared corpora):
// where it is absent they skip, except in CI, where its absence is a failure.
// It also holds the helpers tests of several packages share (files.go).
//
// Outside the pipeline (docs/architecture.md): tests of every room use it.
package testenv
