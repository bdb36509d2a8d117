package store

import (
	"context"
	"database/sql"
	"os"
	"strconv"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver (pure Go, FTS5 built in)
)

// SchemaVersion numbers the layout of the index file. Bump it on any change
// that old code could misread, and say what changed below. An index with
// another version is rebuilt from its vaults.
//
// Changelog:
//
//	1: collections, documents (+doc_tags), sections (heading data shared by
//	   the chunks of a section), chunks, chunks_fts (contentless FTS5,
//	   porter+unicode61), models, vectors (int8 with a float32 scale, keyed
//	   by model and embed_text hash). 8 KiB pages, incremental auto-vacuum.
//	2: chunks are passages (a section's own text, or parts of it) and the
//	   unit of keyword search and results; the new windows table holds the
//	   model's pieces of each passage (vector key, head, text offsets), so
//	   the text is stored once. chunks.merged became chunks.sections (every
//	   section path a passage covers); sections.embed_prefix moved to
//	   windows.head.
//
// Meta keys and columns that old code ignores need no new version:
// max_file_size/NAME (the size limit collection NAME was last indexed with)
// and the added columns (addedColumns: added to older files when opened
// for writing; filled as collections are cut again) came in version 2, as
// did the change log (table doc_changes, meta keys logged_commits and
// changes_from; see changeLog), added to older files the same way, and
// its commit stamps (commitStamps), added at an older file's first commit:
// a commit by code that keeps neither is noticed, not misread. So did
// chunks_vocab and chunks_instances (vocabTables: FTS5's views of the
// keyword index's terms, which hold no data), added to older files the
// same way. So did scanned_at/NAME (Unix nanoseconds when the last
// complete run that walked collection NAME's vault began reading it; an
// older file has none, and its next run reads every note once). So did
// embed_window (the embedder the notes were last cut for and its token
// window, "MODEL-ID TOKENS"; an older file has none, and commands take the
// default) and the
// collections.chunking mark " first-run" (a first run not done reading
// its notes; older code reads the signature as another's, and cuts every
// note again, as it did after an empty one).
const SchemaVersion = 2

// layout must precede the first table, outside WAL mode.
var layout = []string{
	`PRAGMA journal_mode = DELETE`,
	`PRAGMA page_size = 8192`, // ~540-byte vector rows waste less of a page
	`PRAGMA auto_vacuum = INCREMENTAL`,
	`VACUUM`,
}

// schema creates version SchemaVersion.
var schema = []string{
	`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`,
	`CREATE TABLE collections (
		id         INTEGER PRIMARY KEY,
		name       TEXT NOT NULL UNIQUE,
		root       TEXT NOT NULL,
		chunking   TEXT NOT NULL DEFAULT '', -- signature of the chunker settings the chunks were cut with
		indexed_at INTEGER NOT NULL DEFAULT 0 -- Unix seconds of the last complete run
	)`,
	`CREATE TABLE documents (
		id            INTEGER PRIMARY KEY,
		collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
		path          TEXT NOT NULL, -- vault-relative, '/'-separated
		title         TEXT NOT NULL,
		mtime         INTEGER NOT NULL, -- Unix nanoseconds
		size          INTEGER NOT NULL,
		hash          BLOB NOT NULL, -- SHA-256 of the file
		word_count    INTEGER NOT NULL,
		chunk_count   INTEGER NOT NULL,
		frontmatter   TEXT, -- JSON object, NULL when absent
		tags          TEXT NOT NULL DEFAULT '[]', -- JSON array, as written
		warnings      TEXT, -- JSON array of what was odd about the file when read, NULL when nothing
		UNIQUE (collection_id, path)
	)`,
	`CREATE TABLE doc_tags (
		tag    TEXT NOT NULL, -- lower case, without '#'
		doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
		PRIMARY KEY (tag, doc_id)
	) WITHOUT ROWID`,
	`CREATE INDEX doc_tags_doc ON doc_tags(doc_id)`,
	// The passages of a section share its heading data.
	`CREATE TABLE sections (
		id            INTEGER PRIMARY KEY,
		doc_id        INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
		section       TEXT NOT NULL,
		section_path  TEXT NOT NULL, -- JSON array of heading texts
		heading_level INTEGER NOT NULL,
		read_section  TEXT -- "#id" where section_path does not name the section for read, else NULL
	)`,
	`CREATE INDEX sections_doc ON sections(doc_id)`,
	// A chunk is a passage: the unit of keyword search and of results.
	`CREATE TABLE chunks (
		id          INTEGER PRIMARY KEY,
		doc_id      INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
		section_id  INTEGER NOT NULL, -- sections(id); no foreign key: its cascade would scan every chunk
		chunk_index INTEGER NOT NULL,
		start_line  INTEGER NOT NULL,
		end_line    INTEGER NOT NULL,
		start_byte  INTEGER NOT NULL,
		end_byte    INTEGER NOT NULL,
		part        INTEGER NOT NULL,
		parts       INTEGER NOT NULL,
		text        TEXT NOT NULL,
		word_count  INTEGER NOT NULL,
		sections    TEXT, -- JSON array of the section paths covered, NULL when only its own
		read_sections TEXT, -- JSON array: for each of sections, "#id" where its path does not name it, else ""; NULL when none
		tags        TEXT, -- JSON array of the tags its keyword row holds (Chunk.PassageTags); NULL: the note's tags
		properties  TEXT -- the note's property values its keyword row holds (Chunk.Properties), NULL when none
	)`,
	`CREATE INDEX chunks_doc ON chunks(doc_id)`,
	// A window is the model's piece of a chunk. Its embed text is head ||
	// the bytes [text_start, text_end) of the chunk's text, or embed_full.
	// Rows of one chunk are inserted together, so rowid order groups them.
	`CREATE TABLE windows (
		id          INTEGER PRIMARY KEY,
		chunk_id    INTEGER NOT NULL, -- chunks(id); deleted with it by the document's delete
		doc_id      INTEGER NOT NULL,
		head        TEXT NOT NULL,
		text_start  INTEGER NOT NULL,
		text_end    INTEGER NOT NULL,
		embed_full  TEXT, -- the whole embed text, when it is not a slice of the chunk's text
		token_count INTEGER NOT NULL,
		vkey        BLOB NOT NULL -- SHA-256 of the embed text, first 16 bytes: the vector key and, in hex, Window.Hash
	)`,
	`CREATE INDEX windows_doc ON windows(doc_id)`,
	`CREATE INDEX windows_vkey ON windows(vkey)`,
	`CREATE VIRTUAL TABLE chunks_fts USING fts5(
		text, heading, title, tags,
		content='', contentless_delete=1,
		tokenize='porter unicode61 remove_diacritics 2'
	)`,
	`CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
		DELETE FROM chunks_fts WHERE rowid = old.id;
	END`,
	`CREATE TABLE models (
		id   INTEGER PRIMARY KEY,
		name TEXT NOT NULL UNIQUE, -- embed.Embedder.ModelID()
		dim  INTEGER NOT NULL
	)`,
	// A rowid table fills its pages in insertion order; keyed by the random
	// vkey it would leave them a quarter empty.
	`CREATE TABLE vectors (
		id       INTEGER PRIMARY KEY,
		model_id INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
		vkey     BLOB NOT NULL,
		vec      BLOB NOT NULL, -- see Quantize
		UNIQUE (model_id, vkey)
	)`,
	changeLog,
	changeLogIndex,
	commitStamps,
	vocabTables[0],
	vocabTables[1],
	`INSERT INTO meta(key, value) VALUES ('schema_version', '` + strconv.Itoa(SchemaVersion) + `'), ('generation', '0'), ('model', '')`,
	instanceRow,
}

// instanceRow gives the index a random instance ID, unless it has one: with
// the generation it names one state of one index file (Instance).
const instanceRow = `INSERT INTO meta(key, value) VALUES ('instance', lower(hex(randomblob(16)))) ON CONFLICT(key) DO NOTHING`

// Store is an open index file.
type Store struct {
	*Reader // reads through the pool
	path    string
	w       *sql.DB     // the one writing connection
	pool    *sql.DB     // read-only connections for concurrent searches
	file    os.FileInfo // the file opened, to notice it deleted or replaced
	named   string      // the path as given (absolute) when a symlink, which may be repointed
	// changeLog says the index keeps the change log (see changeLog): made
	// with the file, or added when a writer first opens an older one.
	changeLog bool
}

// querier is what reads need: the pool, or one read transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Reader runs the read queries a search needs. The Store's Reader uses the
// connection pool; a ReadTx's sees one consistent snapshot.
type Reader struct {
	r     querier
	stmts *stmtCache // statements kept on the pool; nil for none
	// readSection, readSections, warnings, chunkTags and chunkProps say
	// the index has the columns sections.read_section,
	// chunks.read_sections, documents.warnings, chunks.tags and
	// chunks.properties (an index of version 2 written before they came
	// has not).
	readSection, readSections, warnings, chunkTags, chunkProps bool
	// vocab says the index has vocabTables.
	vocab bool
}

// ReadTx is a read transaction: every query sees the index as of its first
// read, however many batches a concurrent Index run commits meanwhile.
type ReadTx struct {
	*Reader
	tx *sql.Tx
}

// BeginRead starts a read transaction. Close it when done.
func (s *Store) BeginRead(ctx context.Context) (*ReadTx, error) {
	tx, err := s.pool.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	r := *s.Reader
	r.r = tx
	return &ReadTx{Reader: &r, tx: tx}, nil
}

// Close ends the read transaction.
func (t *ReadTx) Close() error { return t.tx.Rollback() }

// Path is the absolute path of the index file.
func (s *Store) Path() string { return s.path }

// SizeBytes is the size on disk: the file plus its WAL.
func (s *Store) SizeBytes() int64 { return sizeOnDisk(s.path) }

// sizeOnDisk is the size of the index at path with its -wal and -shm.
func sizeOnDisk(path string) int64 {
	var n int64
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if fi, err := os.Stat(path + suffix); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// Close checkpoints the WAL and closes the file.
func (s *Store) Close() error {
	// Fold the WAL back into the file, unless another process is writing:
	// then its own close does, and waiting for it would hold up an answer
	// already given (a search that printed its results stayed up for the
	// length of the other run's write).
	s.w.Exec(`PRAGMA busy_timeout = 0`)
	s.w.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	s.stmts.close()
	err := s.pool.Close()
	if err2 := s.w.Close(); err == nil {
		err = err2
	}
	return err
}

// IntegrityCheck runs PRAGMA integrity_check and returns its report, "ok"
// when the file is sound.
func (s *Store) IntegrityCheck(ctx context.Context) (string, error) {
	lines, err := column[string](s.r.QueryContext(ctx, `PRAGMA integrity_check`))
	return strings.Join(lines, "\n"), err
}
