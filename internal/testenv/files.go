package testenv

import (
	"bytes"
	"database/sql"
	"os"
	"sync"
	"testing"
)

// GarblePage overwrites the root page of an SQLite table with bytes SQLite
// cannot read: a damaged index for tests of how damage is reported. The
// caller's test binary registers the "sqlite" driver (any package that
// imports the store does).
func GarblePage(tb testing.TB, path, table string) {
	tb.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		tb.Fatal(err)
	}
	var root, size int64
	err = db.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = ?`, table).Scan(&root)
	if err == nil {
		err = db.QueryRow(`PRAGMA page_size`).Scan(&size)
	}
	db.Close()
	if err != nil {
		tb.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xA5}, int(size)), (root-1)*size); err != nil {
		tb.Fatal(err)
	}
}

// SyncBuffer is a bytes.Buffer that a goroutine under test (a logger, a
// child process's output) writes while the test reads it.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
