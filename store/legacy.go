package store

import (
	"fmt"
	"slices"
	"strings"
)

// legacyTables are the tables of a version 1 index, written before the
// application ID: a file without the mark is ours only if it has them all
// and no other table (legacyTable), so no foreign file that happens to
// share their names is rebuilt.
var legacyTables = []string{"meta", "collections", "documents", "doc_tags", "sections", "chunks", "chunks_fts", "models", "vectors"}

// legacyShadows are the tables SQLite's FTS5 keeps for chunks_fts, a
// contentless table.
var legacyShadows = []string{"chunks_fts_data", "chunks_fts_idx", "chunks_fts_docsize", "chunks_fts_config"}

// notOurs says why the file is not an mdsearch index of any version; ""
// when it is one.
func (f *fileInfo) notOurs() string {
	switch {
	case f.appID == ApplicationID:
		return ""
	case f.appID != 0:
		return fmt.Sprintf("an SQLite file of another program (application ID %#x)", uint32(f.appID))
	case f.version != 1:
		return "an SQLite file without mdsearch's application ID"
	}
	for _, t := range legacyTables {
		if !f.tables[t] {
			return fmt.Sprintf("an SQLite file without mdsearch's application ID, and without table %s of the version 1 index its meta table claims", t)
		}
	}
	var other []string
	for t := range f.tables {
		if !legacyTable(t) {
			other = append(other, t)
		}
	}
	if len(other) > 0 {
		slices.Sort(other)
		return fmt.Sprintf("an SQLite file without mdsearch's application ID, with tables no version 1 index has: %s", strings.Join(other, ", "))
	}
	return ""
}

// legacyTable reports whether a version 1 index has a table of this name.
func legacyTable(name string) bool {
	return strings.HasPrefix(name, "sqlite_") || // SQLite's own (sequences, statistics)
		slices.Contains(legacyTables, name) || slices.Contains(legacyShadows, name)
}
