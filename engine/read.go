package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/chunks"
	"github.com/mdsearch/mdsearch/internal/wordcount"
	"github.com/mdsearch/mdsearch/sections"
	"github.com/mdsearch/mdsearch/store"
)

// note is a note read from disk for Read and Outline.
type note struct {
	collection string
	path       string
	src        []byte // as shown and read by lines (sections.Document.Shown)
	doc        *sections.Document
}

// long reports whether [start, end), of words words as indexed, is long
// (mdsearch.IsLong) as a read returns it: by the words as indexed, which
// leave comments out as the shown text does and are the words a notice
// names (counted again from the shown text, a note's properties and markup
// made a note of 1,495 words long), and by the size shown, so a drawing's
// hidden data does not make its note or section long.
func (n *note) long(words, start, end int) bool {
	return mdsearch.IsLong(words, n.shownSize(start, end))
}

// shownSize is the size of [start, end) as a read shows it: with
// comments hidden, that of its shown text, so a notice that calls a text
// long names the size that makes it so.
func (n *note) shownSize(start, end int) int {
	if !n.doc.HidesComments() {
		return end - start
	}
	return len(n.shown(start, end))
}

// shown is the text of [start, end) a read shows, to its last line of
// text (sections.Document.ShownEnd).
func (n *note) shown(start, end int) string {
	return n.doc.Text(start, n.doc.ShownEnd(start, end))
}

// Read returns a whole note, or one section of it (from its heading to the
// next heading of the same or a higher level), read from disk now so it
// shows the current text. See openNote for how the path is resolved.
func (e *Engine) Read(ctx context.Context, req mdsearch.ReadRequest) (_ *mdsearch.ReadResponse, err error) {
	defer e.explain(&err)
	leave, err := e.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	for name, v := range map[string]string{"section": req.Section, "lines": req.Lines} {
		if len(v) > mdsearch.MaxFieldBytes {
			return nil, mdsearch.TooLong(name, len(v))
		}
	}
	n, frag, err := e.openLinked(ctx, req.Path)
	if err != nil {
		return nil, err
	}
	if !req.Comments {
		n = n.withoutComments()
	}
	resp, err := e.read(ctx, req, n, frag)
	if err == nil {
		addNotice(&resp.Notice, e.readAsNotice(ctx, req.Path, n))
	}
	if req.Comments {
		return resp, err
	}
	if err == nil && resp.EndLine > 0 && (resp.Outline == nil || resp.Content != "") { // an outline alone shows no line
		resp.CommentsLeftOut = n.doc.CommentsIn(lineOffset(n.src, resp.StartLine), lineOffset(n.src, shownEnd(resp)+1))
	}
	return resp, err
}

// shownEnd is the last line a read's text shows: its EndLine, but for a
// long section answered with its own text and its subsections' outline,
// whose EndLine is the whole section's.
func shownEnd(resp *mdsearch.ReadResponse) int {
	if resp.Outline == nil {
		return resp.EndLine
	}
	return resp.StartLine + strings.Count(strings.TrimRight(resp.Content, "\n"), "\n")
}

// withoutComments is n with its comments hidden (WithoutComments): what
// a read returns unless asked for them.
func (n *note) withoutComments() *note {
	c := *n
	c.doc = n.doc.WithoutComments()
	return &c
}

// read answers req of note n, linked to with fragment frag.
func (e *Engine) read(ctx context.Context, req mdsearch.ReadRequest, n *note, frag string) (*mdsearch.ReadResponse, error) {
	if strings.TrimSpace(req.Section) == "" && req.Lines == "" {
		req.Section = fragmentSection(n, frag)
	}
	resp := &mdsearch.ReadResponse{Collection: n.collection, Path: n.path, Title: n.doc.Title,
		Notice: e.readNotice(ctx, n.collection, n.path)}
	if req.Lines != "" {
		if strings.TrimSpace(req.Section) != "" {
			return nil, mdsearch.Errorf(mdsearch.KindInvalid, "read", n.path, "pass one of them", "a section and lines were both given")
		}
		return resp, lineRange(resp, n, req.Lines, req.Full)
	}
	if strings.TrimSpace(req.Section) == "" {
		all := n.shownAll() // invalid UTF-8 shown as U+FFFD; once, for its cost, size and text
		resp.StartLine, resp.EndLine = 1, lineCount(n.src)
		resp.WordCount, resp.Tokens = chunks.NoteWords(n.doc), EstimateTokens(all)
		size := len(n.src)
		if n.doc.HidesComments() {
			size = len(all) // shownSize's, made once
		}
		if !req.Full && mdsearch.IsLong(n.doc.WordCount, size) && !longNote(resp, n) {
			preview(resp, n, span{from: 0, to: len(n.src), what: "note", words: n.doc.WordCount})
		}
		if resp.Outline == nil && resp.Content == "" {
			resp.Content = all
		}
		if strings.TrimSpace(resp.Content) == "" && resp.Outline == nil {
			// An empty answer reads as a failure to an agent.
			if n.doc.HidesComments() && len(bytes.TrimSpace(n.src)) > 0 {
				onlyComments(resp, "note")
			} else {
				addNotice(&resp.Notice, "the note is empty")
			}
		}
		return resp, nil
	}
	if ref := strings.TrimPrefix(strings.TrimSpace(req.Section), "#"); strings.HasPrefix(ref, "^") {
		return blockRef(resp, n, ref, req.Full)
	}
	if nr, ok := n.doc.FindNested(req.Section); ok {
		return nestedRead(resp, n, nr, req.Full)
	}
	sec, others, err := n.doc.Matches(req.Section)
	if err != nil {
		return nil, nearestSections(n.doc, req.Section, err)
	}
	resp.Section = sec.Heading
	if sec.Level == 0 {
		resp.Section = sections.Preamble // what read it, as outlines name it
	}
	resp.SectionPath = sec.Path
	if msg := othersNotice(n.doc, req.Section, sec, others); msg != "" {
		resp.Notice = strings.TrimPrefix(resp.Notice+"; "+msg, "; ")
	}
	if n.doc.InPart(req.Section) {
		asked := strings.TrimPrefix(strings.TrimSpace(req.Section), "#") // a link's fragment is tried as an anchor first
		which := "the one heading that holds it"
		if len(others) > 0 { // words of headings it shares with others (Setup, Setup)
			which = "the first heading that holds it"
		}
		addNotice(&resp.Notice, fmt.Sprintf("no heading is %q: this is %q, %s", asked, strings.Join(sec.Path, " > "), which))
	}
	resp.StartLine, resp.EndLine = sec.StartLine, sec.EndLine
	resp.WordCount = sec.Words
	resp.Content = n.doc.Content(sec)
	if strings.TrimSpace(resp.Content) == "" && n.doc.HidesComments() {
		onlyComments(resp, "section")
	}
	// The section's own word count, as its outline entry costs it.
	resp.Tokens = mdsearch.ReadingTokens(sec.Words, len(resp.Content))
	if !req.Full && n.long(sec.Words, sec.StartByte, sec.EndByte) {
		longSection(resp, n, sec)
	}
	return resp, nil
}

// blockRef answers a read of an Obsidian block reference, "^id": the
// lines of the block it names.
func blockRef(resp *mdsearch.ReadResponse, n *note, ref string, full bool) (*mdsearch.ReadResponse, error) {
	start, end, sec, ok := n.doc.Block(ref)
	if !ok {
		return nil, mdsearch.Errorf(mdsearch.KindNotFound, "read", n.path,
			"a block reference is the ^id written at the end of a paragraph or list item, or on the line after a list or table",
			"no block %s in this note", ref)
	}
	resp.Section, resp.SectionPath = ref, sec.Path
	return resp, lineRange(resp, n, fmt.Sprintf("%d-%d", start, end), full)
}

// nestedRead answers a read of a heading inside a list, quote or callout
// (sections.Document.FindNested) with its own lines, and says which section
// holds them, as search shows them there.
func nestedRead(resp *mdsearch.ReadResponse, n *note, nr sections.NestedRead, full bool) (*mdsearch.ReadResponse, error) {
	resp.Section, resp.SectionPath = nr.Heading.Text, nr.Section.Path
	if err := lineRange(resp, n, fmt.Sprintf("%d-%d", nr.Start, nr.End), full); err != nil {
		return nil, err
	}
	holder := sections.Intro // as a result's header names the text before the first heading
	if nr.Section.Level > 0 {
		holder = strings.Join(nr.Section.Path, " > ")
	}
	msg := fmt.Sprintf("%q is a heading inside a list, quote or callout, which opens no section: "+
		"here are its lines, which search shows as part of %q", nr.Heading.Text, holder)
	switch len(nr.Others) {
	case 0:
	case 1:
		msg += "; another such heading has its text: read it as " + nr.Others[0]
	default:
		msg += fmt.Sprintf("; %d others have its text: read them as %s", len(nr.Others), strings.Join(nr.Others, ", "))
	}
	addNotice(&resp.Notice, msg)
	return resp, nil
}

// lineRange answers a read of the lines spec names ("40-80", "40-", "40"):
// unless full, a range over LongNoteWords words or LongNoteBytes, as a
// long note is, gives its first lines and the lines to read on from, so
// following "read on from line 102" ("102-") of a 5 MB note pages
// through it rather than returning the rest at once.
func lineRange(resp *mdsearch.ReadResponse, n *note, spec string, full bool) error {
	start, end, err := mdsearch.ParseLines(spec)
	if err != nil {
		return mdsearch.Errorf(mdsearch.KindInvalid, "read", n.path, "", "%v", err)
	}
	total := lineCount(n.src)
	if start > total {
		return mdsearch.Errorf(mdsearch.KindInvalid, "read", n.path, "",
			"lines %q: the note has %d lines", spec, total)
	}
	if end == 0 || end > total {
		end = total
	}
	from, to := lineOffset(n.src, start), lineOffset(n.src, end+1)
	resp.StartLine, resp.EndLine = start, end
	resp.Content = n.doc.Text(from, to)
	resp.WordCount, resp.Tokens = wordcount.Count(resp.Content), EstimateTokens(resp.Content)
	// Words as a note's are counted, its properties left out: a range of
	// the whole note is long as a read of the note is.
	words := resp.WordCount
	if _, body, ok := sections.Frontmatter(n.src); ok && from < body {
		words = wordcount.Count(n.doc.Text(min(body, to), to))
	}
	if !full && mdsearch.IsLong(words, len(resp.Content)) {
		preview(resp, n, span{from: from, to: to, what: "range", words: words, lines: true})
	}
	return nil
}

// lineOffset is the offset where 1-based line k starts, or len(src) past
// the last line.
func lineOffset(src []byte, k int) int {
	off := 0
	for ; k > 1; k-- {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	return off
}

// othersNotice says which other sections the query names besides sec,
// the first of them in the note, and how to read each alone: those of
// sec's path by their "#id" (also when sec was read by its own), the
// others by their outline name.
func othersNotice(doc *sections.Document, query string, sec *sections.Section, others []*sections.Section) string {
	if len(others) == 0 {
		others = twins(doc, sec)
	}
	if len(others) == 0 {
		return ""
	}
	if !slices.ContainsFunc(others, func(s *sections.Section) bool { return !slices.Equal(s.Path, sec.Path) }) {
		ids := make([]string, len(others))
		for i, s := range others {
			ids[i] = "#" + s.ID
		}
		what := "another section shares the path %q: this is #%s; the other is %s"
		if len(others) > 1 {
			what = "other sections share the path %q: this is #%s; the others are %s"
		}
		return fmt.Sprintf(what, strings.Join(sec.Path, "/"), sec.ID, strings.Join(ids, ", "))
	}
	names := doc.Names()
	how := make([]string, len(others))
	for i, s := range others {
		how[i] = readAs(names[s.Index], s)
	}
	what := "%q names %d sections: this is the first in the note, %s; read the other as %s"
	if len(others) > 1 {
		what = "%q names %d sections: this is the first in the note, %s; read the others as %s"
	}
	// A link's fragment comes as "#Heading": named as the link wrote it.
	query = strings.TrimPrefix(strings.TrimSpace(query), "#")
	return fmt.Sprintf(what, query, len(others)+1, readAs(names[sec.Index], sec), strings.Join(how, ", "))
}

// readAs is how a notice names section s, whose outline name is name: the
// name quoted, and an "#id" followed by the path it stands for.
func readAs(name string, s *sections.Section) string {
	if strings.HasPrefix(name, "#") {
		return fmt.Sprintf("%s (%q)", name, strings.Join(s.Path, "/"))
	}
	return fmt.Sprintf("%q", name)
}

// twins lists the other sections of doc with sec's path.
func twins(doc *sections.Document, sec *sections.Section) []*sections.Section {
	var out []*sections.Section
	for i := range doc.Sections {
		s := &doc.Sections[i]
		if s != sec && s.Level > 0 && slices.Equal(s.Path, sec.Path) {
			out = append(out, s)
		}
	}
	return out
}

// Outline returns the heading tree of a note with each section's size,
// and the places in other notes that link to it.
func (e *Engine) Outline(ctx context.Context, path string) (*mdsearch.Outline, error) {
	return e.outline(ctx, path, true)
}

// outline is Outline, the places that link to the note left out unless
// links is set (BenchmarkLinkedFrom times both).
func (e *Engine) outline(ctx context.Context, path string, links bool) (_ *mdsearch.Outline, err error) {
	defer e.explain(&err)
	leave, err := e.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	n, _, err := e.openLinked(ctx, path)
	if err != nil {
		return nil, err
	}
	n = n.withoutComments() // sized as a read returns it
	secs := n.doc.Outline()
	if secs == nil {
		secs = []mdsearch.OutlineEntry{}
	}
	words, tokens := noteCost(n)
	from, more := []mdsearch.Backlink{}, 0
	if links {
		if from, more, err = e.linkedFrom(ctx, n); err != nil {
			return nil, err
		}
	}
	return &mdsearch.Outline{Collection: n.collection, Path: n.path, Title: n.doc.Title,
		WordCount: words, Tokens: tokens, Sections: secs, LinkedFrom: from, LinkedFromMore: more}, nil
}

// noteCost is a whole note's words as search counts them
// (chunks.NoteWords) and what reading it whole costs: the tokens of all a
// read returns, its frontmatter included (as Read counts them).
func noteCost(n *note) (words, tokens int) {
	return chunks.NoteWords(n.doc), EstimateTokens(n.shownAll())
}

// onlyComments says that the note or section (what) read shows no text
// for its comments are hidden: an empty answer reads as a failure.
func onlyComments(resp *mdsearch.ReadResponse, what string) {
	addNotice(&resp.Notice, "the "+what+" shows no text: it holds only comments")
}

// shownAll is the whole note as a read returns it: its text, to its last
// line that hidden comments do not leave blank (sections.Document.ShownEnd)
// and the line break that ends the note, if it has one.
func (n *note) shownAll() string {
	end := n.doc.ShownEnd(0, len(n.src))
	if end == len(bytes.TrimRight(n.src, " \t\r\n")) {
		return n.doc.Text(0, len(n.src))
	}
	text := n.doc.Text(0, end)
	switch {
	case strings.TrimSpace(text) == "":
		return ""
	case bytes.HasSuffix(n.src, []byte("\r\n")):
		return text + "\r\n"
	case bytes.HasSuffix(n.src, []byte("\n")), bytes.HasSuffix(n.src, []byte("\r")):
		return text + "\n" // a lone CR shows as a line break
	}
	return text
}

// unquote drops one pair of quotes around a path, as read hints write a
// path with spaces and an agent may pass it on as written.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// underRoot finds the collection whose folder holds the absolute path p
// (the innermost, for nested collections) and p relative to it, in
// slashes. A path through a symlink is matched as the link resolves.
func underRoot(colls []store.Collection, p string) (store.Collection, string, bool) {
	if !filepath.IsAbs(p) {
		return store.Collection{}, "", false
	}
	try := []string{filepath.Clean(p)}
	if real, err := filepath.EvalSymlinks(p); err == nil && real != try[0] {
		try = append(try, real)
	}
	for _, abs := range try {
		var best store.Collection
		var rel string
		for _, c := range colls {
			r, err := filepath.Rel(c.Root, abs)
			if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				continue
			}
			if len(c.Root) > len(best.Root) {
				best, rel = c, filepath.ToSlash(r)
			}
		}
		if best.Name != "" {
			return best, rel, true
		}
	}
	return store.Collection{}, "", false
}

// notePath is a note path as given, in the form the index keeps it.
func notePath(rel string) string {
	rel = strings.TrimPrefix(rel, "./")
	if path.Ext(rel) == "" && rel != "" && !strings.HasSuffix(rel, "/") {
		rel += ".md" // a note named as a wikilink names it
	}
	if !strings.Contains(rel, "..") && !strings.HasPrefix(rel, "/") {
		rel = path.Clean(rel) // "a//b.md" and "a/./b.md" are the indexed "a/b.md" ('..' is for the vault to refuse)
	}
	return rel
}

// openNote resolves "path" or "collection:path" to a note inside a
// collection's folder and parses it. A path indexed in one collection, or
// present on disk in exactly one, needs no collection; one found in several
// is ambiguous. "..", absolute paths, symlink escapes and files the index
// would skip are refused.
func (e *Engine) openNote(ctx context.Context, spec string) (*note, error) {
	if spec == "" {
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "read", "", "", "no path given")
	}
	colls, err := e.st.Collections(ctx)
	if err != nil {
		return nil, err
	}
	if len(colls) == 0 {
		return nil, mdsearch.Errorf(mdsearch.KindNotFound, "read", spec, "run `mdsearch index DIR` first", "the index has no collections")
	}
	collName, rel, raw := "", notePath(spec), spec
	all := colls
	c, r, full := underRoot(colls, spec)
	if !full && filepath.IsAbs(spec) {
		roots := make([]string, len(colls))
		for i, c := range colls {
			roots[i] = c.Root
		}
		return nil, mdsearch.Errorf(mdsearch.KindForbidden, "read", spec,
			"give a path relative to the vault, or a full path inside "+strings.Join(roots, " or "), "not inside an indexed folder")
	}
	if full {
		// A full path inside a collection's folder is that note; the
		// vault's own checks still apply to the part inside it.
		collName, rel, raw, colls = c.Name, notePath(r), r, []store.Collection{c}
	} else if i := strings.IndexByte(spec, ':'); i > 0 {
		for _, c := range colls {
			if c.Name == spec[:i] {
				collName, rel, raw = c.Name, notePath(spec[i+1:]), spec[i+1:]
				colls = []store.Collection{c}
				break
			}
		}
	}
	refs, err := e.st.FindDocuments(ctx, collName, rel)
	if err != nil {
		return nil, err
	}
	if collName != "" && !full {
		// "v:colon.md" may be the note of that name, not colon.md of v.
		whole, err := e.st.FindDocuments(ctx, "", notePath(spec))
		switch {
		case err != nil || len(whole) == 0:
		case len(refs) == 0:
			collName, rel, raw, refs, colls = "", notePath(spec), spec, whole, all
		default:
			return nil, mdsearch.Errorf(mdsearch.KindInvalid, "read", spec,
				fmt.Sprintf("read %s:%s for the note named %s, or %s:./%s for %s of collection %s",
					whole[0].Collection, notePath(spec), notePath(spec), collName, rel, rel, collName),
				"names two notes")
		}
	}
	if len(refs) == 1 {
		n, err := e.readNote(ctx, refs[0].Collection, refs[0].Root, rel)
		var me *mdsearch.Error
		if mdsearch.KindOf(err) == mdsearch.KindNotFound && errors.As(err, &me) && me.Hint == "" {
			me.Hint = "it was deleted since it was indexed; search still finds it until `mdsearch index` (or a running watch) drops it"
		}
		return n, err
	}
	if len(refs) > 1 {
		return nil, ambiguous(spec, rel, refs)
	}
	// Not indexed (yet): look on disk in each collection.
	var found []*note
	var firstErr error
	for _, c := range colls {
		n, err := e.readNote(ctx, c.Name, c.Root, rel)
		switch {
		case err == nil:
			found = append(found, n)
		case mdsearch.KindOf(err) == mdsearch.KindForbidden || mdsearch.KindOf(err) == mdsearch.KindInvalid:
			if ferr := e.folderRead(ctx, collName, spec, raw); ferr != nil {
				return nil, ferr
			}
			return nil, err
		case firstErr == nil:
			firstErr = err
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		names := make([]string, len(colls))
		for i, c := range colls {
			names[i] = c.Name
		}
		if i := strings.IndexByte(spec, ':'); i > 0 && collName == "" {
			return nil, mdsearch.Errorf(mdsearch.KindNotFound, "read", spec, "name a note as COLLECTION:PATH with one of: "+strings.Join(names, ", "),
				"no collection %q, and no such note in %s", spec[:i], strings.Join(names, ", "))
		}
		if err := e.folderRead(ctx, collName, spec, raw); err != nil {
			return nil, err
		}
		hint := e.missingHint(ctx, collName, rel)
		return nil, mdsearch.Errorf(mdsearch.KindNotFound, "read", spec, hint, "no such note in %s", strings.Join(names, ", "))
	}
	refs = refs[:0]
	for _, n := range found {
		refs = append(refs, store.DocRef{Collection: n.collection})
	}
	return nil, ambiguous(spec, rel, refs)
}

func ambiguous(spec, rel string, refs []store.DocRef) error {
	opts := make([]string, len(refs))
	for i, r := range refs {
		opts[i] = r.Collection + ":" + rel
	}
	return mdsearch.Errorf(mdsearch.KindInvalid, "read", spec, "pick one: "+strings.Join(opts, ", "),
		"several collections hold this path")
}

// readNote reads rel inside root, refusing what the vault refuses (with
// the collection's size limit, as it was indexed).
func (e *Engine) readNote(ctx context.Context, collection, root, rel string) (*note, error) {
	v, err := e.vaultOf(ctx, collection, root)
	if err != nil {
		var me *mdsearch.Error
		if errors.As(err, &me) {
			me.Hint = "the folder of collection " + collection + " is gone; re-index it, or remove it with `mdsearch drop " + collection + "`"
		}
		return nil, err
	}
	src, err := v.ReadNote(rel)
	if err != nil {
		return nil, err
	}
	doc := sections.Parse(rel, src)
	return &note{collection: collection, path: rel, src: doc.Shown(), doc: doc}, nil
}

// lineCount is the number of lines in src, a last line without a newline
// included.
func lineCount(src []byte) int {
	n := bytes.Count(src, []byte{'\n'})
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}
