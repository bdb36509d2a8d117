package store

import (
	"context"
	"errors"
	"fmt"
	"golang.org/x/text/unicode/norm"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
)

var ctx = context.Background()

func open(t *testing.T) *Store {
	t.Helper()
	s, mig, err := Open(ctx, filepath.Join(t.TempDir(), "sub", "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	if mig != nil {
		t.Fatalf("fresh index migrated: %v", mig)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func chunk(path string, i int, section, text string) mdsearch.Chunk {
	head := "[Top > " + section + "] "
	return mdsearch.Chunk{Path: path, ChunkIndex: i, TotalChunks: 2, Section: section,
		SectionPath: []string{"Top", section}, Text: text,
		Windows: []mdsearch.Window{{EmbedText: head + text, TextStart: 0}}}
}

func put(t *testing.T, s *Store, coll int64, path, title string, tags []string, chunks ...mdsearch.Chunk) int64 {
	t.Helper()
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	id, err := tx.PutDocument(Document{CollectionID: coll, Path: path, Title: title, Hash: []byte{1}, Tags: tags,
		Frontmatter: map[string]any{"tags": tags}}, chunks)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return id
}

// deleteDoc deletes the note id in a transaction of its own.
func deleteDoc(t *testing.T, s *Store, id int64) {
	t.Helper()
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.DeleteDocument(id); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func keyword(t *testing.T, s *Store, match string, f Filter) []string {
	t.Helper()
	hits, err := s.Keyword(ctx, match, f, DefaultWeights, 10)
	if err != nil {
		t.Fatalf("Keyword(%q): %v", match, err)
	}
	ids := hitIDs(hits)
	rows, err := s.Chunks(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, id := range ids {
		out = append(out, rows[id].Path+"#"+rows[id].Section)
	}
	return out
}

func TestDocumentsAndKeyword(t *testing.T) {
	s := open(t)
	a, err := s.AddCollection(ctx, "a", "/vault/a")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.AddCollection(ctx, "b", "/vault/b")
	put(t, s, a.ID, "bread.md", "Bread", []string{"#Food/Bread"},
		chunk("bread.md", 0, "Starter", "Feed the sourdough starter daily."),
		chunk("bread.md", 1, "Baking", "Bake at 250 degrees."))
	put(t, s, a.ID, "notes/garden.md", "Garden", nil, chunk("notes/garden.md", 0, "Tomatoes", "Water tomatoes daily."))
	put(t, s, b.ID, "bread.md", "Other bread", nil, chunk("bread.md", 0, "Rye", "Rye starter is different."))
	put(t, s, b.ID, "Работа/план.md", "План", []string{"Срочно"}, chunk("Работа/план.md", 0, "План", "daily plan"))
	put(t, s, b.ID, norm.NFD.String("맥북/메모.md"), "메모", nil, chunk("맥북/메모.md", 0, "메모", "daily memo"))

	cases := []struct {
		match string
		f     Filter
		want  string
	}{
		{`"starter"`, Filter{}, "bread.md#Starter bread.md#Rye"},
		{`"starter"`, Filter{CollectionID: b.ID}, "bread.md#Rye"},
		{`"daily"`, Filter{PathPrefix: "notes/"}, "notes/garden.md#Tomatoes"},
		// Case and composition in any script (a path saved decomposed).
		{`"daily"`, Filter{PathPrefix: "работа/"}, "Работа/план.md#План"},
		{`"daily"`, Filter{PathPrefix: "РАБОТА"}, "Работа/план.md#План"},
		{`"daily"`, Filter{PathPrefix: "맥북"}, norm.NFD.String("맥북/메모.md") + "#메모"},
		{`"daily"`, Filter{PathHas: []string{"ПЛАН"}}, "Работа/план.md#План"},
		{`"daily"`, Filter{FileHas: []string{"메모"}}, norm.NFD.String("맥북/메모.md") + "#메모"},
		{`"daily"`, Filter{FileHas: []string{"notes"}}, ""}, // a folder, not a file name
		{`"daily"`, Filter{Tag: "срочно"}, "Работа/план.md#План"},
		{`"daily"`, Filter{Tag: "food"}, "bread.md#Starter"},
		{`"daily"`, Filter{Tag: "#FOOD/bread"}, "bread.md#Starter"},
		{`"daily"`, Filter{Tag: "foo"}, ""},
		{`"baking"`, Filter{}, "bread.md#Baking"},   // the heading, not the text
		{`"feeding"`, Filter{}, "bread.md#Starter"}, // porter stemming
	}
	for _, c := range cases {
		got := strings.Join(keyword(t, s, c.match, c.f), " ")
		if got != c.want {
			t.Errorf("%s %+v: got %q, want %q", c.match, c.f, got, c.want)
		}
	}

	refs, err := s.FindDocuments(ctx, "", "bread.md")
	if err != nil || len(refs) != 2 || refs[0].Collection != "a" || refs[1].Root != "/vault/b" {
		t.Fatalf("FindDocuments: %+v %v", refs, err)
	}
	chunks, err := s.DocumentChunks(ctx, "a", "bread.md")
	if err != nil || len(chunks) != 2 {
		t.Fatalf("DocumentChunks: %v %v", chunks, err)
	}
	c := chunks[1]
	texts, err := s.EmbedTexts(ctx)
	if err != nil || !slices.Contains(texts, "[Top > Baking] Bake at 250 degrees.") {
		t.Errorf("window embed texts: %q %v", texts, err)
	}
	if c.Text != "Bake at 250 degrees." || c.ID != "bread.md#1" ||
		strings.Join(c.SectionPath, "/") != "Top/Baking" || c.Tags[0] != "#Food/Bread" {
		t.Errorf("round trip: %+v", c.Chunk)
	}
}

func TestReplaceAndDeleteKeepFTSInSync(t *testing.T) {
	s := open(t)
	a, _ := s.AddCollection(ctx, "a", "/a")
	id := put(t, s, a.ID, "x.md", "X", []string{"t"}, chunk("x.md", 0, "One", "alpha beta"))
	put(t, s, a.ID, "x.md", "X", nil, chunk("x.md", 0, "Two", "gamma"))
	if got := keyword(t, s, `"alpha"`, Filter{}); len(got) != 0 {
		t.Errorf("replaced chunk still matches: %v", got)
	}
	if got := keyword(t, s, `"gamma"`, Filter{Tag: "t"}); len(got) != 0 {
		t.Errorf("old tag still filters: %v", got)
	}
	deleteDoc(t, s, id)
	if got := keyword(t, s, `"gamma"`, Filter{}); len(got) != 0 {
		t.Errorf("deleted chunk still matches: %v", got)
	}
	var n int
	s.pool.QueryRow(`SELECT count(*) FROM chunks`).Scan(&n)
	if n != 0 {
		t.Errorf("%d chunks left", n)
	}
	if msg, err := s.IntegrityCheck(ctx); err != nil || msg != "ok" {
		t.Errorf("integrity: %q %v", msg, err)
	}
}

func TestVectors(t *testing.T) {
	s := open(t)
	a, _ := s.AddCollection(ctx, "a", "/a")
	c0, c1 := chunk("x.md", 0, "A", "same"), chunk("x.md", 1, "A", "same")
	put(t, s, a.ID, "x.md", "X", nil, c0, c1, chunk("x.md", 2, "B", "other"))
	m, err := s.Model(ctx, "m1", 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Model(ctx, "m1", 4); mdsearch.KindOf(err) != mdsearch.KindInvalid {
		t.Errorf("dimension change: %v", err)
	}
	pend, err := s.MissingVectors(ctx, m)
	if err != nil || len(pend) != 2 {
		t.Fatalf("identical embed_text must be embedded once: %v %v", pend, err)
	}
	tx, _ := s.Begin(ctx)
	tx.PutVector(m, pend[0].Key, []float32{1, 0, 0})
	if ok, _ := tx.HasVector(m, pend[0].Key); !ok {
		t.Error("HasVector after PutVector")
	}
	tx.Commit()
	if pend, _ = s.MissingVectors(ctx, m); len(pend) != 1 {
		t.Fatalf("after one put: %v", pend)
	}
	_, _, chunks, vecs, _ := s.Counts(ctx, m)
	if chunks != 3 || (vecs != 2 && vecs != 1) {
		t.Errorf("counts: %d chunks %d vectors", chunks, vecs)
	}
	m2, _ := s.Model(ctx, "m2", 3)
	tx, _ = s.Begin(ctx)
	tx.PutVector(m2, pend[0].Key, []float32{0, 1, 0})
	tx.PutVector(m, []byte("orphan"), []float32{0, 0, 1})
	tx.Commit()
	n, err := s.GCVectors(ctx, m, true)
	if err != nil || n != 2 {
		t.Errorf("GC deleted %d (%v), want the other model's and the orphan", n, err)
	}
	var seen int
	s.ScanVectors(ctx, m, func(WindowRef, []byte) error {
		seen++
		return nil
	})
	if seen != vecs {
		t.Errorf("scan saw %d, want %d", seen, vecs)
	}
}

func TestQuantize(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var worst float64
	for range 200 {
		a, b := randUnit(r, 512), randUnit(r, 512)
		exact := dot(a, b)
		qa, qb := Dequantize(Quantize(a)), Dequantize(Quantize(b))
		worst = math.Max(worst, math.Abs(exact-dot(qa, qb)))
	}
	if worst > 2e-3 {
		t.Errorf("int8 cosine error up to %g", worst)
	}
	if v := Dequantize(Quantize(make([]float32, 4))); len(v) != 4 || v[0] != 0 {
		t.Errorf("zero vector: %v", v)
	}
}

func randUnit(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	var s float64
	for i := range v {
		v[i] = float32(r.NormFloat64())
		s += float64(v[i] * v[i])
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(s))
	}
	return v
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestSchemaVersionChangeRebuilds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	s, _, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := s.AddCollection(ctx, "notes", "/vault/notes")
	put(t, s, a.ID, "x.md", "X", nil, chunk("x.md", 0, "A", "text"))
	s.SetMeta(ctx, "schema_version", "0")
	s.Close()

	s, mig, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if mig == nil || mig.From != 0 || len(mig.Collections) != 1 || mig.Collections[0].Root != "/vault/notes" {
		t.Fatalf("migration: %+v", mig)
	}
	if !strings.Contains(mig.String(), "re-index") {
		t.Errorf("message: %s", mig)
	}
	colls, _ := s.Collections(ctx)
	docs, chunks, _, _, _ := s.Counts(ctx, 0)
	if len(colls) != 1 || docs != 0 || chunks != 0 {
		t.Errorf("after rebuild: %v collections, %d docs, %d chunks", colls, docs, chunks)
	}
	if v, _ := s.Meta(ctx, "schema_version"); v != strconv.Itoa(SchemaVersion) || mig.To != SchemaVersion {
		t.Errorf("version %q, migration to %d; want %d", v, mig.To, SchemaVersion)
	}
}

func TestOpenRefusesForeignFiles(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.db")
	os.WriteFile(junk, []byte(strings.Repeat("not sqlite ", 100)), 0o644)
	if _, _, err := Open(ctx, junk); mdsearch.KindOf(err) != mdsearch.KindInvalid || !strings.Contains(err.Error(), junk) {
		t.Errorf("junk file: %v", err)
	}
}

// BenchmarkKeyword compares Keyword (weighted bm25, chunk join, filters)
// with a bare FTS5 MATCH ordered by rank, over 20,000 synthetic chunks;
// a tenth of the notes carry 500 tags each, and a quarter a tag the tag
// filters ask for (nested ones too).
func BenchmarkKeyword(b *testing.B) {
	s, _, err := Open(ctx, filepath.Join(b.TempDir(), "index.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	coll, _ := s.AddCollection(ctx, "c", "/c")
	r := rand.New(rand.NewSource(1))
	words := strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega")
	tx, _ := s.Begin(ctx)
	for d := range 2000 {
		var cs []mdsearch.Chunk
		for i := range 10 {
			var t []string
			for range 60 {
				t = append(t, words[r.Intn(len(words))]+strconv.Itoa(r.Intn(50)))
			}
			cs = append(cs, chunk("d.md", i, "S"+strconv.Itoa(i), strings.Join(t, " ")))
		}
		var tags []string
		if d%4 == 0 {
			tags = append(tags, "work", "work/p"+strconv.Itoa(d%7))
		}
		if d%10 == 1 {
			for i := range 500 {
				tags = append(tags, "t"+strconv.Itoa(i))
			}
		}
		if _, err := tx.PutDocument(Document{CollectionID: coll.ID, Path: "doc" + strconv.Itoa(d) + ".md", Title: "T", Hash: []byte{1}, Tags: tags}, cs); err != nil {
			b.Fatal(err)
		}
	}
	tx.Commit()
	match := `"alpha7" OR "beta3" OR "omega12"`
	b.Run("keyword", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.Keyword(ctx, match, Filter{}, DefaultWeights, 100); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("keyword-filtered", func(b *testing.B) {
		for b.Loop() {
			s.Keyword(ctx, match, Filter{CollectionID: coll.ID, PathPrefix: "doc1"}, DefaultWeights, 100)
		}
	})
	for name, f := range map[string]Filter{"tag": {Tag: "work"}, "nested-tag": {Tag: "work/p3"}, "no-such-tag": {Tag: "nomatch"}, "not-tag": {NotTags: []string{"work"}}} {
		b.Run("keyword-"+name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Keyword(ctx, match, f, DefaultWeights, 100); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("raw-fts5", func(b *testing.B) {
		for b.Loop() {
			rows, err := s.pool.Query(`SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT 100`, match)
			if err != nil {
				b.Fatal(err)
			}
			for rows.Next() {
			}
			rows.Close()
		}
	})
}

// TestSharedPaths: a path is shared when two collections hold it.
func TestSharedPaths(t *testing.T) {
	s, _, b := twoCollections(t)
	put(t, s, b.ID, "y.md", "T", nil, chunk("y.md", 0, "C", "cherry"))
	shared, err := s.SharedPaths(ctx, []string{"x.md", "y.md", "z.md"})
	if err != nil || len(shared) != 1 || !shared["x.md"] {
		t.Errorf("SharedPaths = %v, %v; want x.md alone", shared, err)
	}
}

// TestAddedColumns: an index of this schema version written before
// sections.read_section and chunks.read_sections is read without them, and
// gains them, its rows kept, when opened for writing.
func TestAddedColumns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	s, _, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := s.AddCollection(ctx, "notes", "/vault/notes")
	c := chunk("x.md", 0, "A", "text")
	c.ReadSection = "#a-1"
	c.Sections, c.ReadSections = [][]string{{"A"}, {"B"}, {"A"}}, []string{"#a-1", "", "#a-2"}
	put(t, s, a.ID, "x.md", "X", nil, c)
	const want = "#a-1 [#a-1  #a-2]"
	read := func(s *Store) string {
		t.Helper()
		rows, err := s.DocumentChunks(ctx, "notes", "x.md")
		if err != nil || len(rows) != 1 {
			t.Fatalf("chunks: %v, %v", rows, err)
		}
		return fmt.Sprintf("%s %v", rows[0].ReadSection, rows[0].ReadSections)
	}
	if got := read(s); got != want {
		t.Errorf("read %q, want %q", got, want)
	}
	for _, col := range addedColumns {
		if _, err := s.w.ExecContext(ctx, `ALTER TABLE `+col.table+` DROP COLUMN `+col.column); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	r, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if got := read(r); got != " []" {
		t.Errorf("without the columns: read %q", got)
	}
	r.Close()
	s, mig, err := Open(ctx, path)
	if err != nil || mig != nil {
		t.Fatalf("open: %v, %v", mig, err)
	}
	defer s.Close()
	for _, col := range addedColumns {
		if ok, err := hasColumn(ctx, s.w, col.table, col.column); !ok || err != nil {
			t.Errorf("column %s.%s not added: %v", col.table, col.column, err)
		}
	}
	if got := read(s); got != " []" {
		t.Errorf("after adding the columns: read %q", got)
	}
	put(t, s, a.ID, "x.md", "X", nil, c)
	if got := read(s); got != want {
		t.Errorf("re-written: read %q, want %q", got, want)
	}
}

// TestCloseDoesNotWaitForWriter: closing a store while another process
// writes the index does not wait for it to finish (a search that had
// printed its results stayed up for seconds, until the other run's
// write ended, checkpointing the WAL).
func TestCloseDoesNotWaitForWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	writer, _, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	tx, err := writer.Begin(ctx) // holds the write lock, as a running index does
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.exec(`INSERT INTO meta(key, value) VALUES ('x', 'y')`); err != nil {
		t.Fatal(err)
	}
	reader, _, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	reader.Close()
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Close waited %v for the other writer", d)
	}
	tx.Rollback()
}

// countdown is a context stopped after its Done has been asked for n
// times: a stop at each step of what runs under it, in turn.
type countdown struct {
	context.Context
	n    atomic.Int64
	done chan struct{}
	once sync.Once
}

func newCountdown(n int) *countdown {
	c := &countdown{Context: context.Background(), done: make(chan struct{})}
	c.n.Store(int64(n))
	return c
}

func (c *countdown) Done() <-chan struct{} {
	if c.n.Add(-1) < 0 {
		c.once.Do(func() { close(c.done) })
	}
	return c.done
}

func (c *countdown) Err() error {
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}

// A rebuild of an older index runs to its end once begun, wherever the
// command that began it is stopped: the collections' list is kept and the
// file stays an index (stopped halfway, it lost both, or was refused from
// then on as no mdsearch index).
func TestRebuildIgnoresStop(t *testing.T) {
	for n := 0; n < 120; n += 4 {
		path := filepath.Join(t.TempDir(), "index.db")
		// A version 1 index, written before the application ID.
		// VACUUM may list FTS5's shadow tables before their table.
		v1Index(`VACUUM`)(t, path)
		if s, _, err := Open(newCountdown(n), path); err == nil {
			s.Close()
		}
		if n == 0 { // and a rebuild that fails after dropping the tables
			rebuildFault = func() error { return errors.New("crashed") }
			if s, _, err := Open(ctx, path); err == nil || !strings.Contains(err.Error(), "crashed") {
				t.Errorf("a failed rebuild: %v", err)
				s.Close()
			}
			rebuildFault = nil
		}
		again, _, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("stopped after %d steps: the index does not open: %v", n, err)
		}
		colls, err := again.Collections(ctx)
		again.Close()
		if err != nil || len(colls) != 1 || colls[0].Root != "/vault/notes" {
			t.Fatalf("stopped after %d steps: collections %+v, %v", n, colls, err)
		}
	}
}
