package store

import (
	"fmt"
	"sync"
	"testing"
)

// TestQueryIn: lists of every size read the same rows as asked, the
// short ones padded to four statement texts kept prepared, and a read
// transaction reads its own snapshot through the kept statements.
func TestQueryIn(t *testing.T) {
	s := open(t)
	c, err := s.AddCollection(ctx, "c", "/vault/c")
	if err != nil {
		t.Fatal(err)
	}
	var first int64
	for i := range 100 {
		path := fmt.Sprintf("n%03d.md", i)
		doc := put(t, s, c.ID, path, path, nil, chunk(path, 0, "H", fmt.Sprintf("word%d text", i)))
		if i == 0 {
			first = doc
		}
	}
	all := ids(t, s)
	for _, n := range []int{1, 2, 15, 16, 17, 50, 64, 65, 100} {
		asked := all[len(all)-n:] // the first id is padded in: ask from the end
		for name, read := range map[string]func() (int, error){
			"Chunks": func() (int, error) { m, err := s.Chunks(ctx, asked); return len(m), err },
			"Passages": func() (int, error) {
				m, err := s.Passages(ctx, asked)
				for _, id := range asked {
					if _, ok := m[id]; !ok {
						return 0, fmt.Errorf("%d missing", id)
					}
				}
				return len(m), err
			},
		} {
			got, err := read()
			if err != nil || got != n {
				t.Errorf("%s of %d ids: %d rows, %v", name, n, got, err)
			}
		}
	}
	// Searches at once share the kept statements.
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			asked := all[g : g+17]
			for range 20 {
				if m, err := s.Chunks(ctx, asked); err != nil || len(m) != len(asked) {
					t.Errorf("at once: %d rows, %v", len(m), err)
					return
				}
				if _, err := s.Generation(ctx); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if k := len(s.stmts.m); k > 8 {
		t.Errorf("%d statements kept; want the padded texts only", k)
	}
	// A transaction begun before a note is removed still reads it.
	rd, err := s.BeginRead(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if _, err := rd.Chunks(ctx, all[:1]); err != nil {
		t.Fatal(err)
	}
	deleteDoc(t, s, first)
	if m, err := rd.Chunks(ctx, all[:1]); err != nil || len(m) != 1 {
		t.Errorf("the transaction lost its snapshot: %d rows, %v", len(m), err)
	}
	if m, err := s.Chunks(ctx, all[:1]); err != nil || len(m) != 0 {
		t.Errorf("the pool reads a removed note: %d rows, %v", len(m), err)
	}
}

// ids are every chunk's id, in order.
func ids(t *testing.T, s *Store) []int64 {
	t.Helper()
	rows, err := s.w.QueryContext(ctx, `SELECT id FROM chunks ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		out = append(out, id)
	}
	return out
}
