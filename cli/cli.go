package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// Env is what a subcommand may touch of the outside world, so tests can run
// subcommands in-process.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	cmd    string        // the running subcommand, for the prefix of what it says
	flags  *flag.FlagSet // its flags, once made (commands reads --index)
}

// logger is what serve, mcp and watch log with while they run: one
// "time=… level=…" line an event on stderr, the engine's notices too.
func (env *Env) logger() *slog.Logger { return slog.New(slog.NewTextHandler(env.Stderr, nil)) }

// say prints one line on stderr in the one style of every diagnostic:
// "mdsearch: COMMAND: ...".
func (env *Env) say(format string, args ...any) {
	prefix := "mdsearch: "
	if env.cmd != "" {
		prefix += env.cmd + ": "
	}
	// A line break inside (a file name may hold one) starts an indented
	// line, which cannot pass for a message of its own.
	msg := strings.ReplaceAll(env.commands(fmt.Sprintf(format, args...)), "\n", "\n  ")
	fmt.Fprint(screen(env.Stderr), prefix+msg+"\n") // names and notes may hold escapes
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

// stopOnPipe are the commands a reader leaving their pipe (`mdsearch setup
// | head -1`) stops as Ctrl-C does, so they clean up what they fetched
// (setup) or built (eval's throwaway indexes); the others die of SIGPIPE
// quietly, as a filter should.
var stopOnPipe = map[string]bool{"setup": true, "eval": true}

var commands = map[string]command{
	"chunk":   {"split notes into chunks and print them", runChunk},
	"drop":    {"remove a collection from the index (its notes stay on disk)", runDrop},
	"setup":   {"fetch and verify the model and ONNX Runtime into the cache", runSetup},
	"embed":   {"embed texts with the configured model", runEmbed},
	"eval":    {"measure retrieval quality against labelled queries", runEval},
	"index":   {"index a folder of notes", runIndex},
	"search":  {"search the index; with --tag, --path-prefix or --where alone, list the notes they keep", runSearch},
	"read":    {"print a note, or one section of it", runRead},
	"status":  {"show what the index holds", runStatus},
	"mcp":     {"serve the index to agents over MCP (stdio, or HTTP with --http)", runMCP},
	"serve":   {"serve the REST API and the search page", runServe},
	"watch":   {"keep the index up to date as notes are saved", runWatch},
	"version": {"print the version", runVersion},
}

// Main runs the command line args (without the program name) and returns the
// process exit code: 0 on success, 1 on failure, 2 on a usage error, 130
// when a signal stopped work in the middle (index, watch). A command whose
// output could not be written (a full disk) fails.
func Main(ctx context.Context, env *Env, args []string) int {
	out := &errWriter{w: env.Stdout}
	e := *env
	e.Stdout = out
	code := runCommand(ctx, &e, args)
	if code == 0 && out.err != nil {
		name := "mdsearch"
		if len(args) > 0 {
			name += ": " + args[0]
		}
		fmt.Fprintf(env.Stderr, "%s: %v\n", name, out.err)
		return 1
	}
	return code
}

// errWriter keeps the first error of the writes to w, and counts them.
type errWriter struct {
	w      io.Writer
	err    error
	writes int
}

func (e *errWriter) Write(p []byte) (int, error) {
	e.writes++
	n, err := e.w.Write(p)
	if err != nil && e.err == nil {
		e.err = err
	}
	return n, err
}

// runCommand is Main before its check of the output.
func runCommand(ctx context.Context, env *Env, args []string) int {
	if len(args) == 2 && args[0] == "help" {
		if _, ok := commands[args[1]]; ok { // "help search" is "search -h"
			args = []string{args[1], "-h"}
		}
	}
	if len(args) == 0 {
		usage(env.Stderr) // not asked for: a mistake
		return 2
	}
	if args[0] == "help" && len(args) > 1 && !isHelp(args[1]) {
		fmt.Fprintf(env.Stderr, "mdsearch: help: unknown command %q\n\n", args[1])
		usage(env.Stderr)
		return 2
	}
	if isHelp(args[0]) {
		usage(env.Stdout)
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" || args[0] == "-v" || args[0] == "-V" {
		args[0] = "version" // what other tools answer to
	}
	cmd, ok := commands[args[0]]
	if !ok && strings.HasPrefix(args[0], "-") {
		fmt.Fprintf(env.Stderr, "mdsearch: flags go after the command (mdsearch COMMAND %s …), not before it\n\n", args[0])
		usage(env.Stderr)
		return 2
	}
	if !ok {
		fmt.Fprintf(env.Stderr, "mdsearch: unknown command %q%s\n\n", args[0], nearestCommand(args[0]))
		usage(env.Stderr)
		return 2
	}
	cmdEnv := *env
	cmdEnv.cmd = args[0]
	if stopOnPipe[args[0]] {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, syscall.SIGPIPE)
		defer stop()
	}
	err := cmd.run(ctx, &cmdEnv, args[1:])
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		cmdEnv.say("%s", ue.msg)
		fmt.Fprintf(env.Stderr, "Run 'mdsearch %s -h' for usage.\n", args[0])
		sayJSON(&cmdEnv, args, jsonError{jsonErrorBody{Kind: "usage", Message: ue.msg, Hint: "run 'mdsearch " + args[0] + " -h' for usage"}})
		return 2
	case errors.Is(err, errFailed):
		return 1
	case ctx.Err() != nil:
		// Ctrl-C: say so, not which step saw the cancel. Index runs commit
		// as they go, so what was done stays.
		hint := interruptedHint[args[0]]
		var l *leaves
		if errors.As(err, &l) {
			hint = l.hint
		}
		cmdEnv.say("interrupted%s", hint)
		sayJSON(&cmdEnv, args, jsonError{jsonErrorBody{Kind: "interrupted", Message: "interrupted" + hint}})
		return 130
	default:
		cmdEnv.say("%s", withoutOp(args[0], err))
		sayJSON(&cmdEnv, args, errorJSON(args[0], "", err))
		return 1
	}
}

// isHelp reports whether arg asks for the general help: "help", "-h",
// "--help" ("help -h" and "help help" too).
func isHelp(arg string) bool { return arg == "help" || arg == "-h" || arg == "--help" }

// sayJSON prints a failure on stdout as JSON when the command was given
// --json and printed nothing there yet: a command that failed after its
// answer (index --json, with one collection's folder gone) keeps stdout
// one JSON document.
func sayJSON(env *Env, args []string, e jsonError) {
	if w, ok := env.Stdout.(*errWriter); ok && w.writes > 0 {
		return
	}
	if wantsJSON(args[1:]) {
		e.Error.Message, e.Error.Hint = env.commands(e.Error.Message), env.commands(e.Error.Hint)
		printJSON(env, e)
	}
}

// interruptedHint says what an interrupted command leaves behind.
var interruptedHint = map[string]string{
	"index": ": the index keeps what was done; run the same command again to finish",
	"eval":  ": nothing was written",
	"setup": ": what was installed stays; run `mdsearch setup` again to finish",
}

// leaves is an interrupted command's error that says what it leaves,
// where interruptedHint's word for the command would not (index --full).
type leaves struct {
	err  error
	hint string
}

func (l *leaves) Error() string { return l.err.Error() }
func (l *leaves) Unwrap() error { return l.err }

// withoutOp is err's message without the operation when it is the
// command's own name, which the diagnostic's prefix already says.
func withoutOp(cmd string, err error) string {
	var me *mdsearch.Error
	if errors.As(err, &me) && me.Op == cmd && err.Error() == me.Error() {
		op := *me
		op.Op = ""
		return strings.TrimPrefix(strings.TrimPrefix(op.Error(), " "), ": ")
	}
	return strings.TrimPrefix(err.Error(), cmd+": ")
}

// requestError makes the engine's rejection of a request field given on
// the command line (KindInvalid, naming no file: a bad mode, count or
// filter, an empty path) a usage error, which exits 2; other errors, such
// as a note over the size limit, pass through.
func requestError(cmd string, err error) error {
	var me *mdsearch.Error
	if err == nil || !errors.As(err, &me) || me.Kind != mdsearch.KindInvalid || me.Path != "" {
		return err
	}
	return usagef("%s", withoutOp(cmd, err))
}

// printJSON writes v to stdout as indented JSON, as every --json does.
func printJSON(env *Env, v any) error {
	enc := json.NewEncoder(env.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// usageError is a bad command line: Main names it and exits 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// errFailed means the command already reported its errors and should exit 1.
var errFailed = errors.New("failed")

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
	fmt.Fprintln(w, "\nTo start: mdsearch setup, then mdsearch index DIR, then mdsearch search QUERY.")
	fmt.Fprintln(w, "Run 'mdsearch COMMAND -h' (or 'mdsearch help COMMAND') for a command's flags.")
}

// flagSet reports whether the command line set flag name, even to "".
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// newFlags makes a FlagSet whose -h prints its usage (the command, its
// args, and about: what it does, where its flags do not say) and flags.
func newFlags(env *Env, name, args string, about ...string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	env.flags = fs
	fs.SetOutput(env.Stderr)
	fs.Usage = func() { // asked for (-h), so on stdout: "mdsearch search -h | less"
		fmt.Fprintln(env.Stdout, strings.TrimSpace("Usage: mdsearch "+name+" [flags] "+args))
		for _, p := range about {
			fmt.Fprintf(env.Stdout, "\n%s\n", p)
		}
		fmt.Fprint(env.Stdout, "\nFlags:\n")
		out := fs.Output()
		fs.SetOutput(env.Stdout)
		fs.PrintDefaults()
		fs.SetOutput(out)
	}
	return fs
}

// parse parses flags, allowing flags after positional arguments
// ("mdsearch search foo -n 3"). A bad flag is a usageError; the flag
// package's own message and usage dump are silenced so Main reports it in
// the one style.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	counted := countSets(fs)
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	restore := func() { fs.Usage = usage; fs.SetOutput(out); uncount(fs) }
	defer restore()
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				restore()
				fs.Usage()
				return nil, err
			}
			name, unknown := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
			if unknown && (!flagShaped.MatchString(name) || fs.Name() == "search" && len(pos) == 0 && excludedWord.MatchString(name)) {
				// "-path:Archive", "-[status:done] words" or "->": a
				// query's operator or symbol, not a flag; so is "-draft"
				// alone, a list of the notes without the word.
				return nil, usagef("%v (a query that starts with '-' goes last, after the flags and --: mdsearch %s [flags] -- %q)", err, fs.Name(), "-"+name)
			}
			if unknown && fs.Name() == "search" && len(pos) > 0 && excludedWord.MatchString(name) {
				// "budget -draft": a word the query leaves out, typed as
				// one more argument.
				return nil, usagef("%v (to leave out the word %s, give the whole query as one argument: mdsearch search [flags] %q)", err, name, strings.Join(pos, " ")+" -"+name)
			}
			if f, v, ok := gluedValue(fs, name); unknown && ok {
				return nil, usagef("%v (a flag's value comes after a space: -%s %s)", err, f, v)
			}
			return nil, usagef("%v", intFlagError(fs, err))
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), givenOnce(counted) // after "--" nothing is a flag
		}
		args = rest
		if len(args) == 0 {
			return pos, givenOnce(counted)
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// gluedValue splits "n1" into the flag n and its value 1 when n is a
// flag that takes a value: "-n1", as head takes it, which the flag
// package reads as a flag named n1.
func gluedValue(fs *flag.FlagSet, name string) (flagName, value string, ok bool) {
	i := strings.IndexFunc(name, func(r rune) bool { return r >= '0' && r <= '9' })
	if i <= 0 {
		return "", "", false
	}
	f := fs.Lookup(name[:i])
	if f == nil || isBool(f) {
		return "", "", false
	}
	return name[:i], name[i:], true
}

// isBool reports whether f needs no value.
func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// flagShaped is what a flag's name could be (the flag package's error
// names it after one dash): a letter, then letters, digits and dashes.
var flagShaped = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// excludedWord is a flag's name that a query's exclusion (-draft) could
// be: three letters or more.
var excludedWord = regexp.MustCompile(`^\pL{3,}$`)

// once counts the times a flag that takes one value is set: the flag
// package keeps the last and says nothing, so "--collection a
// --collection b" would search b alone.
type once struct {
	flag.Value
	name string
	sets int
}

func (o *once) Set(v string) error { o.sets++; return o.Value.Set(v) }

// IsBoolFlag keeps a boolean flag one that needs no value.
func (o *once) IsBoolFlag() bool {
	b, ok := o.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// countSets wraps every flag of fs but the repeatable ones (listFlag) in
// a once for the parse; uncount takes the wrappers off again, so the
// usage names each flag's type and default as the flag package does.
func countSets(fs *flag.FlagSet) []*once {
	var out []*once
	fs.VisitAll(func(f *flag.Flag) {
		if _, ok := f.Value.(*listFlag); !ok {
			o := &once{Value: f.Value, name: f.Name}
			f.Value = o
			out = append(out, o)
		}
	})
	return out
}

func uncount(fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		if o, ok := f.Value.(*once); ok {
			f.Value = o.Value
		}
	})
}

// givenOnce refuses a flag given more than once, as the REST API refuses
// a repeated parameter.
func givenOnce(counted []*once) error {
	for _, o := range counted {
		if o.sets > 1 {
			dash := "--"
			if len(o.name) == 1 {
				dash = "-"
			}
			return usagef("%s%s is given %d times; give it once", dash, o.name, o.sets)
		}
	}
	return nil
}

// parseArgs parses flags like parse and checks the count of positional
// arguments: exactly want, at least one when want is -1, any number when
// -2. what names them for the error, e.g. "a QUERY".
func parseArgs(fs *flag.FlagSet, args []string, want int, what string) ([]string, error) {
	pos, err := parse(fs, args)
	switch {
	case err != nil:
		return nil, err
	case want == 0 && len(pos) > 0:
		return nil, usagef("unexpected argument %q", pos[0])
	case want == -1 && len(pos) == 0, want > 0 && len(pos) < want:
		return nil, usagef("give %s", what)
	case want > 0 && len(pos) > want:
		return nil, usagef("unexpected argument %q: give %s", pos[want], what)
	}
	return pos, nil
}

// nearestCommand is `; did you mean "search"?` for a command name one or
// two keystrokes from name ("serch"), or "".
func nearestCommand(name string) string {
	best, dist := "", 3
	for c := range commands {
		if d := store.EditDistance([]rune(name), []rune(c), 2); d < dist || d == dist && c < best {
			best, dist = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

// intFlagErr is the flag package's error for a value an integer flag
// cannot take.
var intFlagErr = regexp.MustCompile(`^invalid value "(.*)" for flag -([\w-]+): (parse error|value out of range)$`)

// intFlagError words err, a flag's parse error, as REST and MCP word the
// same mistake: "n is \"2.5\": use a whole number", and for search's
// request fields out of range, the request's range ("use 1-50 (default
// 5)"). Other errors pass as they are.
func intFlagError(fs *flag.FlagSet, err error) error {
	m := intFlagErr.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	v := fs.Lookup(m[2]).Value
	if o, ok := v.(*once); ok { // counted while parse runs
		v = o.Value
	}
	if g, ok := v.(flag.Getter); !ok || reflect.TypeOf(g.Get()).Kind() != reflect.Int {
		return err
	}
	field := strings.ReplaceAll(m[2], "-", "_")
	switch {
	case m[3] == "parse error":
		return mdsearch.NotWhole(field, m[1])
	case fs.Name() == "search" && slices.Contains([]string{"n", "max_per_page", "max_tokens"}, field):
		return mdsearch.OutOfRange(field, m[1]) // the request's field: its range
	}
	return err
}

// resolved is dir absolute, its symlinks followed where it exists.
func resolved(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}
