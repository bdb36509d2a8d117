package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

// Env is what a subcommand may touch of the outside world, so tests can run
// subcommands in-process.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
}

// OSEnv is the real process environment.
func OSEnv() *Env {
	return &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
}

// command is one subcommand: Run parses its own flags from args.
type command struct {
	summary string
	run     func(ctx context.Context, env *Env, args []string) error
}

var commands = map[string]command{
	"chunk":  {"split notes into chunks and print them", runChunk},
	"setup":  {"fetch and verify the model and ONNX Runtime into the cache", runSetup},
	"embed":  {"embed texts with the configured model", runEmbed},
	"eval":   {"measure retrieval quality against labelled queries", runEval},
	"index":  {"index a folder of notes", runIndex},
	"search": {"search the index", runSearch},
	"read":   {"print a note, or one section of it", runRead},
	"status": {"show what the index holds", runStatus},
	"mcp":    {"serve the index to agents over MCP (stdio, or HTTP with --http)", runMCP},
	"serve":  {"serve the REST API and the search page", runServe},
	"watch":  {"keep the index up to date as notes are saved", runWatch},
}

// errUsage marks a bad command line; the message was already printed.
var errUsage = errors.New("usage")

// Main runs the command line args (without the program name) and returns the
// process exit code: 0 on success, 1 on failure, 2 on a usage error.
func Main(ctx context.Context, env *Env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(env.Stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintln(env.Stdout, "mdsearch", Version)
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "mdsearch: unknown command %q\n\n", args[0])
		usage(env.Stderr)
		return 2
	}
	err := cmd.run(ctx, env, args[1:])
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	case errors.Is(err, errFailed):
		return 1
	default:
		fmt.Fprintf(env.Stderr, "mdsearch %s: %v\n", args[0], err)
		return 1
	}
}

// errFailed means the command already reported its errors and should exit 1.
var errFailed = errors.New("failed")

// Version is set at build time with -ldflags "-X ...cli.Version=...".
var Version = "dev"

func usage(w io.Writer) {
	fmt.Fprintln(w, "mdsearch: section-precise search over folders of markdown")
	fmt.Fprintln(w, "\nUsage: mdsearch COMMAND [flags] [args]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'mdsearch COMMAND -h' for a command's flags.")
}

// newFlags makes a FlagSet that prints its usage to env.Stderr.
func newFlags(env *Env, name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "Usage: mdsearch %s [flags] %s\n\nFlags:\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses flags, allowing flags after positional arguments
// ("mdsearch search foo -n 3"), and maps failures to errUsage.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, errUsage
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// parseArgs parses flags like parse and checks the count of positional
// arguments: exactly want, or at least one when want is -1.
func parseArgs(fs *flag.FlagSet, args []string, want int) ([]string, error) {
	pos, err := parse(fs, args)
	if err != nil {
		return nil, err
	}
	if (want < 0 && len(pos) == 0) || (want >= 0 && len(pos) != want) {
		fs.Usage()
		return nil, errUsage
	}
	return pos, nil
}
