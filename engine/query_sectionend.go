package engine

import (
	"context"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// sectionEnds sets each result's SectionEnd: where the text after it that
// belongs to the sections it shows ends. A passage that merged a short
// section with its first subsections ("Unresolved questions + Readability
// + Conflicts") reads as the whole section; the subsection after it, a
// passage of its own, is then missed by whoever takes the result for all
// of it, unless the result says the section goes on.
func sectionEnds(ctx context.Context, rd *store.Reader, res []mdsearch.Result) error {
	var runs []store.Shown
	var at []int
	for i, r := range res {
		last := max(r.ChunkIndex, r.ChunkEnd)
		if last+1 < r.TotalChunks { // else nothing follows it
			runs = append(runs, store.Shown{Collection: r.Collection, Path: r.Path, Title: r.Title, First: r.ChunkIndex, Last: last})
			at = append(at, i)
		}
	}
	ends, err := rd.SectionEnds(ctx, runs)
	if err != nil {
		return err
	}
	for j, i := range at {
		if ends[j] > res[i].EndLine {
			res[i].SectionEnd = ends[j]
		}
	}
	return nil
}
