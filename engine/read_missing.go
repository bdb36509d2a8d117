package engine

import (
	"context"
	"path"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/vault"
)

// missingHint is a read's hint for rel, a note not found: the notes it
// may have meant, named in another case or by its file name alone, a few
// letters off, by its file name's start, or by words of it, together or
// with others between.
func (e *Engine) missingHint(ctx context.Context, collName, rel string) string {
	for _, like := range []func() ([]string, error){
		func() ([]string, error) { return e.st.NamedLike(ctx, collName, rel, 5) },
		func() ([]string, error) { return e.st.SpelledLike(ctx, collName, rel, 3) },
		func() ([]string, error) { return e.st.StartingWith(ctx, collName, rel, 3) },
		func() ([]string, error) { return e.st.Within(ctx, collName, rel, 3) },
		func() ([]string, error) { return e.st.WithParts(ctx, collName, rel, 3) },
	} {
		names, err := like()
		if err != nil {
			break
		}
		if len(names) > 0 {
			return "did you mean " + strings.Join(e.asShown(ctx, names), ", ") + "?"
		}
	}
	return "paths are relative to the vault; search shows them"
}

// folderShown is how many of a folder's notes a read that named the
// folder offers.
const folderShown = 3

// folderRead is, when raw (a read's path as given, before ".md" is
// supplied) names a folder of indexed notes rather than a note, the
// error that says so and names some of its notes; nil otherwise. A note
// of the folder's name ("Projects.md" beside "Projects/") is read before
// this is asked.
func (e *Engine) folderRead(ctx context.Context, collName, spec, raw string) error {
	dir := strings.TrimSuffix(strings.TrimPrefix(raw, "./"), "/")
	if dir == "" || strings.HasPrefix(dir, "/") || strings.Contains(dir, "..") || vault.IsMarkdown(path.Base(dir)) {
		return nil
	}
	in, err := e.st.Inside(ctx, collName, path.Clean(dir), folderShown+1)
	if err != nil || len(in) == 0 {
		return nil
	}
	names := e.asShown(ctx, in[:min(folderShown, len(in))])
	if len(in) > folderShown {
		names = append(names, "…")
	}
	return mdsearch.Errorf(mdsearch.KindInvalid, "read", spec, "read one of its notes: "+strings.Join(names, ", "),
		"a folder, not a note")
}
