package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONErrors: every command family given --json fails with a JSON
// error on stdout, its kind, message and hint, and the exit code and
// stderr message it has without --json.
func TestJSONErrors(t *testing.T) {
	index := filepath.Join(t.TempDir(), "index.db")
	if code, _, errOut := run(t, index, "index", "../sample-vault", "--embedder", "none"); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	q := writeQueries(t, `{"query": "restore drill", "expected_path_contains": "Backups"}`)
	cases := []struct {
		args       []string
		code       int
		kind, want string
	}{
		{[]string{"search", "starter", "-n", "0", "--json"}, 2, "usage", "n is 0: use 1-50 (default 5)"},
		{[]string{"search", "starter", "--collection", "nope", "--embedder", "none", "--json"}, 1, "not_found", "collection nope: no such collection"},
		{[]string{"search", "starter", "--exclude", " ", "--embedder", "none", "--json"}, 2, "usage", "exclude holds an empty path"},
		{[]string{"search", "starter", "--max-per-page", "9", "--json"}, 2, "usage", "max_per_page is 9: use 1-5, or 0 for the default (2)"},
		{[]string{"search", "starter", "--max-tokens", "-5", "--json"}, 2, "usage", "max_tokens is -5"},
		{[]string{"read", "no/such.md", "--json"}, 1, "not_found", "no/such.md"},
		{[]string{"read", "kitchen/Sourdough.md", "--section", "Nope", "--json"}, 1, "not_found", "Nope"},
		{[]string{"read", "kitchen/Sourdough.md", "--lines", "9-3", "--json"}, 2, "usage", "the end is not before the start"},
		{[]string{"read", "no/such.md", "--outline", "--json"}, 1, "not_found", "no/such.md"},
		{[]string{"read", "kitchen/Sourdough.md", "--outline", "--section", "Starter", "--json"}, 2, "usage", "leave out --section"},
		{[]string{"status", "--index", filepath.Join(t.TempDir(), "none.db"), "--json"}, 1, "not_found", "none.db"},
		{[]string{"status", "extra", "--json"}, 2, "usage", `unexpected argument "extra"`},
		{[]string{"drop", "nope", "--json"}, 1, "not_found", "collection nope: no such collection"},
		{[]string{"drop", "--json"}, 2, "usage", "give one COLLECTION"},
		{[]string{"index", filepath.Join(t.TempDir(), "gone"), "--embedder", "none", "--json"}, 1, "not_found", "gone"},
		{[]string{"index", "../sample-vault", "--profile", "bogus", "--embedder", "none", "--json"}, 2, "usage", `unknown --profile "bogus"`},
		{[]string{"chunk", "--json"}, 2, "usage", "FILE"},
		{[]string{"chunk", "../sample-vault/kitchen/Sourdough.md", "--profile", "bogus", "--json"}, 2, "usage", `unknown --profile "bogus"`},
		// No file could be chunked: the error, not an empty list.
		{[]string{"chunk", "no/such.md", "--json"}, 1, "not_found", "no/such.md"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--max-per-page", "9", "--json"}, 2, "usage", "max_per_page is 9: use 1-5"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--k", "0", "--embedder", "none", "--config", "sections-keyword", "--json"}, 2, "usage", "k is 0: use 1-50 (default 5)"},
		{[]string{"embed", "--json"}, 2, "usage", "TEXT"},
		{[]string{"embed", "x", "--embedder", "none", "--json"}, 2, "usage", "no model to embed with"},
		{[]string{"eval", "--vault", "../sample-vault", "--json"}, 2, "usage", "give --vault DIR and --queries FILE"},
		// A command without --json (setup, mcp, serve, watch) given it
		// answers in JSON too, as a script that passes it everywhere
		// expects (--bogus: without --json, too, the command never runs).
		{[]string{"setup", "--json", "--bogus"}, 2, "usage", "flag provided but not defined: -json"},
		{[]string{"watch", "--json", "--bogus"}, 2, "usage", "flag provided but not defined: -json"},
	}
	for _, c := range cases {
		code, out, errOut := run(t, index, c.args...)
		var got jsonError
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Errorf("%q: stdout is not a JSON error (%v): %q; stderr %q", c.args, err, out, errOut)
			continue
		}
		if code != c.code || got.Error.Kind != c.kind || !strings.Contains(got.Error.Message, c.want) || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d (want %d), %+v (want kind %s, %q); stderr %q", c.args, code, c.code, got.Error, c.kind, c.want, errOut)
		}
		// Without --json, the same failure leaves stdout empty.
		plain := []string{}
		for _, a := range c.args {
			if a != "--json" {
				plain = append(plain, a)
			}
		}
		if code2, out2, _ := run(t, index, plain...); code2 != code || out2 != "" {
			t.Errorf("%q without --json: exit %d, stdout %q", c.args, code2, out2)
		}
	}
}

func TestWantsJSON(t *testing.T) {
	for args, want := range map[string]bool{
		"q --json": true, "q -json": true, "q --json=true": true, "q --json=false": false,
		"q": false, "-- --json": false, "--jsonx": false, "q --json=maybe": false,
	} {
		if got := wantsJSON(strings.Fields(args)); got != want {
			t.Errorf("wantsJSON(%q) = %v", args, got)
		}
	}
}
