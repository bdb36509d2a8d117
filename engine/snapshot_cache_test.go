package engine

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/engine/dot"
	"github.com/mdsearch/mdsearch/store"
)

// cacheVault writes notes with headings, passages of several windows and a
// note twice (windows sharing one vector).
func cacheVault(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	long := strings.Repeat("Closures capture their environment by reference or by value. ", 60)
	write(t, dir, "a.md", "# Alpha\n\n## Closures\n\n"+long+"\n\n## Shared\n\nThe same paragraph in two notes.\n")
	beta := "# Beta\n\nTraits describe behaviour.\n\n## Shared\n\nThe same paragraph in two notes.\n"
	write(t, dir, "b.md", beta)
	write(t, dir, "b-copy.md", beta)
	write(t, dir, "c.md", "# Gamma\n\n"+strings.Repeat("Lifetimes bound references. ", 80)+"\n")
	return dir
}

// snapshotRows is a snapshot's content, without its load time.
func snapshotRows(s *snapshot) []any {
	return []any{s.model, s.dim, s.ids, s.docs, s.index, s.secs, s.scales, s.heads, s.hi, s.lo, s.row}
}

// liveRow is one row a search can find, as liveRows lists them.
type liveRow struct {
	chunk, doc, sec int64
	index           int32
	scale           float32
	head            bool
	vec             string
	first           bool // the row firstRow names for its chunk
}

// liveRows lists the rows of s a search can find, by chunk and then in row
// order: what a snapshot must hold whether it was loaded or caught up.
func liveRows(s *snapshot) []liveRow {
	var out []liveRow
	for r := range s.ids {
		if s.isDead(r) {
			continue
		}
		first, ok := s.firstRow(s.ids[r])
		v := make([]int8, s.dim)
		s.vecs(dot.Go, r, 1, v)
		out = append(out, liveRow{s.ids[r], s.docs[r], s.secs[r], s.index[r], s.scales[r], s.heads[r],
			string(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), s.dim)), ok && int(first) == r})
	}
	slices.SortStableFunc(out, func(a, b liveRow) int { return cmp.Compare(a.chunk, b.chunk) })
	return out
}

// TestVectorCache checks that a snapshot read through the vector cache is
// the one read from the index, that a file is trusted only for its own
// index state, and that a damaged file is read from the index again and
// rewritten.
func TestVectorCache(t *testing.T) {
	idx := filepath.Join(t.TempDir(), "index.db")
	emb := newBow("bow")
	plain := openEngine(t, idx, emb)
	index(t, plain, cacheVault(t), "v")
	gen, err := plain.st.Generation(bg)
	if err != nil {
		t.Fatal(err)
	}
	want, err := plain.loadVectors(bg, gen)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.ids) < 10 {
		t.Fatalf("%d windows with vectors, want a few more", len(want.ids))
	}

	cached, err := Open(bg, Options{IndexPath: idx, Embedder: emb, ReadOnly: true, VectorCache: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer cached.Close()
	key, path, ok := cached.vectorCacheKey(bg, want.model)
	if !ok {
		t.Fatal("no cache key for an index with an instance ID")
	}
	load := func() *snapshot {
		t.Helper()
		s, err := cached.loadVectors(bg, gen)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if got := load(); !reflect.DeepEqual(snapshotRows(got), snapshotRows(want)) {
		t.Fatal("the first load, from the index, differs from the engine's without a cache")
	}
	if got := load(); !reflect.DeepEqual(snapshotRows(got), snapshotRows(want)) {
		t.Fatal("the load from the cache file differs from the index")
	}

	// A file that differs from the index (a scale changed) shows whether
	// it is trusted.
	alteredAt := func(k cacheKey, ver func(*store.Version)) {
		s, err := plain.loadVectors(bg, gen)
		if err != nil {
			t.Fatal(err)
		}
		s.scales[0] += 1
		ver(&s.ver)
		writeVectorCache(path, k, s)
	}
	altered := func(k cacheKey) { alteredAt(k, func(*store.Version) {}) }
	other := func(edit func(*cacheKey)) func() {
		return func() { k := key; edit(&k); altered(k) }
	}
	version := func(edit func(*store.Version)) func() {
		return func() { alteredAt(key, edit) }
	}
	damage := func(edit func([]byte) []byte) func() {
		return func() {
			altered(key)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, edit(data), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name    string
		prepare func()
		trusted bool
	}{
		{"same state", func() { altered(key) }, true},
		{"a newer version", version(func(v *store.Version) { v.Gen++; v.Logged++ }), false},
		{"a version the change log cannot reach", version(func(v *store.Version) { v.Gen--; v.Logged = -1 }), false},
		{"another commit at this generation", version(func(v *store.Version) { v.Stamp = "0123" }), false},
		{"no commit stamp", version(func(v *store.Version) { v.Stamp = "" }), false},
		{"another heading weight", other(func(k *cacheKey) { k.Heading /= 2 }), false},
		{"another instance", other(func(k *cacheKey) { k.Instance = "0123" }), false},
		{"another index file", other(func(k *cacheKey) { k.File = "0:0" }), false},
		{"another model", other(func(k *cacheKey) { k.Name = "other" }), false},
		{"a byte flipped", damage(func(b []byte) []byte { b[len(b)/2] ^= 1; return b }), false},
		{"cut short", damage(func(b []byte) []byte { return b[:len(b)-100] }), false},
		{"empty", damage(func([]byte) []byte { return nil }), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.prepare()
			got := load()
			if trusted := got.scales[0] != want.scales[0]; trusted != tc.trusted {
				t.Fatalf("file trusted %v, want %v", trusted, tc.trusted)
			}
			if !tc.trusted {
				if !reflect.DeepEqual(snapshotRows(got), snapshotRows(want)) {
					t.Fatal("the load after refusing the file differs from the index")
				}
				if again := load(); !reflect.DeepEqual(snapshotRows(again), snapshotRows(want)) {
					t.Fatal("the rewritten file differs from the index")
				}
			}
		})
	}
}

// cachedVectors is the snapshot a search from a new process reads of the
// index at idx through the vector cache in folder cache.
func cachedVectors(t *testing.T, idx string, emb embed.Embedder, cache string) *snapshot {
	t.Helper()
	c, err := Open(bg, Options{IndexPath: idx, Embedder: emb, ReadOnly: true, VectorCache: cache})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, _, err := c.vectors(bg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestVectorCacheAfterChange checks that a search through the cache after
// an index run sees the new vectors, not the file of the state before.
func TestVectorCacheAfterChange(t *testing.T) {
	idx := filepath.Join(t.TempDir(), "index.db")
	vault := cacheVault(t)
	emb := newBow("bow")
	e := openEngine(t, idx, emb)
	index(t, e, vault, "v")
	cache := t.TempDir()
	searchCached := func() []liveRow {
		t.Helper()
		return liveRows(cachedVectors(t, idx, emb, cache))
	}
	before := searchCached()
	write(t, vault, "d.md", "# Delta\n\nMacros write code.\n")
	index(t, e, vault, "v")
	gen, err := e.st.Generation(bg)
	if err != nil {
		t.Fatal(err)
	}
	want, err := e.loadVectors(bg, gen)
	if err != nil {
		t.Fatal(err)
	}
	after := searchCached()
	if reflect.DeepEqual(after, before) || !reflect.DeepEqual(after, liveRows(want)) {
		t.Fatal("a search after the index changed read the vectors of before")
	}
}

// TestScanVectorRowsAsJoin checks the one-pass reads against ScanVectors'
// join on an index with shared vectors.
func TestScanVectorRowsAsJoin(t *testing.T) {
	idx := filepath.Join(t.TempDir(), "index.db")
	e := openEngine(t, idx, newBow("bow"))
	index(t, e, cacheVault(t), "v")
	model, err := e.st.ModelID(bg, "bow")
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		w   store.WindowRef
		vec string
	}
	var want []row
	if err := e.st.ScanVectors(bg, model, func(w store.WindowRef, vec []byte) error {
		want = append(want, row{w, string(vec)})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var got []row
	if _, err := e.st.ScanVectorRows(bg, model, func(refs []store.WindowRef) error {
		for _, w := range refs {
			got = append(got, row{w: w})
		}
		return nil
	}, func(i int, vec []byte) error {
		got[i].vec = string(vec)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("one-pass reads differ from the join:\n got %v\nwant %v", got, want)
	}
	distinct := map[string]bool{}
	for _, r := range got {
		distinct[r.vec] = true
	}
	if len(distinct) == len(got) {
		t.Fatal("no two windows share a vector: the test misses that case")
	}
}

// TestVectorCachePrune checks that writing a cache file deletes the files
// of index files that are gone and the same index's files of another
// format, and nothing else: not the files of indexes that exist, not files
// without a cache header.
func TestVectorCachePrune(t *testing.T) {
	idx := filepath.Join(t.TempDir(), "index.db")
	e := openEngine(t, idx, newBow("bow"))
	index(t, e, cacheVault(t), "v")
	s, _, err := e.vectors(bg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	other := filepath.Join(t.TempDir(), "other.db")
	write(t, filepath.Dir(other), "other.db", "")
	gone := filepath.Join(t.TempDir(), "gone.db")
	writeVectorCache(filepath.Join(dir, "gone.vec"), cacheKey{Path: gone, Dim: s.dim}, s)
	writeVectorCache(filepath.Join(dir, "other.vec"), cacheKey{Path: other, Dim: s.dim}, s)
	write(t, dir, "foreign.vec", "not a cache file\n")
	write(t, dir, "notes.txt", "mdsearch vectors 2\n")
	// This index's file in an older format, and another index's: only the
	// first goes when this build writes its own.
	for name, p := range map[string]string{"index-2.vec": idx, "other-2.vec": other} {
		head := fmt.Sprintf(`{"key":{"path":%q}}`, p)
		write(t, dir, name, "mdsearch vectors 2\n"+string(binary.LittleEndian.AppendUint32(nil, uint32(len(head))))+head)
	}
	writeVectorCache(filepath.Join(dir, "index.vec"), cacheKey{Path: idx, Dim: s.dim}, s)
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, en := range entries {
		left = append(left, en.Name())
	}
	if want := []string{"foreign.vec", "index.vec", "notes.txt", "other-2.vec", "other.vec"}; !reflect.DeepEqual(left, want) {
		t.Fatalf("left %v, want %v", left, want)
	}
}
