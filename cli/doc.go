// Package cli is the command-line adapter: one Run function per subcommand,
// each parsing its own flags and calling the engine. It ranks, dedups and
// slices nothing itself.
//
// Room 7 of the pipeline (docs/architecture.md): an adapter, for people at
// a terminal and for scripts.
package cli
