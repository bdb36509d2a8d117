package store

import "context"

// CollectionTexts lists the distinct embed texts of one collection's
// windows, whether or not they have a vector: what a full re-index embeds
// again. Their new vectors overwrite the old ones in place (PutVector), so
// searches keep a vector for every window while the run goes on.
func (s *Store) CollectionTexts(ctx context.Context, collectionID int64) ([]Pending, error) {
	return s.pending(ctx, `SELECT w.vkey, `+windowText+`, max(w.token_count)
		FROM windows w JOIN chunks c ON c.id = w.chunk_id JOIN documents d ON d.id = w.doc_id
		WHERE d.collection_id = ? GROUP BY w.vkey`, collectionID)
}
