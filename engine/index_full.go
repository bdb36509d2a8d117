package engine

import "github.com/mdsearch/mdsearch/store"

// withFull adds, in a --full run, every text of the collection to pend.
// Vectors are keyed by the hash of their text, so the new ones overwrite
// the old in place: searches during the run, and after an interrupted run,
// still find a vector for every chunk. Vectors no chunk uses any more are
// removed when the run finishes (finish, a global run).
func (r *run) withFull(pend []store.Pending) ([]store.Pending, error) {
	if !r.full {
		return pend, nil
	}
	texts, err := r.e.st.CollectionTexts(r.ctx, r.coll.ID)
	if err != nil {
		return nil, err
	}
	r.stats.Reused = 0 // every text is embedded afresh, though its old vector stayed meanwhile
	seen := make(map[string]bool, len(pend))
	for _, p := range pend {
		seen[string(p.Key)] = true
	}
	n := len(pend)
	for _, p := range texts {
		if !seen[string(p.Key)] {
			pend = append(pend, p)
		}
	}
	r.judge(pend[n:]) // the scan judged those it wrote
	return pend, nil
}
