package engine

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A note of properties alone is found by its title, its aliases and its
// tags, and its result counts the words it shows.
func TestPropertiesNoteFound(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "Jane Doe.md", "---\nAliases: [Hedgehog Person]\ntags: [person]\n---\n")
	write(t, vault, "other.md", "# Other\n\nNothing to see.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, req := range []mdsearch.SearchRequest{{Query: "Jane Doe"}, {Query: "hedgehog"}, {Query: "person", Tag: "person"}} {
		resp := search(t, e, req)
		if len(resp.Results) == 0 || resp.Results[0].Path != "Jane Doe.md" || resp.Results[0].PageWordCount != 5 {
			t.Errorf("%+v: %s", req, paths(resp))
		}
	}
}

// A Hugo page's TOML frontmatter ("+++") is read as YAML's is: its tags
// and fields filter, and its text is in no passage.
func TestTOMLFrontmatter(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "post.md", "+++\ntitle = \"Hugo Post\"\ntags = [\"hugo\"]\nauthor = \"bob\"\n+++\n\n## Setup\n\nInstall the quokkabridge.\n")
	write(t, vault, "other.md", "# Other\n\nThe quokkabridge again, untagged.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, req := range []mdsearch.SearchRequest{
		{Query: "quokkabridge", Tag: "hugo"},
		{Query: "quokkabridge", Where: map[string]string{"author": "bob"}},
	} {
		resp := search(t, e, req)
		if len(resp.Results) != 1 || resp.Results[0].Path != "post.md" || resp.Results[0].Title != "Hugo Post" {
			t.Errorf("%+v: %s", req, paths(resp))
		}
	}
	if resp := search(t, e, mdsearch.SearchRequest{Query: "author", Mode: mdsearch.ModeKeyword}); len(resp.Results) != 0 {
		t.Errorf("the TOML's field names were indexed as the note's text: %s", paths(resp))
	}
}

// A note's property values are found by keyword, in its first passage,
// as Obsidian's search finds them; its field names, the fields read for
// themselves and booleans are not text of the note.
func TestPropertyValuesFound(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "book.md", "---\nauthor: Bartholomew Quince\nstatus: shelved\npublished: true\ncssclasses: [widepage]\n---\n"+
		"# The Book\n\nA story about a lighthouse.\n\n## Chapter one\n\nThe keeper wakes.\n")
	write(t, vault, "other.md", "# Other\n\nNothing to see: true stories only, author unknown.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, q := range []string{"Quince", "bartholomew quince", "shelved"} {
		resp := search(t, e, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeKeyword})
		if len(resp.Results) != 1 || resp.Results[0].Path != "book.md" || resp.Results[0].ChunkIndex != 0 {
			t.Errorf("%q: %s", q, paths(resp))
		}
	}
	// Why names the properties as where a word was found, apart from the
	// passage's own text.
	resp := search(t, e, mdsearch.SearchRequest{Query: "quince lighthouse", Mode: mdsearch.ModeKeyword, Explain: true})
	if len(resp.Results) == 0 || resp.Results[0].Why == nil || fmt.Sprint(resp.Results[0].Why.Words) != "[{quince [properties] } {lighthouse [text] }]" {
		t.Errorf("why: %s %+v", paths(resp), resp.Results[0].Why)
	}
	for _, q := range []string{"status", "widepage", "published"} {
		if resp := search(t, e, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeKeyword}); len(resp.Results) != 0 {
			t.Errorf("%q found %s", q, paths(resp))
		}
	}
}

// A read of a whole note and its outline count the words search counts
// for it ("page N words": its body's, or, for a note of properties alone,
// its properties'), and say what reading it costs: the tokens of all it
// returns, frontmatter included. A note that is one %% comment counts no
// words: a read leaves it out, as search does.
func TestReadCountsAgree(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "Jane Doe.md", "---\nAliases: [Hedgehog Person]\ntags: [person]\n---\n")
	write(t, vault, "fm.md", "---\ntitle: Front\nsummary: a long summary of many words in the frontmatter here\n---\n# Front\n\nThe body text.\n")
	write(t, vault, "comment.md", "%% a private comment %%\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct {
		path, query string
		words       int
	}{{"Jane Doe.md", "hedgehog", 5}, {"fm.md", "body text", 4}, {"comment.md", "", 0}} {
		r, err := e.Read(bg, mdsearch.ReadRequest{Path: tt.path})
		if err != nil {
			t.Fatal(err)
		}
		o, err := e.Outline(bg, tt.path)
		if err != nil {
			t.Fatal(err)
		}
		if r.WordCount != tt.words || o.WordCount != tt.words {
			t.Errorf("%s: read %d words, outline %d; want %d", tt.path, r.WordCount, o.WordCount, tt.words)
		}
		if want := EstimateTokens(r.Content); r.Tokens != want || o.Tokens != want {
			t.Errorf("%s: read ~%d tokens, outline ~%d; its content costs %d", tt.path, r.Tokens, o.Tokens, want)
		}
		if tt.query == "" {
			continue
		}
		resp := search(t, e, mdsearch.SearchRequest{Query: tt.query, Mode: mdsearch.ModeKeyword})
		if len(resp.Results) == 0 || resp.Results[0].Path != tt.path || resp.Results[0].PageWordCount != tt.words {
			t.Errorf("%s: search %+v", tt.path, resp.Results)
		}
	}
}
