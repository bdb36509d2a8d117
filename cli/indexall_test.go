package cli

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/engine"
)

// A mistyped folder makes no index; "index" alone re-indexes every
// collection it can, reports the one whose folder is gone, exits 1, and
// with --json prints one array, the failed collection in it.
func TestIndexAllAndMissingFolders(t *testing.T) {
	dir := t.TempDir()
	index := filepath.Join(dir, "i.db")
	if code, _, stderr := run(t, index, "index", filepath.Join(dir, "nope"), "--embedder", "none"); code != 1 ||
		!strings.Contains(stderr, "no such folder") {
		t.Errorf("mistyped folder: exit %d, %q", code, stderr)
	}
	write(t, filepath.Join(dir, "file.md"), "# F\n")
	if code, _, stderr := run(t, index, "index", filepath.Join(dir, "file.md"), "--embedder", "none"); code != 1 ||
		!strings.Contains(stderr, "not a folder") {
		t.Errorf("a file as DIR: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(index); !os.IsNotExist(err) {
		t.Errorf("a mistyped folder or a file left an index behind: %v", err)
	}
	for _, c := range []string{"a", "b"} {
		write(t, filepath.Join(dir, c, c+".md"), "# "+c+"\n")
		if code, _, stderr := run(t, index, "index", filepath.Join(dir, c), "--embedder", "none"); code != 0 {
			t.Fatalf("index %s: %d %s", c, code, stderr)
		}
	}
	os.RemoveAll(filepath.Join(dir, "a"))
	write(t, filepath.Join(dir, "b", "b.md"), "# b\nmore\n")
	code, stdout, stderr := run(t, index, "index", "--embedder", "none", "--json")
	var stats []struct {
		Collection string `json:"collection"`
		Changed    int    `json:"changed"`
		Error      *struct {
			Kind, Message, Hint string
		} `json:"error"`
	}
	// The collection whose folder is gone is in the array too, with the
	// error a failed command's --json gives.
	if err := json.Unmarshal([]byte(stdout), &stats); err != nil || code != 1 || len(stats) != 2 ||
		stats[0].Collection != "a" || stats[0].Error == nil || stats[0].Error.Kind != "not_found" || !strings.Contains(stats[0].Error.Hint, "mdsearch drop a") ||
		stats[1].Collection != "b" || stats[1].Changed != 1 || stats[1].Error != nil || !strings.Contains(stderr, `collection "a" is gone`) {
		t.Errorf("index all: exit %d, stats %+v (%v), stderr %q", code, stats, err, stderr)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// An interrupted command says so (exit 130), not which step saw it.
func TestInterrupted(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "v", "a.md"), "# A\n")
	var out, errb strings.Builder
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
		if k == "MDSEARCH_INDEX" {
			return filepath.Join(dir, "i.db")
		}
		return os.Getenv(k)
	}}
	code := Main(ctx, env, []string{"index", filepath.Join(dir, "v"), "--embedder", "none"})
	// Stopped before it began: depending on where, it wrote nothing or kept it.
	if e := errb.String(); code != 130 || !strings.Contains(e, "interrupted: the index keeps what was done; run the same command again to finish") &&
		!strings.Contains(e, "interrupted: no note was indexed") {
		t.Errorf("exit %d, stderr %q, stdout %q", code, errb.String(), out.String())
	}
	// Another --full would start over: it says what it leaves instead;
	// stopped before it opened the index, that it wrote nothing.
	errb.Reset()
	code = Main(ctx, env, []string{"index", filepath.Join(dir, "v"), "--embedder", "none", "--full"})
	if e := errb.String(); code != 130 || !strings.Contains(e, "is whole") && !strings.Contains(e, "interrupted: no note was indexed") ||
		strings.Contains(e, "run the same command again") {
		t.Errorf("--full: exit %d, stderr %q", code, e)
	}
	// Stopped before its index could be made: nothing to keep, nor to finish.
	errb.Reset()
	env.Getenv = func(k string) string {
		if k == "MDSEARCH_INDEX" {
			return filepath.Join(dir, "new", "i.db")
		}
		return os.Getenv(k)
	}
	code = Main(ctx, env, []string{"index", filepath.Join(dir, "v")})
	if e := errb.String(); code != 130 || strings.Contains(e, "keeps what was done") {
		t.Errorf("stopped before the index opened: exit %d, stderr %q", code, e)
	}
}

// An interrupted `index --json` alone still lists what it did: the run it
// stopped, with "stopped", and the failure of a collection before it.
func TestIndexAllJSONInterrupted(t *testing.T) {
	dir := t.TempDir()
	index := filepath.Join(dir, "i.db")
	for _, c := range []string{"a", "b", "c"} {
		write(t, filepath.Join(dir, c, c+".md"), "# "+c+"\n")
		if code, _, stderr := run(t, index, "index", filepath.Join(dir, c), "--embedder", "none"); code != 0 {
			t.Fatalf("index %s: %d %s", c, code, stderr)
		}
	}
	e, err := engine.Open(context.Background(), engine.Options{IndexPath: index})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	gone := mdsearch.Errorf(mdsearch.KindNotFound, "open vault", filepath.Join(dir, "a"), "", "no such folder")
	stats := []*mdsearch.IndexStats{{Collection: "b", Stopped: true}}
	runs := runsJSON(ctx, &Env{}, e, stats, errors.Join(gone, context.Canceled))
	if len(runs) != 2 || runs[0].Collection != "a" || runs[0].Error == nil || runs[0].Error.Kind != "not_found" ||
		runs[1].Collection != "b" || !runs[1].Stopped || runs[1].Error != nil {
		t.Errorf("runs %+v", runs)
	}
}
