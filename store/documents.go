package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mdsearch/mdsearch"
)

// Document is one note as stored.
type Document struct {
	ID           int64
	CollectionID int64
	Path         string
	Title        string
	MTime        int64 // Unix nanoseconds
	Size         int64
	Hash         []byte // SHA-256 of the file
	WordCount    int
	Frontmatter  map[string]any
	Tags         []string
	Warnings     []string // what was odd about the file (sections.Document.Warnings)
}

// DocInfo is what incremental indexing compares against the disk.
type DocInfo struct {
	ID    int64
	MTime int64
	Size  int64
	Hash  []byte
}

// DocInfos returns a collection's documents by path.
func (s *Store) DocInfos(ctx context.Context, collectionID int64) (map[string]DocInfo, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, path, mtime, size, hash FROM documents WHERE collection_id = ?`, collectionID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]DocInfo{}
	for rows.Next() {
		var d DocInfo
		var p string
		if err := rows.Scan(&d.ID, &p, &d.MTime, &d.Size, &d.Hash); err != nil {
			return nil, err
		}
		out[p] = d
	}
	return out, rows.Err()
}

// VectorKey keys a vector by the exact text the model embedded.
func VectorKey(embedText string) []byte {
	h := sha256.Sum256([]byte(embedText))
	return h[:16]
}

// WindowKey is a window's vector key: its Hash, which the chunker already
// made of the same bytes, or VectorKey of its embed text when it has none.
func WindowKey(w *mdsearch.Window) []byte {
	if k, err := hex.DecodeString(w.Hash); err == nil && len(k) == 16 {
		return k
	}
	return VectorKey(w.EmbedText)
}

// PutDocument writes a document and replaces its chunks (and their keyword
// index entries). It returns the document's id.
func (t *Tx) PutDocument(d Document, chunks []mdsearch.Chunk) (int64, error) {
	var fm any
	if d.Frontmatter != nil {
		if b, err := json.Marshal(d.Frontmatter); err == nil {
			fm = string(b)
		}
	}
	tags := d.Tags
	if tags == nil {
		tags = []string{}
	}
	tagsJSON, _ := json.Marshal(tags)
	var warnings any
	if len(d.Warnings) > 0 {
		b, _ := json.Marshal(d.Warnings)
		warnings = string(b)
	}
	st, err := t.stmt(`INSERT INTO documents(collection_id, path, title, mtime, size, hash, word_count, chunk_count, frontmatter, tags, warnings)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(collection_id, path) DO UPDATE SET title = excluded.title, mtime = excluded.mtime,
			size = excluded.size, hash = excluded.hash, word_count = excluded.word_count,
			chunk_count = excluded.chunk_count, frontmatter = excluded.frontmatter, tags = excluded.tags,
			warnings = excluded.warnings
		RETURNING id`)
	if err != nil {
		return 0, err
	}
	var id int64
	if err := st.QueryRowContext(t.ctx, d.CollectionID, d.Path, d.Title, d.MTime, d.Size, d.Hash,
		d.WordCount, len(chunks), fm, string(tagsJSON), warnings).Scan(&id); err != nil {
		return 0, err
	}
	if err := t.forget(id); err != nil {
		return 0, err
	}
	if _, err := t.exec(`DELETE FROM chunks WHERE doc_id = ?`, id); err != nil {
		return 0, err
	}
	if _, err := t.exec(`DELETE FROM windows WHERE doc_id = ?`, id); err != nil {
		return 0, err
	}
	if _, err := t.exec(`DELETE FROM sections WHERE doc_id = ?`, id); err != nil {
		return 0, err
	}
	if _, err := t.exec(`DELETE FROM doc_tags WHERE doc_id = ?`, id); err != nil {
		return 0, err
	}
	for _, tag := range normTags(d.Tags) {
		if _, err := t.exec(`INSERT OR IGNORE INTO doc_tags(tag, doc_id) VALUES (?, ?)`, tag, id); err != nil {
			return 0, err
		}
	}
	titleCol := titleKeywords(d.Title, d.Path, d.Frontmatter)
	w := docWriter{t: t, doc: id, title: titleCol, tags: d.Tags, sections: map[sectionKey]int64{}}
	for i := range chunks {
		if err := w.putChunk(&chunks[i]); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// aliasTerms is a note's frontmatter aliases (Obsidian's "aliases", a list
// or one value; "alias" too, in any case, as Obsidian reads them), each
// after a space: other names of the note, which the title column indexes
// with its title. A number or date is a name too ("aliases: 1984").
func aliasTerms(fm map[string]any) string {
	keys := make([]string, 0, 2)
	for k := range fm {
		if l := strings.ToLower(k); l == "aliases" || l == "alias" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys) // a stable order
	var b strings.Builder
	for _, k := range keys {
		items, ok := fm[k].([]any)
		if !ok {
			items = []any{fm[k]}
		}
		for _, a := range items {
			switch a.(type) {
			case nil, map[string]any, []any:
				continue // not a name
			}
			b.WriteString(" " + fmt.Sprint(a))
		}
	}
	return b.String()
}

// titleTerms is what the title column indexes: the note's title and, when
// it says something else, its file name; and where either opens with a
// zero-padded number, that number's value (paddedNumber).
func titleTerms(title, path string) string {
	stem := path[strings.LastIndex(path, "/")+1:]
	if dot := strings.LastIndexByte(stem, '.'); dot > 0 {
		if ext := strings.ToLower(stem[dot:]); ext == ".md" || ext == ".markdown" {
			stem = stem[:dot]
		}
	}
	terms := title
	if !strings.EqualFold(stem, title) && stem != "index" && stem != "README" {
		terms += " " + stem
	}
	// Folded first: full-width digits are digits to the keyword index.
	a, b := paddedNumber(KeywordFold(title)), paddedNumber(KeywordFold(stem))
	if a != "" {
		terms += " " + a
	}
	if b != "" && b != a {
		terms += " " + b
	}
	return terms
}

// paddedNumber is the value of the number a title or file name opens
// with when it is written with leading zeros, "" otherwise: people name
// RFC 1 and ADR 12 by value, not by the digits of "0001-private-fields"
// or "0012 Use Postgres". The number must stand as a word of its own,
// before a space, hyphen or underscore: "01.02" is a decimal or a version.
func paddedNumber(s string) string {
	n := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if n < 0 {
		n = len(s)
	}
	if n < 2 || s[0] != '0' || n < len(s) && !strings.ContainsRune(" -_", rune(s[n])) {
		return ""
	}
	if v := strings.TrimLeft(s[:n], "0"); v != "" {
		return v
	}
	return "0"
}

// sectionKey identifies a sections row within one document: two sections
// may share a path and level ("## Setup" twice), never an anchor.
type sectionKey struct {
	path   string // JSON
	level  int
	anchor string
}

// docWriter writes the chunks of one document.
type docWriter struct {
	t        *Tx
	doc      int64
	title    string   // the title column
	tags     []string // the note's tags, for a passage that does not name its own
	sections map[sectionKey]int64
}

// section returns the sections row for a chunk, writing it on first use.
func (w *docWriter) section(c *mdsearch.Chunk, pathJSON string) (int64, error) {
	key := sectionKey{pathJSON, c.HeadingLevel, c.Anchor}
	if id, ok := w.sections[key]; ok {
		return id, nil
	}
	var read any
	if c.ReadSection != "" {
		read = c.ReadSection
	}
	res, err := w.t.exec(`INSERT INTO sections(doc_id, section, section_path, heading_level, read_section) VALUES (?, ?, ?, ?, ?)`,
		w.doc, c.Section, pathJSON, c.HeadingLevel, read)
	if err != nil {
		return 0, err
	}
	id, err := res.LastInsertId()
	w.sections[key] = id
	return id, err
}

func (w *docWriter) putChunk(c *mdsearch.Chunk) error {
	sp := c.SectionPath
	if sp == nil {
		sp = []string{}
	}
	spJSON, _ := json.Marshal(sp)
	var covered, reads, tags, props any
	if len(c.Sections) > 0 {
		b, _ := json.Marshal(c.Sections)
		covered = string(b)
	}
	if len(c.ReadSections) > 0 {
		b, _ := json.Marshal(c.ReadSections)
		reads = string(b)
	}
	if c.PassageTags != nil {
		b, _ := json.Marshal(c.PassageTags)
		tags = string(b)
	}
	if c.Properties != "" {
		props = c.Properties
	}
	sec, err := w.section(c, string(spJSON))
	if err != nil {
		return err
	}
	res, err := w.t.exec(`INSERT INTO chunks(doc_id, section_id, chunk_index, start_line, end_line,
		start_byte, end_byte, part, parts, text, word_count, sections, read_sections, tags, properties)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		w.doc, sec, c.ChunkIndex, c.StartLine, c.EndLine, c.StartByte, c.EndByte, c.Part, c.Parts,
		c.Text, c.WordCount, covered, reads, tags, props)
	if err != nil {
		return err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return err
	}
	for i := range c.Windows {
		if err := w.putWindow(id, c, &c.Windows[i]); err != nil {
			return err
		}
	}
	text, heading := chunkKeywords(c)
	_, err = w.t.exec(`INSERT INTO chunks_fts(rowid, text, heading, title, tags) VALUES (?, ?, ?, ?, ?)`,
		id, text, heading, w.title, tagsKeywords(passageTags(c.PassageTags, w.tags)))
	return err
}

// titleKeywords is a note's title column of the keyword index: its title,
// file name and aliases. MatchFields writes it again, so both read it here.
func titleKeywords(title, path string, fm map[string]any) string {
	return KeywordText(titleTerms(title, path) + aliasTerms(fm))
}

// tagsKeywords is a passage's tags column of the keyword index.
func tagsKeywords(tags []string) string { return KeywordText(strings.Join(tags, " ")) }

// passageTags are the tags a passage's keyword row holds: its own
// (Chunk.PassageTags), or, when its splitter named none (nil), its note's.
func passageTags(own, note []string) []string {
	if own == nil {
		return note
	}
	return own
}

// chunkKeywords are a chunk's text and heading columns of the keyword
// index.
func chunkKeywords(c *mdsearch.Chunk) (text, heading string) {
	text = textKeywords(c.Text)
	if c.Properties != "" {
		text += "\n" + KeywordText(c.Properties) // the frontmatter comes before the passage
	}
	return text, KeywordText(headingTerms(c))
}

// putWindow stores window win of chunk c (row id chunk); its text is
// stored once, in the chunk, when it is a slice of the chunk's text.
func (w *docWriter) putWindow(chunk int64, c *mdsearch.Chunk, win *mdsearch.Window) error {
	head, start, end, ok := windowLayout(c, win)
	var full any
	if !ok {
		head, start, end, full = "", 0, 0, win.EmbedText
	}
	_, err := w.t.exec(`INSERT INTO windows(chunk_id, doc_id, head, text_start, text_end, embed_full, token_count, vkey)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, chunk, w.doc, head, start, end, full, win.TokenCount, WindowKey(win))
	return err
}

// windowLayout splits window win of chunk c as the windows table keeps it:
// its EmbedText is head followed by c.Text[start:end]. A heading window is
// its head alone (start = end: no text, which is how the table tells it).
// A text window's head is what the chunker put before its text (the
// heading prefix "[Title > Heading] ", and a table's header rows), and its
// text is Text from the window's start (TextStart) on; ok is false, and
// the EmbedText is kept whole, when its text is no slice of Text there (it
// leaves code out, or lone CRs were read as line breaks).
func windowLayout(c *mdsearch.Chunk, win *mdsearch.Window) (head string, start, end int, ok bool) {
	e := win.EmbedText
	if win.Heading {
		return e, 0, 0, true
	}
	start = win.TextStart
	if start < 0 || start >= len(c.Text) {
		return "", 0, 0, false
	}
	rest := c.Text[start:]
	// The text is the longest end of e that rest starts with: try each
	// place of e where rest's first byte is, from the front.
	for p := 0; p < len(e); p++ {
		i := strings.IndexByte(e[p:], rest[0])
		if i < 0 {
			break
		}
		p += i
		if strings.HasPrefix(rest, e[p:]) {
			return e[:p], start, start + len(e) - p, true
		}
	}
	return "", 0, 0, false
}

// headingTerms is what the heading column indexes: the passage's heading
// path and the headings of every section it covers.
func headingTerms(c *mdsearch.Chunk) string {
	h := strings.Join(c.SectionPath, " > ")
	for _, p := range c.Sections {
		if len(p) > 0 && !slices.Equal(p, c.SectionPath) {
			h += " > " + p[len(p)-1]
		}
	}
	return h
}

// normTags lower-cases tags and drops a leading '#', for filtering.
func normTags(tags []string) []string {
	out := make([]string, 0, len(tags))
	for _, t := range tags {
		if t = NormTag(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// NormTag is a tag as filters compare it: folded (KeywordFold), lower
// case, without '#'.
func NormTag(t string) string {
	return strings.ToLower(KeywordFold(strings.TrimPrefix(strings.TrimSpace(t), "#")))
}

// TouchDocument records a new mtime and size for a file whose content is
// unchanged.
func (t *Tx) TouchDocument(id, mtime, size int64) error {
	_, err := t.exec(`UPDATE documents SET mtime = ?, size = ? WHERE id = ?`, mtime, size, id)
	return err
}

// DeleteDocument removes a document, its chunks and their index entries.
func (t *Tx) DeleteDocument(id int64) error {
	if err := t.forget(id); err != nil {
		return err
	}
	if _, err := t.exec(`DELETE FROM windows WHERE doc_id = ?`, id); err != nil {
		return err
	}
	_, err := t.exec(`DELETE FROM documents WHERE id = ?`, id)
	return err
}

// DocRef locates a document for reads.
type DocRef struct {
	Collection string
	Root       string
	Path       string
	Title      string
	WordCount  int
}

// FindDocuments returns the documents at a vault-relative path, in every
// collection (or only the named one).
func (s *Store) FindDocuments(ctx context.Context, collection, path string) ([]DocRef, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT c.name, c.root, d.path, d.title, d.word_count
		FROM documents d JOIN collections c ON c.id = d.collection_id
		WHERE d.path = ? AND (? = '' OR c.name = ?) ORDER BY c.name`, path, collection, collection)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []DocRef
	for rows.Next() {
		var r DocRef
		if err := rows.Scan(&r.Collection, &r.Root, &r.Path, &r.Title, &r.WordCount); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Warnings lists, by path, what was odd about the notes of a collection
// when they were last read (an index written before documents.warnings
// lists none).
func (s *Reader) Warnings(ctx context.Context, collectionID int64) ([]mdsearch.FileIssue, error) {
	out := []mdsearch.FileIssue{}
	if !s.warnings {
		return out, nil
	}
	rows, err := s.r.QueryContext(ctx, `SELECT path, warnings FROM documents
		WHERE collection_id = ? AND warnings IS NOT NULL ORDER BY path`, collectionID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var path, js string
		if err := rows.Scan(&path, &js); err != nil {
			return nil, err
		}
		var ws []string
		json.Unmarshal([]byte(js), &ws)
		for _, w := range ws {
			out = append(out, mdsearch.FileIssue{Path: path, Reason: w})
		}
	}
	return out, rows.Err()
}

// SharedPaths returns which of the vault-relative paths more than one
// collection holds: such a note is read as COLLECTION:PATH, since the path
// alone names several.
func (s *Reader) SharedPaths(ctx context.Context, paths []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(paths) == 0 {
		return out, nil
	}
	args := make([]any, len(paths))
	for i, p := range paths {
		args[i] = p
	}
	// Collections first (CROSS JOIN keeps the order): each (collection,
	// path) pair is then one lookup in the unique index, not a scan of
	// every document.
	shared, err := column[string](s.r.QueryContext(ctx, `SELECT d.path FROM collections c CROSS JOIN documents d
		ON d.collection_id = c.id AND d.path IN (?`+strings.Repeat(",?", len(paths)-1)+`)
		GROUP BY d.path HAVING count(*) > 1`, args...))
	for _, p := range shared {
		out[p] = true
	}
	return out, err
}

// DeleteCollection removes a collection and everything indexed from it:
// each document as DeleteDocument does (so Removed lists the vector keys
// it may orphan), then the collection itself.
func (t *Tx) DeleteCollection(id int64) (docs int, err error) {
	ids, err := column[int64](t.tx.QueryContext(t.ctx, `SELECT id FROM documents WHERE collection_id = ?`, id))
	if err != nil {
		return 0, err
	}
	for _, d := range ids {
		if err := t.DeleteDocument(d); err != nil {
			return 0, err
		}
	}
	_, err = t.exec(`DELETE FROM collections WHERE id = ?`, id)
	return len(ids), err
}
