package vault

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/fsfault"
)

// Walk is List's notes and skips.
func (v *Vault) Walk(ctx context.Context) ([]File, []mdsearch.FileIssue, error) {
	l, err := v.List(ctx)
	if err != nil {
		return nil, nil, err
	}
	return l.Files, l.Skipped, nil
}

// Listing is what List found.
type Listing struct {
	Files   []File               // the notes, sorted by path
	Skipped []mdsearch.FileIssue // files left out, with the reason for each
	// Unseen names the skips the walk could not look into: a folder it
	// could not list (its path ends in "/") or a file it could not stat.
	// Their notes may be there unchanged, not deleted (see Holds).
	Unseen []string
	// Attachments are the vault-relative paths of the images notes may
	// embed (IsAttachment), sorted: what OpenAttachment opens.
	Attachments []string
	// MDX are the MDX pages (.mdx) the walk left out, sorted: a docs site
	// holding both kinds should not lose half its pages without a word
	// (MDXNotice), yet a skip for each would fill every run's output.
	MDX []string
}

// Holds reports whether the vault-relative path rel is what unseen, an
// entry of Listing.Unseen, names or lies in the folder it names.
func Holds(unseen, rel string) bool {
	if strings.HasSuffix(unseen, "/") {
		return strings.HasPrefix(rel, unseen)
	}
	return rel == unseen
}

// List lists the vault's notes and the files it skipped with the reason
// for each. Ignored and non-markdown files are left out silently; only
// files a person might expect to be indexed are reported. The error is
// non-nil when the walk was cancelled, or when the vault's own folder
// cannot be listed: that is no empty vault.
func (v *Vault) List(ctx context.Context) (*Listing, error) {
	w := &walker{v: v, visited: map[string]string{}}
	w.visited[v.root] = "."
	if err := w.dir(ctx, dirJob{abs: v.root}); err != nil {
		return nil, err
	}
	// Symlinked folders come after the real tree, so a folder reachable both
	// ways is listed under its real path and each real folder is walked once.
	for len(w.deferred) > 0 {
		job := w.deferred[0]
		w.deferred = w.deferred[1:]
		rel := strings.Join(job.rel, "/")
		if prev, ok := w.visited[job.abs]; ok {
			w.skip(rel, "symlink to a folder already walked as "+prev+" (a loop or a duplicate)")
			continue
		}
		w.visited[job.abs] = rel
		if err := w.dir(ctx, job); err != nil {
			return nil, err
		}
	}
	w.linkedFiles()
	sort.Slice(w.files, func(i, j int) bool { return w.files[i].Path < w.files[j].Path })
	sort.SliceStable(w.skips, func(i, j int) bool { return w.skips[i].Path < w.skips[j].Path })
	sort.Strings(w.unseen)
	sort.Strings(w.attachments)
	sort.Strings(w.mdx)
	return &Listing{Files: w.files, Skipped: w.skips, Unseen: w.unseen, Attachments: w.attachments, MDX: w.mdx}, nil
}

type dirJob struct {
	abs string   // real path of the folder
	rel []string // vault-relative path parts ("" for the root)
	ign ignorer  // patterns from the folders above
}

type walker struct {
	v        *Vault
	visited  map[string]string // real folder path -> vault-relative path it was walked as
	deferred []dirJob
	linked   []linkedFile // symlinks to notes, taken after the real tree
	files    []File
	skips    []mdsearch.FileIssue
	unseen   []string
	// attachments are found on the way: they are not indexed, but a
	// rendered note's embeds resolve to them.
	attachments []string
	mdx         []string // MDX pages left out (Listing.MDX)
}

func (w *walker) skip(rel, reason string) {
	w.skips = append(w.skips, mdsearch.FileIssue{Path: rel, Reason: reason})
}

func (w *walker) dir(ctx context.Context, job dirJob) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	entries, err := fsfault.ReadDir(job.abs)
	if err != nil {
		return w.unlisted(job, err)
	}
	ign, err := job.ign.load(job.abs, job.rel)
	if u := (*unreachable)(nil); errors.As(err, &u) {
		return w.unlisted(job, u.cause) // listed, but none of its files reached
	}
	if err != nil {
		return err // its notes cannot be told from those it excludes
	}
	for _, e := range entries {
		name := e.Name()
		if Hidden(name) { // the ignore file too: ign.load reads it
			continue
		}
		rel := append(append(make([]string, 0, len(job.rel)+1), job.rel...), name)
		abs := filepath.Join(job.abs, name)
		switch t := e.Type(); {
		case t&os.ModeSymlink != 0:
			w.symlink(abs, rel, ign)
		case e.IsDir():
			if skipDir(name) || ign.match(rel, true) {
				continue
			}
			relS := strings.Join(rel, "/")
			if prev, ok := w.visited[abs]; ok {
				w.skip(relS, "folder already walked as "+prev)
				continue
			}
			w.visited[abs] = relS
			if err := w.dir(ctx, dirJob{abs: abs, rel: rel, ign: ign}); err != nil {
				return err
			}
		default:
			if IsAttachment(name) && e.Type().IsRegular() && !ign.match(rel, false) {
				w.attachments = append(w.attachments, strings.Join(rel, "/"))
				continue
			}
			if !IsMarkdown(name) || ign.match(rel, false) {
				if isMDX(name) && e.Type().IsRegular() && !ign.match(rel, false) {
					w.mdx = append(w.mdx, strings.Join(rel, "/"))
				}
				continue
			}
			fi, err := e.Info()
			if err != nil {
				w.unseenSkip(strings.Join(rel, "/"), "cannot stat: ", err)
				continue
			}
			w.file(abs, rel, fi)
		}
	}
	return nil
}

// unlisted skips a folder that cannot be listed; for the vault's own
// folder it is the walk's error, since listing nothing there is no empty
// vault.
func (w *walker) unlisted(job dirJob, err error) error {
	if len(job.rel) == 0 {
		return mdsearch.Errorf(mdsearch.KindInvalid, "list vault", w.v.root,
			"make it readable; until then, index runs keep its notes as they were indexed", "cannot read folder: %s", errText(err))
	}
	w.unseenSkip(strings.Join(job.rel, "/")+"/", "cannot read folder: ", err)
	return nil
}

// unseenSkip skips what the walk could not look into; unless it is gone,
// it is unseen too, not known to be deleted.
func (w *walker) unseenSkip(rel, what string, err error) {
	w.skip(rel, what+errText(err))
	if !absent(err) {
		w.unseen = append(w.unseen, rel)
	}
}

// Why a walk skips a symlink, and Resolve refuses a path through one: a
// watcher's refresh and an index run name one skip alike.
const (
	outsideVault = "symlink points outside the vault"
	symlinkLoop  = "symlink loop"
)

// Resolve's refusals of a path through a symlink, which SkipReason words
// as a walk does.
var (
	errOutside = errors.New("path leads out of the vault")
	errLoop    = errors.New(symlinkLoop)
)

// SkipReason is why a walk would skip the file Resolve refused with err,
// in the walk's words, without the operation and path err names.
func SkipReason(err error) string {
	switch {
	case errors.Is(err, errOutside):
		return outsideVault
	case errors.Is(err, errLoop):
		return symlinkLoop
	}
	var me *mdsearch.Error
	if errors.As(err, &me) {
		return me.Err.Error()
	}
	return err.Error()
}

// isLoop reports whether EvalSymlinks failed on a loop of links.
func isLoop(err error) bool { return strings.Contains(err.Error(), "too many links") }

// symlink follows a link only when its target stays inside the vault.
func (w *walker) symlink(abs string, rel []string, ign ignorer) {
	name, relS := rel[len(rel)-1], strings.Join(rel, "/")
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		switch {
		case isLoop(err):
			w.skip(relS, symlinkLoop)
		case IsMarkdown(name):
			w.skip(relS, "broken symlink: "+errText(err))
		}
		return
	}
	fi, err := os.Stat(target)
	if err != nil {
		if IsMarkdown(name) {
			w.skip(relS, "cannot stat symlink target: "+errText(err))
		}
		return
	}
	if fi.IsDir() {
		if skipDir(name) || ign.match(rel, true) {
			return
		}
		if !within(w.v.root, target) {
			w.skip(relS, outsideVault)
			return
		}
		if why := w.v.linkTarget(target, true); why != "" {
			w.skip(relS, why)
			return
		}
		w.deferred = append(w.deferred, dirJob{abs: target, rel: rel, ign: ign})
		return
	}
	if IsAttachment(name) && fi.Mode().IsRegular() && !ign.match(rel, false) && within(w.v.root, target) {
		if r, err := filepath.Rel(w.v.root, target); err == nil && w.v.shown(filepath.ToSlash(r)) {
			w.attachments = append(w.attachments, relS)
		}
		return
	}
	if !IsMarkdown(name) || ign.match(rel, false) {
		return
	}
	if !within(w.v.root, target) {
		w.skip(relS, outsideVault)
		return
	}
	if why := w.v.linkTarget(target, false); why != "" {
		w.skip(relS, why)
		return
	}
	w.linked = append(w.linked, linkedFile{target, rel, fi})
}

// linkedFile is a symlink to a note inside the vault.
type linkedFile struct {
	abs string // the note's real path
	rel []string
	fi  os.FileInfo
}

// linkedFiles adds the notes reached through symlinks that the walk did
// not list under their real paths: each note is indexed once, as each
// folder is walked once, so results never show one passage twice.
func (w *walker) linkedFiles() {
	seen := make(map[string]string, len(w.files))
	for _, f := range w.files {
		seen[f.Abs] = f.Path
	}
	sort.Slice(w.linked, func(i, j int) bool {
		return strings.Join(w.linked[i].rel, "/") < strings.Join(w.linked[j].rel, "/")
	})
	for _, l := range w.linked {
		rel := strings.Join(l.rel, "/")
		if prev, ok := seen[l.abs]; ok {
			w.skip(rel, "symlink to a note already indexed as "+prev+" (a duplicate)")
			continue
		}
		seen[l.abs] = rel
		w.file(l.abs, l.rel, l.fi)
	}
}

func (w *walker) file(abs string, rel []string, fi os.FileInfo) {
	relS := strings.Join(rel, "/")
	if !fi.Mode().IsRegular() {
		w.skip(relS, NotRegular(fi.Mode()))
		return
	}
	if max := w.v.maxSize; max >= 0 && fi.Size() > max {
		w.skips = append(w.skips, mdsearch.FileIssue{Path: relS, Reason: OverLimit(fi.Size(), max), Size: fi.Size()})
		return
	}
	w.files = append(w.files, File{Path: relS, Abs: abs, Size: fi.Size(), ModTime: fi.ModTime().UnixNano()})
}

// NotRegular is why a file of mode m is not indexed, as Walk says it.
func NotRegular(m os.FileMode) string { return "not a regular file (" + kind(m) + ")" }

// kind names a non-regular file mode.
func kind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "named pipe"
	case m&os.ModeSocket != 0:
		return "socket"
	case m&os.ModeDevice != 0:
		return "device"
	case m.IsDir():
		return "folder"
	}
	return "special file"
}

// errText is an error without the path os already put in it.
func errText(err error) string { return errCause(err).Error() }

// errCause is err without the path an *os.PathError names (the caller
// names it, shortened where long).
func errCause(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
