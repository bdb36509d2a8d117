package engine

// mergeShare is the least share of the index's passages a run must write
// for it to merge the keyword index: merging rewrites all of it, which is
// worth its time after a first index, a --full run or a large change,
// not after each note a watcher saves (5 s at a million windows).
const mergeShare = 10

// mergeKeywords merges the keyword index's segments after a run that
// wrote a large share of its passages, so that keyword lookups seek in
// one segment rather than one a write.
func (r *run) mergeKeywords() error {
	if r.stats.Chunks == 0 {
		return nil
	}
	total, err := r.e.st.PassageCount(r.ctx)
	if err != nil {
		return err
	}
	if r.stats.Chunks*mergeShare < total {
		return nil
	}
	segs, err := r.e.st.KeywordSegments(r.ctx)
	if err != nil || segs <= 1 {
		return err
	}
	r.dirty = true // the old segments' pages are free
	return r.e.st.OptimizeKeywords(r.ctx)
}
