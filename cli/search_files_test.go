package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/engine"
	"github.com/mdsearch/mdsearch/rest"
)

// --files prints the results' notes, best first, each once, as paths a
// shell can open: a search's, a list's, and a running serve's answer,
// whose collection's folder the index names.
func TestSearchFiles(t *testing.T) {
	noModel(t)
	vault, err := filepath.Abs("../sample-vault")
	if err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(t.TempDir(), "index.db")
	if code, _, errOut := run(t, index, "index", vault, "--name", "v", "--embedder", "none"); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	for _, tc := range []struct {
		name  string
		args  []string
		first string
		lines int // 0: any
	}{
		{"search", []string{"search", "--files", "--mode", "keyword", "restore drill", "-n", "5"}, "homelab/Backups.md", 0},
		{"list", []string{"search", "--files", "--tag", "garden"}, "garden/Tomatoes.md", 0},
		// -n counts notes, not passages: two of a note were one line.
		{"n notes", []string{"search", "--files", "--mode", "keyword", "water week", "-n", "3"}, "", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := run(t, index, tc.args...)
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if code != 0 || tc.first != "" && lines[0] != filepath.Join(vault, filepath.FromSlash(tc.first)) || tc.lines != 0 && len(lines) != tc.lines {
				t.Fatalf("%d %q %s, want %s first, %d lines", code, out, errOut, tc.first, tc.lines)
			}
			seen := map[string]bool{}
			for _, l := range lines {
				if _, err := os.Stat(l); err != nil || seen[l] {
					t.Errorf("line %q: %v (seen before: %v)", l, err, seen[l])
				}
				seen[l] = true
			}
		})
	}
	for _, other := range [][]string{{"--json"}, {"--brief"}, {"--explain"}, {"--max-tokens", "300"}, {"--max-per-page", "3"}} {
		code, _, errOut := run(t, index, append([]string{"search", "--files", "restore"}, other...)...)
		if code != 2 || !strings.Contains(errOut, "--files prints the results' notes alone, so "+other[0]) {
			t.Errorf("--files with %s: %d %s", other[0], code, errOut)
		}
	}

	// A running serve answers: the folder comes from the index.
	const instance = "feedbeef"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(rest.InstanceHeader) != instance {
			http.Error(w, "wrong request", http.StatusBadRequest)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"query": "q", "mode": "keyword", "results": []map[string]any{
			{"path": "Inbox.md", "collection": "v", "text": "a", "score": 0.9},
			{"path": "kitchen/Knife Care.md", "collection": "v", "text": "b", "score": 0.5},
			{"path": "kitchen/Knife Care.md", "collection": "v", "text": "c", "score": 0.1, "chunk_index": 1}}})
	}))
	defer srv.Close()
	home := t.TempDir()
	env := map[string]string{"MDSEARCH_HOME": home, "MDSEARCH_INDEX": index,
		"MDSEARCH_MODEL_DIR": filepath.Join(home, "missing"), "MDSEARCH_ORT_LIB": filepath.Join(home, "missing.so")}
	e := &Env{Getenv: func(k string) string { return env[k] }}
	putRendezvous(t, rendezvousPath(e, index), rendezvous{PID: os.Getpid(), URL: srv.URL, Index: index, Build: sameCode(),
		Settings: searchSettings(e), Instance: instance})
	code, out, errOut := runEnv(env, "", "search", "--files", "--mode", "keyword", "sourdough")
	want := filepath.Join(vault, "Inbox.md") + "\n" + filepath.Join(vault, "kitchen", "Knife Care.md") + "\n" // not what the index would answer
	if code != 0 || out != want {
		t.Errorf("served: %d %q %s, want %q", code, out, errOut, want)
	}
}

// A note deleted since the index was built is left out with a word on
// stderr (an editor would open a new, empty file), and a path with a line
// break in its name is printed with a warning that it reads as two.
func TestSearchFilesGone(t *testing.T) {
	vault := t.TempDir()
	for name, text := range map[string]string{"a.md": "# A\n\nmanatee\n", "b.md": "# B\n\nmanatee calves\n", "new\nline.md": "# N\n\nmanatee\n"} {
		if err := os.WriteFile(filepath.Join(vault, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	index := filepath.Join(t.TempDir(), "index.db")
	if code, _, errOut := run(t, index, "index", vault, "--embedder", "none"); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	if err := os.Remove(filepath.Join(vault, "b.md")); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, index, "search", "--files", "--mode", "keyword", "manatee")
	if code != 0 || strings.Contains(out, "b.md") || !strings.Contains(out, filepath.Join(vault, "a.md")+"\n") ||
		!strings.Contains(errOut, "left out 1 note deleted since the index was built (b.md)") ||
		!strings.Contains(errOut, `a path holds a line break in its name ("new\nline.md")`) {
		t.Errorf("%d %q %s", code, out, errOut)
	}
}

// --files prints no text, so its notice says nothing of openings.
func TestFilesNoticeOpenings(t *testing.T) {
	for in, want := range map[string]string{
		"2 results scoring under 10% cut to their opening: each names the lines that read the rest":           "",
		"add a word; 3 results cut to their opening: each names the lines that read the rest":                 "add a word",
		"1 result cut to its opening: each names the lines that read the rest; no result is likely to answer": "no result is likely to answer",
	} {
		if got := engine.WithoutCutNotice(in); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}
