package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

// status and index say what to do where the local model is not installed:
// `mdsearch setup`, and for an index that has no vectors yet, `mdsearch
// index` after it.
func TestStatusSaysModelMissing(t *testing.T) {
	withVectors := filepath.Join(t.TempDir(), "index.db")
	needModel(t)
	if code, _, errOut := run(t, withVectors, "index", "../sample-vault", "--name", "sample"); code != 0 {
		t.Fatal(errOut)
	}
	noVectors := filepath.Join(t.TempDir(), "index.db")
	empty := map[string]string{"MDSEARCH_HOME": t.TempDir(), "MDSEARCH_INDEX": noVectors}
	code, _, errOut := runEnv(empty, "", "index", "../sample-vault", "--name", "sample")
	if code != 0 || !strings.Contains(errOut, "is not installed (run `mdsearch setup`); then run `mdsearch index` again to embed") {
		t.Errorf("index before setup: exit %d\n%s", code, errOut)
	}

	tests := []struct {
		name, index, model, notice string
	}{
		{"vectors of a model not installed here", withVectors,
			"model:  use-lite-0.2.0-int8-row (ONNX Runtime 1.30.0 (npm onnxruntime-node@1.30.0) is not installed: searches use keywords only until you run `mdsearch setup`)\n",
			"semantic search unavailable: locate assets "},
		{"no vectors yet", noVectors,
			"model:  none (no vectors yet: keyword search only; run `mdsearch setup`, then `mdsearch index` to embed)\n",
			"semantic search unavailable: locate assets "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"MDSEARCH_HOME": empty["MDSEARCH_HOME"], "MDSEARCH_INDEX": tt.index}
			code, out, errOut := runEnv(env, "", "status")
			if code != 0 || !strings.Contains(out, tt.model) {
				t.Errorf("status: exit %d\n%s%s\nwant the line %q", code, out, errOut, tt.model)
			}
			code, out, _ = runEnv(env, "", "status", "--json")
			var st mdsearch.Status
			if code != 0 || json.Unmarshal([]byte(out), &st) != nil || !strings.Contains(st.Notice, tt.notice) {
				t.Errorf("status --json: notice %q, want one holding %q", st.Notice, tt.notice)
			}
		})
	}
}

// An index run whose embedding server did not answer leaves an index
// without vectors; status names the settings that add them (a bare
// `mdsearch index` would embed with the local model instead), and forgets
// them once a run chose no embedder.
func TestStatusNamesWantedServer(t *testing.T) {
	index := filepath.Join(t.TempDir(), "index.db")
	down := map[string]string{"MDSEARCH_INDEX": index}
	code, _, errOut := runEnv(down, "", "index", "../sample-vault", "--name", "sample",
		"--embedder", "ollama", "--embed-url", "http://127.0.0.1:9", "--embed-model", "mxbai-embed-large")
	if code == 0 || !strings.Contains(errOut, "without vectors") {
		t.Fatalf("index with the server down: exit %d\n%s", code, errOut)
	}
	code, out, errOut := runEnv(down, "", "status")
	want := "could not embed with ollama:mxbai-embed-large: once its server answers, run `mdsearch index --embedder ollama --embed-model mxbai-embed-large`"
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("status: exit %d\n%s%s\nwant %q", code, out, errOut, want)
	}
	_, out, _ = runEnv(down, "", "status", "--json")
	var st mdsearch.Status
	if json.Unmarshal([]byte(out), &st) != nil || st.WantedModel != "ollama:mxbai-embed-large" {
		t.Errorf("status --json: wanted_model %q", st.WantedModel)
	}
	if code, _, errOut := runEnv(down, "", "index", "--embedder", "none"); code != 0 {
		t.Fatal(errOut)
	}
	if _, out, _ := runEnv(down, "", "status"); strings.Contains(out, "could not embed") {
		t.Errorf("after a run with no embedder:\n%s", out)
	}
}

// A first run stopped before it embedded anything leaves an index without
// vectors that is not keyword-only by choice: status says the run that was
// to embed stopped, and that the same command resumes it.
func TestStatusSaysEmbeddingStopped(t *testing.T) {
	needModel(t)
	index := stoppedAtEmbed(t)
	code, out, errs := run(t, index, "status")
	want := "model:  none yet (the index run that was to embed the notes with " + sentenceencoder.ModelID
	if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "the same command, run again, resumes it") {
		t.Errorf("status: exit %d\n%s%s\nwant %q", code, out, errs, want)
	}
	if code, _, errs := run(t, index, "index"); code != 0 {
		t.Fatal(errs)
	}
	if _, out, _ := run(t, index, "status"); strings.Contains(out, "none yet") {
		t.Errorf("after the run finished:\n%s", out)
	}
}

// stoppedAtEmbed is an index whose first run was stopped (as by Ctrl-C)
// once embedding started, before its first vector.
func stoppedAtEmbed(t *testing.T) (index string) {
	t.Helper()
	index = filepath.Join(t.TempDir(), "index.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errOut := &cancelAt{at: `"phase":"embed"`, cancel: cancel}
	env := &Env{Stdin: strings.NewReader(""), Stdout: &testenv.SyncBuffer{}, Stderr: errOut, Getenv: func(k string) string {
		if k == "MDSEARCH_INDEX" {
			return index
		}
		return os.Getenv(k)
	}}
	if code := Main(ctx, env, []string{"index", "../sample-vault", "--json"}); code != 130 {
		t.Fatalf("index: exit %d, want 130\n%s", code, errOut.String())
	}
	return index
}
