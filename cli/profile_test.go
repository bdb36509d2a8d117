package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// index --profile is the collection's: stored, kept by runs that name
// none, and a change re-cuts every note.
func TestIndexProfile(t *testing.T) {
	index := filepath.Join(t.TempDir(), "index.db")
	for _, tt := range []struct {
		args    []string
		profile string
		recut   int
	}{
		{[]string{"index", "../sample-vault", "--profile", "h2h3"}, "h2h3", 0},
		{[]string{"index", "../sample-vault"}, "h2h3", 0},
		{[]string{"index"}, "h2h3", 0},
		{[]string{"index", "sample-vault", "--profile", "sections"}, "sections", 6},
		{[]string{"index", "sample-vault", "--profile", "fixed"}, "fixed", 6},
		{[]string{"index", "sample-vault"}, "fixed", 0},
	} {
		args := append(tt.args, "--embedder", "none", "--json")
		code, out, errOut := run(t, index, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", tt.args, code, errOut)
		}
		var st mdsearch.IndexStats
		if strings.HasPrefix(out, "[") {
			var all []mdsearch.IndexStats
			if json.Unmarshal([]byte(out), &all) != nil || len(all) != 1 {
				t.Fatalf("%v: %s", tt.args, out)
			}
			st = all[0]
		} else if json.Unmarshal([]byte(out), &st) != nil {
			t.Fatalf("%v: %s", tt.args, out)
		}
		if st.Recut != tt.recut {
			t.Errorf("%v: %d notes cut again, want %d", tt.args, st.Recut, tt.recut)
		}
		_, out, _ = run(t, index, "status", "--json")
		var s mdsearch.Status
		if json.Unmarshal([]byte(out), &s) != nil || len(s.Collections) != 1 || s.Collections[0].Profile != tt.profile {
			t.Errorf("%v: status %s; want profile %s", tt.args, out, tt.profile)
		}
	}
	for _, args := range [][]string{{"index", "--profile", "h2h3"}, {"index", "../sample-vault", "--profile", "h2"}} {
		if code, _, errOut := run(t, index, args...); code != 2 || !strings.Contains(errOut, "--profile") {
			t.Errorf("%v: exit %d %s; want a usage error", args, code, errOut)
		}
	}
}
