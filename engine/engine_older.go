package engine

import (
	"context"
	"fmt"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// OlderStatus describes the index at path when an older mdsearch made it,
// which Open refuses when ReadOnly (and rebuilds otherwise): its schema
// version, its size and its collections with the notes each held, and a
// notice that the next index run rebuilds it. Nothing is written. It is
// nil for an index of this version.
func OlderStatus(ctx context.Context, path string) (*mdsearch.Status, error) {
	o, err := store.ReadOlder(ctx, path)
	if err != nil || o == nil {
		return nil, err
	}
	s := &mdsearch.Status{IndexPath: o.Path, SchemaVersion: o.Version, Collections: []mdsearch.CollectionStatus{},
		SizeBytes: o.SizeBytes, Notice: olderNotice(o.Version)}
	for _, c := range o.Collections {
		// Outdated: its notes are cut again (chunks, windows and vectors
		// are not counted: the rebuild replaces them all).
		s.Collections = append(s.Collections, mdsearch.CollectionStatus{Name: c.Name, Root: c.Root, Files: c.Files, Outdated: true,
			Warnings: []mdsearch.FileIssue{}, Skipped: []mdsearch.FileIssue{}})
		s.Files += c.Files
	}
	return s, nil
}

// olderNotice says what becomes of an index of an older schema version.
func olderNotice(version int) string {
	return fmt.Sprintf("the index was made by an older version of mdsearch (schema %d; this version reads schema %d) and cannot be searched: "+
		"the next `mdsearch index` rebuilds it and indexes its collections again from their folders, as a serve, mcp or watch "+
		"of it does when it starts; status changes nothing", version, store.SchemaVersion)
}
