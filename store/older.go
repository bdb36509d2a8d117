package store

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"net/url"
	"os"
)

// Older is what status reads of an index an older mdsearch wrote, which
// Open rebuilds (Migration) and OpenReadOnly refuses: the collections the
// rebuild will index again, with the notes each held.
type Older struct {
	Path        string // absolute, through symlinks
	Version     int    // its schema version, below SchemaVersion
	SizeBytes   int64  // with its -wal and -shm, as Store.SizeBytes
	Collections []OlderCollection
}

// OlderCollection is a collection of an older index.
type OlderCollection struct {
	Name, Root string
	Files      int // notes indexed
}

// ReadOlder reads the index at path when an older mdsearch wrote it, and
// changes nothing: no pragma that could write, no -wal or -shm file made.
// It is nil for an index of this version; a file OpenReadOnly refuses for
// another reason (missing, not an index, newer) is refused alike.
func ReadOlder(ctx context.Context, path string) (*Older, error) {
	abs, err := resolve(path)
	if err != nil {
		return nil, err
	}
	if err := ensureFile(ctx, abs, false); err != nil {
		return nil, err
	}
	frozen := frozenFile(abs)
	f, err := inspect(ctx, abs, frozen)
	if err != nil {
		return nil, err
	}
	if err := f.check(abs, true); !errors.Is(err, ErrOlderIndex) {
		return nil, err // nil: not older
	}
	db, err := sql.Open("sqlite", readDSN(abs, readImmutable(abs, frozen)))
	if err != nil {
		return nil, fileError(abs, err)
	}
	defer db.Close()
	o := &Older{Path: abs, Version: f.version, SizeBytes: sizeOnDisk(abs)}
	if o.Collections, err = olderCollections(ctx, db); err != nil {
		return nil, fileError(abs, err)
	}
	return o, nil
}

// olderCollections lists an older index's collections by name, with the
// notes each held: the collections and documents tables of version 1,
// which later versions kept.
func olderCollections(ctx context.Context, db *sql.DB) ([]OlderCollection, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	colls, err := oldCollections(ctx, conn) // as the rebuild reads them
	if err != nil || len(colls) == 0 {
		return nil, err
	}
	out := make([]OlderCollection, len(colls))
	for i, c := range colls {
		out[i] = OlderCollection{Name: c.Name, Root: c.Root}
		err := conn.QueryRowContext(ctx, `SELECT count(*) FROM documents
			WHERE collection_id = (SELECT id FROM collections WHERE name = ?)`, c.Name).Scan(&out[i].Files)
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readImmutable reports whether abs is read as immutable, without locks:
// when it cannot be written (frozen) or no writer has it open (no -wal),
// a read then leaves no -wal or -shm beside it.
func readImmutable(abs string, frozen bool) bool {
	_, walErr := os.Lstat(abs + "-wal")
	return frozen || errors.Is(walErr, fs.ErrNotExist)
}

// readDSN opens abs for reading alone, setting no pragma that could write.
func readDSN(abs string, immutable bool) string {
	dsn := (&url.URL{Scheme: "file", Path: abs}).String() + "?mode=ro&_pragma=busy_timeout(10000)"
	if immutable {
		dsn += "&immutable=1"
	}
	return dsn
}
