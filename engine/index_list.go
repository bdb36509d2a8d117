package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/vault"
)

// list returns the files to consider and the paths known to be gone. For a
// full walk, gone is decided later against the stored documents.
func (r *run) list(paths []string) ([]vault.File, []string, error) {
	if paths == nil {
		l := r.listed
		if l == nil { // a run for named notes that must re-cut every note
			var err error
			if l, err = r.v.List(r.ctx); err != nil {
				return nil, nil, err
			}
		}
		r.stats.Skipped = append(r.stats.Skipped, l.Skipped...)
		r.unseen = l.Unseen
		return l.Files, nil, nil
	}
	var files []vault.File
	var gone []string
	for _, p := range paths {
		ignored, err := r.v.Ignored(p)
		if err != nil { // an ignore file that cannot be read: as Walk, change nothing
			return nil, nil, err
		}
		if ignored { // as Walk: ignored notes are left out silently
			gone = append(gone, p)
			continue
		}
		f, err := r.stat(p)
		if errors.Is(err, fs.ErrPermission) {
			r.unreached(p, err)
			continue
		}
		if err != nil {
			if mdsearch.KindOf(err) != mdsearch.KindNotFound {
				r.stats.Skipped = append(r.stats.Skipped, skipIssue(p, err))
			}
			gone = append(gone, p)
			continue
		}
		files = append(files, f)
	}
	return files, gone, nil
}

// stat checks one note as Walk would.
func (r *run) stat(rel string) (vault.File, error) {
	if err := r.v.Included(rel); err != nil {
		return vault.File{}, err
	}
	abs, err := r.v.Resolve(rel)
	if errors.Is(err, fs.ErrPermission) {
		return vault.File{}, err // unseen, not refused: list keeps the note
	}
	if mdsearch.KindOf(err) == mdsearch.KindForbidden {
		return vault.File{}, errors.New(vault.SkipReason(err)) // as a walk's skip words it
	}
	if err != nil {
		return vault.File{}, err
	}
	if why := r.v.Linked(rel, abs); why != "" {
		return vault.File{}, errors.New(why)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return vault.File{}, mdsearch.Errorf(mdsearch.KindNotFound, "index", rel, "", "%v", err)
	}
	if !fi.Mode().IsRegular() {
		return vault.File{}, errors.New(vault.NotRegular(fi.Mode()))
	}
	if max := r.v.MaxFileSize(); max >= 0 && fi.Size() > max {
		return vault.File{}, &vault.SkipError{Path: rel, Reason: vault.OverLimit(fi.Size(), max), Size: fi.Size()}
	}
	return vault.File{Path: rel, Abs: abs, Size: fi.Size(), ModTime: fi.ModTime().UnixNano()}, nil
}

// unreached skips the named note p that a folder on its way, which cannot
// be searched, kept the run from: it is unseen, not gone.
func (r *run) unreached(p string, err error) {
	r.stats.Skipped = append(r.stats.Skipped, mdsearch.FileIssue{Path: p,
		Reason: "cannot read a folder on its way: " + vault.SkipReason(err)})
	r.unseen = append(r.unseen, p)
}

// keep reports whether the stored note p lies where this run could not
// look (r.unseen): a folder it could not list, a note it could not stat.
// Such a note is kept as indexed, neither read again nor deleted, since
// nothing says it changed or went.
func (r *run) keep(p string) bool {
	for _, u := range r.unseen {
		if vault.Holds(u, p) {
			if r.kept == nil {
				r.kept = map[string]int{}
			}
			r.kept[u]++
			return true
		}
	}
	return false
}

// countKept counts the kept notes as unchanged ones of the run, and says
// in the skip of each place it could not look into that its notes were
// kept.
func (r *run) countKept() {
	for _, n := range r.kept {
		r.stats.Files += n
		r.stats.Unchanged += n
		r.prog.FilesTotal += n
		r.prog.FilesDone += n
	}
	for i, s := range r.stats.Skipped {
		if n := r.kept[s.Path]; n > 0 {
			r.stats.Skipped[i].Reason += keptClause(s.Path, n)
		}
	}
}

// keptClause is what a skip adds when n notes it holds were kept.
func keptClause(unseen string, n int) string {
	switch {
	case !strings.HasSuffix(unseen, "/"):
		return "; the note is kept as it was indexed until it can be read"
	case n == 1:
		return "; the note indexed under it is kept as it was until it can be read"
	}
	return fmt.Sprintf("; the %d notes indexed under it are kept as they were until it can be read", n)
}

// noNotes is the notice of an index run of a folder (root) without notes:
// its collection (name) was made all the same, as the folder may gain
// some, and says how to drop it.
func noNotes(root, name string) string {
	return fmt.Sprintf("no notes (.md or .markdown files) under %s: collection %q holds none yet, "+
		"and `mdsearch drop %s` removes it (the folder stays as it is)", root, name, shellWord(name))
}

// shellWord is s as one word a shell reads as written: itself when it is
// made of letters, digits and "._-" alone, else in single quotes.
func shellWord(s string) string {
	plain := s != ""
	for _, r := range s {
		plain = plain && (r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-", r)))
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// skipIssue is the issue of note p, which stat refused with err: a
// *vault.SkipError says its reason alone, and its size where that was why.
func skipIssue(p string, err error) mdsearch.FileIssue {
	var se *vault.SkipError
	if errors.As(err, &se) {
		return mdsearch.FileIssue{Path: p, Reason: se.Reason, Size: se.Size}
	}
	return mdsearch.FileIssue{Path: p, Reason: err.Error()}
}
