package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// Migration reports that Open found an index of an older schema version and
// rebuilt it empty. Collections lists what it held, to be re-indexed.
type Migration struct {
	From, To    int
	Collections []Collection
}

func (m *Migration) String() string {
	return fmt.Sprintf("index schema version %d is not %d: rebuilt it empty; collections to re-index from their vaults: %s",
		m.From, m.To, strings.Join(m.Names(), ", "))
}

// Names are the names of the collections to re-index.
func (m *Migration) Names() []string {
	names := make([]string, len(m.Collections))
	for i, c := range m.Collections {
		names[i] = c.Name
	}
	return names
}

// upgrade rebuilds an older index and marks a current one written before
// the application ID.
func (s *Store) upgrade(ctx context.Context, f *fileInfo) (*Migration, error) {
	if f.version < SchemaVersion {
		return s.rebuild(ctx, f.version)
	}
	if f.appID != ApplicationID {
		if _, err := s.w.ExecContext(ctx, fmt.Sprintf(`PRAGMA application_id = %d`, ApplicationID)); err != nil {
			return nil, err
		}
	}
	if err := s.addInstance(ctx); err != nil {
		return nil, err
	}
	if err := s.addChangeLog(ctx); err != nil {
		return nil, err
	}
	if err := s.addVocab(ctx, f); err != nil {
		return nil, err
	}
	return nil, s.addColumns(ctx)
}

// addedColumns came after version 2's tables, in this order; has is the
// Reader's flag saying the index holds the column.
var addedColumns = []struct {
	table, column string
	has           func(*Reader) *bool
}{
	{"sections", "read_section", func(r *Reader) *bool { return &r.readSection }},
	{"chunks", "read_sections", func(r *Reader) *bool { return &r.readSections }},
	{"documents", "warnings", func(r *Reader) *bool { return &r.warnings }},
	{"chunks", "tags", func(r *Reader) *bool { return &r.chunkTags }},
	{"chunks", "properties", func(r *Reader) *bool { return &r.chunkProps }},
}

// addColumns adds the columns a version 2 index written before them lacks
// (see SchemaVersion): SQLite adds a column without rewriting the table.
func (s *Store) addColumns(ctx context.Context) error {
	for _, c := range addedColumns {
		ok, err := hasColumn(ctx, s.w, c.table, c.column)
		if err != nil {
			return err
		}
		if !ok {
			if _, err := s.w.ExecContext(ctx, `ALTER TABLE `+c.table+` ADD COLUMN `+c.column+` TEXT`); err != nil {
				return err
			}
		}
	}
	return nil
}

// hasColumn reports whether table has the column.
func hasColumn(ctx context.Context, db querier, table, column string) (bool, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info(?) WHERE name = ?`, table, column).Scan(&n)
	return n > 0, err
}

// rebuild empties an older index into this version's schema, keeping the
// list of its collections to index again. It is one transaction, run to
// its end once begun whatever ctx says: stopped halfway (dropped tables,
// no schema yet), the file would have lost that list, or its meta table
// and so the mark of an mdsearch index, and been refused from then on.
// Killed, SQLite rolls it back to the older index.
func (s *Store) rebuild(ctx context.Context, from int) (*Migration, error) {
	ctx = context.WithoutCancel(ctx)
	mig := &Migration{From: from, To: SchemaVersion}
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if mig.Collections, err = oldCollections(ctx, conn); err != nil {
		return nil, fmt.Errorf("rebuild index: read its collections: %w", err)
	}
	// Outside the transaction: SQLite ignores the pragma inside one.
	if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		return nil, err
	}
	defer conn.ExecContext(ctx, `PRAGMA foreign_keys = ON`)
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if err := dropAll(ctx, tx); err != nil {
		return nil, fmt.Errorf("rebuild index: %w", err)
	}
	if rebuildFault != nil {
		if err := rebuildFault(); err != nil {
			return nil, err
		}
	}
	if err := writeSchema(ctx, tx); err != nil {
		return nil, err
	}
	for _, c := range mig.Collections {
		if _, err := tx.ExecContext(ctx, `INSERT INTO collections(name, root) VALUES (?, ?)`, c.Name, c.Root); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	// The new file's layout (page size, incremental vacuum), each step
	// whole on its own: a stop between them leaves a sound index. The
	// rebuild is done: another process holding the file open (which
	// VACUUM and a journal mode change need it not to) costs only them.
	for _, stmt := range append(slices.Clone(layout), `PRAGMA journal_mode = WAL`) {
		if _, err := conn.ExecContext(ctx, stmt); err != nil {
			break
		}
	}
	return mig, nil
}

// rebuildFault, set by tests, fails a rebuild after its tables are
// dropped: where a stop or a crash would leave it.
var rebuildFault func() error

// oldCollections lists an older index's collections, by name; none where
// it has no such table.
func oldCollections(ctx context.Context, conn *sql.Conn) ([]Collection, error) {
	var has bool
	if err := conn.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'collections')`).Scan(&has); err != nil || !has {
		return nil, err
	}
	rows, err := conn.QueryContext(ctx, `SELECT name, root FROM collections ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Collection
	for rows.Next() {
		var c Collection
		if err := rows.Scan(&c.Name, &c.Root); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// dropAll drops every table, view and trigger of the index in tx.
func dropAll(ctx context.Context, tx *sql.Tx) error {
	var objs [][2]string
	// Virtual tables first, their shadow tables with them: a shadow table
	// dropped first (VACUUM may list it first) leaves the virtual table
	// unable to be dropped.
	rows, err := tx.QueryContext(ctx, `SELECT type, name FROM sqlite_master
		WHERE type IN ('table', 'view', 'trigger') AND name NOT LIKE 'sqlite_%'
		ORDER BY sql LIKE 'CREATE VIRTUAL%' DESC`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var o [2]string
		if err := rows.Scan(&o[0], &o[1]); err != nil {
			rows.Close()
			return err
		}
		objs = append(objs, o)
	}
	rows.Close()
	for _, o := range objs {
		// Shadow tables of a virtual table go with it, hence IF EXISTS.
		if _, err := tx.ExecContext(ctx, `DROP `+o[0]+` IF EXISTS "`+strings.ReplaceAll(o[1], `"`, `""`)+`"`); err != nil {
			return fmt.Errorf("drop %s %s: %w", o[0], o[1], err)
		}
	}
	return nil
}
