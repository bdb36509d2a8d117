package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/mdsearch/mdsearch"
)

// DefaultMaxFileSize is the largest note Walk accepts unless Options says
// otherwise. Notes are prose; a bigger .md file is almost always an export
// or a data dump that would swamp the index.
const DefaultMaxFileSize int64 = 10 << 20

// IgnoreFile holds gitignore-syntax patterns for the folder it sits in.
const IgnoreFile = ".mdsearchignore"

// skipDirs are never walked, hidden or not.
var skipDirs = map[string]bool{".obsidian": true, ".git": true, ".trash": true, "node_modules": true}

// Options configure a Vault. Zero values mean the defaults.
type Options struct {
	MaxFileSize int64 // bytes; 0 means DefaultMaxFileSize, negative means no limit
}

// File is one note found by Walk.
type File struct {
	Path    string // vault-relative, '/'-separated
	Abs     string // where to read it (inside the vault, symlinks resolved)
	Size    int64
	ModTime int64 // Unix nanoseconds
}

// Vault is a folder of notes.
type Vault struct {
	root    string // absolute, symlinks resolved
	maxSize int64
}

// Open checks that dir is a readable folder and returns it as a Vault.
func Open(dir string, opts Options) (*Vault, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "open vault", dir, "", "%v", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, mdsearch.Errorf(mdsearch.KindNotFound, "open vault", dir, "", "no such folder")
		}
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "open vault", dir, "", "%v", err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "open vault", dir, "", "%v", err)
	}
	if !fi.IsDir() {
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "open vault", dir, "pass a folder of notes", "not a folder")
	}
	max := opts.MaxFileSize
	if max == 0 {
		max = DefaultMaxFileSize
	}
	return &Vault{root: real, maxSize: max}, nil
}

// Root is the vault's absolute path with symlinks resolved.
func (v *Vault) Root() string { return v.root }

// MaxFileSize is the size limit in bytes; negative means none.
func (v *Vault) MaxFileSize() int64 { return v.maxSize }

// IsMarkdown reports whether a file name has a markdown extension.
func IsMarkdown(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".md" || ext == ".markdown"
}

// MDXNotice says that a walk left out the MDX pages (Docusaurus, Astro)
// mdx, whose imports and JSX are no markdown; "" for none.
func MDXNotice(mdx []string) string {
	switch len(mdx) {
	case 0:
		return ""
	case 1:
		return "1 MDX page (.mdx) is not indexed (" + mdx[0] + "): mdsearch reads .md and .markdown notes"
	}
	return fmt.Sprintf("%d MDX pages (.mdx) are not indexed (%s, …): mdsearch reads .md and .markdown notes", len(mdx), mdx[0])
}

// isMDX reports whether a file name has MDX's extension.
func isMDX(name string) bool { return strings.EqualFold(filepath.Ext(name), ".mdx") }

// skipDir reports whether a folder name is never walked.
func skipDir(name string) bool {
	return skipDirs[name] || Hidden(name)
}

// Hidden reports whether a file or folder name starts with a dot: Obsidian
// hides it, and the walk leaves it out silently (an editor's lock file,
// such as Emacs's dangling ".#note.md" symlink, among them).
func Hidden(name string) bool { return strings.HasPrefix(name, ".") }

// Resolve returns the on-disk path of rel inside v, or a KindForbidden
// error when rel is absolute, contains "..", or leads out of the vault
// through a symlink.
func (v *Vault) Resolve(rel string) (string, error) { return Resolve(v.root, rel) }

// Resolve returns the on-disk path of the vault-relative path rel inside
// root. It refuses (KindForbidden) absolute paths, any ".." segment and
// symlinks that escape root; a missing file is KindNotFound.
func Resolve(root, rel string) (string, error) {
	if err := checkRel(rel); err != nil {
		return "", err
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", mdsearch.Errorf(mdsearch.KindNotFound, "resolve", root, "", "vault folder is gone: %v", err)
	}
	joined := filepath.Join(realRoot, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(joined)
	if err != nil {
		switch {
		case absent(err):
			return "", mdsearch.Errorf(mdsearch.KindNotFound, "resolve", rel, "", "no such note")
		case isLoop(err):
			return "", mdsearch.Errorf(mdsearch.KindForbidden, "resolve", rel, "", "%w", errLoop)
		}
		return "", mdsearch.Errorf(mdsearch.KindForbidden, "resolve", rel, "", "%w", pathless(err))
	}
	if !within(realRoot, real) {
		return "", mdsearch.Errorf(mdsearch.KindForbidden, "resolve", rel,
			"a symlink on its way leads out of the vault, and mdsearch reads nothing outside it: index the folder it leads to as a collection of its own", "%w", errOutside)
	}
	return real, nil
}

// absent reports whether err says a path is not there: no such file, or
// a folder on its way that is a file now (ENOTDIR: "notes/n.md" once
// "notes" is a note of its own, after a git checkout), which is as gone.
func absent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// pathless is err without the path an *fs.PathError repeats: the
// message names the path already.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// maxPath bounds a vault-relative path: no file system takes a longer one
// (Linux's PATH_MAX), and a longer one costs work per folder on the way.
const maxPath = 4096

// checkRel refuses paths that are not plainly vault-relative.
func checkRel(rel string) error {
	switch {
	case rel == "":
		return mdsearch.Errorf(mdsearch.KindInvalid, "resolve", rel, "", "empty path")
	case len(rel) > maxPath:
		return mdsearch.Errorf(mdsearch.KindInvalid, "resolve", rel, "paths are relative to the vault; search shows them",
			"a path of %d bytes, over the %d a file system takes", len(rel), maxPath)
	case strings.ContainsRune(rel, 0):
		return mdsearch.Errorf(mdsearch.KindForbidden, "resolve", rel, "", "path contains a NUL byte")
	case strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, `\`) || filepath.IsAbs(rel) || filepath.VolumeName(rel) != "":
		return mdsearch.Errorf(mdsearch.KindForbidden, "resolve", rel, "give a path relative to the vault", "absolute paths are refused")
	}
	for _, seg := range strings.FieldsFunc(rel, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return mdsearch.Errorf(mdsearch.KindForbidden, "resolve", rel, dotDotHint(rel), `".." is refused`)
		}
	}
	return nil
}

// dotDotHint names the path without its ".." where it stays inside the
// vault ("sub/../a.md" is a.md), else says paths are the vault's.
func dotDotHint(rel string) string {
	clean := path.Clean(strings.ReplaceAll(rel, `\`, "/"))
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "give a path inside the vault, relative to it; search shows them"
	}
	return "name it without \"..\": " + clean
}

// within reports whether path is root or below it (both cleaned, absolute).
func within(root, path string) bool {
	if path == root {
		return true
	}
	r, err := filepath.Rel(root, path)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r)
}

// Included reports, as an error, why Walk would not list rel: a folder that
// is never walked, a hidden name, a .mdsearchignore rule, or a non-markdown
// name. It is KindForbidden, so readers cannot reach notes the index was
// told to skip. An ignore file on the way that cannot be read is its own
// error (KindInvalid): nothing says whether rel is excluded.
func (v *Vault) Included(rel string) error {
	if err := checkRel(rel); err != nil {
		return err
	}
	parts := strings.Split(filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel))), "/")
	if !IsMarkdown(parts[len(parts)-1]) {
		return mdsearch.Errorf(mdsearch.KindForbidden, "read", rel, "", "not a markdown note (.md or .markdown)")
	}
	why, err := v.unreachable(parts, false)
	if err != nil {
		return err
	}
	if why != "" {
		return mdsearch.Errorf(mdsearch.KindForbidden, "read", rel, "", "%s", why)
	}
	return nil
}

// unreachable says why the walk would not reach the vault-relative path
// parts: a folder on the way that is never walked or is ignored, or the
// path itself ignored (as a folder, with isDir); "" when it would. The
// error is an ignore file on the way that cannot be read.
func (v *Vault) unreachable(parts []string, isDir bool) (string, error) {
	var ign ignorer
	var err error
	folder := v.root
	last := len(parts) - 1
	for i, p := range parts[:last] {
		if ign, err = ign.load(folder, parts[:i]); err != nil {
			return "", err
		}
		if skipDir(p) {
			return fmt.Sprintf("folder %q is not indexed (hidden, or never walked)", strings.Join(parts[:i+1], "/")), nil
		}
		if ign.match(parts[:i+1], true) {
			return fmt.Sprintf("folder %q is excluded by %s", strings.Join(parts[:i+1], "/"), IgnoreFile), nil
		}
		folder = filepath.Join(folder, p)
	}
	if ign, err = ign.load(folder, parts[:last]); err != nil {
		return "", err
	}
	switch {
	case isDir && skipDir(parts[last]):
		return fmt.Sprintf("folder %q is not indexed", strings.Join(parts, "/")), nil
	case !isDir && Hidden(parts[last]):
		return "a hidden file (its name starts with a dot) is not indexed", nil
	case ign.match(parts, isDir):
		return "excluded by " + IgnoreFile, nil
	}
	return "", nil
}

// Linked says why Walk would not list rel under its own path because a
// symlink leads to it, or "" when none does: rel's real place (symlinks
// resolved, real) is elsewhere in the vault, and Walk lists a note there
// by its real path (a duplicate) or not at all (hidden, ignored or not
// markdown). Indexing one named path must skip what Walk skips.
func (v *Vault) Linked(rel, real string) string {
	r, err := filepath.Rel(v.root, real)
	if err != nil || filepath.ToSlash(r) == rel {
		return ""
	}
	if why := v.linkTarget(real, false); why != "" {
		return why
	}
	return "symlink to a note indexed as " + filepath.ToSlash(r) + " (a duplicate)"
}

// Ignored reports whether rel, a plain vault-relative path, is one Walk
// leaves out silently: in a folder never walked or ignored, hidden,
// excluded by an ignore file, or not markdown. The error is an ignore file
// on the way that cannot be read, as Walk's is: then nothing says whether
// rel is ignored.
func (v *Vault) Ignored(rel string) (bool, error) {
	if checkRel(rel) != nil {
		return false, nil
	}
	err := v.Included(rel)
	if mdsearch.KindOf(err) == mdsearch.KindInvalid {
		return false, err
	}
	return err != nil, nil
}

// linkTarget says why a symlink inside the vault may not be followed to
// real, its target with symlinks resolved, or "" when it may: a target the
// walk would not reach by its own path (in a hidden or ignored folder, or
// ignored itself) would otherwise be indexed and read through the link.
func (v *Vault) linkTarget(real string, isDir bool) string {
	r, err := filepath.Rel(v.root, real)
	if err != nil || r == "." {
		return ""
	}
	r = filepath.ToSlash(r)
	if !isDir && !IsMarkdown(path.Base(r)) {
		return "symlink to " + r + ", which is not indexed: not a markdown note (.md or .markdown)"
	}
	why, err := v.unreachable(strings.Split(r, "/"), isDir)
	if err != nil {
		return "symlink to " + r + ", which may not be indexed: " + err.Error()
	}
	if why != "" {
		return "symlink to " + r + ", which is not indexed: " + why
	}
	return ""
}

// OverLimit says a size is over a limit, in bytes where the two would
// read alike rounded ("10.0 MB, over the 10.0 MB size limit"): the words
// of every skip for size, a walk's, a read's or a single note's.
func OverLimit(size, limit int64) string {
	a, b := humanSize(size), humanSize(limit)
	if a == b {
		a, b = fmt.Sprintf("%d bytes", size), fmt.Sprintf("%d-byte", limit)
	}
	return "file is " + a + ", over the " + b + " size limit"
}

// LimitFor is a --max-file-size that takes a file of size bytes, in
// whole megabytes above it ("15MB" for 14.3 MB): what every hint for a
// file over the limit names.
func LimitFor(size int64) string { return fmt.Sprintf("%dMB", size>>20+1) }

// IsOverLimit reports whether a skip reason says the file was over the
// size limit (OverLimit, or one that grew over it while it was read):
// the one reason a larger --max-file-size, not the file, is the fix.
func IsOverLimit(reason string) bool {
	return strings.HasSuffix(reason, " size limit") || strings.HasSuffix(reason, " size limit while it was read")
}

// humanSize formats a byte count for skip reasons.

func humanSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
