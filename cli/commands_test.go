package cli

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A command a message names gains the --index this command was given,
// once, and only the commands that take it.
func TestCommandsGainIndex(t *testing.T) {
	env := &Env{}
	fs := newFlags(env, "status", "")
	addIndexPathFlag(fs)
	msg := "run `mdsearch index DIR --name A`, or `mdsearch drop A`; `mdsearch index` alone; `mdsearch setup` first; " +
		"`mdsearch index DIR --index /x.db` names one"
	if got := env.commands(msg); got != msg {
		t.Errorf("without --index: %q", got)
	}
	if _, err := parse(fs, []string{"--index", "/tmp/my idx.db"}); err != nil {
		t.Fatal(err)
	}
	want := "run `mdsearch index --index '/tmp/my idx.db' DIR --name A`, or `mdsearch drop --index '/tmp/my idx.db' A`; " +
		"`mdsearch index --index '/tmp/my idx.db'` alone; `mdsearch setup` first; `mdsearch index DIR --index /x.db` names one"
	if got := env.commands(msg); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if again := env.commands(want); again != want {
		t.Errorf("twice: %q", again)
	}
}

// A search notice names the flags the command line takes, not the
// request fields REST and MCP take; the query's quoted words stay.
func TestFlagNames(t *testing.T) {
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	for _, name := range []string{"as-typed", "min-score", "max-tokens", "max-per-page", "no-rerank"} {
		fs.Bool(name, false, "")
	}
	for _, tc := range []struct{ in, want string }{
		{`no passage holds "computd": showing results for "computed"; as_typed searches for the query as typed`,
			`no passage holds "computd": showing results for "computed"; --as-typed searches for the query as typed`},
		{"1 result left out: it scored under min_score 0.9 (74.0%); lower min_score to see it",
			"1 result left out: it scored under --min-score 0.9 (74.0%); lower --min-score to see it"},
		{"2 more notes did not fit max_tokens 300", "2 more notes did not fit --max-tokens 300"},
		{`no passage holds "min_score" or "max_tokens"; did you mean "max tokens"?`,
			`no passage holds "min_score" or "max_tokens"; did you mean "max tokens"?`},
		{"min_scores and xmax_tokens are no fields", "min_scores and xmax_tokens are no fields"},
		{`no passage holds "paramter": showing results for "\"max_tokens\" parameter"; as_typed searches for the query as typed`,
			`no passage holds "paramter": showing results for "\"max_tokens\" parameter"; --as-typed searches for the query as typed`},
		{`showing results for "\"max_tokens parameter"; as_typed searches`, `showing results for "\"max_tokens parameter"; --as-typed searches`},
		{`no passage matched with these filters: max_tokens="400"; lower min_score`, `no passage matched with these filters: max_tokens="400"; lower --min-score`},
		{`a quote "never closed max_tokens`, `a quote "never closed max_tokens`},
		{"", ""},
	} {
		if got := flagNames(fs, tc.in); got != tc.want {
			t.Errorf("flagNames(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// A note over the size limit, indexed with --index: read's hint and
// status's model line name that index; with $MDSEARCH_INDEX alone, which
// a pasted command reads too, they name none.
func TestHintsNameIndex(t *testing.T) {
	dir := t.TempDir()
	vault := filepath.Join(dir, "v")
	write(t, filepath.Join(vault, "big.md"), "# Big\n\n"+strings.Repeat("word ", 300)+"\n")
	write(t, filepath.Join(vault, "a.md"), "# A\n")
	index := filepath.Join(dir, "my index.db")
	flag := []string{"--index", index}
	if code, _, stderr := run(t, "", append([]string{"index", vault, "--embedder", "none", "--max-file-size", "1KB"}, flag...)...); code != 0 {
		t.Fatalf("index: %d %s", code, stderr)
	} else if !strings.Contains(stderr, "skipped big.md: file is 1.5 KB, over the 1.0 KB size limit\nmdsearch: index: a file over the size limit is indexed with a larger one: --max-file-size 1MB, or none") {
		t.Errorf("index says %q, want the skip and the flag that indexes it", stderr)
	}
	named := "`mdsearch index --index '" + index + "' " + vault + " --max-file-size 1MB`"
	if _, _, stderr := run(t, "", append([]string{"read", "big.md"}, flag...)...); !strings.Contains(stderr, named) {
		t.Errorf("read says %q, want %q in it", stderr, named)
	}
	if _, stdout, _ := run(t, "", append([]string{"read", "big.md", "--json"}, flag...)...); !strings.Contains(stdout, named) {
		t.Errorf("read --json says %q, want %q in it", stdout, named)
	}
	if _, stdout, _ := run(t, "", append([]string{"status"}, flag...)...); !strings.Contains(stdout, "run `mdsearch index --index '"+index+"'` to embed") {
		t.Errorf("status says %q", stdout)
	}
	if _, _, stderr := run(t, index, "read", "big.md"); !strings.Contains(stderr, "`mdsearch index "+vault+" --max-file-size 1MB`") {
		t.Errorf("read with $MDSEARCH_INDEX says %q", stderr)
	}
}

// A cut result's hint, printed, is the command that reads the rest, the
// collection named only where the header names it, with this command's
// --index.
func TestReadCommand(t *testing.T) {
	hint := "cut to fit the token budget, 13 more lines: read v:kitchen/Sourdough.md, lines 8-20"
	cut := mdsearch.Result{Path: "kitchen/Sourdough.md", Collection: "v", Truncated: true, ReadHint: hint, RestFrom: 8, RestTo: 20}
	shared := cut
	shared.Path, shared.ReadPath, shared.ReadHint = "a b.md", "v:a b.md", `cut, 2 more lines: read "v:a b.md", lines 3-4`
	shared.RestFrom, shared.RestTo = 3, 4
	whole := mdsearch.Result{Path: "x.md", ReadHint: ""}
	env := &Env{}
	fs := newFlags(env, "search", "")
	addIndexPathFlag(fs)
	for _, tt := range []struct {
		r     mdsearch.Result
		index string
		want  string
	}{
		{cut, "", "cut to fit the token budget, 13 more lines: `mdsearch read --lines 8-20 -- kitchen/Sourdough.md`"},
		{shared, "", "cut, 2 more lines: `mdsearch read --lines 3-4 -- 'v:a b.md'`"},
		{whole, "", ""},
		{cut, "/tmp/i.db", "cut to fit the token budget, 13 more lines: `mdsearch read --index /tmp/i.db --lines 8-20 -- kitchen/Sourdough.md`"},
	} {
		if tt.index != "" {
			if _, err := parse(fs, []string{"--index", tt.index}); err != nil {
				t.Fatal(err)
			}
		}
		if got := env.readCommand(tt.r); got != tt.want {
			t.Errorf("got  %q\nwant %q", got, tt.want)
		}
	}
}
