package notehtml

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.html")

// goldenLink resolves the notes the golden notes link to: Other and Target.
func goldenLink(target, heading string, wiki bool) (string, bool) {
	name := strings.TrimSuffix(target, ".md")
	if name != "Other" && name != "Target" {
		return "", false
	}
	href := "#/note?path=" + name + ".md"
	if heading != "" {
		href += "&heading=" + heading
	}
	return href, true
}

// TestGolden renders each testdata/*.md as the page shows it and compares
// the HTML with its .golden.html; -update rewrites them.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.md")
	if len(files) == 0 {
		t.Fatal("no golden notes in testdata")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := HTML(src, Options{Link: goldenLink, Tag: tagHref, Attachment: attach}).HTML
			golden := strings.TrimSuffix(f, ".md") + ".golden.html"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s:\n%s", f, golden, got)
			}
		})
	}
}
