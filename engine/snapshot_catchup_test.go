package engine

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/mdsearch/mdsearch"
)

// TestCatchUp checks that after each kind of change the engine's snapshot
// catches up, sharing the vectors it had instead of reading them again,
// and holds exactly the rows a fresh load reads; and that a search on it
// answers as one on a fresh engine does.
func TestCatchUp(t *testing.T) {
	long := strings.Repeat("Iterators are lazy and chain adapters like map and filter. ", 50)
	for _, tc := range []struct {
		name     string
		change   func(t *testing.T, vault string)
		caught   bool // caught up rather than loaded again
		compacts bool // and then copied without the dead rows
	}{
		{"nothing", func(*testing.T, string) {}, true, false},
		{"a note edited", func(t *testing.T, v string) {
			write(t, v, "a.md", "# Alpha\n\n## Closures\n\nClosures now borrow.\n\n## Iterators\n\n"+long+"\n")
		}, true, false},
		{"a note added", func(t *testing.T, v string) { write(t, v, "d.md", "# Delta\n\nMacros write code.\n") }, true, false},
		{"a note deleted", func(t *testing.T, v string) { remove(t, v, "c.md") }, true, false},
		{"a shared paragraph's copy deleted", func(t *testing.T, v string) { remove(t, v, "b-copy.md") }, true, false},
		{"a note given a copy's text", func(t *testing.T, v string) {
			write(t, v, "c.md", "# Beta\n\nTraits describe behaviour.\n\n## Shared\n\nThe same paragraph in two notes.\n")
		}, true, false},
		{"every note changed", func(t *testing.T, v string) {
			for i := range 40 {
				write(t, v, fmt.Sprintf("n%02d.md", i), fmt.Sprintf("# Note %d\n\nNew text %d.\n", i, i))
			}
		}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			idx := filepath.Join(t.TempDir(), "index.db")
			vault := cacheVault(t)
			for i := range 40 { // so that one note's rows are too few to compact
				write(t, vault, fmt.Sprintf("n%02d.md", i), fmt.Sprintf("# Note %d\n\nFiller text number %d.\n", i, i))
			}
			emb := newBow("bow")
			e := openEngine(t, idx, emb)
			index(t, e, vault, "v")
			before, _, err := e.vectors(bg)
			if err != nil {
				t.Fatal(err)
			}
			tc.change(t, vault)
			index(t, e, vault, "v")
			loads := vectorLoads.Load()
			got, _, err := e.vectors(bg)
			if err != nil {
				t.Fatal(err)
			}
			if compacted := got != before && got.dead == 0 && got.base == got.len(); compacted != tc.compacts {
				t.Fatalf("compacted %v, want %v", compacted, tc.compacts)
			}
			if tc.caught && !tc.compacts && !sameArray(got.hi, before.hi) {
				t.Fatal("a caught-up snapshot does not share the vectors it caught up from")
			}
			if caught := vectorLoads.Load() == loads; caught != tc.caught {
				t.Fatalf("caught up %v, want %v", caught, tc.caught)
			}
			fresh := openEngine(t, idx, emb)
			want, _, err := fresh.vectors(bg)
			if err != nil {
				t.Fatal(err)
			}
			if got.ver != want.ver {
				t.Fatalf("version %v, want %v", got.ver, want.ver)
			}
			if !reflect.DeepEqual(liveRows(got), liveRows(want)) {
				t.Fatalf("caught-up rows differ from a load:\n got %v\nwant %v", liveRows(got), liveRows(want))
			}
			for _, q := range []string{"closures borrow", "same paragraph", "macros", "lifetimes references"} {
				req := mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeSemantic, N: 10}
				a, err := e.Search(bg, req)
				if err != nil {
					t.Fatal(err)
				}
				b, err := fresh.Search(bg, req)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(resultKeys(a), resultKeys(b)) {
					t.Fatalf("%q: caught up %v, fresh %v", q, resultKeys(a), resultKeys(b))
				}
			}
		})
	}
}

// TestCatchUpRefused checks that a snapshot is loaded again when the
// change log cannot account for every commit since it was loaded: a commit
// by a writer that keeps no log, or one that changed too much to list.
func TestCatchUpRefused(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write func(t *testing.T, e *Engine)
	}{
		{"a commit that did not log", func(t *testing.T, e *Engine) {
			db, err := sql.Open("sqlite", e.st.Path())
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(`UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'`); err != nil {
				t.Fatal(err)
			}
		}},
		{"every vector dropped", func(t *testing.T, e *Engine) {
			if _, err := e.st.DropVectors(bg); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			idx := filepath.Join(t.TempDir(), "index.db")
			vault := cacheVault(t)
			e := openEngine(t, idx, newBow("bow"))
			index(t, e, vault, "v")
			before, _, err := e.vectors(bg)
			if err != nil {
				t.Fatal(err)
			}
			tc.write(t, e)
			if _, err := e.catchUp(bg, before); err == nil {
				t.Fatal("caught up across a commit the log does not account for")
			}
			index(t, e, vault, "v")
			loads := vectorLoads.Load()
			got, _, err := e.vectors(bg)
			if err != nil {
				t.Fatal(err)
			}
			if vectorLoads.Load() == loads {
				t.Fatal("the snapshot caught up instead of loading again")
			}
			want, _, err := openEngine(t, idx, newBow("bow")).vectors(bg)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(liveRows(got), liveRows(want)) {
				t.Fatal("the snapshot loaded again differs from a fresh load")
			}
		})
	}
}

// TestCatchUpCompacts checks that a snapshot whose dead rows pile up is
// copied without them, and still holds what a load reads.
func TestCatchUpCompacts(t *testing.T) {
	idx := filepath.Join(t.TempDir(), "index.db")
	vault := cacheVault(t)
	e := openEngine(t, idx, newBow("bow"))
	index(t, e, vault, "v")
	for i := range 6 {
		write(t, vault, "a.md", "# Alpha\n\n"+strings.Repeat("Edit number "+string(rune('a'+i))+". ", 200)+"\n")
		index(t, e, vault, "v")
		s, _, err := e.vectors(bg)
		if err != nil {
			t.Fatal(err)
		}
		if s.dead > s.len()/compactShare {
			t.Fatalf("edit %d: %d of %d rows dead, more than 1/%d", i, s.dead, s.len(), compactShare)
		}
		want, _, err := openEngine(t, idx, newBow("bow")).vectors(bg)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(liveRows(s), liveRows(want)) {
			t.Fatalf("edit %d: rows differ from a load", i)
		}
	}
}

// sameArray reports whether a and b start at the same element.
func sameArray(a, b []byte) bool {
	return len(a) > 0 && len(b) > 0 && unsafe.SliceData(a) == unsafe.SliceData(b)
}

// resultKeys is what a ranking test compares: each result's place and
// score.
func resultKeys(r *mdsearch.SearchResponse) []string {
	var out []string
	for _, x := range r.Results {
		out = append(out, fmt.Sprintf("%s#%s %.4f", x.Path, strings.Join(x.SectionPath, ">"), x.Score))
	}
	return out
}

func remove(t *testing.T, dir, name string) {
	t.Helper()
	if err := os.Remove(filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

// TestStaleWhileIndexing: while an index run holds the index's lock (here
// as another process's would), a snapshot that cannot catch up and was
// loaded less than reloadEvery ago is used as it is, marked stale, rather
// than loaded again for each of the run's commits; once the run ends, the
// next search loads it.
func TestStaleWhileIndexing(t *testing.T) {
	idx := filepath.Join(t.TempDir(), "index.db")
	e := openEngine(t, idx, newBow("bow"))
	index(t, e, cacheVault(t), "v")
	if _, _, err := e.vectors(bg); err != nil {
		t.Fatal(err)
	}
	unlock, err := lockIndex(bg, idx, nil)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", idx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'`); err != nil { // a commit the log does not account for
		t.Fatal(err)
	}
	loads := vectorLoads.Load()
	if _, stale, err := e.vectors(bg); err != nil || !stale || vectorLoads.Load() != loads {
		t.Errorf("while indexing: stale %v, %d loads, %v", stale, vectorLoads.Load()-loads, err)
	}
	unlock()
	if _, stale, err := e.vectors(bg); err != nil || stale || vectorLoads.Load() != loads+1 {
		t.Errorf("after the run: stale %v, %d loads, %v", stale, vectorLoads.Load()-loads, err)
	}
}

// TestCatchUpRenamedBack: a note renamed and renamed back keeps its chunk
// ids, so a catch-up appends its windows right after the dead rows an
// earlier one appended for the same chunk; firstRow must name the new
// rows, or the second stage read no cosine for the passage and scored it
// differently from the same search on a fresh process.
func TestCatchUpRenamedBack(t *testing.T) {
	idx := filepath.Join(t.TempDir(), "index.db")
	vault := t.TempDir()
	write(t, vault, "a.md", "# Space name\n\n## Okapi\n\nThe okapi is a forest giraffe that the zookeeper feeds at dawn.\n")
	for i := range 6 { // so that one note is few enough to catch up
		write(t, vault, fmt.Sprintf("o%d.md", i), fmt.Sprintf("# Other %d\n\nSomething about lemurs number %d and ring tails in the zoo.\n", i, i))
	}
	emb := newBow("bow")
	e := openEngine(t, idx, emb)
	index(t, e, vault, "v")
	cache := t.TempDir()
	cachedVectors(t, idx, emb, cache)
	if _, _, err := e.vectors(bg); err != nil {
		t.Fatal(err)
	}
	for _, mv := range [][2]string{{"a.md", "x.md"}, {"x.md", "a.md"}, {"a.md", "b.md"}} {
		if err := os.Rename(filepath.Join(vault, mv[0]), filepath.Join(vault, mv[1])); err != nil {
			t.Fatal(err)
		}
		index(t, e, vault, "v")
		want, _, err := openEngine(t, idx, emb).vectors(bg)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := e.vectors(bg)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(liveRows(got), liveRows(want)) {
			t.Errorf("renamed to %s, caught up: rows differ from a load:\n got %v\nwant %v", mv[1], liveRows(got), liveRows(want))
		}
		if cached := liveRows(cachedVectors(t, idx, emb, cache)); !reflect.DeepEqual(cached, liveRows(want)) {
			t.Errorf("renamed to %s, through the vector cache: rows differ from a load:\n got %v\nwant %v", mv[1], cached, liveRows(want))
		}
	}
}
