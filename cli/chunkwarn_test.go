package cli

import (
	"context"
	"strings"
	"testing"
)

func TestChunkWarnsOverWindow(t *testing.T) {
	note, _ := writeNotes(t)
	for _, c := range []struct {
		maxTokens string
		warn      bool
	}{
		{"64", false},
		{"128", false},
		{"300", true},
	} {
		env, _, errOut := chunkEnv()
		if err := runChunk(context.Background(), env, []string{"--embedder", "none", "--max-tokens", c.maxTokens, note}); err != nil {
			t.Fatalf("runChunk: %v", err)
		}
		got := strings.Contains(errOut.String(), "warning: --max-tokens "+c.maxTokens+" is over the model's 128-token window")
		if got != c.warn {
			t.Errorf("--max-tokens %s: warned %v, want %v (stderr %q)", c.maxTokens, got, c.warn, errOut)
		}
	}
}
