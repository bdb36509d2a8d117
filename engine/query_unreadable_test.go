package engine

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
)

// unreadable is a model that reads ASCII only (embed.Vocabulary).
type unreadable struct{ *bow }

func (unreadable) Unread(text string) float64 {
	n, other := 0, 0
	for _, r := range text {
		if r != ' ' {
			n++
			if r >= utf8.RuneSelf {
				other++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(other) / float64(n)
}

// TestUnreadableQuery: a query the model cannot read is ranked by
// keywords alone (which find its words inside a run), and says so, in hybrid and semantic mode; one it reads
// is not.
func TestUnreadableQuery(t *testing.T) {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), unreadable{newBow("bow")})
	vault := copyDir(t, "../sample-vault")
	write(t, vault, "备份.md", "# 备份\n\n我们每天晚上备份数据库。\n\n"+strings.Repeat("备份保存在外部磁盘上，每周检查一次。\n\n", 20))
	index(t, e, vault, "v")
	for _, mode := range []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeSemantic} {
		resp := search(t, e, mdsearch.SearchRequest{Query: "什么是备份", Mode: mode})
		if resp.Mode != mdsearch.ModeKeyword || !strings.Contains(resp.Notice, "cannot read this query") {
			t.Errorf("%s: mode %s, notice %q", mode, resp.Mode, resp.Notice)
		}
		if len(resp.Results) == 0 || resp.Results[0].Path != "备份.md" {
			t.Errorf("%s: the keyword results miss the note:\n%s", mode, describe(resp))
		}
		// Its scores run low: a weak best is not said to show the notes lack the answer.
		if weak := resp.Results[0].Score < Unlikely; weak != strings.Contains(resp.Notice, "scores low even where its words found the answer") ||
			strings.Contains(resp.Notice, "do not hold the answer") {
			t.Errorf("%s: best %.3f, notice %q", mode, resp.Results[0].Score, resp.Notice)
		}
		// Nor are its results cut to their openings, as unlikely ones are.
		if r := resp.Results[0]; r.Truncated || strings.Contains(resp.Notice, "cut to") {
			t.Errorf("%s: best %.3f cut (%q), notice %q", mode, r.Score, r.ReadHint, resp.Notice)
		}
		resp = search(t, e, mdsearch.SearchRequest{Query: "restic backups", Mode: mode})
		if resp.Mode != mode || resp.Notice != "" || len(resp.Results) == 0 {
			t.Errorf("%s: a readable query got mode %s, notice %q, %d results", mode, resp.Mode, resp.Notice, len(resp.Results))
		}
		// Nor do keywords read emoji: the search says nothing was looked for.
		resp = search(t, e, mdsearch.SearchRequest{Query: "🦄 ★", Mode: mode})
		if len(resp.Results) != 0 || !strings.Contains(resp.Notice, "holds no word the keyword index reads") {
			t.Errorf("%s: emoji: %d results, notice %q", mode, len(resp.Results), resp.Notice)
		}
	}
}

// A passage the model cannot read gets the zero vector: near no query, so
// it never ranks by meaning, for English questions or any other. The model
// is not asked to embed it.
func TestUnreadablePassages(t *testing.T) {
	emb := unreadable{newBow("bow")}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), emb)
	vault := copyDir(t, "../sample-vault")
	write(t, vault, "备份.md", "# 备份\n\n我们每天晚上备份数据库。\n")
	before := emb.texts.Load()
	st := index(t, e, vault, "v")
	if embedded := emb.texts.Load() - before; embedded >= int64(st.Embedded) {
		t.Errorf("the model embedded %d texts of %d windows: the unreadable ones too", embedded, st.Embedded)
	}
	resp := search(t, e, mdsearch.SearchRequest{Query: "restic backups", Mode: mdsearch.ModeSemantic, N: 50, MaxPerPage: 5})
	for _, r := range resp.Results {
		if r.Path == "备份.md" && r.Score > 0 {
			t.Errorf("the unreadable note ranks by meaning: %.3f", r.Score)
		}
	}
	resp = search(t, e, mdsearch.SearchRequest{Query: "数据库", Mode: mdsearch.ModeHybrid})
	if len(resp.Results) == 0 || resp.Results[0].Path != "备份.md" {
		t.Errorf("keywords still find it:\n%s", describe(resp))
	}
}

// An index whose unreadable windows got the model's vectors (an older
// mdsearch) gets the zero vector for them when it is cut again, though
// their texts, and so their vector keys, are the same.
func TestUnreadableVectorsReplaced(t *testing.T) {
	dir := t.TempDir()
	vault := copyDir(t, "../sample-vault")
	write(t, vault, "备份.md", "# 备份\n\n我们每天晚上备份数据库。\n")
	old := openEngine(t, filepath.Join(dir, "index.db"), newBow("bow")) // reads everything
	index(t, old, vault, "v")
	old.Close()
	e := openEngine(t, filepath.Join(dir, "index.db"), unreadable{newBow("bow")})
	// As an index of an older chunker: cut again, its vectors reused.
	colls, err := e.st.Collections(bg)
	if err != nil || len(colls) != 1 {
		t.Fatal(colls, err)
	}
	if err := e.st.SetIndexed(bg, colls[0].ID, "an older chunker", time.Now()); err != nil {
		t.Fatal(err)
	}
	index(t, e, vault, "v")
	if n := zeroVectors(t, filepath.Join(dir, "index.db")); n != 2 { // its text window and its heading window
		t.Errorf("%d zero vectors, want 2", n)
	}
}

// zeroVectors counts the vectors of an index that are zero (scale 0).
func zeroVectors(t *testing.T, index string) int {
	db, err := sql.Open("sqlite", index)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM vectors WHERE substr(vec, 1, 4) = x'00000000'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A --full run embeds every text again but those the model cannot read,
// which keep the zero vector.
func TestUnreadableFullRun(t *testing.T) {
	emb := unreadable{newBow("bow")}
	dir := t.TempDir()
	e := openEngine(t, filepath.Join(dir, "index.db"), emb)
	vault := copyDir(t, "../sample-vault")
	write(t, vault, "备份.md", "# 备份\n\n我们每天晚上备份数据库。\n")
	index(t, e, vault, "v")
	before := emb.texts.Load()
	st, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v", Full: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if asked := emb.texts.Load() - before; asked != int64(st.Embedded-2) {
		t.Errorf("the model embedded %d of %d texts, want all but the 2 it cannot read", asked, st.Embedded)
	}
	if n := zeroVectors(t, filepath.Join(dir, "index.db")); n != 2 {
		t.Errorf("%d zero vectors, want 2", n)
	}
}
