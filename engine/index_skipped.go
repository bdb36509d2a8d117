package engine

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/mdsearch/mdsearch"
)

// skippedKey is the meta key of the files collection name's index runs
// skipped, for status: a vault indexed from cron, or by a watch, says
// nowhere else that a note is missing from search.
func skippedKey(name string) string { return "skipped/" + name }

// keepSkipped records what a run skipped: a run that walked the vault
// (paths nil) replaces the list, one of some paths (a watch's refresh)
// their entries alone.
func (e *Engine) keepSkipped(ctx context.Context, name string, paths []string, skipped []mdsearch.FileIssue) error {
	list := slices.Clone(skipped)
	if paths != nil {
		old, err := e.skippedOf(ctx, name)
		if err != nil {
			return err
		}
		old = slices.DeleteFunc(old, func(f mdsearch.FileIssue) bool { return slices.Contains(paths, f.Path) })
		list = append(old, list...)
	}
	if len(list) == 0 {
		return e.st.SetMeta(ctx, skippedKey(name), "")
	}
	b, err := json.Marshal(list)
	if err != nil {
		return err
	}
	return e.st.SetMeta(ctx, skippedKey(name), string(b))
}

// skippedOf is what collection name's index runs skipped, by path, as
// they reported it; empty for an index written before it was kept.
func (e *Engine) skippedOf(ctx context.Context, name string) ([]mdsearch.FileIssue, error) {
	s, err := e.st.Meta(ctx, skippedKey(name))
	out := []mdsearch.FileIssue{}
	if err != nil || s == "" {
		return out, err
	}
	if json.Unmarshal([]byte(s), &out) != nil {
		return []mdsearch.FileIssue{}, nil // unreadable: as if none were kept
	}
	return out, nil
}
