package eval

import (
	"context"
	"strings"
	"testing"
)

// A terms query is the first word a section holds twice and no other
// section holds at all, asked alone and labelled with that section; a
// section without one asks nothing.
func TestGenerateTerms(t *testing.T) {
	files := map[string]string{
		"rust.md": "# Rust\n\n## Turbofish\n\nThe turbofish names a type: the turbofish is `::<>`. " +
			"Generic functions take it.\n\n## Generic functions\n\nGeneric functions are generic over types; " +
			"generic code compiles once a type.\n\n## Closures\n\nA closure_like value, a closure_like call.\n",
		"pets.md": "# Pets\n\n## Cats\n\nCats purr. Cats purr loudly, and a kitten purrs too.\n\n## Dogs\n\n" +
			"Dogs bark at cats; the cats ignore them. A mudpuppy2 once, a mudpuppy2 twice.\n\n## Fish\n\n" +
			"Goldfish swim. There are these words: there there.\n",
		"work.md": "# Work\n\n## Triage\n\nTriaging comes first. Then triaging again, and watching, watching.\n\n" +
			"## Watch\n\nWe watch the queue.\n",
	}
	dir := writeVault(t, files)
	qs, st, err := Generate(context.Background(), dir, []string{StyleTerms})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, q := range qs.Queries {
		got[q.Text] = q.Relevant[0].Path + "#" + strings.Join(q.Relevant[0].SectionPath, "/")
	}
	want := map[string]string{
		"turbofish":    "rust.md#Rust/Turbofish", // twice here, nowhere else
		"closure_like": "rust.md#Rust/Closures",  // an inner '_' is a term's
		"purr":         "",                       // under five letters
		"mudpuppy2":    "pets.md#Pets/Dogs",      // letters and digits
		"Generic":      "",                       // in two sections
		"generic":      "",                       //
		"there":        "",                       // a common word
		"Goldfish":     "",                       // once only
		"triaging":     "work.md#Work/Triage",    // a capital at a sentence\'s start alone: asked in lower case
		"Triaging":     "",
		"watching":     "", // its stem, watch, is held by another section
	}
	for text, w := range want {
		if got[text] != w {
			t.Errorf("%q: labelled %q, want %q", text, got[text], w)
		}
	}
	if len(qs.Queries) != 4 || st.ByStyle[StyleTerms] != 4 {
		t.Errorf("%d queries (%v), want 4", len(qs.Queries), got)
	}
	if err := qs.Resolve(context.Background(), dir); err != nil {
		t.Errorf("generated labels do not resolve: %v", err)
	}
}
