package cli

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// The serving commands check their command line before touching the index.
// A mistyped --index is refused and leaves no file behind.
func TestAdapterArgs(t *testing.T) {
	db := filepath.Join(t.TempDir(), "index.db")
	empty := filepath.Join(t.TempDir(), "empty.db")
	st, _, err := store.Open(context.Background(), empty)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"serve", "extra", "--index", db}, 2, `unexpected argument "extra"`},
		{[]string{"serve", "--addr", "0.0.0.0:0", "--index", db}, 1, "--token or MDSEARCH_TOKEN"},
		{[]string{"serve", "--addr", "nonsense", "--index", db}, 2, `mdsearch: serve: --addr "nonsense": use host:port`},
		{[]string{"mcp", "--http", "nonsense", "--index", db}, 2, `mdsearch: mcp: --http "nonsense": use host:port`},
		{[]string{"mcp", "--http", "0.0.0.0:0", "--index", db}, 1, "--token or MDSEARCH_TOKEN"},
		{[]string{"mcp", "stdio", "--index", db}, 2, `unexpected argument "stdio"`},
		{[]string{"watch", "--index", db}, 1, "no index here"},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--index", db}, 1, "no index here"},
		{[]string{"mcp", "--index", db}, 1, "no index here"},
		{[]string{"watch", "--index", empty}, 1, "mdsearch: watch: the index holds no collections"},
		{[]string{"watch", "--bogus"}, 2, "bogus"},
		{[]string{"watch", "--debounce", "-1s", "--index", empty}, 2, "mdsearch: watch: --debounce -1s: use a positive duration"},
		{[]string{"watch", "--debounce", "0", "--index", empty}, 2, "--debounce 0s"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		env := &Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &stderr, Getenv: func(string) string { return "" }}
		if code := Main(context.Background(), env, tt.args); code != tt.code || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%v: exit %d, want %d with %q; stderr:\n%s", tt.args, code, tt.code, tt.want, stderr.String())
		}
	}
	if _, err := os.Stat(db); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused --index was created: %v", err)
	}
}

func TestRefreshLine(t *testing.T) {
	st := &mdsearch.IndexStats{Added: 1, Changed: 2, Deleted: 3, Embedded: 4, TookMS: 12.4}
	if got, want := refreshLine("notes", []string{"a.md", "b.md"}, st), "notes: 2 files (a.md, b.md): 1 added, 2 changed, 3 deleted, 4 embedded, 0 skipped (12 ms)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := refreshLine("notes", []string{"a.md"}, st); !strings.HasPrefix(got, "notes: 1 file (a.md): ") {
		t.Errorf("one file: %q", got)
	}
	if got := refreshLine("notes", strings.Fields("a b c d e f"), st); !strings.HasPrefix(got, "notes: 6 files: ") {
		t.Errorf("six files are counted, not named: %q", got)
	}
	if got := refreshLine("notes", nil, st); !strings.HasPrefix(got, "notes: caught up:") || strings.Contains(got, "cut again") {
		t.Errorf("catch-up line %q", got)
	}
	// Notes an older mdsearch cut are counted as they are cut again.
	st.Recut = 5
	if got := refreshLine("notes", nil, st); !strings.Contains(got, "3 deleted, 5 cut again, 4 embedded") {
		t.Errorf("catch-up line with notes cut again %q", got)
	}
	st.Recut = 0
	st.Skipped = []mdsearch.FileIssue{{Path: "b.bin.md", Reason: "binary file"}}
	if got := refreshLine("notes", []string{"b.bin.md"}, st); !strings.HasSuffix(got, "1 skipped (12 ms)\n  skipped b.bin.md: binary file") {
		t.Errorf("a skipped file is not named: %q", got)
	}
	// So are warnings, and what a catch-up skipped, as index names them;
	// a file skipped before, outside a batch, is not.
	st.Warnings = []mdsearch.FileIssue{{Path: "c.md", Reason: "frontmatter is not valid YAML"}}
	if got := refreshLine("notes", []string{"c.md"}, st); !strings.Contains(got, "0 skipped, 1 warning (12 ms)") ||
		!strings.HasSuffix(got, "\n  c.md: warning: frontmatter is not valid YAML") || strings.Contains(got, "b.bin.md") {
		t.Errorf("a warning is not named: %q", got)
	}
	if got := refreshLine("notes", nil, st); !strings.Contains(got, "\n  skipped b.bin.md: binary file\n  c.md: warning: ") {
		t.Errorf("catch-up line %q", got)
	}
	// A line break in a name stays on its entry's line.
	st.Warnings = []mdsearch.FileIssue{{Path: "evil\nmdsearch: all good.md", Reason: "bad"}}
	if got := refreshLine("notes", nil, st); !strings.HasSuffix(got, "\n  evil\\nmdsearch: all good.md: warning: bad") {
		t.Errorf("a name with a line break: %q", got)
	}
}

func TestShownAddr(t *testing.T) {
	for _, tt := range []struct {
		addr net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 8091}, "0.0.0.0:8091"},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 80}, "0.0.0.0:80"},
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, "127.0.0.1:8080"},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 8080}, "[::1]:8080"},
	} {
		if got := shownAddr(tt.addr); got != tt.want {
			t.Errorf("shownAddr(%v) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

// serve and mcp log a refresh that cut notes again, as one that changed
// some; one that did nothing is not logged.
func TestLogRefresh(t *testing.T) {
	var b strings.Builder
	log := slog.New(slog.NewTextHandler(&b, nil))
	logRefresh(log, func(s string) string { return s })("v", nil, &mdsearch.IndexStats{}, nil)
	if b.Len() != 0 {
		t.Errorf("a refresh that did nothing was logged: %s", b.String())
	}
	logRefresh(log, func(s string) string { return s })("v", nil, &mdsearch.IndexStats{Recut: 173, TookMS: 460}, nil)
	if !strings.Contains(b.String(), "re-indexed collection=v added=0 changed=0 deleted=0 cut_again=173") {
		t.Errorf("a catch-up that cut notes again: %q", b.String())
	}
	// A retry that only embeds what an earlier refresh could not says so:
	// the last line is no longer that refresh's warning.
	b.Reset()
	logRefresh(log, func(s string) string { return s })("v", nil, &mdsearch.IndexStats{Embedded: 3, TookMS: 40}, nil)
	if !strings.Contains(b.String(), "msg=embedded collection=v windows=3") {
		t.Errorf("a catch-up that embedded: %q", b.String())
	}
	// A batch names its notes, and only the skipped files among them.
	b.Reset()
	logRefresh(log, func(s string) string { return s })("v", []string{"a.md", "old"}, &mdsearch.IndexStats{Added: 1, Deleted: 1,
		Skipped: []mdsearch.FileIssue{{Path: "bin.md", Reason: "binary"}, {Path: "old/x.md", Reason: "binary"}}}, nil)
	if got := b.String(); !strings.Contains(got, `paths="a.md, old"`) || strings.Contains(got, "path=bin.md") || !strings.Contains(got, "path=old/x.md") {
		t.Errorf("a batch: %q", got)
	}
}

// A whole-number flag given something else is refused in the words REST
// and MCP use for the same value; out of range, in the request's range.
func TestIntFlagsWordedAsRequests(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"search", "x", "-n", "2.5"}, `mdsearch: search: n is 2.5: use a whole number`},
		{[]string{"search", "x", "--max-per-page", "three"}, `mdsearch: search: max_per_page is "three": use a whole number`},
		{[]string{"search", "x", "-n", "99999999999999999999"}, "mdsearch: search: n is 99999999999999999999: use 1-50 (default 5)"},
		{[]string{"search", "x", "--min-score", "abc"}, `invalid value "abc" for flag -min-score`},
		{[]string{"search", "x", "--threads", "99999999999999999999"}, `invalid value "99999999999999999999" for flag -threads: value out of range`},
		{[]string{"eval", "--vault", ".", "--generate", "-k", "2.5"}, `mdsearch: eval: k is 2.5: use a whole number`},
	} {
		code, _, stderr := run(t, filepath.Join(t.TempDir(), "i.db"), tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}
