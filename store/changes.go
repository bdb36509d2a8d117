package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
)

// The change log lets a process that holds every vector in memory (a
// server's snapshot, or the command line's vector cache) catch up after a
// commit by reading only the notes the commit changed, instead of every
// vector again: a second at a million windows.
//
// doc_changes keeps, for every document whose windows or their vectors a
// commit changed (written, deleted, or given vectors), the generation of
// that commit; the row stays after the document is deleted. Two meta keys
// make it safe to trust:
//
//   - logged_commits counts the commits that logged their changes. A
//     reader that sees the generation advance by more than this count
//     knows some commit did not log (an older mdsearch wrote it) and reads
//     everything again.
//   - changes_from is the generation of the last commit that changed too
//     much to list (every vector dropped, thousands of notes): a snapshot
//     older than it reads everything again.
const changeLog = `CREATE TABLE IF NOT EXISTS doc_changes (
	doc_id INTEGER PRIMARY KEY, -- documents(id); kept after the document is deleted
	gen    INTEGER NOT NULL     -- the generation of the last commit that changed its windows or their vectors
)`

const changeLogIndex = `CREATE INDEX IF NOT EXISTS doc_changes_gen ON doc_changes(gen)`

// commitStamps gives each recent commit a random stamp, so that a
// snapshot catches up only with the index it was read from: an index
// rolled back (a backup copied over it, a power loss before its log
// reached the disk) and written again reaches the generation a snapshot
// names with other contents, and another stamp.
const commitStamps = `CREATE TABLE IF NOT EXISTS commit_stamps (
	gen   INTEGER PRIMARY KEY,
	stamp TEXT NOT NULL
)`

// keptStamps bounds the stamps kept: a snapshot further behind reads
// everything again, as one behind a commit too big to list does.
const keptStamps = 4096

// maxLogged bounds the documents one commit lists; a bigger commit marks
// every snapshot out of date instead, since reading the changed notes one
// by one would cost more than reading everything.
const maxLogged = 512

// changes is what a write batch changed that a vector snapshot holds.
type changes struct {
	docs map[int64]bool // documents whose windows were written or deleted
	keys [][]byte       // vector keys given a vector
	all  bool           // too much to list
}

func (c *changes) doc(id int64) {
	if c.docs == nil {
		c.docs = map[int64]bool{}
	}
	c.docs[id] = true
	c.all = c.all || len(c.docs)+len(c.keys) > maxLogged
}

func (c *changes) key(k []byte) {
	c.keys = append(c.keys, k)
	c.all = c.all || len(c.docs)+len(c.keys) > maxLogged
}

// addChangeLog creates the change log in an index written before it. It
// reads first, so opening an index that has one never waits for the write
// lock.
func (s *Store) addChangeLog(ctx context.Context) error {
	var n int
	if err := s.w.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'doc_changes_gen'`).Scan(&n); err != nil || n > 0 {
		return err
	}
	for _, q := range []string{changeLog, changeLogIndex} {
		if _, err := s.w.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// logChanges records the batch's changes as generation gen's, inside the
// batch.
func (t *Tx) logChanges(gen int64) error {
	c := &t.changes
	if c.all {
		if _, err := t.exec(`INSERT INTO meta(key, value) VALUES ('changes_from', ?)
			ON CONFLICT(key) DO UPDATE SET value = excluded.value`, strconv.FormatInt(gen, 10)); err != nil {
			return err
		}
	} else {
		for id := range c.docs {
			if _, err := t.exec(`INSERT INTO doc_changes(doc_id, gen) VALUES (?, ?)
				ON CONFLICT(doc_id) DO UPDATE SET gen = excluded.gen`, id, gen); err != nil {
				return err
			}
		}
		for _, k := range c.keys {
			if _, err := t.exec(`INSERT INTO doc_changes(doc_id, gen) SELECT DISTINCT doc_id, ? FROM windows WHERE vkey = ?
				ON CONFLICT(doc_id) DO UPDATE SET gen = excluded.gen`, gen, k); err != nil {
				return err
			}
		}
	}
	if err := t.stamp(gen); err != nil {
		return err
	}
	_, err := t.exec(`INSERT INTO meta(key, value) VALUES ('logged_commits', '1')
		ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`)
	return err
}

// stamp gives generation gen its random stamp (commitStamps). An index
// written before them gains the table at its first commit, not when
// opened: one made read-only is then served as before.
func (t *Tx) stamp(gen int64) error {
	if _, err := t.exec(commitStamps); err != nil {
		return err
	}
	if _, err := t.exec(`INSERT INTO commit_stamps(gen, stamp) VALUES (?, lower(hex(randomblob(8))))`, gen); err != nil {
		return err
	}
	_, err := t.exec(`DELETE FROM commit_stamps WHERE gen <= ?`, gen-keptStamps)
	return err
}

// Version names one state of the index for a vector snapshot: its
// generation, how many commits logged their changes (-1: none ever did, so
// no snapshot can catch up) and the last commit's stamp (see commitStamps;
// empty when it kept none).
type Version struct {
	Gen, Logged int64
	Stamp       string `json:",omitempty"`
}

// version reads the index's Version inside q's transaction.
func version(ctx context.Context, q querier) (Version, error) {
	v := Version{Logged: -1}
	rows, err := q.QueryContext(ctx, `SELECT key, value FROM meta WHERE key IN ('generation', 'logged_commits')`)
	if err != nil {
		return v, err
	}
	defer rows.Close()
	for rows.Next() {
		var k, val string
		if err := rows.Scan(&k, &val); err != nil {
			return v, err
		}
		n, _ := strconv.ParseInt(val, 10, 64)
		if k == "generation" {
			v.Gen = n
		} else {
			v.Logged = n
		}
	}
	if err := rows.Err(); err != nil {
		return v, err
	}
	v.Stamp, err = stampOf(ctx, q, v.Gen)
	return v, err
}

// stampOf reads the stamp of the commit that made generation gen, or ""
// when none is kept (an older file opened read-only has no table).
func stampOf(ctx context.Context, q querier, gen int64) (string, error) {
	var stamp string
	err := q.QueryRowContext(ctx, `SELECT stamp FROM commit_stamps WHERE gen = ?`, gen).Scan(&stamp)
	if errors.Is(err, sql.ErrNoRows) || err != nil && strings.Contains(err.Error(), "no such table") {
		return "", nil
	}
	return stamp, err
}

// ErrNoCatchUp says a snapshot cannot catch up from the change log: some
// commit since did not log, or changed too much to list. Read everything.
var ErrNoCatchUp = errors.New("the change log cannot bring this snapshot up to date")

// CatchUp reads what changed for model's vectors since the index was at
// from, in one read transaction: docs gets the documents whose windows
// changed (each already gone or rewritten), then vec gets every window of
// those documents that now has a vector, in window order, with the stored
// vector (valid only during the call). It returns the version read, or
// ErrNoCatchUp. A from equal to the current version reads nothing.
func (s *Store) CatchUp(ctx context.Context, model int64, from Version, docs func([]int64) error, vec func(w WindowRef, b []byte) error) (Version, error) {
	tx, err := s.pool.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Version{}, err
	}
	defer tx.Rollback()
	now, err := version(ctx, tx)
	if err != nil || now == from {
		return now, err
	}
	if from.Logged < 0 || now.Gen < from.Gen || now.Logged-from.Logged != now.Gen-from.Gen {
		return now, ErrNoCatchUp
	}
	if stamp, err := stampOf(ctx, tx, from.Gen); err != nil || stamp == "" || stamp != from.Stamp {
		return now, errors.Join(ErrNoCatchUp, err) // another history, or none kept to tell
	}
	var since string
	if err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'changes_from'`).Scan(&since); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return now, err
	}
	if n, _ := strconv.ParseInt(since, 10, 64); n > from.Gen {
		return now, ErrNoCatchUp
	}
	ids, err := column[int64](tx.QueryContext(ctx, `SELECT doc_id FROM doc_changes WHERE gen > ? ORDER BY doc_id`, from.Gen))
	if err != nil {
		return now, err
	}
	if err := docs(ids); err != nil {
		return now, err
	}
	return now, changedWindows(ctx, tx, model, ids, vec)
}

// changedWindows calls vec for every window of the documents ids that has
// a vector under model, in window order.
func changedWindows(ctx context.Context, tx *sql.Tx, model int64, ids []int64, vec func(w WindowRef, b []byte) error) error {
	for start := 0; start < len(ids); start += 500 {
		part := ids[start:min(start+500, len(ids))]
		args := []any{model}
		for _, id := range part {
			args = append(args, id)
		}
		rows, err := tx.QueryContext(ctx, `SELECT w.chunk_id, w.doc_id, c.section_id, c.chunk_index,
			w.embed_full IS NULL AND w.text_end = w.text_start, v.vec FROM windows w
			JOIN chunks c ON c.id = w.chunk_id
			JOIN vectors v ON v.model_id = ? AND v.vkey = w.vkey
			WHERE w.doc_id IN (?`+strings.Repeat(",?", len(part)-1)+`) ORDER BY w.id`, args...)
		if err != nil {
			return err
		}
		if err := eachWindow(rows, vec); err != nil {
			return err
		}
	}
	return nil
}

// eachWindow calls fn for each row of rows (chunk, document, section,
// index, heading flag, vector) and closes them.
func eachWindow(rows *sql.Rows, fn func(w WindowRef, vec []byte) error) error {
	defer rows.Close()
	for rows.Next() {
		var w WindowRef
		var vec sql.RawBytes
		if err := rows.Scan(&w.ChunkID, &w.DocID, &w.SectionID, &w.Index, &w.Heading, &vec); err != nil {
			return err
		}
		if err := fn(w, vec); err != nil {
			return err
		}
	}
	return rows.Err()
}
