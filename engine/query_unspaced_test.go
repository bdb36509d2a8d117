package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/unicode/norm"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/chunks"
	"github.com/mdsearch/mdsearch/store"
)

// Words inside runs of Chinese, Japanese, Thai or Korean text are found,
// and a question typed without spaces ranks the note that answers it.
func TestUnspacedScripts(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "备份.md", "# 备份\n\n我们每天晚上备份数据库，并且每个月做一次恢复演练。\n")
	write(t, vault, "部署.md", "# 部署\n\n新版本的服务器部署在周五进行，部署之前先运行测试。\n")
	write(t, vault, "サーバー.md", "# サーバー\n\nメンテナンスの後はサーバーを再起動してください。\n")
	write(t, vault, "ไทย.md", "# บันทึก\n\nฐานข้อมูลของเราสำรองทุกคืน\n")
	write(t, vault, "한국어.md", "# 메모\n\n데이터베이스를 매일 백업합니다.\n")
	write(t, vault, "english.md", "# Database\n\nThe database is backed up nightly.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct{ query, top string }{
		{"数据库", "备份.md"},
		{"怎么恢复数据库？", "备份.md"},
		{"服务器部署", "部署.md"},
		{"再起動", "サーバー.md"},
		{"ข้อมูล", "ไทย.md"},
		{"데이터베이스", "한국어.md"},
		{"database", "english.md"},
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: tt.query, Mode: mdsearch.ModeKeyword})
		if len(resp.Results) == 0 || resp.Results[0].Path != tt.top {
			t.Errorf("%s: want %s first, got\n%s", tt.query, tt.top, describe(resp))
		}
	}
	// A long section of them is cut into passages, as one of English words
	// is: each character counts as a word.
	long := strings.Repeat("这是一个很长的段落，用来测试分段。", 80) + "最后一句提到了独角兽。"
	write(t, vault, "长.md", "# 长\n\n"+long+"\n")
	index(t, e, vault, "v")
	resp := search(t, e, mdsearch.SearchRequest{Query: "独角兽", Mode: mdsearch.ModeKeyword})
	if len(resp.Results) == 0 || resp.Results[0].Path != "长.md" || resp.Results[0].Parts < 2 ||
		len(resp.Results[0].Text) >= len(long) {
		t.Errorf("独角兽: want a part of 长.md first, got\n%s", describe(resp))
	}
	// A phrase in quotes asks for its characters in a row: none holds
	// these two so, and the notice says each was searched alone.
	resp = search(t, e, mdsearch.SearchRequest{Query: `"据数"`, Mode: mdsearch.ModeKeyword})
	if !strings.Contains(resp.Notice, `no passage holds the phrase "据数"`) {
		t.Errorf(`"据数": notice %q, results:\n%s`, resp.Notice, describe(resp))
	}
	resp = search(t, e, mdsearch.SearchRequest{Query: `"据库"`, Mode: mdsearch.ModeKeyword})
	if len(resp.Results) != 1 || resp.Results[0].Path != "备份.md" || resp.Notice != "" {
		t.Errorf(`"据库": want 备份.md alone, which holds the two in a row; notice %q, got\n%s`, resp.Notice, describe(resp))
	}
}

// Text and queries are compared folded: a note saved decomposed (macOS),
// typed in full-width or half-width forms, or with Arabic vowel marks is
// found by the query as people type it, and so are its tags.
func TestKeywordFolding(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "macbook.md", norm.NFD.String("# 배터리\n\n배터리 충전 한도를 80%로 설정했다. #맥북\n"))
	write(t, vault, "log.md", "# 日報\n\nＤｏｃｋｅｒのﾃﾞｰﾀﾍﾞｰｽを移行した。\n")
	write(t, vault, "recipe.md", "# وصفة\n\nالْمُكَوِّنَات: دقيق وماء.\n")
	write(t, vault, "other.md", "# Other\n\nNothing here.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct{ query, tag, top string }{
		{"배터리 충전 한도", "", "macbook.md"},
		{"충전", "맥북", "macbook.md"},
		{"docker データベース", "", "log.md"},
		{"المكونات", "", "recipe.md"},
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: tt.query, Tag: tt.tag, Mode: mdsearch.ModeKeyword})
		if len(resp.Results) == 0 || resp.Results[0].Path != tt.top {
			t.Errorf("%s (tag %q): want %s first, got %q\n%s", tt.query, tt.tag, tt.top, resp.Notice, describe(resp))
		}
	}
}

// An index whose keyword text an older mdsearch made says so to a
// query, until it is indexed again.
func TestOlderKeywordText(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "a.md", "# A\n\n我们每天晚上备份数据库。The database.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	colls, err := e.st.Collections(bg)
	if err != nil {
		t.Fatal(err)
	}
	older := strings.Replace(colls[0].Chunking, fmt.Sprintf(" kw=%d", store.KeywordVersion), " kw=1", 1)
	if err := e.st.SetIndexed(bg, colls[0].ID, older, time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"数据库", "database"} {
		if resp := search(t, e, mdsearch.SearchRequest{Query: q}); !strings.Contains(resp.Notice, `collection "v" was cut by another version of mdsearch: run `+"`mdsearch index`") {
			t.Errorf("%s: notice %q", q, resp.Notice)
		}
	}
	index(t, e, vault, "v")
	if resp := search(t, e, mdsearch.SearchRequest{Query: "数据库"}); strings.Contains(resp.Notice, "older") {
		t.Errorf("indexed again: notice %q", resp.Notice)
	}
}

// A collection an older mdsearch cut (another chunks.Version) says so in
// status, until an index run cuts it again.
func TestStatusCutByOlder(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "a.md", "---\nauthor: Quince\n---\n# A\n\nText.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	outdated := func() bool {
		st, err := e.Status(bg)
		if err != nil {
			t.Fatal(err)
		}
		return st.Collections[0].Outdated
	}
	if outdated() {
		t.Fatal("a collection just cut is outdated")
	}
	colls, err := e.st.Collections(bg)
	if err != nil {
		t.Fatal(err)
	}
	older := strings.Replace(colls[0].Chunking, fmt.Sprintf(" v=%d ", chunks.Version), " v=12 ", 1)
	if older == colls[0].Chunking {
		t.Fatalf("no version in %q", older)
	}
	if err := e.st.SetIndexed(bg, colls[0].ID, older, time.Now()); err != nil {
		t.Fatal(err)
	}
	if !outdated() {
		t.Error("a collection cut by chunks.Version 12 is not outdated")
	}
	index(t, e, vault, "v")
	if outdated() {
		t.Error("cut again, still outdated")
	}
}
