package mdsearch

// Backlink is a place in another note of the same collection that links
// to a note: a wikilink or an embed naming it, or a markdown link to its
// path, resolved as Obsidian resolves it. Outline lists them.
type Backlink struct {
	Path    string `json:"path"`
	Section string `json:"section,omitempty"` // the section that holds it, as Read takes it; "" in the note's properties
	Line    int    `json:"line"`              // the link's line in that note, from 1
	// Text is the line that holds the link ("up: \"[[Plan]]\"" in the
	// properties), cut to about 160 characters.
	Text string `json:"text"`
}
