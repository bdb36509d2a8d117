package engine

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/chunks"
	"github.com/mdsearch/mdsearch/internal/testenv"
	"github.com/mdsearch/mdsearch/sections"
	"github.com/mdsearch/mdsearch/store"
)

// helpVault is the shared obsidian-help vault, which tb needs.
func helpVault(tb testing.TB) string { return testenv.NeedCorpora(tb, "obsidian-help", "en") }

// TestMain lets the test binary act as an indexing child process that the
// kill tests can SIGKILL midway.
func TestMain(m *testing.M) {
	if os.Getenv("MDSEARCH_TEST_CHILD") == "index" {
		os.Exit(childIndex())
	}
	os.Exit(m.Run())
}

// childIndex indexes $CHILD_VAULT into $CHILD_INDEX slowly, printing each
// progress report as a JSON line.
func childIndex() int {
	emb := newBow("bow")
	emb.delay = 15 * time.Millisecond
	opts := Options{IndexPath: os.Getenv("CHILD_INDEX"), Embedder: emb, EmbedBatch: 8}
	if os.Getenv("CHILD_SLOW_SPLIT") != "" {
		opts.Split = func(d *sections.Document, o chunks.Options) []mdsearch.Chunk {
			time.Sleep(10 * time.Millisecond)
			return chunks.Split(d, o)
		}
	}
	e, err := Open(bg, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	enc := json.NewEncoder(os.Stdout)
	_, err = e.Index(bg, mdsearch.IndexRequest{Dir: os.Getenv("CHILD_VAULT"), Name: "help"}, func(p mdsearch.IndexProgress) {
		enc.Encode(p)
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	e.Close()
	return 0
}

// dump lists every chunk of the index with a digest of its vector, so two
// indexes can be compared regardless of row ids.
func dump(t *testing.T, e *Engine) []string {
	t.Helper()
	model, _ := e.st.ModelID(bg, "bow")
	vecs := map[int64]string{}
	e.st.ScanVectors(bg, model, func(w store.WindowRef, v []byte) error {
		h := sha256.Sum256(v)
		vecs[w.ChunkID] += hex.EncodeToString(h[:8])
		return nil
	})
	rows, err := e.st.Chunks(bg, allChunkIDs(t, e))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for id, r := range rows {
		out = append(out, fmt.Sprintf("%s %s %d-%d vec=%s", r.ID, strings.Join(r.SectionPath, "/"), r.StartByte, r.EndByte, vecs[id]))
	}
	sort.Strings(out)
	return out
}

func TestKillDuringIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns indexing processes")
	}
	vault := copyDir(t, helpVault(t))
	clean := openEngine(t, filepath.Join(t.TempDir(), "clean.db"), newBow("bow"))
	index(t, clean, vault, "help")
	want := dump(t, clean)

	cases := []struct {
		name string
		env  string
		kill func(p mdsearch.IndexProgress) bool
	}{
		{"while chunking", "CHILD_SLOW_SPLIT=1", func(p mdsearch.IndexProgress) bool { return p.FilesDone > 0 && p.WindowsToEmbed == 0 }},
		{"while embedding", "", func(p mdsearch.IndexProgress) bool { return p.WindowsEmbedded >= 200 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dbPath := filepath.Join(t.TempDir(), "index.db")
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "MDSEARCH_TEST_CHILD=index", "CHILD_INDEX="+dbPath, "CHILD_VAULT="+vault, c.env)
			cmd.Stderr = os.Stderr
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var last mdsearch.IndexProgress
			sc := bufio.NewScanner(out)
			killed := false
			for sc.Scan() {
				json.Unmarshal(sc.Bytes(), &last)
				if c.kill(last) {
					cmd.Process.Kill() // SIGKILL: no cleanup runs
					killed = true
					break
				}
			}
			cmd.Wait()
			if !killed {
				t.Fatalf("child finished before the kill point; last progress %+v", last)
			}
			t.Logf("killed at %+v", last)

			e := openEngine(t, dbPath, newBow("bow"))
			if msg, err := e.st.IntegrityCheck(bg); err != nil || msg != "ok" {
				t.Fatalf("integrity_check after kill: %q %v", msg, err)
			}
			st := index(t, e, vault, "help")
			t.Logf("resumed: %d unchanged, %d added, %d embedded", st.Unchanged, st.Added, st.Embedded)
			if c.name == "while embedding" && (st.Added != 0 || st.Embedded == 0) {
				t.Errorf("resume should only embed what is missing: %+v", st)
			}
			got := dump(t, e)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("resumed index differs from a clean build: %d vs %d chunks", len(got), len(want))
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Errorf("first difference:\n got %s\nwant %s", got[i], want[i])
						break
					}
				}
			}
		})
	}
}

// TestSearchDuringReindex keeps searching, from this process and through a
// second engine on the same file, while a full re-index commits batches.
func TestSearchDuringReindex(t *testing.T) {
	vault := copyDir(t, helpVault(t))
	dbPath := filepath.Join(t.TempDir(), "index.db")
	emb := newBow("bow")
	e := openEngine(t, dbPath, emb)
	index(t, e, vault, "help")
	reader := openEngine(t, dbPath, newBow("bow"))

	emb.delay = 5 * time.Millisecond
	e.opts.EmbedBatch = 16
	done := make(chan error, 1)
	go func() {
		_, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "help", Full: true}, nil)
		done <- err
	}()
	var searches, during atomic.Int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for _, eng := range []*Engine{e, reader} {
		for _, mode := range []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeKeyword} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					indexing := e.progress.Load() != nil
					resp, err := eng.Search(bg, mdsearch.SearchRequest{Query: "link to a heading", Mode: mode})
					if err != nil {
						t.Errorf("search during re-index: %v", err)
						return
					}
					if len(resp.Results) == 0 {
						t.Errorf("%s search found nothing during re-index", mode)
						return
					}
					searches.Add(1)
					if indexing {
						during.Add(1)
					}
					if s, err := eng.Status(bg); err != nil || s.Chunks == 0 {
						t.Errorf("status during re-index: %v", err)
						return
					}
				}
			}()
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()
	if during.Load() < 10 {
		t.Errorf("only %d of %d searches ran during the re-index", during.Load(), searches.Load())
	}
	t.Logf("%d searches, %d during the re-index", searches.Load(), during.Load())
}

// TestConcurrentIndexCallsTakeTurns runs two Index calls on one engine and
// one on a second engine over the same file; all complete consistently.
func TestConcurrentIndexCallsTakeTurns(t *testing.T) {
	vault := copyDir(t, sampleVault)
	dbPath := filepath.Join(t.TempDir(), "index.db")
	a, b := openEngine(t, dbPath, newBow("bow")), openEngine(t, dbPath, newBow("bow"))
	var wg sync.WaitGroup
	for _, e := range []*Engine{a, a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "s"}, nil); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	s, _ := a.Status(bg)
	_, _, windows, _, _ := a.st.Counts(bg, 0)
	if s.Files != 6 || s.Chunks == 0 || s.Vectors != windows || s.Vectors < s.Chunks {
		t.Errorf("after concurrent runs: %+v", s)
	}
}
