package vault

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/fsfault"
	"github.com/mdsearch/mdsearch/sections"
)

// SkipError says why a listed file could not be indexed after all.
type SkipError struct {
	Path   string
	Reason string
	Size   int64 // set when the file is over the size limit: its size
	Gone   bool  // the file was deleted since the walk listed it
	// Unreadable is set when the file is there but could not be opened or
	// read (no permission, an I/O error): nothing says its content
	// changed, so what an index holds of it may stand until it can be.
	Unreadable bool
	Binary     bool // no text (sections.ErrBinary)
}

func (e *SkipError) Error() string { return e.Path + ": " + e.Reason }

// Read returns the bytes of a note found by Walk. It fails with a
// *SkipError when the file is no longer a regular file, is over the size
// limit, cannot be read, is binary (a NUL byte, or too little text), or nests
// too deep to parse in reasonable time (sections.CheckSource).
func (v *Vault) Read(f File) ([]byte, error) {
	data, _, err := v.ReadStamped(f)
	return data, err
}

// ReadStamped is Read, and f with the size and modification time of the
// bytes read: the file's own when they held from before the read to after
// it (a note saved between the walk and the read is recorded as read, not
// as walked), else the walk's, so that a note saved during the read stays
// behind its file and is read again.
func (v *Vault) ReadStamped(f File) ([]byte, File, error) {
	fh, err := v.openNote(f.Abs)
	if err != nil {
		gone := absent(err)
		return nil, f, &SkipError{Path: f.Path, Reason: "cannot read: " + errText(err), Gone: gone, Unreadable: !gone}
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return nil, f, &SkipError{Path: f.Path, Reason: "cannot stat: " + errText(err), Unreadable: true}
	}
	if !fi.Mode().IsRegular() {
		return nil, f, &SkipError{Path: f.Path, Reason: NotRegular(fi.Mode())}
	}
	if v.maxSize >= 0 && fi.Size() > v.maxSize {
		return nil, f, &SkipError{Path: f.Path, Reason: OverLimit(fi.Size(), v.maxSize), Size: fi.Size()}
	}
	var r io.Reader = fh
	if v.maxSize >= 0 {
		r = io.LimitReader(fh, v.maxSize+1) // never more than the limit, however it grows
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, f, &SkipError{Path: f.Path, Reason: "cannot read: " + errText(err), Unreadable: true}
	}
	if v.maxSize >= 0 && int64(len(data)) > v.maxSize {
		return nil, f, &SkipError{Path: f.Path, Reason: "file grew over the " + humanSize(v.maxSize) + " size limit while it was read"}
	}
	if err := sections.CheckSource(data); err != nil {
		return nil, f, &SkipError{Path: f.Path, Reason: err.Error(), Binary: errors.Is(err, sections.ErrBinary)}
	}
	if after, err := fh.Stat(); err == nil && after.Size() == fi.Size() && after.ModTime().Equal(fi.ModTime()) &&
		int64(len(data)) == fi.Size() {
		f.Size, f.ModTime = fi.Size(), fi.ModTime().UnixNano()
	}
	return data, f, nil
}

// openNote opens the note at abs, read-only, through an os.Root of the
// vault: a folder on its path swapped for a symlink out of the vault after
// the walk or Resolve checked it fails to open rather than lead out.
// O_NONBLOCK: a note replaced by a named pipe must not hang the indexer.
func (v *Vault) openNote(abs string) (*os.File, error) {
	const flag = os.O_RDONLY | syscall.O_NONBLOCK
	rel, err := filepath.Rel(v.root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return nil, &fs.PathError{Op: "open", Path: abs, Err: errors.New("outside the vault")}
	}
	root, err := os.OpenRoot(v.root)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return fsfault.OpenIn(root, rel, abs, flag)
}

// skipHint is what a reader can do about a note Read refused, or "".
func (v *Vault) skipHint(se *SkipError) string {
	switch {
	case se.Size > 0:
		return fmt.Sprintf("a larger limit indexes and reads it: `mdsearch index %s --max-file-size %s`",
			v.Root(), LimitFor(se.Size))
	case se.Unreadable:
		return "make it readable by the user mdsearch runs as; index runs skip it until then"
	case se.Binary:
		return "it is no text note, and index runs skip it too: open it with the program that made it"
	}
	return ""
}

// ReadNote reads the note at the vault-relative path rel, refusing what
// Resolve refuses and what Walk would not list (see Included). Failures are
// *mdsearch.Error values.
func (v *Vault) ReadNote(rel string) ([]byte, error) {
	if err := v.Included(rel); err != nil {
		return nil, err
	}
	abs, err := v.Resolve(rel)
	if err != nil {
		return nil, err
	}
	if why := v.linkTarget(abs, false); why != "" {
		return nil, mdsearch.Errorf(mdsearch.KindForbidden, "read", rel, "", "%s", why)
	}
	data, err := v.Read(File{Path: rel, Abs: abs})
	if err != nil {
		if se, ok := err.(*SkipError); ok {
			return nil, mdsearch.Errorf(mdsearch.KindInvalid, "read", rel, v.skipHint(se), "%s", se.Reason)
		}
		return nil, err
	}
	return data, nil
}
