package mdsearch

// Backlink is a place in another note of the same collection that links
// to a note: a wikilink or an embed naming it, or a markdown link to its
// path, resolved as Obsidian resolves it. Outline lists them.
type Backlink struct {
	Path    string `json:"path"`
	Section string `json:"section,omitempty"` // as Read takes it; "" for the note's properties
	// Line is the link's line in that note; 0 where its properties link.
	Line int `json:"line,omitempty"`
	// Text is the line that holds the link (or the property, "up:
	// [[Plan]]"), cut to about 160 characters.
	Text string `json:"text"`
}
