package store

import (
	"context"
	"strings"
	"sync"
)

// Stems returns each word as the keyword index holds it: lower case,
// diacritics removed, reduced by the porter stemmer ("keyed" and "keys"
// both "kei"), so two words match in the index exactly when their stems
// are equal. A word the tokenizer makes nothing of is its own stem; one
// it splits is its first token. Stems already made are remembered.
func Stems(ctx context.Context, words []string) ([]string, error) {
	out := make([]string, len(words))
	var ask []string
	asked := map[string]bool{}
	stemCache.Lock()
	for i, w := range words {
		if s, ok := stemCache.m[w]; ok {
			out[i] = s
		} else if !asked[w] {
			asked[w] = true
			ask = append(ask, w)
		}
	}
	stemCache.Unlock()
	if len(ask) == 0 {
		return out, nil
	}
	made, err := stems(ctx, ask)
	if err != nil {
		return nil, err
	}
	stemCache.Lock()
	if len(stemCache.m)+len(made) > maxStems {
		clear(stemCache.m) // a vocabulary this large is rare: start again
	}
	for w, s := range made {
		stemCache.m[w] = s
	}
	stemCache.Unlock()
	for i, w := range words {
		if out[i] == "" {
			out[i] = made[w]
		}
	}
	return out, nil
}

// stemBatch is how many words one statement inserts, well within
// SQLite's limit on a statement's parameters.
const stemBatch = 500

// maxStems bounds the remembered stems (a few megabytes).
const maxStems = 100_000

var stemCache = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

// stems runs words through the scratch table's tokenizer.
func stems(ctx context.Context, words []string) (map[string]string, error) {
	conn, err := scratch.get(ctx)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() { scratch.put(conn, ok) }()
	if err := conn.table(ctx, "w"); err != nil {
		return nil, err
	}
	tx, err := conn.c.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO w(w) VALUES ('delete-all')`); err != nil {
		return nil, err
	}
	for from := 0; from < len(words); from += stemBatch {
		batch := words[from:min(from+stemBatch, len(words))]
		args := make([]any, 0, 2*len(batch))
		for i, word := range batch {
			args = append(args, from+i+1, word)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO w(rowid, word) VALUES (?, ?)`+strings.Repeat(`, (?, ?)`, len(batch)-1), args...); err != nil {
			return nil, err
		}
	}
	rows, err := tx.QueryContext(ctx, `SELECT doc, term FROM wv ORDER BY doc, offset`)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(words))
	for rows.Next() {
		var doc int
		var term string
		if err := rows.Scan(&doc, &term); err != nil {
			rows.Close()
			return nil, err
		}
		if w := words[doc-1]; out[w] == "" {
			out[w] = term
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, w := range words {
		if out[w] == "" {
			out[w] = w
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	ok = true
	return out, nil
}
