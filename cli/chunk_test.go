package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

func chunkEnv() (*Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }}, &out, &errOut
}

func writeNotes(t *testing.T) (note, binary string) {
	t.Helper()
	dir := t.TempDir()
	note = filepath.Join(dir, "note.md")
	body := "---\ntags: [demo]\n---\n# Note\n\nIntro.\n\n## Part\n\n" + strings.Repeat("Some words here. ", 60) + "\n"
	if err := os.WriteFile(note, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	binary = filepath.Join(dir, "image.md")
	if err := os.WriteFile(binary, []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), 0o644); err != nil {
		t.Fatal(err)
	}
	return note, binary
}

func TestChunkJSON(t *testing.T) {
	note, _ := writeNotes(t)
	env, out, errOut := chunkEnv()
	if err := runChunk(context.Background(), env, []string{"--json", "--max-tokens", "64", note}); err != nil {
		t.Fatalf("runChunk: %v (stderr %q)", err, errOut)
	}
	var cs []mdsearch.Chunk
	if err := json.Unmarshal(out.Bytes(), &cs); err != nil {
		t.Fatalf("output is not a JSON array of chunks: %v\n%s", err, out)
	}
	if len(cs) < 2 {
		t.Fatalf("%d chunks", len(cs))
	}
	for i, c := range cs {
		if c.ChunkIndex != i || c.TotalChunks != len(cs) || c.TokenCount > 64 || c.Path != filepath.ToSlash(note) ||
			len(c.Tags) != 1 || c.Tags[0] != "demo" || c.Hash == "" || !strings.HasSuffix(c.EmbedText, c.Text) {
			t.Errorf("chunk %d: %+v", i, c)
		}
	}
	// Keys are snake_case as the issue names them.
	for _, key := range []string{`"section_path"`, `"start_line"`, `"end_line"`, `"total_chunks"`, `"embed_text"`, `"token_count"`, `"word_count"`} {
		if !bytes.Contains(out.Bytes(), []byte(key)) {
			t.Errorf("output lacks %s", key)
		}
	}
}

func TestChunkFailures(t *testing.T) {
	note, binary := writeNotes(t)
	missing := filepath.Join(t.TempDir(), "missing.md")
	env, out, errOut := chunkEnv()
	err := runChunk(context.Background(), env, []string{binary, note, missing, "--json"})
	if !errors.Is(err, errFailed) {
		t.Fatalf("err = %v, want errFailed", err)
	}
	if Main(context.Background(), env, []string{"chunk", binary}) != 1 {
		t.Error("exit code is not 1 for a binary file")
	}
	stderr := errOut.String()
	for _, want := range []string{binary + ": binary file", missing + ": no such file"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	var cs []mdsearch.Chunk
	if err := json.Unmarshal(out.Bytes(), &cs); err != nil || len(cs) == 0 {
		t.Errorf("the readable note was not chunked: %v\n%s", err, out)
	}
}

func TestChunkListing(t *testing.T) {
	note, _ := writeNotes(t)
	env, out, _ := chunkEnv()
	if err := runChunk(context.Background(), env, []string{"--profile", "h2h3", "--max-tokens", "64", note}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) < 3 || !strings.HasSuffix(lines[0], "chunks") || !strings.Contains(lines[1], "#0") ||
		!strings.Contains(lines[1], "L4-") || !strings.Contains(lines[1], "tokens") || !strings.Contains(out.String(), "Note > Part") {
		t.Errorf("listing:\n%s", out)
	}
}

func TestChunkUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"--profile", "nope", "x.md"}, {"--max-tokens", "-1", "x.md"}, {"--bogus"}} {
		env, _, _ := chunkEnv()
		if code := Main(context.Background(), env, append([]string{"chunk"}, args...)); code != 2 {
			t.Errorf("chunk %q: exit %d, want 2", args, code)
		}
	}
}
