package mdsearch

import "testing"

// TestSetChunkEnd checks that a joined result names the part it ends on,
// and that a result no longer joined, or of a section in one passage,
// names none.
func TestSetChunkEnd(t *testing.T) {
	for _, tc := range []struct {
		name                      string
		index, part, parts, end   int
		wantChunkEnd, wantPartEnd int
	}{
		{"two parts joined", 4, 2, 5, 5, 5, 3},
		{"three joined", 4, 1, 3, 6, 6, 3},
		{"no longer joined", 4, 2, 5, 0, 0, 0},
		{"a section of one passage", 4, 0, 0, 5, 5, 0}, // an introduction merged into it
		{"never past the last part", 4, 2, 3, 6, 6, 3},
	} {
		r := Result{ChunkIndex: tc.index, Part: tc.part, Parts: tc.parts, PartEnd: 9}
		r.SetChunkEnd(tc.end)
		if r.ChunkEnd != tc.wantChunkEnd || r.PartEnd != tc.wantPartEnd {
			t.Errorf("%s: chunk_end %d, part_end %d; want %d, %d", tc.name, r.ChunkEnd, r.PartEnd, tc.wantChunkEnd, tc.wantPartEnd)
		}
	}
}
