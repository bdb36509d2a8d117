package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/render"
)

// tools holds the engine the tool handlers call.
type tools struct{ s mdsearch.Searcher }

// SearchArgs are semantic_search's arguments. Zero values mean defaults.
type SearchArgs struct {
	Query            string         `json:"query" jsonschema:"what to look for, in plain words or keywords, up to 4000 bytes (pass the gist of a long error, not all of it); quotes and punctuation are safe; tag:NAME in it filters as tag does, path:TEXT and file:TEXT keep notes whose path or file name holds TEXT (Obsidian's operators)"`
	N                int            `json:"n,omitempty" jsonschema:"maximum number of results, 1-50 (default 5); each result is a whole section (or a part of a long one), roughly 150-1200 tokens (about 330 typical)"`
	MaxPerPage       int            `json:"max_per_page,omitempty" jsonschema:"maximum results from any one note, 1-5 (default 2; one result may join neighbouring parts of a section); raise it to see several sections of one note, lower it for breadth across notes"`
	MaxChunksPerPage *int           `json:"max_chunks_per_page,omitempty" jsonschema:"the old name of max_per_page, still taken; give one of the two"`
	Mode             string         `json:"mode,omitempty" jsonschema:"hybrid (default: meaning and keywords), semantic (meaning only), or keyword (exact words: best for names, codes and rare terms)"`
	Collection       string         `json:"collection,omitempty" jsonschema:"only search this collection (one indexed folder); omit to search all"`
	Tag              string         `json:"tag,omitempty" jsonschema:"only notes with this tag (frontmatter tags or #tags), without the #"`
	PathPrefix       string         `json:"path_prefix,omitempty" jsonschema:"only notes whose vault-relative path starts with this, in any case, e.g. projects/ (or collection:projects/)"`
	Tags             []string       `json:"tags,omitempty" jsonschema:"only notes with every one of these tags, without the #"`
	Where            map[string]any `json:"where,omitempty" jsonschema:"only notes whose frontmatter fields have these values (a string, number or boolean; a list field: contains it; case ignored in names and text), e.g. {\"owner\": \"alice\", \"draft\": false}; params.author names a field inside a map"`
	Exclude          []string       `json:"exclude,omitempty" jsonschema:"leave out these notes (notes already read), by path as results show it (or read_path), at most 100; one naming no indexed note is named in the notice"`
	NoRerank         bool           `json:"no_rerank,omitempty" jsonschema:"keep mdsearch's own ranking where the server has a reranker"`
	Explain          bool           `json:"explain,omitempty" jsonschema:"add to each result why it ranked: which query words it holds and where (text, heading, title, tags), its places in the keyword and meaning lists, and what the second stage weighed for and against it; for judging a doubtful result, not needed to read one"`
	MaxTokens        int            `json:"max_tokens,omitempty" jsonschema:"spend at most about this many tokens on the answer (passages with their header and footer lines): whole passages until the budget is used, the last one cut at a block boundary (inside a first block that alone is over) with the lines that read the rest, and a note when results were left out; omit for no limit"`
}

// ReadArgs are read_note's arguments.
type ReadArgs struct {
	Path    string `json:"path" jsonschema:"vault-relative note path as semantic_search returns it, e.g. kitchen/Sourdough.md (or the note's full path inside an indexed folder, or a link's target as a note writes it: /guide/intro, intro.html#setup, Intro#Setup, the fragment read as the section; a wikilink's bare note name finds the one note of that file name in any folder, else the one note with that alias; a wikilink copied whole, [[Intro#Setup|the setup]] or ![[Intro]], reads what it links to); when several collections hold the same path, collection:path picks one"`
	Section string `json:"section,omitempty" jsonschema:"the section to return: a section path such as Setup/Prerequisites (as search results and note_outline show it; / for the text before the first heading), a heading's text, or an anchor from note_outline such as #setup-1 (for one of several sections with the same path), or an Obsidian block reference such as ^my-block (that block alone); omit for the whole note"`
	Full    bool   `json:"full,omitempty" jsonschema:"return the whole text even of a note or section over 1500 words or 64 KB, which otherwise comes back as its outline (a section: its own text and its subsections' outline; with no headings: its first lines)"`
	Lines   string `json:"lines,omitempty" jsonschema:"instead of a section: these lines only, as 40-80, 40- (to the end) or 40; search results name each passage's lines"`
}

// OutlineArgs are note_outline's arguments.
type OutlineArgs struct {
	Path string `json:"path" jsonschema:"vault-relative note path as semantic_search returns it; collection:path picks a collection"`
}

// readOnly annotates a tool that only reads the index and notes. The SDK
// always sends idempotentHint, so it is set too: false would say that
// calling it again has some further effect, which a read never has.
func readOnly() *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}
}

func searchTool() *mcp.Tool {
	return &mcp.Tool{
		Name:  "semantic_search",
		Title: "Search notes",
		Description: "Search the user's markdown notes by meaning and keywords. Use this first. " +
			"Returns the best passages: each a whole section or a part of a long one (up to about 300 words, usually enough to answer from; " +
			"matching neighbouring parts come back joined, `chunks i–j/N`), headed `rank. **path** > Section > Sub (score%)` and followed by " +
			"`chunk i/N · part p/P · lines a–b · page W words · section \"A/B\"`. To read more, pass read_note the path and section exactly as shown: " +
			"a path may be collection:path (several collections hold it), a section \"#id\" (another section has the same path) or \"/\" (the text before the first heading). " +
			"`part p/P` (P > 1): the section was cut into P passages; read_note returns the whole section, or the start of one over 1500 words, so then read lines around the hit. " +
			"Hybrid (default) and keyword scores estimate the probability that the passage answers, on one scale for every query: 50% or more is a likely answer; " +
			"questions the notes cannot answer mostly score under 20%; a right answer to a loosely worded or very short query often scores 30-50%, so check the text; " +
			"under 20% rarely answers; when the best is under 10% a note says no result is likely to answer (ask in other words, or tell the user the notes seem not to hold it). Semantic mode scores run higher (unrelated questions often 60-90%): compare them within one answer only. " +
			"A word no note holds may bring a note: did you mean \"...\"? (structured: suggestion), the query respelled, offered when it finds a strong answer; search it to use it. " +
			"Structured output: score 0-1, chunk_index from 0. " +
			"Cost: roughly 150-1200 tokens per result (about 330 typical); max_tokens caps the total. A section costs far less than its page (about 1.3 tokens per word of the page's word count).",
		InputSchema: schemaFor[SearchArgs](func(p map[string]*jsonschema.Schema) {
			// Ranges are in the descriptions and checked by the request's
			// Check, whose messages read better than the schema validator's.
			p["n"].Default = rawJSON(mdsearch.DefaultN)
			p["max_per_page"].Default = rawJSON(mdsearch.DefaultMaxPerPage)
			p["mode"].Enum = []any{string(mdsearch.ModeHybrid), string(mdsearch.ModeSemantic), string(mdsearch.ModeKeyword)}
			p["mode"].Default = rawJSON(mdsearch.ModeHybrid)
			p["where"].AdditionalProperties = &jsonschema.Schema{Types: []string{"string", "number", "boolean"}}
		}),
		Annotations: readOnly(),
	}
}

func readTool() *mcp.Tool {
	return &mcp.Tool{
		Name:  "read_note",
		Title: "Read a note or one section",
		Description: "Return one section of a note (from its heading to the next heading of the same or a higher level, heading included), " +
			"a range of its lines (lines), or the whole note when neither is given: a note over 1500 words or 64 KB then comes back as its outline, " +
			"or, without headings, as its first lines with the line to read on from, unless full is true; a section over 1500 words or 64 KB likewise comes back as " +
			"its own text and its subsections' outline (or its first lines and the lines of the rest). Prefer a section: pass the section " +
			"path from a semantic_search result or the name note_outline shows. " +
			"Heading text alone works when it is unambiguous; matching ignores case, extra spaces and punctuation. " +
			"Cost: about 1.3 tokens per word returned, more for code and tables; answers say their estimated tokens. " +
			"An unknown section is an error that lists the note's sections, so you can retry.",
		InputSchema: schemaFor[ReadArgs](nil),
		Annotations: readOnly(),
	}
}

func outlineTool() *mcp.Tool {
	return &mcp.Tool{
		Name:  "note_outline",
		Title: "Outline a note",
		Description: "List a note's headings as a tree, each with its word count, estimated token cost and line range, " +
			"without loading the note's text (about 15 tokens a heading). Pass a heading as read_note's section; where another " +
			"heading reads the same, pass the path or #anchor shown after it instead; text before the first heading is section \"/\". Use it to choose a section " +
			"when search results do not show the one you need.",
		InputSchema: schemaFor[OutlineArgs](nil),
		Annotations: readOnly(),
	}
}

func (t *tools) search(ctx context.Context, call *mcp.CallToolRequest, a SearchArgs) (*mcp.CallToolResult, *mdsearch.SearchResponse, error) {
	req, err := a.request(call.Params.Arguments)
	if err != nil {
		return nil, nil, err
	}
	resp, err := t.s.Search(ctx, req)
	if err != nil {
		return nil, nil, toolError(err, "search", "")
	}
	f := forgivenIn(ctx)
	lead(&resp.Notice, f.blankNotice(), f.whereNotice())
	var b strings.Builder
	if err := render.Results(&b, resp, render.Options{SectionPaths: true}); err != nil {
		return nil, nil, err
	}
	return text(b.String()), resp, nil
}

// request turns a into the engine's request and checks it. The SDK has
// already filled in defaults for absent arguments, so a 0 was sent; raw
// are the arguments as sent, to tell max_per_page sent from defaulted.
func (a SearchArgs) request(raw json.RawMessage) (mdsearch.SearchRequest, error) {
	if a.MaxChunksPerPage != nil {
		var sent map[string]json.RawMessage
		if json.Unmarshal(raw, &sent) == nil && sent["max_per_page"] != nil {
			return mdsearch.SearchRequest{}, mdsearch.BothNames("max_per_page", mdsearch.MaxPerPageAlias)
		}
		a.MaxPerPage = *a.MaxChunksPerPage
	}
	tag, tags := "", make([]string, len(a.Tags))
	var err error
	if a.Tag != "" { // a blank tag was left out (lenientArgs)
		if tag, err = mdsearch.CleanTag(a.Tag); err != nil {
			return mdsearch.SearchRequest{}, err
		}
	}
	for i, t := range a.Tags {
		if tags[i], err = mdsearch.CleanTag(t); err != nil {
			return mdsearch.SearchRequest{}, err
		}
	}
	where, err := whereStrings(a.Where)
	if err != nil {
		return mdsearch.SearchRequest{}, err
	}
	req := mdsearch.SearchRequest{
		Query: mdsearch.TrimQuery(a.Query), N: a.N, MaxPerPage: a.MaxPerPage, Mode: mdsearch.Mode(a.Mode),
		Collection: a.Collection, Tag: tag, PathPrefix: a.PathPrefix,
		Tags: tags, Where: where, MaxTokens: a.MaxTokens, Exclude: a.Exclude, NoRerank: a.NoRerank, Explain: a.Explain,
	}
	return req, req.Check()
}

// whereStrings reads where's values as the CLI's --where FIELD=VALUE
// would give them: {"draft": false, "priority": 3} is draft=false and
// priority=3. As on the CLI, a field named twice, in any case, must agree.
func whereStrings(where map[string]any) (map[string]string, error) {
	if len(where) == 0 {
		return nil, nil
	}
	var w mdsearch.Where
	for _, k := range slices.Sorted(maps.Keys(where)) { // one order, whatever the map's
		var s string
		switch v := where[k].(type) {
		case string:
			s = v
		case bool:
			s = strconv.FormatBool(v)
		case float64:
			s = strconv.FormatFloat(v, 'f', -1, 64)
		case json.Number:
			s = v.String()
		default:
			return nil, fmt.Errorf("where %q: use a string, number or boolean, got %v", k, v)
		}
		if err := w.Add(k, s); err != nil {
			return nil, err
		}
	}
	return w.Fields, nil
}

func (t *tools) read(ctx context.Context, _ *mcp.CallToolRequest, a ReadArgs) (*mcp.CallToolResult, *mdsearch.ReadResponse, error) {
	if strings.TrimSpace(a.Path) == "" {
		return nil, nil, errors.New("path is empty: pass a note path as semantic_search returns it")
	}
	resp, err := t.s.Read(ctx, mdsearch.ReadRequest{Path: a.Path, Section: a.Section, Full: a.Full, Lines: a.Lines})
	if err != nil {
		return nil, nil, toolError(err, "read", a.Section)
	}
	whole := resp.Unit()
	var how []string // a long note or section: say how to read more, in this tool's terms
	if resp.Outline != nil {
		how = append(how, "section: a heading, path or anchor from the outline")
	}
	if resp.More {
		how = append(how, fmt.Sprintf("lines: %q for the rest", resp.Rest))
	}
	if len(how) > 0 {
		resp.Notice += " (" + strings.Join(how, "; ") + "; full: true for the whole " + whole + ")"
	}
	lead(&resp.Notice, readBlankNotice(forgivenIn(ctx), a, whole))
	var b strings.Builder
	if err := render.Read(&b, resp); err != nil {
		return nil, nil, err
	}
	return text(b.String()), resp, nil
}

// readBlankNotice is the blank arguments' notice for a read that answered
// with unit: a blank section read the whole note, which must not pass for
// the section the caller may have meant.
func readBlankNotice(f forgiven, a ReadArgs, unit string) string {
	msg := f.blankNotice()
	if _, ok := f.blank["section"]; ok && a.Lines == "" && unit == "note" {
		msg += ", so the whole note was read, not one section"
	}
	return msg
}

func (t *tools) outline(ctx context.Context, _ *mcp.CallToolRequest, a OutlineArgs) (*mcp.CallToolResult, *mdsearch.Outline, error) {
	if strings.TrimSpace(a.Path) == "" {
		return nil, nil, errors.New("path is empty: pass a note path as semantic_search returns it")
	}
	o, err := t.s.Outline(ctx, a.Path)
	if err != nil {
		return nil, nil, toolError(err, "outline", "")
	}
	var b strings.Builder
	if err := render.Outline(&b, o); err != nil {
		return nil, nil, err
	}
	return text(b.String()), o, nil
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// toolError keeps the engine's message (for a missed section it lists the
// sections) and adds what an agent should try next.
func toolError(err error, tool, section string) error {
	next := ""
	switch mdsearch.KindOf(err) {
	case mdsearch.KindNotFound:
		if tool == "search" { // only a collection can be missing
			next = "Use a collection named in the error, or omit collection to search them all."
		} else if section != "" && strings.Contains(err.Error(), "has no headings") {
			next = "Retry read_note without section, or with lines."
		} else if me := (*mdsearch.Error)(nil); section != "" && errors.As(err, &me) && me.Op == "find section" {
			next = "Retry read_note with one of the section paths (or #anchors) listed, or call note_outline."
		} else if strings.HasPrefix(section, "^") { // the note was found; its block was not
			next = "Retry read_note without section, or with a section path from note_outline."
		} else {
			next = "Use a path exactly as semantic_search returns it."
		}
	case mdsearch.KindForbidden:
		next = "Pass a markdown note's path as semantic_search returns it: relative to its collection's folder, without '..'."
	case mdsearch.KindInvalid:
		next = "Fix the arguments and retry."
	}
	if next == "" {
		return err
	}
	return fmt.Errorf("%w\n%s", err, next)
}
