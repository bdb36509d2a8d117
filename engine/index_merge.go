package engine

import "strconv"

// mergeShare: the keyword index is merged once the passages written since
// it was last merged reach a mergeShare-th of the index. Merging rewrites
// all of it (5 s at a million windows), which is worth its time after a
// first index, a --full run or a large change, and after many small runs
// (a watcher's saved notes) once they add up, not after each of them.
const mergeShare = 10

// metaUnmerged counts the passages written since the last merge, across
// runs.
const metaUnmerged = "keyword_unmerged"

// mergeKeywords merges the keyword index's segments once enough was
// written since the last merge, so that keyword lookups seek in one
// segment rather than one a write.
func (r *run) mergeKeywords() error {
	if r.stats.Chunks == 0 {
		return nil
	}
	st := r.e.st
	was, err := st.Meta(r.ctx, metaUnmerged)
	if err != nil {
		return err
	}
	n, _ := strconv.Atoi(was) // unset or unreadable: count from here
	n += r.stats.Chunks
	total, err := st.PassageCount(r.ctx)
	if err != nil {
		return err
	}
	if n*mergeShare < total {
		return st.SetMeta(r.ctx, metaUnmerged, strconv.Itoa(n))
	}
	segs, err := st.KeywordSegments(r.ctx)
	if err != nil {
		return err
	}
	if segs > 1 {
		if err := st.OptimizeKeywords(r.ctx); err != nil {
			return err
		}
		r.dirty = true // the old segments' pages are free
	}
	return st.SetMeta(r.ctx, metaUnmerged, "0")
}
