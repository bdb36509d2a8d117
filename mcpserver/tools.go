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
// max_chunks_per_page, max_per_page's old name, is still taken (lenient)
// but not advertised.
type SearchArgs struct {
	Query      string         `json:"query,omitempty" jsonschema:"words to look for (an error's gist); \"a phrase\" must match, -word must not; tag:NAME, path:TEXT, file:TEXT, [field:value], task-todo: filter as in Obsidian, and alone list notes"`
	N          int            `json:"n,omitempty" jsonschema:"most results to return"`
	MaxPerPage int            `json:"max_per_page,omitempty" jsonschema:"most per note (default 2; more if others weak)"`
	Mode       string         `json:"mode,omitempty" jsonschema:"semantic: meaning; keyword: exact words (names, codes); hybrid: both"`
	Collection string         `json:"collection,omitempty" jsonschema:"only this collection (indexed folder)"`
	Tag        string         `json:"tag,omitempty" jsonschema:"only notes with this tag (no #)"`
	PathPrefix string         `json:"path_prefix,omitempty" jsonschema:"only paths starting with this (any case): projects/"`
	Tags       []string       `json:"tags,omitempty" jsonschema:"only notes with all of these tags"`
	Where      map[string]any `json:"where,omitempty" jsonschema:"only notes whose frontmatter has these (any case; a list: holds it), e.g. {\"due\": \"<today\", \"file.mtime\": \">=today-7d\"}; a.b: b in map a"`
	Exclude    []string       `json:"exclude,omitempty" jsonschema:"skip these notes (already read), as read_note names them"`
	NoRerank   bool           `json:"no_rerank,omitempty" jsonschema:"skip the reranker"`
	AsTyped    bool           `json:"as_typed,omitempty" jsonschema:"no respelling"`
	Explain    bool           `json:"explain,omitempty" jsonschema:"say why each ranked"`
	MaxTokens  int            `json:"max_tokens,omitempty" jsonschema:"about this many tokens at most; the last result cut, with lines to read the rest"`
	MinScore   float64        `json:"min_score,omitempty" jsonschema:"drop results scoring under this"`
	Offset     int            `json:"offset,omitempty" jsonschema:"notes a list (no words) skips"`
	Sort       string         `json:"sort,omitempty" jsonschema:"a list's order"`
}

// ReadArgs are read_note's arguments.
type ReadArgs struct {
	Path     string `json:"path" jsonschema:"note path as semantic_search shows it (kitchen/Sourdough.md), or a link target: Intro#Setup, [[Intro]]"`
	Section  string `json:"section,omitempty" jsonschema:"a section as results or note_outline show it: path, heading or #anchor (/: text before the first heading, ^id a block); omit for the whole note"`
	Full     bool   `json:"full,omitempty" jsonschema:"the whole text even over 1500 words or 64 KB"`
	Lines    string `json:"lines,omitempty" jsonschema:"instead of a section: these lines, as 40-80, 40- or 40"`
	Comments bool   `json:"comments,omitempty" jsonschema:"keep %%…%% and <!--…--> comments"`
}

// OutlineArgs are note_outline's arguments.
type OutlineArgs struct {
	Path string `json:"path" jsonschema:"the note's path as semantic_search shows it"`
}

// readOnly annotates a tool that only reads the index and notes. The SDK
// always sends idempotentHint, so it is set too: false would say that
// calling it again has some further effect, which a read never has.
func readOnly() *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}
}

// scoreSentences say how to read scores of each kind (Options.Scores).
var scoreSentences = map[string]string{
	"probability": "Scores estimate the chance of an answer: 50% or more is likely; 20-50% needs reading (a short query's right answer may be there); under 20% rarely answers. " +
		"Semantic mode (meaning alone) finds answers less often, its right ones often 10-40%: prefer hybrid. ",
	"first-stage": "With this server's embedding model, hybrid and semantic scores only order one answer's results (no fixed bands: compare them within an answer); " +
		"keyword mode's estimate the chance of an answer (50% or more is likely). ",
	"reranker": "Scores are this server's reranker's relevance, not calibrated chances: compare them within an answer. ",
}

// costSentences say what a search costs, and how to spend less, by the
// kind of scores: min_score 0.1 means "rarely answers" only where scores
// are calibrated.
var costSentences = map[string]string{
	"probability": "Cost: 300-700 tokens a result, more if joined or long; after a likely first, those under 10% show openings; max_tokens caps all; min_score 0.1 drops them.",
	"first-stage": "Cost: 300-700 tokens a result, more if joined or long; max_tokens caps the text.",
	"reranker":    "Cost: 300-700 tokens a result, more if joined or long; max_tokens caps the text.",
}

func searchTool(scores string) *mcp.Tool {
	if _, ok := scoreSentences[scores]; !ok {
		scores = "probability" // "" (Options left unset), or a kind this build does not know
	}
	return &mcp.Tool{
		Name:  "semantic_search",
		Title: "Search notes",
		Description: "Search the user's markdown notes by meaning and keywords. Use this first. " +
			"Returns the best passages (a section, part of one or joined parts: usually enough to answer from), " +
			"each headed `rank. **path** > Section (score%)` and footed by its lines and `section \"...\"`: to read more, pass read_note that path and section. " +
			"`part p/P`: a piece of a long section; read_note's lines read around it. " +
			scoreSentences[scores] +
			costSentences[scores],
		InputSchema: schemaFor[SearchArgs](func(p map[string]*jsonschema.Schema) {
			// The request's Check holds the same ranges; plainArgError words
			// the validator's refusal as Check would.
			p["n"].Default, p["n"].Minimum, p["n"].Maximum = rawJSON(mdsearch.DefaultN), ptr(1.0), ptr(float64(mdsearch.MaxN))
			// No default: left out, it is the default cap, which gives way (mdsearch.SearchRequest).
			p["max_per_page"].Minimum, p["max_per_page"].Maximum = ptr(0.0), ptr(float64(mdsearch.MaxMaxPerPage)) // 0: the default, as over REST
			p["mode"].Enum = []any{string(mdsearch.ModeHybrid), string(mdsearch.ModeSemantic), string(mdsearch.ModeKeyword)}
			p["mode"].Default = rawJSON(mdsearch.ModeHybrid)
			p["min_score"].Minimum, p["min_score"].Maximum = ptr(0.0), ptr(1.0)
			p["max_tokens"].Minimum, p["max_tokens"].Maximum = ptr(0.0), ptr(float64(mdsearch.MaxMaxTokens))
			p["offset"].Minimum = ptr(0.0)
			p["sort"].Enum = []any{mdsearch.SortPath, mdsearch.SortModified}
			p["where"].AdditionalProperties = &jsonschema.Schema{Types: []string{"string", "number", "boolean"}}
		}),
		Annotations: readOnly(),
	}
}

func readTool() *mcp.Tool {
	return &mcp.Tool{
		Name:  "read_note",
		Title: "Read a note or one section",
		Description: "Return one section of a note (its heading to the next of its level or higher), some lines, or the whole note; " +
			"over 1500 words or 64 KB, its outline or first lines unless full is true. " +
			"Headings ignore case and punctuation. " +
			"Cost: about 1.3 tokens a word; answers state their tokens.",
		InputSchema: schemaFor[ReadArgs](nil),
		Annotations: readOnly(),
	}
}

func outlineTool() *mcp.Tool {
	return &mcp.Tool{
		Name:  "note_outline",
		Title: "Outline a note",
		Description: "List a note's headings as a tree with each section's words, tokens and lines (about 15 tokens a heading), then what links to it. " +
			"Pass a heading, or the path or #anchor shown where headings repeat, as read_note's section.",
		InputSchema: schemaFor[OutlineArgs](nil),
		Annotations: readOnly(),
	}
}

func (t *tools) search(ctx context.Context, _ *mcp.CallToolRequest, a SearchArgs) (*mcp.CallToolResult, *mdsearch.SearchResponse, error) {
	req, err := a.request()
	if err != nil {
		return nil, nil, err
	}
	// What was forgiven leads the answer's notice, within max_tokens.
	f := forgivenIn(ctx)
	lead(&req.Notice, f.blankNotice(), f.whereNotice())
	resp, err := t.s.Search(ctx, req)
	if err != nil {
		return nil, nil, toolError(err, "search", "")
	}
	var b strings.Builder
	if err := render.Results(&b, resp, render.Options{SectionPaths: true}); err != nil {
		return nil, nil, err
	}
	return text(b.String()), resp, nil
}

// request turns a into the engine's request and checks it. The SDK has
// already filled in defaults for absent arguments, so a 0 was sent.
func (a SearchArgs) request() (mdsearch.SearchRequest, error) {
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
		Tags: tags, Where: where, MaxTokens: a.MaxTokens, MinScore: a.MinScore, Offset: a.Offset, Sort: a.Sort, Exclude: a.Exclude, NoRerank: a.NoRerank, AsTyped: a.AsTyped, Explain: a.Explain,
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
	req := mdsearch.ReadRequest{Path: a.Path, Section: a.Section, Full: a.Full, Lines: a.Lines, Comments: a.Comments}
	resp, err := t.s.Read(ctx, req)
	if err != nil {
		return nil, nil, toolError(err, "read", a.Section)
	}
	whole := resp.Unit(req)
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
	resp.Notice = mdsearch.JoinNotices(resp.Notice, resp.CommentsNotice("comments: true"))
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
		} else if me := (*mdsearch.Error)(nil); !errors.As(err, &me) || !strings.Contains(me.Hint, "deleted since") {
			// A note deleted since indexing was named right: its hint says so.
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
