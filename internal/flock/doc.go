// Package flock takes an exclusive advisory lock on an open file, waiting
// for another process that holds it.
//
// Under the pipeline (docs/architecture.md): the engine's index lock and
// setup's cache lock wait through it, so both poll, say once that they
// wait, and give up when their context ends, alike.
package flock
