package engine

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/vault"
)

// openLinked is openNote for a path as an agent copies it from a link in a
// note or a page: when the path itself names no note, the note a site link
// points to is tried ("/guide/intro", "intro.html", "guide/": the page built
// from guide/intro.md or guide/index.md), with a heading fragment
// ("intro#setup", Obsidian's "Intro#Setup") split off and returned for the
// caller to read as the section. Every form goes through openNote's checks;
// when none names a note, the error is the path's own.
func (e *Engine) openLinked(ctx context.Context, spec string) (*note, string, error) {
	// Spaces around a path are most often a slip, so the trimmed path comes
	// first; a name that does start with a space is tried last, as given.
	trimmed := unquote(strings.TrimSpace(spec))
	n, err := e.openNote(ctx, trimmed)
	if err == nil {
		return n, "", nil
	}
	switch mdsearch.KindOf(err) {
	case mdsearch.KindNotFound, mdsearch.KindForbidden, mdsearch.KindInvalid:
	default:
		return nil, "", err
	}
	if target := wikiTarget(trimmed); target != trimmed && target != "" {
		return e.openLinked(ctx, target)
	}
	forms := linkForms(trimmed)
	if spec != trimmed && strings.TrimSpace(spec) != "" {
		forms = append(forms, linkForm{spec, ""})
	}
	for _, f := range forms {
		if n, ferr := e.openNote(ctx, f.path); ferr == nil {
			return n, f.fragment, nil
		}
	}
	name, _, _ := strings.Cut(trimmed, "#")
	err = withoutFragment(ctx, e, trimmed, err)
	switch mdsearch.KindOf(err) {
	case mdsearch.KindNotFound, mdsearch.KindInvalid:
	case mdsearch.KindForbidden:
		if vault.IsMarkdown(name) {
			return nil, "", err // refused (outside the vault, ignored): no other name is tried
		}
		// "2024.01.05" is refused as not markdown, but may be a note's name.
	default:
		return nil, "", err
	}
	if n := e.openShown(ctx, trimmed); n != nil {
		return n, "", nil
	}
	// A wikilink names a note by its file name, wherever it sits
	// ("[[Sidebar#Pin tabs]]" for "User interface/Sidebar.md").
	var several []string
	for _, f := range append([]linkForm{{trimmed, ""}}, forms...) {
		like := e.namedOnce(ctx, f.path)
		if len(like) == 1 {
			if n, ferr := e.openNote(ctx, like[0]); ferr == nil {
				return n, f.fragment, nil
			}
		}
		if len(like) > 1 && several == nil {
			several = like
			if f.fragment != "" {
				break
			}
		}
	}
	if several != nil && mdsearch.KindOf(err) == mdsearch.KindNotFound {
		return nil, "", e.severalNamed(ctx, trimmed, several)
	}
	if several == nil {
		if n, frag, aerr := e.openAliased(ctx, trimmed, forms); n != nil || aerr != nil {
			return n, frag, aerr
		}
	}
	if name != trimmed {
		err = suggestWithout(ctx, e, name, err)
	}
	return nil, "", err
}

// suggestWithout is err, a link's note not found, with the suggestion
// of its name alone when the link has a fragment ("Embed file#Setup"):
// the notes near the whole text are none.
func suggestWithout(ctx context.Context, e *Engine, name string, err error) error {
	var me *mdsearch.Error
	if !errors.As(err, &me) || me.Kind != mdsearch.KindNotFound || strings.HasPrefix(me.Hint, "did you mean") || name == "" {
		return err
	}
	_, nerr := e.openNote(ctx, name)
	var ne *mdsearch.Error
	if errors.As(nerr, &ne) && strings.HasPrefix(ne.Hint, "did you mean") {
		me.Hint = ne.Hint
	}
	return err
}

// severalNamed is the error for a name that several notes answer to
// (COLLECTION:PATH each): found, more than once, the name is the caller's
// to fix, as a section's name several sections share is.
func (e *Engine) severalNamed(ctx context.Context, name string, several []string) error {
	several = e.asShown(ctx, several)
	if len(several) > namedMost {
		several = append(several[:namedMost], "and more")
	}
	return mdsearch.Errorf(mdsearch.KindInvalid, "read", name, "name one by its path, as listed",
		"%w: %s", errSeveralNotes, strings.Join(several, ", "))
}

// errSeveralNotes is what severalNamed's error wraps, for a caller to tell.
var errSeveralNotes = errors.New("several notes have this name")

// openAliased opens the one indexed note that has name, or a form of it
// (linkForms, with its fragment), as an alias in its frontmatter, as
// Obsidian finds a note by one; an alias several notes have is an error
// that lists them; nil and no error when no note has it.
func (e *Engine) openAliased(ctx context.Context, name string, forms []linkForm) (*note, string, error) {
	for _, f := range append([]linkForm{{name, ""}}, forms...) {
		coll, alias := e.inCollection(ctx, f.path)
		like, err := e.st.Aliased(ctx, coll, strings.TrimSpace(alias), namedMost+1) // +1: to know there are more
		switch {
		case err != nil:
			return nil, "", err
		case len(like) == 1:
			n, err := e.openNote(ctx, like[0])
			return n, f.fragment, err
		case len(like) > 1:
			return nil, "", e.severalNamed(ctx, name, like)
		}
	}
	return nil, "", nil
}

// wikiTarget is a link's target as a wikilink copied from a note writes
// it, without what is not the name: "[[Note#Part|shown]]", "![[Note]]"
// (an embed) and "Note\|shown" (a link in a table cell) are Note#Part,
// Note and Note.
func wikiTarget(s string) string {
	if link := strings.TrimPrefix(s, "!"); strings.HasPrefix(link, "[[") && strings.HasSuffix(link, "]]") {
		s = link[2 : len(link)-2]
	} else if !strings.Contains(s, "|") {
		return s
	}
	target, _, _ := strings.Cut(strings.ReplaceAll(s, `\|`, "|"), "|")
	return strings.TrimSpace(target)
}

// asShown is names (COLLECTION:PATH) as results show them: the path
// alone in an index of one collection.
func (e *Engine) asShown(ctx context.Context, names []string) []string {
	if colls, err := e.st.Collections(ctx); err != nil || len(colls) != 1 {
		return names
	}
	out := make([]string, len(names))
	for i, n := range names {
		_, out[i], _ = strings.Cut(n, ":")
	}
	return out
}

// namedMost is how many notes of one name a read names.
const namedMost = 5

// withoutFragment is the error for a link's target with its fragment
// cut off, when err refused the whole target for its extension alone
// ("Other Note.md#setup" is not a markdown file name; "Other Note.md" is):
// the name's own answer decides what else is tried, and is the one shown.
func withoutFragment(ctx context.Context, e *Engine, target string, err error) error {
	i := strings.LastIndexByte(target, '#')
	if i < 0 || mdsearch.KindOf(err) != mdsearch.KindForbidden || vault.IsMarkdown(target) || !vault.IsMarkdown(target[:i]) {
		return err
	}
	if _, nerr := e.openNote(ctx, target[:i]); nerr != nil {
		return nerr
	}
	return err
}

// openShown opens the one note whose file name is not UTF-8 and which a
// result showed as spec (each bad byte as U+FFFD), or returns nil.
func (e *Engine) openShown(ctx context.Context, spec string) *note {
	if !strings.ContainsRune(spec, utf8.RuneError) {
		return nil
	}
	if colls, err := e.st.Collections(ctx); err == nil {
		if c, r, full := underRoot(colls, spec); full {
			spec = c.Name + ":" + r // a full path, as search --files prints it
		}
	}
	coll, rel := e.inCollection(ctx, spec)
	named, ok := e.shownOnce(ctx, coll, notePath(rel))
	if !ok {
		return nil
	}
	n, err := e.openNote(ctx, named)
	if err != nil {
		return nil
	}
	return n
}

// IndexedPath is the path, as indexed, of the one note of collection
// whose file name is not UTF-8 and which reads as shown once each bad
// byte is U+FFFD, as a result that crossed JSON names it; shown itself
// otherwise.
func (e *Engine) IndexedPath(ctx context.Context, collection, shown string) string {
	named, ok := e.shownOnce(ctx, collection, shown)
	if !ok {
		return shown
	}
	_, p, _ := strings.Cut(named, ":")
	return p
}

// shownOnce is the one indexed note, as COLLECTION:PATH, whose path is
// not UTF-8 and reads as shown (store.ShownAs); false when shown holds
// no U+FFFD, or no note or several read so.
func (e *Engine) shownOnce(ctx context.Context, collection, shown string) (string, bool) {
	if !strings.ContainsRune(shown, utf8.RuneError) {
		return "", false
	}
	paths, err := e.st.ShownAs(ctx, collection, shown)
	if err != nil || len(paths) != 1 {
		return "", false
	}
	return paths[0], true
}

// namedOnce lists up to a few indexed notes, as COLLECTION:PATH, whose
// file name is that of name, a path without folders as a wikilink writes
// it (optionally "COLLECTION:name"), or whose path ends with name, one
// with folders ("deep/Tui" for back/deep/Tui.md), as Obsidian resolves
// both.
func (e *Engine) namedOnce(ctx context.Context, name string) []string {
	coll, name := e.inCollection(ctx, name)
	if name == "" {
		return nil
	}
	if strings.Contains(name, "/") {
		name = strings.TrimPrefix(name, "/")
		if name == "" || strings.HasPrefix(name, "./") || strings.Contains("/"+name+"/", "/../") {
			return nil
		}
		like, err := e.st.EndingIn(ctx, coll, notePath(name), namedMost+1)
		if err != nil {
			return nil
		}
		return like
	}
	// "2024.01.05" is a daily note's name: notePath adds ".md" only to a
	// name without an extension.
	names := []string{notePath(name)}
	if ext := strings.ToLower(path.Ext(name)); ext != ".md" && ext != ".markdown" && ext != "" {
		names = append(names, name+".md")
	}
	for _, n := range names {
		if like, err := e.st.NamedLike(ctx, coll, n, namedMost+1); err == nil && len(like) > 0 { // +1: to know there are more
			return like
		}
	}
	return nil
}

// inCollection splits "COLLECTION:rest", as results name a note of a
// shared path, into the collection and the rest when COLLECTION is one;
// else it is "" and s ("Re: budget" is a name).
func (e *Engine) inCollection(ctx context.Context, s string) (coll, rest string) {
	if i := strings.IndexByte(s, ':'); i > 0 {
		if c, err := e.searchedCollection(ctx, s[:i]); err == nil {
			return c.Name, s[i+1:]
		}
	}
	return "", s
}

// linkForm is a note path a link may stand for, and the link's fragment.
type linkForm struct{ path, fragment string }

// linkForms lists, in order, the note paths a link's target may stand for
// other than the target itself.
func linkForms(target string) []linkForm {
	var out []linkForm
	add := func(p, frag string) {
		if p == "" || p == target || slices.ContainsFunc(out, func(f linkForm) bool { return f.path == p }) {
			return
		}
		out = append(out, linkForm{p, frag})
	}
	// The fragment starts at the last '#' (a name may hold one: "C#.md#x"),
	// or at the first (Obsidian's nested "Note#Heading#Sub").
	splits := [][2]string{{target, ""}}
	if i := strings.LastIndexByte(target, '#'); i >= 0 {
		splits[0] = [2]string{target[:i], target[i+1:]}
		if j := strings.IndexByte(target, '#'); j < i {
			splits = append(splits, [2]string{target[:j], target[j+1:]})
		}
	}
	for _, sp := range splits {
		p, frag := sp[0], sp[1]
		if u, err := url.PathUnescape(frag); err == nil {
			frag = u
		}
		bases := []string{p}
		if u, err := url.PathUnescape(p); err == nil && u != p {
			bases = append(bases, u) // "My%20Note.md", as markdown links write it
		}
		for _, b := range slices.Clone(bases) {
			if trimmed := strings.TrimLeft(b, "/"); trimmed != b && trimmed != "" {
				bases = append(bases, trimmed) // a site-absolute link: from the vault's root
			}
		}
		for _, b := range bases {
			switch ext := strings.ToLower(path.Ext(b)); {
			case strings.HasSuffix(b, "/"):
				add(b+"index.md", frag)
			case ext == ".html" || ext == ".htm":
				add(strings.TrimSuffix(b, path.Ext(b))+".md", frag)
			default:
				add(b, frag)
			}
		}
	}
	// A name typed composed ("é") for one a Mac wrote decomposed ("e" and
	// U+0301), or the other way round.
	for _, f := range append([]linkForm{{target, ""}}, out...) {
		add(norm.NFC.String(f.path), f.fragment)
		add(norm.NFD.String(f.path), f.fragment)
	}
	return out
}

// fragmentSection is the section a link's fragment names: an anchor when
// the note has one by that name, else a heading's text.
func fragmentSection(n *note, frag string) string {
	if frag == "" {
		return ""
	}
	if _, err := n.doc.Find("#" + frag); err == nil {
		return "#" + frag
	}
	if strings.HasPrefix(frag, "^") {
		return frag // a block reference
	}
	return strings.ReplaceAll(frag, "#", "/") // "Heading#Sub": a heading path
}

// readAsNotice names the note read when spec named it otherwise than by
// its path (its file name, wherever it sits, an alias, a page's URL):
// `read "plugins" as vue:guide/reusability/plugins.md`. The text read says
// not which note it is, and a name may find a note of another collection
// than the one meant. "" when spec is the note's path, in any case or
// Unicode form, with or without its collection, ".md" or a link's
// fragment ("C#.md" is a path with "#" in it).
func (e *Engine) readAsNotice(ctx context.Context, spec string, n *note) string {
	raw := unquote(strings.TrimSpace(spec))
	whole := wikiTarget(raw)
	// As typed too: a path may hold what a link or a collection's name
	// would mean ("p|q.md", "notes:x.md" in collection notes).
	named := []string{raw, whole}
	if name, _, ok := strings.Cut(whole, "#"); ok {
		named = append(named, name)
	}
	own := noteName(n.path)
	for _, typed := range named {
		forms := []string{typed}
		if coll, rest := e.inCollection(ctx, typed); coll != "" {
			forms = append(forms, rest)
		}
		for _, f := range forms {
			// A full path inside the collection's folder ends in its path.
			if f = noteName(path.Clean(filepath.ToSlash(f))); strings.EqualFold(f, own) || strings.HasSuffix(strings.ToLower(f), "/"+strings.ToLower(own)) {
				return ""
			}
		}
	}
	name := e.asShown(ctx, []string{n.collection + ":" + n.path})[0]
	return fmt.Sprintf("read %q as %s", strings.TrimSpace(spec), name)
}

// noteName is a note's path as readAsNotice compares it: composed
// (NFC), without its markdown extension in any case.
func noteName(p string) string {
	p = norm.NFC.String(p)
	if ext := strings.ToLower(filepath.Ext(p)); ext == ".md" || ext == ".markdown" {
		p = p[:len(p)-len(ext)]
	}
	return p
}
