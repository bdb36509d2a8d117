package store

import (
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A window is kept as a head and a slice of its passage's text where its
// text is one, else whole; either way the stored text reads back as the
// embed text, and only the heading window reads as one.
func TestWindowLayout(t *testing.T) {
	text := "| a | b |\n|---|---|\n| 1 | 2 |\nSome words \uFFFD here.\n"
	c := mdsearch.Chunk{Path: "n.md", StartByte: 10, EndByte: 10 + len(text), Text: text, SectionPath: []string{"T"}}
	at := strings.Index(text, "| 1")
	c.Windows = []mdsearch.Window{
		{EmbedText: "[T] " + text, StartByte: 10, TextStart: 0},                                                      // prefix and text
		{EmbedText: "[T] | a | b |\n|---|---|\n" + text[at:], StartByte: 10 + at, TextStart: at},                     // a table's header repeated
		{EmbedText: "[T] | a | b |\n(code left out) here.\n", StartByte: 10, TextStart: 0},                           // no slice of the text
		{EmbedText: "[T] Some words \uFFFD here.\n", StartByte: 10 + at + 9, TextStart: strings.Index(text, "Some")}, // after U+FFFD shown for a byte
		{EmbedText: "[T]", StartByte: 10, Heading: true},
	}
	wantHead := []string{"[T] ", "[T] | a | b |\n|---|---|\n", "", "[T] ", "[T]"}
	for i := range c.Windows {
		w := &c.Windows[i]
		head, start, end, ok := windowLayout(&c, w)
		switch {
		case head != wantHead[i] || ok != (wantHead[i] != ""):
			t.Errorf("window %d: head %q (%v), want %q", i, head, ok, wantHead[i])
		case ok && head+c.Text[start:end] != w.EmbedText:
			t.Errorf("window %d: %q + Text[%d:%d] is not its embed text %q", i, head, start, end, w.EmbedText)
		case ok && (start == end) != w.Heading:
			t.Errorf("window %d: text [%d, %d) for a heading window %v", i, start, end, w.Heading)
		}
	}

	s := open(t)
	coll, err := s.AddCollection(ctx, "v", "/v")
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, coll.ID, "n.md", "T", nil, c)
	rows, err := s.w.QueryContext(ctx, `SELECT `+windowText+`, w.embed_full IS NULL AND w.text_end = w.text_start
		FROM windows w JOIN chunks c ON c.id = w.chunk_id ORDER BY w.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	i := 0
	for ; rows.Next(); i++ {
		var got string
		var heading bool
		if err := rows.Scan(&got, &heading); err != nil {
			t.Fatal(err)
		}
		if got != c.Windows[i].EmbedText || heading != c.Windows[i].Heading {
			t.Errorf("window %d reads back as %q (heading %v), want %q (%v)", i, got, heading, c.Windows[i].EmbedText, c.Windows[i].Heading)
		}
	}
	if i != len(c.Windows) {
		t.Errorf("%d windows stored, want %d", i, len(c.Windows))
	}
}
