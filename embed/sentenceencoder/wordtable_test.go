package sentenceencoder

import (
	"strings"
	"testing"
)

// A word longer than maxTableWord is counted but not kept: kept, a 9 MB
// run of punctuation copied itself and its path into the table.
func TestWordTableSkipsLongWords(t *testing.T) {
	var w wordTable
	long := strings.Repeat("*a_", maxTableWord)
	_, h := w.find(long)
	w.add(long, h, wordEntry{count: 3}, make([]uint16, 10))
	if e, _ := w.find(long); e != nil || len(w.keys) != 0 || len(w.path) != 0 {
		t.Errorf("a %d-byte word was kept (keys %d bytes, path %d ids)", len(long), len(w.keys), len(w.path))
	}
	short := "sourdough-starter"
	_, h = w.find(short)
	w.add(short, h, wordEntry{count: 3}, make([]uint16, 10))
	if e, _ := w.find(short); e == nil || e.count != 3 {
		t.Errorf("a short word was not kept: %+v", e)
	}
}
