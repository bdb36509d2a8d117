package engine

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// chunkIDs lists every stored chunk as id:path#index, to see what a run
// rewrote.
func chunkIDs(t *testing.T, e *Engine) []string {
	t.Helper()
	rows, err := e.st.Chunks(bg, allChunkIDs(t, e))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for id, r := range rows {
		out = append(out, r.Collection+":"+r.ID+"@"+strconv.FormatInt(id, 10))
	}
	sort.Strings(out)
	return out
}

func allChunkIDs(t *testing.T, e *Engine) []int64 {
	t.Helper()
	var ids []int64
	colls, _ := e.st.Collections(bg)
	for _, c := range colls {
		docs, _ := e.st.DocInfos(bg, c.ID)
		for p := range docs {
			rows, err := e.st.DocumentChunks(bg, c.Name, p)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				ids = append(ids, r.RowID)
			}
		}
	}
	return ids
}

func TestIncremental(t *testing.T) {
	vault := copyDir(t, sampleVault)
	emb := newBow("bow-1")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), emb)
	first := index(t, e, vault, "s")
	// Every window is embedded once (no two windows of the sample vault
	// share their text).
	if first.Embedded != first.Windows || first.Windows < first.Chunks || first.Reused != 0 {
		t.Fatalf("cold run: %+v", first)
	}
	before := chunkIDs(t, e)

	t.Run("no-op", func(t *testing.T) {
		emb.texts.Store(0)
		gen0, _ := e.st.Generation(bg)
		st := index(t, e, vault, "s")
		gen1, _ := e.st.Generation(bg)
		if st.Unchanged != 6 || st.Changed+st.Added+st.Deleted+st.Chunks+st.Embedded != 0 || emb.texts.Load() != 0 || gen1 != gen0 {
			t.Errorf("no-op run touched something: %+v, %d texts embedded, generation %d -> %d", st, emb.texts.Load(), gen0, gen1)
		}
		if after := chunkIDs(t, e); strings.Join(after, " ") != strings.Join(before, " ") {
			t.Error("no-op run rewrote chunks")
		}
	})

	t.Run("touch keeps chunks", func(t *testing.T) {
		p := filepath.Join(vault, "kitchen", "Sourdough.md")
		future := time.Now().Add(time.Hour)
		os.Chtimes(p, future, future)
		st := index(t, e, vault, "s")
		if st.Unchanged != 6 || st.Chunks != 0 || st.Embedded != 0 {
			t.Errorf("same content, new mtime: %+v", st)
		}
		if after := chunkIDs(t, e); strings.Join(after, " ") != strings.Join(before, " ") {
			t.Error("touch rewrote chunks")
		}
	})

	t.Run("edit one paragraph", func(t *testing.T) {
		p := filepath.Join(vault, "kitchen", "Sourdough.md")
		src, _ := os.ReadFile(p)
		edited := strings.Replace(string(src), "Let the loaf cool for an hour", "Let the loaf cool for two hours", 1)
		os.WriteFile(p, []byte(edited), 0o644)
		emb.texts.Store(0)
		st := index(t, e, vault, "s")
		// One window holds the paragraph; the note's other windows keep
		// their vectors.
		if st.Changed != 1 || st.Embedded != 1 || emb.texts.Load() != 1 || st.Reused != st.Windows-1 {
			t.Errorf("one paragraph edited: %+v, %d texts embedded", st, emb.texts.Load())
		}
		resp := search(t, e, mdsearch.SearchRequest{Query: "cool for two hours", Mode: mdsearch.ModeKeyword})
		if len(resp.Results) == 0 || resp.Results[0].Section != "Baking" {
			t.Errorf("edit not searchable: %s", paths(resp))
		}
	})

	t.Run("delete", func(t *testing.T) {
		os.Remove(filepath.Join(vault, "homelab", "Backups.md"))
		st := index(t, e, vault, "s")
		if st.Deleted != 1 || st.Files != 5 {
			t.Errorf("delete: %+v", st)
		}
		resp := search(t, e, mdsearch.SearchRequest{Query: "restic", Mode: mdsearch.ModeKeyword})
		if len(resp.Results) != 0 {
			t.Errorf("deleted note still found: %s", paths(resp))
		}
		if refs, _ := e.st.FindDocuments(bg, "", "homelab/Backups.md"); len(refs) != 0 {
			t.Error("document row left")
		}
		_, _, windows, vectors, _ := e.st.Counts(bg, 1)
		var stored int
		e.st.ScanVectors(bg, 1, func(store.WindowRef, []byte) error { stored++; return nil })
		if windows != vectors || stored != windows {
			t.Errorf("%d windows, %d with vectors, %d vectors scanned", windows, vectors, stored)
		}
	})

	t.Run("model change re-embeds everything", func(t *testing.T) {
		e.Close()
		emb2 := newBow("bow-2")
		e2 := openEngine(t, e.st.Path(), emb2)
		st := index(t, e2, vault, "s")
		_, _, windows, vectors, _ := e2.st.Counts(bg, 0)
		m2, _ := e2.st.ModelID(bg, "bow-2")
		_, _, _, v2, _ := e2.st.Counts(bg, m2)
		if st.Embedded == 0 || st.Embedded != int(emb2.texts.Load()) || v2 != windows || vectors != 0 {
			t.Errorf("model change: %+v; %d windows, %d with new vectors", st, windows, v2)
		}
		if m1, _ := e2.st.ModelID(bg, "bow-1"); m1 != 0 {
			t.Error("old model's vectors kept")
		}
		s, _ := e2.Status(bg)
		if s.ModelID != "bow-2" || s.Vectors != windows || s.Vectors < s.Chunks {
			t.Errorf("status after model change: %+v", s)
		}
	})
}

func TestFullReindexAndChunkerChange(t *testing.T) {
	vault := copyDir(t, sampleVault)
	emb := newBow("bow")
	dbPath := filepath.Join(t.TempDir(), "index.db")
	e := openEngine(t, dbPath, emb)
	first := index(t, e, vault, "s")
	emb.texts.Store(0)
	st, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "s", Full: true}, nil)
	if err != nil || st.Chunks != first.Chunks || st.Embedded != first.Embedded || st.Reused != 0 {
		t.Errorf("--full: %+v %v", st, err)
	}
	e.Close()
	e2, err := Open(bg, Options{IndexPath: dbPath, Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	// The model's budget cuts windows, not passages.
	e2.opts.Chunking.MaxTokens = 40
	st, err = e2.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "s"}, nil)
	if err != nil || st.Recut != 6 || st.Chunks != first.Chunks || st.Windows <= first.Windows {
		t.Errorf("smaller token budget must re-cut every note into more windows, the same passages: %+v %v (first %+v)", st, err, first)
	}
	// The reading budget cuts passages.
	e2.opts.Chunking.PassageWords = 60
	second := st
	st, err = e2.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "s"}, nil)
	if err != nil || st.Recut != 6 || st.Chunks <= second.Chunks {
		t.Errorf("smaller passage budget must re-chunk every note into more passages: %+v %v (before %+v)", st, err, second)
	}
}

func TestRefreshPaths(t *testing.T) {
	vault := copyDir(t, sampleVault)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "s")
	write(t, vault, "garden/Peppers.md", "# Peppers\n\nChili peppers like heat.\n")
	os.Remove(filepath.Join(vault, "Inbox.md"))
	st, err := e.Refresh(bg, "s", []string{"garden/Peppers.md", "Inbox.md", "../escape.md"})
	if err != nil {
		t.Fatal(err)
	}
	if st.Added != 1 || st.Deleted != 1 || len(st.Skipped) != 1 {
		t.Errorf("refresh: %+v", st)
	}
	if resp := search(t, e, mdsearch.SearchRequest{Query: "chili", Mode: mdsearch.ModeKeyword}); len(resp.Results) != 1 {
		t.Errorf("new note not found: %s", paths(resp))
	}
	if _, err := e.Refresh(bg, "nope", nil); mdsearch.KindOf(err) != mdsearch.KindNotFound {
		t.Errorf("unknown collection: %v", err)
	}
}

func TestCollectionNames(t *testing.T) {
	a, b := copyDir(t, sampleVault), copyDir(t, sampleVault)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, a, "notes")
	if _, err := e.Index(bg, mdsearch.IndexRequest{Dir: b, Name: "notes"}, nil); mdsearch.KindOf(err) != mdsearch.KindInvalid {
		t.Errorf("same name, other folder: %v", err)
	}
	if _, err := e.Index(bg, mdsearch.IndexRequest{Dir: b, Name: "a:b"}, nil); mdsearch.KindOf(err) != mdsearch.KindInvalid {
		t.Errorf("name with a colon: %v", err)
	}
	// A vault that moved keeps its collection.
	moved := filepath.Join(t.TempDir(), "moved")
	if err := os.Rename(a, moved); err != nil {
		t.Fatal(err)
	}
	st, err := e.Index(bg, mdsearch.IndexRequest{Dir: moved, Name: "notes"}, nil)
	if err != nil || st.Unchanged != 6 || !strings.Contains(st.Notice, "moved") {
		t.Errorf("moved vault: %+v %v", st, err)
	}
	// Re-index by name alone.
	if _, err := e.Index(bg, mdsearch.IndexRequest{Name: "notes"}, nil); err != nil {
		t.Errorf("index by name: %v", err)
	}
}

func TestSchemaChangeRebuildsFromVault(t *testing.T) {
	vault := copyDir(t, sampleVault)
	dbPath := filepath.Join(t.TempDir(), "index.db")
	e := openEngine(t, dbPath, newBow("bow"))
	index(t, e, vault, "s")
	want := paths(search(t, e, mdsearch.SearchRequest{Query: "starter"}))
	e.st.SetMeta(bg, "schema_version", "0")
	e.Close()

	e2 := openEngine(t, dbPath, newBow("bow"))
	if e2.Migration() == nil {
		t.Fatal("no migration reported")
	}
	s, _ := e2.Status(bg)
	if !strings.Contains(s.Notice, "re-index") || s.Chunks != 0 {
		t.Errorf("status after migration: %+v", s)
	}
	if _, err := e2.IndexAll(bg, false, nil); err != nil {
		t.Fatal(err)
	}
	if got := paths(search(t, e2, mdsearch.SearchRequest{Query: "starter"})); got != want {
		t.Errorf("after rebuild:\n%s\nwant\n%s", got, want)
	}
}

// A refresh of named paths skips what a walk skips: symlinks to hidden,
// ignored or non-markdown files, and links to notes indexed under their
// own paths. Watchers refresh named paths, so this is what they index.
func TestRefreshSkipsLinks(t *testing.T) {
	vault := copyDir(t, sampleVault)
	write(t, vault, ".mdsearchignore", "ign/\n")
	write(t, vault, "ign/i.md", "# I\n\nignzz\n")
	write(t, vault, ".hid/h.md", "# H\n\nhidzz\n")
	write(t, vault, "n.txt", "txtzz\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "s")
	links := map[string]string{"l-ign.md": "ign/i.md", "l-hid.md": ".hid/h.md", "l-txt.md": "n.txt", "dup.md": "Inbox.md"}
	var names []string
	for l, target := range links {
		if err := os.Symlink(target, filepath.Join(vault, l)); err != nil {
			t.Fatal(err)
		}
		names = append(names, l)
	}
	write(t, vault, "ign/i2.md", "# I2\n\nignzz\n")
	st, err := e.Refresh(bg, "s", append(names, "ign/i2.md"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Added != 0 || len(st.Skipped) != len(links) {
		t.Errorf("refresh: %d added, skipped %+v; want none added, the %d links skipped (the ignored note silently)", st.Added, st.Skipped, len(links))
	}
	for _, q := range []string{"ignzz", "hidzz", "txtzz"} {
		if resp := search(t, e, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeKeyword}); len(resp.Results) != 0 {
			t.Errorf("%s found: %s", q, paths(resp))
		}
	}
}

// Hidden files are left out silently, as hidden folders are, by a walk and
// by a refresh of named paths: a dotfile note, and an editor's lock (Emacs
// keeps a dangling symlink ".#note.md" beside a note being edited).
func TestHiddenFilesLeftOut(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "projects/beta.md", "# Beta\n\nbetazz\n")
	write(t, vault, ".hidden.md", "# Hidden\n\nhidzz\n")
	if err := os.Symlink("user@host.1234:1700000000", filepath.Join(vault, "projects", ".#beta.md")); err != nil {
		t.Fatal(err)
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	if st := index(t, e, vault, "v"); st.Added != 1 || len(st.Skipped) != 0 {
		t.Errorf("index: %d added, skipped %+v; want beta.md alone, nothing skipped", st.Added, st.Skipped)
	}
	st, err := e.Refresh(bg, "v", []string{".hidden.md", "projects/.#beta.md"})
	if err != nil || st.Added != 0 || len(st.Skipped) != 0 {
		t.Errorf("refresh: %+v, %v; want nothing added or skipped", st, err)
	}
	if resp := search(t, e, mdsearch.SearchRequest{Query: "hidzz", Mode: mdsearch.ModeKeyword}); len(resp.Results) != 0 {
		t.Errorf("hidden note found: %s", paths(resp))
	}
}

// A refresh reads the notes it is named though their size and mtime are
// as stored: a save within the mtime's granularity (a second on some
// filesystems) keeps both, and its text was lost until an index --full.
func TestRefreshReadsSameStamp(t *testing.T) {
	vault := copyDir(t, sampleVault)
	write(t, vault, "todo.md", "# Todo\n\n- [x] buy milk\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	p := filepath.Join(vault, "todo.md")
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	write(t, vault, "todo.md", "# Todo\n\n- [ ] buy kiwi\n") // the same size
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	st, err := e.Refresh(bg, "v", []string{"todo.md"})
	if err != nil || st.Changed != 1 {
		t.Fatalf("refresh: %+v, %v", st, err)
	}
	if got := describe(search(t, e, mdsearch.SearchRequest{Query: "kiwi", Mode: mdsearch.ModeKeyword})); !strings.Contains(got, "todo.md") {
		t.Errorf("the saved text is not found: %s", got)
	}
	// Named again unchanged, it is read and found unchanged.
	if st, err := e.Refresh(bg, "v", []string{"todo.md"}); err != nil || st.Changed != 0 || st.Unchanged != 1 {
		t.Errorf("refresh of an unchanged note: %+v, %v", st, err)
	}
}

// A folder replaced by a file of its name (a git checkout) leaves its
// notes gone: a refresh naming them deletes them and indexes the rest of
// its batch (it failed whole, blaming an ignore file in a folder that is
// no more, and the batch was never indexed).
func TestRefreshFolderNowFile(t *testing.T) {
	vault := copyDir(t, sampleVault)
	write(t, vault, "notes/n.md", "# N\n\nwombat notes\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	if err := os.RemoveAll(filepath.Join(vault, "notes")); err != nil {
		t.Fatal(err)
	}
	write(t, vault, "notes", "a plain file now\n")
	write(t, vault, "other.md", "# Other\n\nokapi notes\n")
	st, err := e.Refresh(bg, "v", []string{"notes/n.md", "other.md"})
	if err != nil || st.Deleted != 1 || st.Added != 1 {
		t.Fatalf("refresh: %+v, %v", st, err)
	}
	if got := describe(search(t, e, mdsearch.SearchRequest{Query: "wombat", Mode: mdsearch.ModeKeyword})); strings.Contains(got, "notes/n.md") {
		t.Errorf("the gone note is still found: %s", got)
	}
	if s, err := e.Status(bg); err != nil || s.Stale != 0 {
		t.Errorf("status after: %+v, %v", s, err)
	}
}
