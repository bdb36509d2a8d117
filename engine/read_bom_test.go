package engine

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A byte-order mark is no text: no read shows it, while line numbers
// still count the line it sits on. A read of a CRLF note keeps its line
// endings, byte for byte, but a search's passages come with '\n' alone,
// as every result's text does.
func TestReadBOMAndCRLF(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "Bom.md", "\uFEFF# Bom Note\n\nBom text here.\n")
	write(t, vault, "Crlf.md", "# CRLF Note\r\n\r\nCarriage return text here.\r\n\r\n## Sub\r\n\r\nMore crlf words.\r\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, req := range []mdsearch.ReadRequest{{Path: "Bom.md"}, {Path: "Bom.md", Lines: "1-2"}, {Path: "Bom.md", Lines: "1"},
		{Path: "Bom.md", Full: true}, {Path: "Bom.md", Section: "Bom Note"}} {
		r, err := e.Read(bg, req)
		if err != nil || strings.HasPrefix(r.Content, "\uFEFF") || !strings.HasPrefix(r.Content, "# Bom Note\n") || r.StartLine != 1 {
			t.Errorf("%+v: %+v, %v", req, r, err)
		}
	}
	if r, err := e.Read(bg, mdsearch.ReadRequest{Path: "Crlf.md"}); err != nil || !strings.Contains(r.Content, "# CRLF Note\r\n\r\n") {
		t.Errorf("a CRLF note read whole: %+v, %v", r, err)
	}
	for _, q := range []string{"carriage return", "bom text"} {
		resp := search(t, e, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeKeyword, N: 1})
		if len(resp.Results) != 1 {
			t.Fatalf("%s: %+v", q, resp.Results)
		}
		r := resp.Results[0]
		if strings.ContainsAny(r.Text, "\r\uFEFF") || r.StartLine != 1 || r.EndLine < 3 {
			t.Errorf("%s: result %q, lines %d–%d", q, r.Text, r.StartLine, r.EndLine)
		}
	}
}
