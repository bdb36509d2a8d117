package vault

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/fsfault"
)

// ignorer holds the .mdsearchignore patterns in force for one folder: its
// own file's and every ancestor's, later (deeper) files winning.
type ignorer struct {
	patterns []gitignore.Pattern
	matcher  gitignore.Matcher
}

// load returns the ignorer for folder dir (vault-relative parts rel),
// adding the patterns of dir's own ignore file if it has one. The receiver
// is not modified, so sibling folders share their parent's patterns. An
// ignore file that is there but cannot be read as patterns is an error
// (see readIgnore).
func (ig ignorer) load(dir string, rel []string) (ignorer, error) {
	data, err := readIgnore(filepath.Join(dir, IgnoreFile))
	if data == nil {
		return ig, err
	}
	ps := parseIgnore(data, rel)
	if len(ps) == 0 {
		return ig, nil
	}
	all := make([]gitignore.Pattern, 0, len(ig.patterns)+len(ps))
	all = append(append(all, ig.patterns...), ps...)
	return ignorer{patterns: all, matcher: gitignore.NewMatcher(all)}, nil
}

// readIgnore reads the ignore file at path: nil and no error when there is
// none. One that is there but cannot be read (no permission, a folder) or
// is not UTF-8 text is an error naming it: taken as no rules, it would let
// the notes it excludes into the index.
func readIgnore(path string) ([]byte, error) {
	// O_NONBLOCK: a named pipe in its place must not hang the walk.
	f, err := fsfault.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if absent(err) {
		return nil, nil
	}
	if err != nil {
		_, serr := fsfault.Lstat(path)
		// The folder cannot be searched, or its path is too long for a
		// file in it to be opened: whether it holds an ignore file is
		// unknown, and so is everything else in it.
		if errors.Is(err, fs.ErrPermission) && errors.Is(serr, fs.ErrPermission) || errors.Is(err, syscall.ENAMETOOLONG) {
			return nil, unsearchable(filepath.Dir(path), err)
		}
		return nil, ignoreError(path, "make it readable, or delete it", "cannot read: %s", errText(err))
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
		return nil, ignoreError(path, "put a text file of patterns in its place", "is a %s", kind(fi.Mode()))
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, ignoreError(path, "make it readable, or delete it", "cannot read: %s", errText(err))
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // a BOM is no part of the first rule
	for i, line := range bytes.Split(data, []byte("\n")) {
		switch {
		case bytes.IndexByte(line, 0) >= 0:
			return nil, ignoreError(path, "save it as UTF-8", "line %d holds a NUL byte: is it UTF-16?", i+1)
		case !utf8.Valid(line):
			return nil, ignoreError(path, "save it as UTF-8", "line %d is not UTF-8: its rules could not match the notes' names", i+1)
		}
	}
	return data, nil
}

// unreachable is readIgnore's error for a folder whose files cannot be
// reached (no search permission, a path too long for a name in it): no
// ignore file is to blame, and the walk skips the folder for cause.
type unreachable struct{ cause error }

func (u *unreachable) Error() string { return "cannot read folder: " + u.cause.Error() }
func (u *unreachable) Unwrap() error { return u.cause }

// unsearchable is the error for folder dir, whose files cannot be reached.
func unsearchable(dir string, err error) error {
	return mdsearch.Errorf(mdsearch.KindInvalid, "read folder", dir,
		"make it readable; until then, index runs keep its notes as they were indexed",
		"%w", &unreachable{errCause(err)})
}

// ignoreError is the error for an ignore file that cannot be used; fix
// says what to do about it.
func ignoreError(path, fix, format string, args ...any) error {
	return mdsearch.Errorf(mdsearch.KindInvalid, "read ignore file", path,
		fix+"; until then this collection's index runs stop before they change anything, so that no note it may exclude is indexed",
		format, args...)
}

// match reports whether the vault-relative path parts are ignored.
func (ig ignorer) match(parts []string, isDir bool) bool {
	return ig.matcher != nil && ig.matcher.Match(parts, isDir)
}

// parseIgnore reads gitignore lines; domain is the folder they apply to.
// Lines are split by hand, not scanned: a scanner stops at a long line,
// and the rules after it would be lost.
func parseIgnore(data []byte, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}
