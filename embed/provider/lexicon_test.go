package provider

import (
	"os"
	"testing"

	"github.com/mdsearch/mdsearch/assets"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

// The model's vocabulary knows common words, not misspellings, without
// loading the model; without the model's files there is none.
func TestLexicon(t *testing.T) {
	if l := Lexicon(FromEnv(envOf(map[string]string{"MDSEARCH_HOME": t.TempDir()}))); l != nil {
		t.Errorf("a lexicon without the model's files: %v", l)
	}
	if _, err := assets.Locate(assets.Paths{}, os.Getenv); err != nil {
		testenv.Absent(t, "%v", err)
	}
	l := Lexicon(FromEnv(os.Getenv))
	if l == nil {
		t.Fatal("no lexicon, though the model's files are here")
	}
	for word, want := range map[string]bool{"status": true, "incident": true, "stats": false, "reactivty": false} {
		if got := l.Knows(word); got != want {
			t.Errorf("Knows(%q) = %v, want %v", word, got, want)
		}
	}
}
