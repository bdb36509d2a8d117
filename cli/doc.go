// Package cli is the command-line adapter: one Run function per subcommand,
// each parsing its own flags and calling the engine. It ranks, dedups and
// slices nothing itself.
package cli
