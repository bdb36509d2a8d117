package eval

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

// TestWrittenHeldOut checks that the written questions resolve in the
// RFCs and that none asks of an RFC the fit generates queries from, so
// they stay a measure of how a change generalises.
func TestWrittenHeldOut(t *testing.T) {
	vault := testenv.NeedCorpora(t, "rust-rfcs", "text")
	f, err := os.Open(filepath.Join("written", "rfcs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	qs, err := ParseQueries(f, "rfcs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := qs.Resolve(context.Background(), vault); err != nil {
		t.Fatal(err)
	}
	names, err := filepath.Glob(filepath.Join(vault, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	fitted := map[string]bool{}
	for i := 0; i < len(names); i += generatedEvery { // as everyNth picks them
		fitted[filepath.Base(names[i])] = true
	}
	for _, q := range qs.Queries {
		for _, l := range q.Relevant {
			if fitted[l.Path] {
				t.Errorf("%q asks of %s, which the fit reads", q.Text, l.Path)
			}
		}
	}
}
