package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func runMain(args ...string) (code int, stderr string) {
	code, _, stderr = runMainOut(args...)
	return code, stderr
}

func runMainOut(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }}
	code = Main(context.Background(), env, args)
	return code, out.String(), errOut.String()
}

// Every failure reads "mdsearch: COMMAND: what went wrong"; a bad command
// line adds where to find the usage and exits 2.
func TestErrorPrefix(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.db")
	tests := []struct {
		args []string
		code int
		want string // the first line of stderr
	}{
		{[]string{"search"}, 2, "mdsearch: search: give a QUERY"},
		{[]string{"search", "--bogus", "q"}, 2, "mdsearch: search: flag provided but not defined: -bogus"},
		{[]string{"search", "sync", "-plugin"}, 2, `mdsearch: search: flag provided but not defined: -plugin (to leave out the word plugin, give the whole query as one argument: mdsearch search [flags] "sync -plugin")`},
		{[]string{"search", "-plugin"}, 2, `mdsearch: search: flag provided but not defined: -plugin (a query that starts with '-' goes last, after the flags and --: mdsearch search [flags] -- "-plugin")`},
		{[]string{"index", "-plugin"}, 2, "flag provided but not defined: -plugin"}, // no hint: ends so
		{[]string{"search", "->"}, 2, `mdsearch: search: flag provided but not defined: -> (a query that starts with '-' goes last, after the flags and --: mdsearch search [flags] -- "->")`},
		{[]string{"search", "-1"}, 2, `mdsearch: search: flag provided but not defined: -1 (a query that starts with '-' goes last, after the flags and --: mdsearch search [flags] -- "-1")`},
		{[]string{"search", "-path:Archive budget"}, 2, `mdsearch: search: flag provided but not defined: -path:Archive budget (a query that starts with '-' goes last, after the flags and --: mdsearch search [flags] -- "-path:Archive budget")`},
		{[]string{"search", "-n1", "q"}, 2, `mdsearch: search: flag provided but not defined: -n1 (a flag's value comes after a space: -n 1)`},
		{[]string{"search", "q", "-n10"}, 2, `mdsearch: search: flag provided but not defined: -n10 (a flag's value comes after a space: -n 10)`},
		{[]string{"search", "q", "-json1"}, 2, "mdsearch: search: flag provided but not defined: -json1"}, // a flag of no value: no hint (the line ends there)
		{[]string{"search", "-n", "x", "q"}, 2, `mdsearch: search: n is "x": use a whole number`},
		{[]string{"search", "q", "--index", missing}, 1, "mdsearch: search: open index " + missing + ": no index here"},
		{[]string{"search", "q", "-n", "0", "--index", missing}, 2, "mdsearch: search: n is 0: use 1-50 (default 5)"},
		{[]string{"search", "q", "--collection", "a", "--collection", "b", "--index", missing}, 2, "mdsearch: search: --collection is given 2 times; give it once"},
		{[]string{"search", "-n", "3", "q", "-n", "4", "--index", missing}, 2, "mdsearch: search: -n is given 2 times; give it once"},
		{[]string{"search", "q", "--json", "--json=false", "--index", missing}, 2, "mdsearch: search: --json is given 2 times; give it once"},
		{[]string{"search", "q", "--tag", "a", "--tag", "b", "--index", missing}, 1, "mdsearch: search: open index"}, // repeatable
		{[]string{"read", "--index", missing}, 2, "mdsearch: read: give one PATH"},
		{[]string{"read", "a.md", "b.md"}, 2, `mdsearch: read: unexpected argument "b.md"`},
		{[]string{"status", "extra"}, 2, `mdsearch: status: unexpected argument "extra"`},
		{[]string{"index", "a", "b"}, 2, `mdsearch: index: unexpected argument "b"`},
		{[]string{"index", "--name", "x"}, 2, "mdsearch: index: --name names the collection of a DIR"},
		{[]string{"index", "--name", "", "../sample-vault"}, 2, "mdsearch: index: --name is empty"},
		{[]string{"index", "--index", "", "../sample-vault"}, 2, "mdsearch: index: --index is empty"},
		{[]string{"search", "q", "--index", " "}, 2, "mdsearch: search: --index is empty"},
		{[]string{"status", "--index="}, 2, "mdsearch: status: --index is empty"},
		{[]string{"serve", "extra"}, 2, `mdsearch: serve: unexpected argument "extra"`},
		{[]string{"watch", "--bogus"}, 2, "mdsearch: watch: flag provided but not defined: -bogus"},
		{[]string{"chunk"}, 2, "mdsearch: chunk: give at least one FILE"},
		{[]string{"drop"}, 2, "mdsearch: drop: give one COLLECTION"},
		{[]string{"drop", "a", "b"}, 2, `mdsearch: drop: unexpected argument "b"`},
		{[]string{"drop", ""}, 2, "mdsearch: drop: give a COLLECTION name"},
		{[]string{"drop", "--max-file-size", "1KB", "a"}, 2, "mdsearch: drop: flag provided but not defined: -max-file-size"},
		{[]string{"chunk", "--profile", "odd", "x.md"}, 2, `mdsearch: chunk: unknown --profile "odd"`},
		{[]string{"embed", "--embedder", "none", "x"}, 2, "mdsearch: embed: --embedder none has no model"},
		{[]string{"eval"}, 2, "mdsearch: eval: give --vault DIR and --queries FILE"},
		{[]string{"setup", "extra"}, 2, `mdsearch: setup: unexpected argument "extra"`},
		{[]string{"nope"}, 2, `mdsearch: unknown command "nope"`},
		{[]string{"serch", "x"}, 2, `mdsearch: unknown command "serch"; did you mean "search"?`},
		{[]string{"indx"}, 2, `mdsearch: unknown command "indx"; did you mean "index"?`},
		{[]string{"read", "a.md", "--outline", "--section", "A"}, 2, "mdsearch: read: --outline prints the whole note's headings"},
		{[]string{"read", "a.md", "--outline", "--comments"}, 2, "leave out --section, --full, --lines and --comments"},
		{[]string{"read", "a.md", "--section", "", "--index", missing}, 2, "mdsearch: read: --section is empty"},
		{[]string{"read", "a.md", "--section= ", "--index", missing}, 2, "mdsearch: read: --section is empty"},
		{[]string{"read", "a.md", "--lines", "", "--index", missing}, 2, "mdsearch: read: --lines is empty"},
		{[]string{"search", "x", "--collection", "", "--index", missing}, 2, "mdsearch: search: --collection is empty"},
		{[]string{"search", "x", "--path-prefix= ", "--index", missing}, 2, "mdsearch: search: --path-prefix is empty"},
		{[]string{"search", "x", "--mode", "", "--index", missing}, 2, "mdsearch: search: --mode is empty"},
		{[]string{"help", "nosuch"}, 2, `mdsearch: help: unknown command "nosuch"`},
		{[]string{"version", "--bogus"}, 2, "mdsearch: version: flag provided but not defined: -bogus"},
		{[]string{"version", "extra"}, 2, `mdsearch: version: unexpected argument "extra"`},
		{[]string{"watch", "/x/notes"}, 2, `mdsearch: watch: unexpected argument "/x/notes": watch takes no folder: it watches every collection of the index; ` +
			"to add this folder, index it (mdsearch index /x/notes), then watch"},
		{[]string{"watch", "--index", "/x/i.db", "/x/notes"}, 2, "to add this folder, index it (mdsearch index --index /x/i.db /x/notes), then watch"},

		{[]string{"--index", "x.db", "status"}, 2, "mdsearch: flags go after the command (mdsearch COMMAND --index …)"},
	}
	for _, tt := range tests {
		code, stderr := runMain(tt.args...)
		first, _, _ := strings.Cut(stderr, "\n")
		if code != tt.code || !strings.HasPrefix(first, tt.want) && !strings.HasSuffix(first, tt.want) {
			t.Errorf("%v: exit %d, first line %q; want %d, %q", tt.args, code, first, tt.code, tt.want)
		}
		if code == 2 && tt.args[0] != "nope" && tt.args[0] != "serch" && tt.args[0] != "indx" && tt.args[0] != "--index" && tt.args[0] != "help" && !strings.Contains(stderr, "Run 'mdsearch "+tt.args[0]+" -h' for usage.") {
			t.Errorf("%v: no pointer to the usage in %q", tt.args, stderr)
		}
	}
}

var flagName = regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`)

// A command's help lists its own flags and none it ignores.
func TestHelpFlags(t *testing.T) {
	model := []string{"embedder", "embed-url", "embed-model", "ort-lib", "model-dir", "threads"}
	rerank := []string{"reranker", "reranker-model", "reranker-api", "reranker-timeout"}
	tests := []struct {
		cmd       string
		want, not []string
	}{
		{"read", []string{"index", "max-file-size", "section", "outline", "json"}, append(model, rerank...)},
		{"status", []string{"index", "json"}, append([]string{"section", "n", "max-file-size"}, model...)},
		{"search", append(append([]string{"index", "n", "max-per-page", "mode", "collection", "tag", "path-prefix", "json", "no-rerank"}, model...), rerank...),
			[]string{"section", "max-file-size"}},
		{"index", append([]string{"index", "max-file-size", "name", "full", "json"}, model...), append([]string{"n", "section"}, rerank...)},
		{"serve", append(append([]string{"addr", "token", "no-watch", "index"}, model...), rerank...), []string{"http", "json"}},
		{"mcp", append(append([]string{"http", "token", "no-watch", "index"}, model...), rerank...), []string{"addr", "json"}},
		{"watch", append([]string{"debounce", "index"}, model...), rerank}, // it runs no searches
		{"embed", append([]string{"json", "similarity", "values"}, model...), []string{"index", "max-file-size"}},
		{"chunk", append([]string{"json", "max-tokens", "profile"}, model...), []string{"index", "max-file-size"}},
		{"setup", []string{"verify", "test-data", "from"}, append([]string{"index"}, model...)},
	}
	for _, tt := range tests {
		code, stdout, _ := runMainOut(tt.cmd, "-h")
		if code != 0 || !strings.HasPrefix(stdout, "Usage: mdsearch "+tt.cmd+" ") {
			t.Errorf("%s -h: exit %d\n%s", tt.cmd, code, stdout)
			continue
		}
		var got []string
		for _, m := range flagName.FindAllStringSubmatch(stdout, -1) {
			got = append(got, m[1])
		}
		for _, f := range tt.want {
			if !slices.Contains(got, f) {
				t.Errorf("%s -h lacks -%s: %v", tt.cmd, f, got)
			}
		}
		for _, f := range tt.not {
			if slices.Contains(got, f) {
				t.Errorf("%s -h lists -%s, which it does not use", tt.cmd, f)
			}
		}
	}
}

// Help that was asked for goes to stdout, to page or grep; help after a
// mistake goes to stderr.
func TestHelpOnStdout(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"help", "search"}, {"search", "-h"}, {"help", "version"}, {"version", "-h"},
		{"help", "-h"}, {"help", "--help"}, {"help", "help"}} {
		if code, out, errOut := runMainOut(args...); code != 0 || !strings.Contains(out, "Usage: mdsearch") || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	if code, out, errOut := runMainOut(); code != 2 || out != "" || !strings.Contains(errOut, "Usage: mdsearch") {
		t.Errorf("no command: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// A usage line ends with its last word, and the help says what a command
// takes where its flags do not: watch watches every collection, and a
// section is named by its block ID too.
func TestUsageText(t *testing.T) {
	want := map[string][]string{
		"watch": {"every collection of the index", "mdsearch index --index INDEX DIR"},
		"read":  {"or a block by its ^blockid"},
	}
	names := []string{"version"}
	for n := range commands {
		names = append(names, n)
	}
	for _, name := range names {
		code, out, _ := runMainOut(name, "-h")
		first, _, _ := strings.Cut(out, "\n")
		if code != 0 || strings.HasSuffix(first, " ") {
			t.Errorf("%s -h: exit %d, usage line %q ends with a space", name, code, first)
		}
		for _, w := range want[name] {
			if !strings.Contains(out, w) {
				t.Errorf("%s -h does not say %q:\n%s", name, w, out)
			}
		}
	}
}

// fullWriter fails every write, as a full disk does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// A command whose output could not be written fails, whatever it printed
// with.
func TestOutputWriteFails(t *testing.T) {
	index := filepath.Join(t.TempDir(), "index.db")
	getenv := func(k string) string {
		if k == "MDSEARCH_INDEX" {
			return index
		}
		return ""
	}
	var errOut bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &errOut, Getenv: getenv}
	if code := Main(context.Background(), env, []string{"index", "../sample-vault", "--embedder", "none"}); code != 0 {
		t.Fatalf("index: %d %s", code, errOut.String())
	}
	for _, args := range [][]string{{"read", "homelab/Backups.md"}, {"read", "homelab/Backups.md", "--outline"}, {"version"},
		{"help"}, {"chunk", "../sample-vault/Inbox.md"}, {"status"}} {
		errOut.Reset()
		env := &Env{Stdin: strings.NewReader(""), Stdout: fullWriter{}, Stderr: &errOut, Getenv: getenv}
		if code := Main(context.Background(), env, args); code != 1 || !strings.Contains(errOut.String(), "no space left on device") {
			t.Errorf("%v to a full disk: exit %d, stderr %q", args, code, errOut.String())
		}
	}
}

// After "--" every argument is the query's, flags included.
func TestDoubleDash(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	n := fs.Int("n", 5, "")
	brief := fs.Bool("brief", false, "")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-n", "1", "--", "restore", "--brief"}, "restore --brief"},
		{[]string{"restore", "--", "--brief", "-n", "3"}, "restore --brief -n 3"},
		{[]string{"--", "--brief"}, "--brief"},
		{[]string{"restore", "-n", "1"}, "restore"},
	} {
		*n, *brief = 5, false
		pos, err := parse(fs, tt.args)
		if err != nil || strings.Join(pos, " ") != tt.want || *brief {
			t.Errorf("%q: %q %v, brief %v", tt.args, pos, err, *brief)
		}
	}
}

// The version flags other tools answer to print the version.
func TestVersionFlags(t *testing.T) {
	_, want, _ := runMainOut("version")
	for _, flag := range []string{"--version", "-version", "-v", "-V"} {
		if code, out, stderr := runMainOut(flag); code != 0 || out != want || want == "" {
			t.Errorf("%s: exit %d, %q %q; want %q", flag, code, out, stderr, want)
		}
	}
}
