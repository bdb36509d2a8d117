package mdsearch

import (
	"context"
	"slices"
	"strings"

	"github.com/mdsearch/mdsearch/internal/plural"
)

// Chunk is a passage: the unit of retrieval, scoring and display. It is a
// heading section's own text or, where that is longer than the reading
// budget, one of its consecutive parts cut at block boundaries. It never
// spans two sections, except where stub sections merged forward: it is then
// labelled by the section its text starts in, and Sections lists every
// section it covers. Text is the source slice [StartByte, EndByte) of the
// original file, byte for byte but for invalid UTF-8 (U+FFFD) and lone CRs
// (LFs, the line breaks they are read as). The model sees a chunk as one or
// more Windows.
type Chunk struct {
	ID          string   `json:"id"`   // "path#chunk_index"
	Path        string   `json:"path"` // vault-relative, '/'-separated
	Title       string   `json:"title"`
	Section     string   `json:"section"`          // heading text where the text starts; "" for the preamble
	SectionPath []string `json:"section_path"`     // heading texts from the top
	Anchor      string   `json:"anchor,omitempty"` // the section's id on the page: unique in the note, unlike SectionPath
	// ReadSection is "#"+Anchor where SectionPath does not name the
	// section for read (another section's path reads the same, or its
	// heading is empty); "" where it does.
	ReadSection  string   `json:"read_section,omitempty"`
	HeadingLevel int      `json:"heading_level"`
	StartLine    int      `json:"start_line"` // 1-based, inclusive, in the original file
	EndLine      int      `json:"end_line"`
	StartByte    int      `json:"start_byte"` // byte range in the original file
	EndByte      int      `json:"end_byte"`
	ChunkIndex   int      `json:"chunk_index"` // 0-based within the note
	TotalChunks  int      `json:"total_chunks"`
	Part         int      `json:"part"`  // 1-based part within its section
	Parts        int      `json:"parts"` // parts the section was cut into
	Text         string   `json:"text"`
	WordCount    int      `json:"word_count"`
	Tags         []string `json:"tags"` // the note's: frontmatter tags, then inline #tags
	// PassageTags are the tags the keyword index finds the passage by: the
	// note's frontmatter tags and the inline #tags written in Text, so a
	// tag counts for the passage that holds it. Nil (a splitter that does
	// not say) means Tags.
	PassageTags []string `json:"passage_tags,omitempty"`
	// Properties is the note's property values (sections.Document.PropertyText) that
	// the keyword index finds the passage by, as if written before its
	// text, at most the reading budget's words of them: set on a note's
	// first passage, unless that passage is the properties themselves (a
	// note of properties alone).
	Properties  string         `json:"properties,omitempty"`
	Frontmatter map[string]any `json:"frontmatter"`
	Sections    [][]string     `json:"sections,omitempty"` // every section path covered, its own first, when more than one
	// ReadSections is, for each of Sections, the "#id" that reads it where
	// its path does not, else ""; nil when every path reads its section.
	ReadSections []string `json:"read_sections,omitempty"`
	Windows      []Window `json:"windows"`
}

// Window is the model's unit: a piece of a passage within the window
// budget (at most the model window), with the heading trail prefixed. A chunk's semantic score
// is the best of its windows'.
type Window struct {
	StartByte  int    `json:"start_byte"` // byte range in the original file
	EndByte    int    `json:"end_byte"`
	EmbedText  string `json:"embed_text"`  // "[Title > Heading > …] " + text, as the model sees it
	TokenCount int    `json:"token_count"` // of EmbedText, by the embedder's counter
	Hash       string `json:"hash"`        // content hash of EmbedText: the vector key
	// Heading marks a passage's heading window: its heading path alone,
	// with no text (see package chunks).
	Heading bool `json:"heading,omitempty"`
	// TextStart is where the window starts in its passage's Text: StartByte
	// less the passage's StartByte, but for invalid UTF-8 before it, which
	// Text shows as U+FFFD (three bytes for one).
	TextStart int `json:"-"`
}

// Mode selects the ranking used by a search.
type Mode string

const (
	ModeHybrid   Mode = "hybrid"
	ModeSemantic Mode = "semantic"
	ModeKeyword  Mode = "keyword"
)

// Search limits shared by every adapter.
const (
	DefaultN          = 5
	MaxN              = 50
	DefaultMaxPerPage = 2
	MaxMaxPerPage     = 5
	// MaxQueryBytes bounds a query: a longer one is not a query.
	MaxQueryBytes = 4000
	// MaxMaxTokens bounds a search's answer budget (SearchRequest.MaxTokens).
	MaxMaxTokens = 1 << 20
	// MaxExclude bounds the notes a search leaves out (SearchRequest.Exclude).
	MaxExclude = 100
	// MaxOffset bounds how many notes a list skips (SearchRequest.Offset).
	MaxOffset = 1 << 20
	// MaxFilters bounds the tags, and the frontmatter conditions, a
	// search asks for (SearchRequest.Tag with Tags, and Where): a note
	// must match every one, so more than a few match nothing.
	MaxFilters = 20
)

// SearchRequest is what every adapter turns its input into.
type SearchRequest struct {
	// Query is the words to look for. Without any, a request that names
	// a tag, a folder (PathPrefix) or a property (Where) lists the notes
	// that have it (Lists).
	Query string `json:"query"`
	N     int    `json:"n"` // 0 means DefaultN
	// MaxPerPage caps the results of one note. 0 is the default cap,
	// DefaultMaxPerPage, which gives way where another note's passage is
	// unlikely to answer and one more of a note shown is likely to
	// (engine); 1 to MaxMaxPerPage caps them so, strictly.
	MaxPerPage int    `json:"max_per_page"`
	Mode       Mode   `json:"mode"` // "" means ModeHybrid
	Collection string `json:"collection,omitempty"`
	Tag        string `json:"tag,omitempty"`
	PathPrefix string `json:"path_prefix,omitempty"` // case-insensitive
	// Tags must all be on a note (Tag, when set, is one more).
	Tags []string `json:"tags,omitempty"`
	// Where keeps notes whose frontmatter field equals the value (a list
	// field: contains it), ignoring case; every pair must match. A value
	// of comparisons (">3", ">=2024-01-01 <2024-02-01": Comparisons)
	// keeps those whose number or date meets each.
	Where map[string]string `json:"where,omitempty"`
	// MaxTokens, when set, is the answer budget: it caps the reading cost
	// (ReadingTokens, a language model's tokens, not the embedder's) of all
	// result texts together, their header and footer lines and the notice:
	// results are whole passages until the budget is spent; the last may be
	// cut at a block boundary.
	MaxTokens int `json:"max_tokens,omitempty"`
	// MinScore, when set (0–1), leaves out every result scoring under it,
	// on the score shown (after the second stage and any reranker), the
	// first too; the notice counts them and names the best left out.
	MinScore float64 `json:"min_score,omitempty"`
	// Exclude leaves out these notes (those already read, say), as if
	// the vault did not hold them, each named as Read takes it: its path
	// in the vault, COLLECTION:PATH, or its full path; at most MaxExclude.
	Exclude []string `json:"exclude,omitempty"`
	// Offset pages a list of notes (a request without words): it skips
	// that many of the notes the filters keep, so the next N follow. A
	// search with words shows its best N alone, and refuses one.
	Offset int `json:"offset,omitempty"`
	// Sort orders a list (a request without words): SortPath, by
	// collection and path, as "" does, or SortModified, the notes last
	// changed first. A search with words is ordered by its scores, and
	// refuses another order.
	Sort string `json:"sort,omitempty"`
	// NoRerank keeps the local ranking where the engine has a reranker.
	NoRerank bool `json:"no_rerank,omitempty"`
	// AsTyped searches for the query as typed: a word no passage holds is
	// not respelled for the results (SearchResponse.Respelled), though a
	// suggestion is still offered.
	AsTyped bool `json:"as_typed,omitempty"`
	// Explain gives each result a Why: what its place and score rest on.
	Explain bool `json:"explain,omitempty"`
	// Notice is what an adapter says of the request itself (arguments it
	// read leniently): the answer's notice leads with it, and MaxTokens
	// counts it. No client sends it.
	Notice string `json:"-"`
}

// Result is one ranked chunk with its place in the page.
type Result struct {
	Path string `json:"path"`
	// ReadPath names the note to read (read_note, `mdsearch read`) where
	// Path alone does not: COLLECTION:PATH, set when another collection
	// holds the same path, which read would refuse as ambiguous.
	ReadPath    string   `json:"read_path,omitempty"`
	Title       string   `json:"title"`
	Collection  string   `json:"collection"`
	Section     string   `json:"section"`
	SectionPath []string `json:"section_path"`
	// ReadSection names the section for read where SectionPath does not
	// (another section of the note reads the same, or its heading is
	// empty): its "#id".
	ReadSection   string   `json:"read_section,omitempty"`
	ChunkIndex    int      `json:"chunk_index"`
	TotalChunks   int      `json:"total_chunks"`
	PageWordCount int      `json:"page_word_count"`
	StartLine     int      `json:"start_line"`
	EndLine       int      `json:"end_line"`
	Text          string   `json:"text"`            // the whole passage, or as much as the token budget allowed, or its opening where no result is likely to answer
	Score         float64  `json:"score"`           // 0–1, comparable across queries (see README)
	Distance      *float64 `json:"distance"`        // 1 − cosine of the best window (a heading window's × 0.9), when vectors were used
	Stale         bool     `json:"stale,omitempty"` // the file changed on disk since it was indexed
	// Modified is when the note's file last changed, as indexed (RFC 3339,
	// UTC), in a list ordered by it (SearchRequest.Sort).
	Modified string `json:"modified,omitempty"`
	// Sections lists every section path the passage covers, its own first,
	// when it covers more than one (stub sections merged forward).
	Sections [][]string `json:"sections,omitempty"`
	// ReadSections is, for each of Sections, the "#id" that reads it where
	// its path does not (as ReadSection), else ""; absent when none needs one.
	ReadSections []string `json:"read_sections,omitempty"`
	// ChunkEnd is the last chunk index when adjacent passages of one page
	// were merged into this result; 0 otherwise. A result cut to fit a
	// token budget ends it at the last passage it still shows; one cut to
	// its opening keeps it, its rest (RestFrom to RestTo) running to that
	// passage's end.
	ChunkEnd int `json:"chunk_end,omitempty"`
	// Part and Parts place the passage (the first, when several were
	// merged) among the parts its section's text was cut into, from 1;
	// both 0 when that text is one passage, so the result is all of it.
	Part  int `json:"part,omitempty"`
	Parts int `json:"parts,omitempty"`
	// PartEnd is the last part joined when neighbouring passages of the
	// section were joined into this result (Part to PartEnd of Parts); 0
	// otherwise. SetChunkEnd keeps it beside ChunkEnd, and it is cut as
	// ChunkEnd is.
	PartEnd int `json:"part_end,omitempty"`
	// SectionEnd is the last line of the text that follows the passage in
	// the sections it shows (their further parts and subsections: reading
	// the section reads it), when some does; 0 when the passage ends them.
	SectionEnd int `json:"section_end,omitempty"`
	// Truncated says the text was cut (to fit the token budget, at 32 KB,
	// or to its opening where no result is likely to answer) or shows a
	// long run of ASCII without a space to its start alone; ReadHint then says how to read the rest, the lines RestFrom
	// to RestTo of the note (1-based, inclusive).
	Truncated bool   `json:"truncated,omitempty"`
	ReadHint  string `json:"read_hint,omitempty"`
	RestFrom  int    `json:"rest_from,omitempty"`
	RestTo    int    `json:"rest_to,omitempty"`
	// Why is what its place and score rest on, when the search asked
	// (SearchRequest.Explain).
	Why *Why `json:"why,omitempty"`
}

// SetChunkEnd sets the last passage joined into r, end (0: none), and the
// part it ends on. Joined passages are neighbours of one section, so their
// parts follow one another as their chunk indexes do.
func (r *Result) SetChunkEnd(end int) {
	r.ChunkEnd, r.PartEnd = end, 0
	if end > r.ChunkIndex && r.Parts > 1 {
		r.PartEnd = min(r.Part+end-r.ChunkIndex, r.Parts)
	}
}

// SearchResponse is the answer to a SearchRequest.
type SearchResponse struct {
	Query   string   `json:"query"`
	Mode    Mode     `json:"mode"`
	Results []Result `json:"results"`
	Total   int      `json:"total"`
	// Listing says the request held no words (SearchRequest.Lists): the
	// results are the notes its filters keep, by collection and path, each
	// by its opening (its first passage cut to at most some 60 words,
	// Truncated), or, for task operators alone (task-todo:), the passages
	// holding such a task, each to its last one; their Score is 0: they
	// are not ranked.
	Listing bool `json:"listing,omitempty"`
	// Matching is how many notes (or task passages) a listing keeps in
	// all, those shown and not (Offset pages through them); 0 for a search.
	Matching int `json:"matching,omitempty"`
	// Offset is how many of them a listing skipped before its first
	// (SearchRequest.Offset): the first is number Offset+1.
	Offset int     `json:"offset,omitempty"`
	TookMS float64 `json:"took_ms"`
	Notice string  `json:"notice,omitempty"` // e.g. semantic search unavailable, fell back to keyword
	// Suggestion is the query with each word that no passage holds
	// respelled as the nearest word the index does hold ("reactivty
	// system" → "reactivity system"); "" when every word was found or none
	// has a near one, or its search found no strong answer. The notice
	// names the words; Respelled says whether the results are its.
	Suggestion string `json:"suggestion,omitempty"`
	// Respelled says the results are the Suggestion's, not the query's as
	// typed: the typed query's best answer was less likely than the
	// respelled one's, which is a strong one. SearchRequest.AsTyped asks
	// for the typed query's.
	Respelled bool `json:"respelled,omitempty"`
	// CollectionCount is how many collections the index holds, searched
	// or not: with more than one, a path alone may not name a note (read
	// COLLECTION:PATH). Status lists them (Status.Collections).
	CollectionCount int `json:"collection_count"`
}

// ReadRequest names a note, and optionally one section of it.
// Path is vault-relative; "collection:path" picks a collection.
type ReadRequest struct {
	Path    string `json:"path"`
	Section string `json:"section,omitempty"`
	// Full returns a long note's whole text; without it a note over
	// LongNoteWords comes back as its outline.
	Full bool `json:"full,omitempty"`
	// Lines reads a range of lines instead of a section: "40-80", "40-"
	// (to the end) or "40" (one line); see ParseLines.
	Lines string `json:"lines,omitempty"`
	// Comments keeps comments in the text: Obsidian's %%…%% and HTML's
	// <!--…-->. Without it they are left out, their line breaks kept so
	// lines are still the note's: the private asides (and an Excalidraw
	// drawing's data) a note hides when shown, as search leaves them out.
	Comments bool `json:"comments,omitempty"`
}

// LongNoteWords is the size above which reading a whole note returns its
// outline unless the whole text is asked for.
const LongNoteWords = 1500

// LongNoteBytes is the same bound in bytes, for text of few but long
// "words" (an embedded base64 image, a minified line) that LongNoteWords
// would let through whole: 64 KB is some 16,000 tokens.
const LongNoteBytes = 64 << 10

// IsLong reports whether a read of text of the given words and bytes is
// long: answered with an outline or its start unless asked for whole.
func IsLong(words, bytes int) bool { return words > LongNoteWords || bytes > LongNoteBytes }

// ReadResponse is a whole note or one section of it.
type ReadResponse struct {
	Collection  string   `json:"collection"`
	Path        string   `json:"path"`
	Title       string   `json:"title"`
	Section     string   `json:"section,omitempty"`
	SectionPath []string `json:"section_path,omitempty"`
	StartLine   int      `json:"start_line"`
	EndLine     int      `json:"end_line"`
	WordCount   int      `json:"word_count"`
	Content     string   `json:"content"`
	// Outline is set when the note or section is long and the full text
	// was not asked for: for a note instead of Content, for a section after
	// its own text (Content), listing its subsections.
	Outline []OutlineEntry `json:"outline,omitempty"`
	// More is set when Content is the start of a long note with no outline
	// to choose from: lines from EndLine+1 on are left out.
	More bool `json:"more,omitempty"`
	// Rest is, with More, the lines that read the rest: "57-" to the end
	// of the note, "57-120" to the end of a section.
	Rest   string `json:"rest,omitempty"`
	Tokens int    `json:"tokens"`           // what reading the whole answer (or, with an outline, the note) costs, estimated
	Notice string `json:"notice,omitempty"` // e.g. the index is behind the file
	// CommentsLeftOut counts the comments (Obsidian's %%…%%, HTML's
	// <!--…-->) Content leaves out, blanked where they stood so its line
	// numbers hold; the request's Comments keeps them. Each adapter says
	// so in its own terms (CommentsNotice).
	CommentsLeftOut int `json:"comments_left_out,omitempty"`
}

// CommentsNotice is the notice of the comments a read left out, with
// keep, how the adapter's caller keeps them ("--comments"); "" when it
// left out none.
func (r *ReadResponse) CommentsNotice(keep string) string {
	if r.CommentsLeftOut == 0 {
		return ""
	}
	return plural.Count(r.CommentsLeftOut, "comment", "comments") + " (%%…%% or <!--…-->) left out, blanked in place: " + keep + " keeps them"
}

// JoinNotices joins the parts of a notice that are not empty.
func JoinNotices(parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), "; ")
}

// Unit is what req, the read r answers, asked for: "range" (of lines),
// "section" or "note". Adapters say "the whole note" (or range, or
// section) with it, as what full returns.
func (r *ReadResponse) Unit(req ReadRequest) string {
	if req.Lines != "" {
		return "range"
	}
	if r.Section != "" || len(r.SectionPath) > 0 {
		return "section"
	}
	return "note"
}

// AsOutline is the outline a read of a long note answered with (nil when
// it answered with text), as an Outline of the note.
func (r *ReadResponse) AsOutline() *Outline {
	if r.Outline == nil {
		return nil
	}
	title := r.Title
	if len(r.SectionPath) > 0 { // a long section's subsections
		title = strings.Join(r.SectionPath, " > ")
	}
	return &Outline{Collection: r.Collection, Path: r.Path, Title: title, WordCount: r.WordCount, Tokens: r.Tokens, Sections: r.Outline}
}

// OutlineEntry is one heading of a note, with the size of its section.
type OutlineEntry struct {
	Level       int      `json:"level"`
	Heading     string   `json:"heading"`
	Anchor      string   `json:"anchor,omitempty"` // the heading's id on the page: its custom "{#id}", else made from its text ("setup", then "setup-1"); read takes it as a section
	SectionPath []string `json:"section_path"`
	Section     string   `json:"section"` // what reads it: its heading where no other has it, else its path, else "#anchor"
	StartLine   int      `json:"start_line"`
	EndLine     int      `json:"end_line"`
	WordCount   int      `json:"word_count"` // of the whole section, subsections included
	Tokens      int      `json:"tokens"`     // what reading the whole section costs, estimated (ReadingTokens)
}

// Outline is the heading tree of a note, flattened in document order.
type Outline struct {
	Collection string         `json:"collection"`
	Path       string         `json:"path"`
	Title      string         `json:"title"`
	WordCount  int            `json:"word_count"`
	Tokens     int            `json:"tokens"` // what reading the whole note costs, estimated (ReadingTokens)
	Sections   []OutlineEntry `json:"sections"`
	// LinkedFrom are the places in other notes that link to it, in path
	// and line order: those of the notes read until 100 were found, each
	// note's together; LinkedFromMore counts the notes past them whose
	// links name it.
	LinkedFrom     []Backlink `json:"linked_from"`
	LinkedFromMore int        `json:"linked_from_more,omitempty"`
}

// IndexRequest asks for one collection to be brought up to date.
type IndexRequest struct {
	Dir  string `json:"dir"`
	Name string `json:"name"` // collection name; defaults to the directory's base name
	Full bool   `json:"full"` // re-read and re-embed everything
	// Profile is where notes are cut: "sections" (every heading) or
	// "h2h3" (H1/H2, H3 only for long sections). The collection keeps it:
	// "" means the one it was last cut with ("sections" for a new one),
	// and another one re-cuts it.
	Profile string `json:"profile,omitempty"`
}

// FileIssue names a file and what was wrong with it: why it was not
// indexed (IndexStats.Skipped), or what was odd about it though it was
// (IndexStats.Warnings, CollectionStatus.Warnings).
type FileIssue struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
	// Size is the file's size in bytes where it was skipped for being
	// over the size limit: what a larger --max-file-size must reach.
	Size int64 `json:"size,omitempty"`
}

// IndexProgress is reported while indexing runs.
type IndexProgress struct {
	Collection      string  `json:"collection"`
	FilesTotal      int     `json:"files_total"`
	FilesDone       int     `json:"files_done"`
	ChunksTotal     int     `json:"chunks_total"`     // passages written so far
	WindowsTotal    int     `json:"windows_total"`    // their windows
	WindowsNew      int     `json:"windows_new"`      // of those, the texts the run will embed (without a vector yet, or all with --full): what embedding them will take
	WindowsEmbedded int     `json:"windows_embedded"` // window texts embedded so far
	WindowsToEmbed  int     `json:"windows_to_embed"` // window texts without a vector, once files are done
	EmbedsPerSecond float64 `json:"embeds_per_second"`
	// The same texts' length in tokens: the model's time goes with it, and
	// texts are embedded longest first, so the time left follows the
	// tokens left more than the texts left.
	TokensEmbedded int `json:"tokens_embedded"`
	TokensToEmbed  int `json:"tokens_to_embed"`
	// TextTokens is what the model's time for a text beyond its tokens is
	// worth, in tokens, timed on this run's first long and short batches
	// (a run of 16 batches or more); nil until then. The embedding's work
	// is its tokens plus TextTokens a text.
	TextTokens *float64 `json:"text_tokens,omitempty"`
	// ChunksEmbedded and ChunksToEmbed are WindowsEmbedded and
	// WindowsToEmbed under the JSON names they had before they were named
	// for what they count, for clients that read those; the engine sets
	// them as it reports.
	//
	// Deprecated: read WindowsEmbedded and WindowsToEmbed.
	ChunksEmbedded int `json:"chunks_embedded"`
	ChunksToEmbed  int `json:"chunks_to_embed"`
}

// IndexStats summarises one indexing run.
type IndexStats struct {
	Collection string      `json:"collection"`
	Files      int         `json:"files"`     // notes the run looked at: the collection's notes, skipped files left out
	Unchanged  int         `json:"unchanged"` // left as they were, notes in a folder the run could not read among them
	Changed    int         `json:"changed"`
	Recut      int         `json:"recut"` // unchanged notes cut again (--full, or new chunker settings)
	Added      int         `json:"added"`
	Deleted    int         `json:"deleted"`
	Chunks     int         `json:"chunks"`   // passages written in this run
	Windows    int         `json:"windows"`  // their windows, the texts the model sees
	Embedded   int         `json:"embedded"` // vectors computed in this run
	Reused     int         `json:"reused"`   // vectors reused from earlier runs
	Skipped    []FileIssue `json:"skipped"`
	Warnings   []FileIssue `json:"warnings"`
	TookMS     float64     `json:"took_ms"`
	Notice     string      `json:"notice,omitempty"`
	// NoVectors says why the run indexed for keyword search only though
	// an embedder is set: its server could not be reached. A later run
	// that reaches it embeds the windows; watch, serve and mcp try again.
	NoVectors string `json:"no_vectors,omitempty"`
	// Stopped is set when the run failed or was interrupted: the counts
	// are what it got through, and windows neither embedded nor reused
	// are not embedded yet (the next run embeds them).
	Stopped bool `json:"stopped,omitempty"`
	// EmbeddedEarlier counts, of Embedded, the windows earlier runs left
	// without a vector, whichever collection's, that the run embedded too
	// (the first of `mdsearch index`'s runs embeds them all): not its own.
	EmbeddedEarlier int `json:"embedded_earlier,omitempty"`
}

// CollectionStatus describes one indexed collection.
type CollectionStatus struct {
	Name    string `json:"name"`
	Root    string `json:"root"`
	Files   int    `json:"files"`
	Chunks  int    `json:"chunks"`  // passages
	Windows int    `json:"windows"` // the texts the model embeds
	Vectors int    `json:"vectors"` // windows with a vector of the current model
	Stale   int    `json:"stale"`   // files changed, added or deleted on disk since indexing
	// RootMissing is set when Root is gone (moved, renamed, deleted): an
	// index run cannot catch the collection up until it is indexed where
	// its folder is now, under the same name, or dropped.
	RootMissing bool `json:"root_missing"`
	// Unreadable says why an index run of the collection would stop
	// before changing anything (an ignore file it cannot read, a folder
	// it may not list), where its folder exists; Stale is then 0, not
	// known.
	Unreadable string `json:"unreadable,omitempty"`
	// Outdated is set when an older mdsearch cut the collection's notes:
	// until an index run cuts them again (their vectors kept), what the
	// newer cut adds is missing (property values as keyword text, …).
	Outdated bool `json:"outdated,omitempty"`
	// RecutStopped is set when a run that cut the collection's notes with
	// other settings (a --profile change) was stopped: some notes are cut
	// the new way, the others the old, until an index run cuts every note
	// again (the next one does, with the profile it is given, else
	// Profile).
	RecutStopped bool `json:"recut_stopped,omitempty"`
	// Unfinished is set while the collection's first index run has not
	// read every note: one running now, or one stopped (the same command,
	// run again, adds the rest).
	Unfinished bool   `json:"unfinished,omitempty"`
	IndexedAt  string `json:"indexed_at"`
	Profile    string `json:"profile"` // where its notes are cut (IndexRequest.Profile)
	// Warnings are what was odd about the notes when they were last read
	// (bad frontmatter, an unclosed fence, …), by path, as the index run
	// that read them reported.
	Warnings []FileIssue `json:"warnings"`
	// Skipped are the files and folders its index runs left out (over the
	// size limit, binary, unreadable, …), by path, as the last run that
	// looked at each reported it.
	Skipped []FileIssue `json:"skipped"`
}

// Status describes the whole index.
type Status struct {
	IndexPath     string `json:"index_path"`
	SchemaVersion int    `json:"schema_version"`
	ModelID       string `json:"model_id"`
	// WantedModel is the server model ("ollama:nomic-embed-text") the last
	// index run was asked to embed with and could not reach, while the
	// index holds no vectors; "" otherwise.
	WantedModel string `json:"wanted_model,omitempty"`
	// EmbedStopped is the model an index run was to embed the index's
	// notes with, where that run stopped before its first vector and no
	// run goes on now (ModelID is then ""): the same command, run again,
	// resumes it. "" otherwise.
	EmbedStopped string `json:"embed_stopped,omitempty"`
	// EmbedRunning is that model where the run goes on now, here or in
	// another process, before its first vector: the index is not
	// keyword-only, its vectors are on their way. "" otherwise.
	EmbedRunning string             `json:"embed_running,omitempty"`
	Collections  []CollectionStatus `json:"collections"`
	Files        int                `json:"files"`
	Chunks       int                `json:"chunks"`  // passages
	Windows      int                `json:"windows"` // the texts the model embeds
	Vectors      int                `json:"vectors"` // windows with a vector of the current model
	Stale        int                `json:"stale"`
	SizeBytes    int64              `json:"size_bytes"`
	Indexing     *IndexProgress     `json:"indexing,omitempty"`
	Notice       string             `json:"notice,omitempty"`
	// Scores is what a default (hybrid) search's scores are, as this
	// process searches: "probability" (the chance of an answer),
	// "first-stage" (an order within one answer: another embedder) or
	// "reranker" (a reranker's relevance), so a reader knows how to read
	// them (the search page's bands).
	Scores string `json:"scores"`
}

// Searcher is the one engine behind every adapter: the CLI, MCP, REST and
// the web page call it and never rank, dedup or slice sections themselves.
type Searcher interface {
	Index(ctx context.Context, req IndexRequest, progress func(IndexProgress)) (*IndexStats, error)
	// IndexAll re-indexes every collection from the folder it was indexed
	// from; one that fails (its folder gone) does not keep the others
	// stale: their errors are joined.
	IndexAll(ctx context.Context, full bool, progress func(IndexProgress)) ([]*IndexStats, error)
	// Refresh re-indexes only the named vault-relative files of an indexed
	// collection (changed, added or deleted), without walking the vault.
	// Watchers call it so a saved note is searchable within a second.
	Refresh(ctx context.Context, collection string, paths []string) (*IndexStats, error)
	Search(ctx context.Context, req SearchRequest) (*SearchResponse, error)
	Read(ctx context.Context, req ReadRequest) (*ReadResponse, error)
	Outline(ctx context.Context, path string) (*Outline, error)
	Status(ctx context.Context) (*Status, error)
	Close() error
}
