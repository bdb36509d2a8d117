package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

func TestKeywordText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"数据库", "数 据 库"},
		{"데이터베이스를 사용", "데 이 터 베 이 스 를 사 용"}, // a word takes its particles with no space
	} {
		if got := KeywordText(tt.in); got != tt.want {
			t.Errorf("KeywordText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The keyword index finds a word inside a run of Chinese characters, as a
// phrase of its characters.
func TestKeywordInsideRun(t *testing.T) {
	s, _, err := Open(context.Background(), filepath.Join(t.TempDir(), "i.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.w.Exec(`INSERT INTO chunks_fts(rowid, text, heading, title, tags) VALUES (1, ?, '', '', '')`,
		KeywordText("我们的数据库设计很简单"))
	if err != nil {
		t.Fatal(err)
	}
	for query, want := range map[string]int{`"数 据 库"`: 1, `"据 数"`: 0, `"数据库"`: 0} {
		var n int
		if err := s.w.QueryRow(`SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?`, query).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Errorf("MATCH %s: %d rows, want %d", query, n, want)
		}
	}
}

// BenchmarkKeywordText is the keyword text of a passage as indexing makes
// it, beside norm.NFKC alone (the most of it non-ASCII text can cost), on
// ASCII prose, English with typographic punctuation, and Chinese.
func BenchmarkKeywordText(b *testing.B) {
	for _, bc := range []struct{ name, text string }{
		{"ascii", strings.Repeat("The quick brown fox jumps over the lazy dog. ", 60)},
		{"typographic", strings.Repeat("The “quick” brown fox — jumps over the lazy dog’s tail… ", 50)},
		{"chinese", strings.Repeat("我们每天晚上备份数据库，并且每个月做一次恢复演练。", 30)},
	} {
		b.Run(bc.name+"/KeywordText", func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			for b.Loop() {
				KeywordText(bc.text)
			}
		})
		b.Run(bc.name+"/NFKC", func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			for b.Loop() {
				norm.NFKC.String(bc.text)
			}
		})
	}
}
