package engine

import (
	"os"
	"path/filepath"
	"testing"
)

// linkedNotes are notes of the Obsidian help vault that others link to:
// 3 to 41 notes name each.
var linkedNotes = []string{"Plugins/Canvas.md", "Plugins/Core plugins.md", "Linking notes and files/Internal links.md",
	"Home.md", "Plugins/Properties view.md", "Editing and formatting/Properties.md"}

// BenchmarkLinkedFrom times outlines of linkedNotes with the places that
// link to each, beside the same outlines without them, in turn, on a
// keyword index of the Obsidian help vault (173 notes): what finding and
// resolving the links adds.
func BenchmarkLinkedFrom(b *testing.B) {
	vault := filepath.Join("..", "..", "shared", "corpora", "obsidian-help", "en")
	if _, err := os.Stat(vault); err != nil {
		b.Skip("the Obsidian help vault is not beside the repository (../shared/corpora)")
	}
	e := openEngine(b, filepath.Join(b.TempDir(), "index.db"), nil)
	index(b, e, vault, "help")
	ask := func(links bool) func(string) error {
		return func(p string) error {
			_, err := e.outline(bg, p, links)
			return err
		}
	}
	benchPair(b, linkedNotes, "outline", ask(false), "linked", ask(true))
}
