package store

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// TestMatchFieldsAsTheIndex: MatchFields matches each expression on the
// same rows and columns as the keyword index does, for the rows asked
// about only: the rows are made again as indexing wrote them (title,
// file name, aliases, heading path, merged sections, tags, property
// values). Read in Go,
// they score as in the scratch table.
func TestMatchFieldsAsTheIndex(t *testing.T) {
	s := open(t)
	c, err := s.AddCollection(ctx, "c", "/vault/c")
	if err != nil {
		t.Fatal(err)
	}
	a := chunk("garden/rye-notes.md", 0, "Sowing", "the sourdough starter needs rye flour, fed daily")
	a.SectionPath = []string{"Rye", "Sowing"}
	a.Sections = [][]string{{"Rye", "Sowing"}, {"Rye", "Harvest Time"}}
	putFM := func(path, title string, tags []string, fm map[string]any, ch mdsearch.Chunk) {
		tx, err := s.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.PutDocument(Document{CollectionID: c.ID, Path: path, Title: title, Hash: []byte{1}, Tags: tags, Frontmatter: fm}, []mdsearch.Chunk{ch}); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	putFM("garden/rye-notes.md", "Rye", []string{"#Grain/rye", "Bread"}, nil, a)
	b := chunk("bread.md", 0, "Bread", "rye bread with a sourdough starter, baked in a Dutch oven")
	b.Properties = "Quince"
	putFM("bread.md", "Baking bread", nil, map[string]any{"aliases": []any{"Secale", 1984}}, b)
	// A passage's own tags (inline ones written elsewhere left out), and
	// one with none of its own but the note's frontmatter's.
	p0, p1 := chunk("jars.md", 0, "Shelf", "starter jars"), chunk("jars.md", 1, "Other", "starter crocks")
	p0.PassageTags, p1.PassageTags = []string{"kitchen", "pantry"}, []string{"kitchen"}
	put(t, s, c.ID, "jars.md", "Jars", []string{"kitchen", "pantry"}, p0, p1)
	put(t, s, c.ID, "other.md", "Other", nil, chunk("other.md", 0, "Other", "a starter for the garden"))
	put(t, s, c.ID, "none.md", "None", nil, chunk("none.md", 0, "None", "nothing here"))
	var ids []int64
	rows, _ := s.w.QueryContext(ctx, `SELECT c.id FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE d.path <> 'none.md' ORDER BY c.id`)
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	exprs := []string{"starter", "rye", "sourdough + starter", "NEAR(rye starter, 8)", "garden", "harvest", "grain",
		"secale", "1984", "notes", "baking", "nothing", `"dutch oven"`, "sow*", "pantry", "kitchen", "quince"}
	got, err := s.MatchFields(ctx, exprs, ids)
	if err != nil {
		t.Fatal(err)
	}
	in := make([]string, len(ids))
	for i, id := range ids {
		in[i] = strconv.FormatInt(id, 10)
	}
	for i, e := range exprs {
		want := map[int64][4]bool{}
		res, err := s.w.QueryContext(ctx, `SELECT rowid, bm25(chunks_fts, 1, 0, 0, 0), bm25(chunks_fts, 0, 1, 0, 0), bm25(chunks_fts, 0, 0, 1, 0),
			bm25(chunks_fts, 0, 0, 0, 1) FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid IN (`+strings.Join(in, ",")+`)`, e)
		if err != nil {
			t.Fatal(err)
		}
		for res.Next() {
			var id int64
			var f [4]float64
			res.Scan(&id, &f[0], &f[1], &f[2], &f[3])
			want[id] = [4]bool{f[0] < 0, f[1] < 0, f[2] < 0, f[3] < 0}
		}
		res.Close()
		if len(got[i]) != len(want) {
			t.Errorf("%s: %d rows match, the index says %d", e, len(got[i]), len(want))
		}
		for id, f := range got[i] {
			if w, ok := want[id]; !ok || w != [4]bool{f[0] > 0, f[1] > 0, f[2] > 0, f[3] > 0} {
				t.Errorf("%s: row %d columns %v, the index says %v (%v)", e, id, f, w, ok)
			}
		}
	}
	if len(got[7]) != 1 || len(got[8]) != 1 || len(got[5]) != 1 || len(got[6]) != 1 {
		t.Errorf("alias, number alias, merged section or tag not matched: %v %v %v %v", got[7], got[8], got[5], got[6])
	}
	if len(got[14]) != 1 || len(got[15]) != 2 {
		t.Errorf("an inline tag matched %d passages, want 1; a frontmatter tag %d, want 2", len(got[14]), len(got[15]))
	}
	if len(got[16]) != 1 {
		t.Errorf("a property value matched %d passages, want 1", len(got[16]))
	}
	// Go read them all, and scored them as the scratch table does.
	ps, err := s.Passages(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	kw := map[int64][4]string{}
	for id, p := range ps {
		kw[id] = p.Keywords
	}
	inGo, err := matchInGo(ctx, exprs, kw)
	if err != nil {
		t.Fatalf("not read in Go: %v", err)
	}
	want, err := matchScratch(ctx, exprs, kw)
	if err != nil {
		t.Fatal(err)
	}
	sameMatches(t, exprs, inGo, want)
	sameMatches(t, exprs, got, want)
}

// The scratch table tokenizes as the keyword index does.
func TestScratchTokenizer(t *testing.T) {
	if !strings.Contains(strings.Join(schema, "\n"), "tokenize='"+keywordTokenizer+"'") {
		t.Errorf("chunks_fts no longer tokenizes with %q: change keywordTokenizer with it", keywordTokenizer)
	}
}

// Concurrent searches each take their own scratch connection (and learn
// the same new characters at once).
func TestMatchFieldsConcurrent(t *testing.T) {
	s := keywordFixture(t, map[string]string{"a": "rye starter", "b": "wheat starter", "c": "garden ǁ ǂ Ꙭ"})
	hits, err := s.KeywordAny(ctx, []string{"starter", "garden"}, Filter{}, Weights{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	ids := hitIDs(hits)
	errs := make(chan error, 16)
	for range 16 {
		go func() {
			m, err := s.MatchFields(ctx, []string{"starter", "rye"}, ids)
			if err == nil && (len(m[0]) != 2 || len(m[1]) != 1) {
				err = fmt.Errorf("got %v", m)
			}
			errs <- err
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// HasProperty finds a frontmatter field in any case, a dotted name by its
// first part, and no other.
func TestHasProperty(t *testing.T) {
	s := open(t)
	c, err := s.AddCollection(ctx, "c", "/vault/c")
	if err != nil {
		t.Fatal(err)
	}
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fm := map[string]any{"Due Date": "2024-07-01", "params": map[string]any{"author": "bob"}}
	if _, err := tx.PutDocument(Document{CollectionID: c.ID, Path: "a.md", Title: "A", Hash: []byte{1}, Frontmatter: fm},
		[]mdsearch.Chunk{chunk("a.md", 0, "A", "text")}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"due date": true, "DUE DATE": true, "params.author": true, "params": true,
		"author": false, "WARNING": false, "tags": false} {
		if got, err := s.HasProperty(ctx, name); err != nil || got != want {
			t.Errorf("HasProperty(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
}
