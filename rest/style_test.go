package rest

import (
	"regexp"
	"testing"
)

// A note's heading carries the id its anchor makes ("## Status" is
// id="status"), so a stylesheet rule by the page's own id alone styles
// such headings too (a note's "Status" showed small and grey, its h1s at
// the reader title's size). Every id selector names its element, the one
// index.html gives that id, so no heading matches it.
func TestStyleIDsNameTheirElement(t *testing.T) {
	css, err := webFS.ReadFile("web/style.css")
	if err != nil {
		t.Fatal(err)
	}
	page, err := webFS.ReadFile("web/index.html")
	if err != nil {
		t.Fatal(err)
	}
	elements := map[string]string{} // id → element
	for _, m := range regexp.MustCompile(`<([a-z0-9]+)\b[^>]*\bid="([^"]+)"`).FindAllSubmatch(page, -1) {
		elements[string(m[2])] = string(m[1])
	}
	// Selectors only: drop declarations, where "#fff" is a colour.
	selectors := regexp.MustCompile(`\{[^}]*\}`).ReplaceAll(css, []byte("{}"))
	found := 0
	for _, m := range regexp.MustCompile(`([a-z0-9]*)#([A-Za-z][\w-]*)`).FindAllSubmatch(selectors, -1) {
		found++
		tag, id := string(m[1]), string(m[2])
		switch want, ok := elements[id]; {
		case !ok:
			t.Errorf("style.css: #%s is no id of index.html", id)
		case tag != want:
			t.Errorf("style.css: #%s, want %s#%s: a note heading may carry the same id", id, want, id)
		}
	}
	if found == 0 {
		t.Fatal("no id selector found: the test reads nothing")
	}
}
