package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/assets"
	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

// runEnv runs a command line in-process with exactly the given environment
// and stdin.
func runEnv(env map[string]string, stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	e := &Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }}
	code = Main(context.Background(), e, args)
	return code, out.String(), errb.String()
}

// ollamaStub answers POST /api/embed as Ollama documents it, with a
// vector per text that depends on the text's first byte.
func ollamaStub(t *testing.T) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Input []string }
		if r.URL.Path != "/api/embed" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
			return
		}
		out := struct {
			Embeddings [][]float32 `json:"embeddings"`
		}{}
		for _, in := range req.Input {
			out.Embeddings = append(out.Embeddings, []float32{float32(in[0] % 7), 2, 1})
		}
		json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(s.Close)
	return s
}

func TestEmbedUsageErrors(t *testing.T) {
	env := map[string]string{"MDSEARCH_HOME": t.TempDir()}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"embed"}, "give at least one TEXT"},
		{[]string{"embed", "--embedder", "none", "x"}, "no model to embed with"},
		{[]string{"embed", "--values", "-1", "x"}, "--values"},
		{[]string{"embed", "--bogus", "x"}, "flag provided but not defined"},
	}
	for _, tt := range tests {
		code, out, errOut := runEnv(env, "", tt.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 mentioning %q", tt.args, code, out, errOut, tt.want)
		}
	}
}

func TestEmbedFailures(t *testing.T) {
	home := t.TempDir()
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want []string
	}{
		{"no assets", map[string]string{"MDSEARCH_HOME": home}, []string{"embed", "hello"},
			[]string{"ONNX Runtime 1.30.0", "is not installed", "run `mdsearch setup`"}},
		{"bad --ort-lib", map[string]string{"MDSEARCH_HOME": home}, []string{"embed", "--ort-lib", home + "/x.so", "hello"},
			[]string{home + "/x.so", "--ort-lib"}},
		{"server down", map[string]string{"MDSEARCH_HOME": home}, []string{"embed", "--embedder", "ollama", "--embed-url", "http://127.0.0.1:1", "hello"},
			[]string{"cannot reach the ollama server", "http://127.0.0.1:1/api/embed", "ollama serve"}},
		{"bad env", map[string]string{"MDSEARCH_HOME": home, "MDSEARCH_EMBED_DIM": "lots"}, []string{"embed", "--embedder", "ollama", "hello"},
			[]string{`MDSEARCH_EMBED_DIM="lots"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runEnv(tt.env, "", tt.args...)
			if code != 1 || out != "" {
				t.Errorf("exit %d, stdout %q; want exit 1 and no output", code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q lacks %q", errOut, w)
				}
			}
		})
	}
}

func TestEmbedOutputs(t *testing.T) {
	s := ollamaStub(t)
	env := map[string]string{"MDSEARCH_EMBEDDER": "ollama", "MDSEARCH_EMBED_URL": s.URL, "MDSEARCH_HOME": t.TempDir()}

	code, out, errOut := runEnv(env, "", "embed", "alpha", "beta")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"model ollama:nomic-embed-text@3: 3 dimensions, 512-token window", `[1] "alpha"`, `[2] "beta"`, "tokens 2", "[0.93704 0.31235 0.15617]", "[0.00000 0.89443 0.44721]"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	code, out, _ = runEnv(env, "from stdin\n", "embed", "--json", "--similarity", "alpha", "-")
	var rep embedReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("--json: exit %d, %s", code, out)
	}
	if len(rep.Embeddings) != 2 || rep.Embeddings[1].Text != "from stdin" || len(rep.Embeddings[0].Vector) != 3 || rep.Dim != 3 {
		t.Errorf("--json report: %+v", rep)
	}
	if len(rep.Similarity) != 2 || math.Abs(rep.Similarity[0][0]-1) > 1e-6 || rep.Similarity[0][1] != rep.Similarity[1][0] {
		t.Errorf("similarity %v", rep.Similarity)
	}

	_, out, _ = runEnv(env, "", "embed", "--similarity", "a", "b", "c")
	if !strings.Contains(out, "cosine similarity\n") || strings.Count(out, "1.000") != 3 || strings.Contains(out, "(3 of 3)") {
		t.Errorf("--similarity output:\n%s", out)
	}

	long := strings.Repeat("word ", 1000)
	code, out, errOut = runEnv(env, long, "embed", "-")
	if code != 0 || !strings.Contains(errOut, "1 text over the 512-token window was truncated") || !strings.Contains(out, "(over 512: truncated)") {
		t.Errorf("long text: exit %d\n%s\n%s", code, out, errOut)
	}
}

// The real local model through the command line.
func TestEmbedUSE(t *testing.T) {
	if _, err := assets.Locate(assets.Paths{}, os.Getenv); err != nil {
		testenv.Absent(t, "%v", err)
	}
	var out, errb bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: os.Getenv}
	code := Main(context.Background(), env, []string{"embed", "--json", "--similarity",
		"the cat sat on the mat", "a kitten rested on the rug", "quarterly tax filing deadline"})
	var rep embedReport
	if code != 0 || json.Unmarshal(out.Bytes(), &rep) != nil {
		t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
	}
	if rep.ModelID != sentenceencoder.DefaultPrecision.ModelID() || rep.Dim != 512 || len(rep.Embeddings[0].Vector) != 512 {
		t.Errorf("report: %s %d", rep.ModelID, rep.Dim)
	}
	if rep.Similarity[0][1] <= rep.Similarity[0][2] {
		t.Errorf("cat/kitten %.3f should beat cat/tax %.3f", rep.Similarity[0][1], rep.Similarity[0][2])
	}
}

// An index run asked to use a server that is down writes the keyword index
// but fails, saying how to add the vectors; the next run with the server up
// adds them. --json output stays one valid document.
func TestIndexServerDown(t *testing.T) {
	index := filepath.Join(t.TempDir(), "index.db")
	down := []string{"--embedder", "ollama", "--embed-url", "http://127.0.0.1:1"}
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"one folder", []string{"index", "../sample-vault"}},
		{"one folder, json", []string{"index", "../sample-vault", "--json"}},
		{"every collection", []string{"index"}},
		{"every collection, json", []string{"index", "--json"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := run(t, index, append(tt.args, down...)...)
			if code != 1 || !strings.Contains(errOut, "cannot reach the ollama server") ||
				!strings.Contains(errOut, "the keyword index was written") || !strings.Contains(errOut, "run `mdsearch index` again") {
				t.Fatalf("exit %d, stderr %s", code, errOut)
			}
			if strings.HasSuffix(tt.name, "json") && !json.Valid([]byte(out)) {
				t.Errorf("--json stdout is not JSON: %s", out)
			}
		})
	}
	if code, out, _ := run(t, index, "search", "restic", "--mode", "keyword"); code != 0 || !strings.Contains(out, "Backups.md") {
		t.Errorf("the keyword index was not written: %d %s", code, out)
	}

	s := ollamaStub(t)
	if code, _, errOut := run(t, index, "index", "--embedder", "ollama", "--embed-url", s.URL); code != 0 {
		t.Fatalf("with the server up: exit %d %s", code, errOut)
	}
	code, out, _ := run(t, index, "status", "--json")
	var st struct{ Windows, Vectors int }
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || st.Windows == 0 || st.Vectors != st.Windows {
		t.Errorf("the next run did not add the vectors: %d %s", code, out)
	}
}
