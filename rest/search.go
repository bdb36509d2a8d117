package rest

import (
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/render"
)

// SearchResponse is the answer of the semantic-search API that existing
// clients read (results, total), plus mode, timing and a notice.
type SearchResponse struct {
	Query   string         `json:"query"`
	Results []SearchResult `json:"results"`
	Total   int            `json:"total"`
	Mode    mdsearch.Mode  `json:"mode"`
	TookMS  float64        `json:"took_ms"`
	Notice  string         `json:"notice,omitempty"`
}

// SearchResult is one result as the semantic-search API's clients read it
// (name, snippet, distance). Snippet is the whole passage prefixed with its
// heading path, "[A > B] ...".
type SearchResult struct {
	Name          string   `json:"name"` // path without its extension: the API's page name
	Path          string   `json:"path"`
	Title         string   `json:"title"`
	Snippet       string   `json:"snippet"`
	Distance      *float64 `json:"distance"`
	Section       string   `json:"section"`
	SectionPath   []string `json:"section_path"`
	ChunkIndex    int      `json:"chunk_index"`
	TotalChunks   int      `json:"total_chunks"`
	PageWordCount int      `json:"page_word_count"`
	Score         float64  `json:"score"`
	StartLine     int      `json:"start_line"`
	EndLine       int      `json:"end_line"`
	Collection    string   `json:"collection"`
	Stale         bool     `json:"stale,omitempty"` // the file changed on disk since it was indexed
	// Added with passages: every section a merged passage covers, the last
	// chunk index of neighbouring passages merged into this result, and
	// whether the text was cut to fit max_tokens (read_hint says how to
	// read the rest, as the CLI does; read_url is the GET that does).
	Sections  [][]string `json:"sections,omitempty"`
	ChunkEnd  int        `json:"chunk_end,omitempty"`
	Truncated bool       `json:"truncated,omitempty"`
	ReadHint  string     `json:"read_hint,omitempty"`
	ReadURL   string     `json:"read_url,omitempty"`
}

// searchParams are the query parameters semantic-search accepts.
var searchParams = map[string]bool{"q": true, "n": true, "max_chunks_per_page": true,
	"mode": true, "collection": true, "tag": true, "path_prefix": true, "where": true, "max_tokens": true, "exclude": true, "no_rerank": true}

// repeatable are the parameters that may be given more than once: every
// tag and every frontmatter condition must match, every note named by
// exclude is left out.
var repeatable = map[string]bool{"tag": true, "where": true, "exclude": true}

// maxParamLen bounds each parameter: the longest query the engine takes.
const maxParamLen = mdsearch.MaxQueryBytes

func (srv *Server) handleSearch(w http.ResponseWriter, r *http.Request) {
	req, err := parseSearch(r.URL.RawQuery)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid", err.Error())
		return
	}
	select {
	case srv.sem <- struct{}{}:
		defer func() { <-srv.sem }()
	case <-r.Context().Done():
		writeError(w, http.StatusServiceUnavailable, "unavailable", "request ended while waiting for a search slot")
		return
	}
	resp, err := srv.s.Search(r.Context(), req)
	if err != nil {
		srv.writeEngineError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toAPI(resp))
}

// parseSearch validates the raw query string strictly: every parameter
// known, given once, in range.
func parseSearch(raw string) (mdsearch.SearchRequest, error) {
	var req mdsearch.SearchRequest
	vals, err := url.ParseQuery(raw)
	if err != nil {
		return req, fmt.Errorf("malformed query string: %v", err)
	}
	for k, v := range vals {
		switch {
		case !searchParams[k]:
			return req, fmt.Errorf("unknown parameter %q: use q, n, max_chunks_per_page, mode, collection, tag, path_prefix, where or max_tokens", k)
		case len(v) > 1 && !repeatable[k]:
			return req, fmt.Errorf("parameter %q is given %d times; give it once", k, len(v))
		}
		if err := checkValues(k, v); err != nil {
			return req, err
		}
	}
	switch req.Query = strings.TrimSpace(vals.Get("q")); {
	case !vals.Has("q"):
		return req, fmt.Errorf("missing q: say what to search for, e.g. ?q=sourdough+starter")
	case blank(req.Query): // the engine drops these, and would say only "empty query"
		return req, fmt.Errorf("q is empty: it holds only spaces or control characters; say what to search for, e.g. ?q=sourdough+starter")
	}
	if req.N, err = intParam(vals, "n", 1, mdsearch.MaxN); err != nil {
		return req, err
	}
	if req.MaxPerPage, err = intParam(vals, "max_chunks_per_page", 1, mdsearch.MaxMaxPerPage); err != nil {
		return req, err
	}
	switch m := mdsearch.Mode(vals.Get("mode")); m {
	case "", mdsearch.ModeHybrid, mdsearch.ModeSemantic, mdsearch.ModeKeyword:
		req.Mode = m
	default:
		return req, fmt.Errorf("mode %q is unknown: use hybrid, semantic or keyword", m)
	}
	if req.MaxTokens, err = intParam(vals, "max_tokens", 0, mdsearch.MaxMaxTokens); err != nil { // 0: no budget, as in the CLI and MCP
		return req, err
	}
	req.Collection = vals.Get("collection")
	if req.Tag, req.Tags, err = mdsearch.SplitTags(vals["tag"]); err != nil {
		return req, err
	}
	req.PathPrefix = vals.Get("path_prefix")
	if req.Where, err = mdsearch.ParseWhere(vals["where"]); err != nil {
		return req, err
	}
	req.Exclude = vals["exclude"]
	if v := vals.Get("no_rerank"); vals.Has("no_rerank") {
		if req.NoRerank, err = strconv.ParseBool(v); err != nil {
			return req, fmt.Errorf("no_rerank is %q: use true or false", v)
		}
	}
	return req, nil
}

// blank reports whether s holds nothing but spaces and control
// characters, which the engine trims from a query.
func blank(s string) bool {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) == ""
}

// checkValues bounds the length of each value of a parameter and checks
// its encoding: bytes that are not UTF-8 name no heading, collection or
// tag (a note's own such bytes are read and shown as U+FFFD).
func checkValues(k string, v []string) error {
	for _, s := range v {
		switch {
		case len(s) > maxParamLen:
			return fmt.Errorf("parameter %q is longer than %d bytes", k, maxParamLen)
		case !utf8.ValidString(s):
			return fmt.Errorf("parameter %q is not valid UTF-8: percent-encode the UTF-8 bytes of the text (é is %%C3%%A9)", k)
		}
	}
	return nil
}

// intParam parses an optional integer parameter in [lo, hi]; absent is 0,
// which the engine reads as its default.
func intParam(vals url.Values, name string, lo, hi int) (int, error) {
	s, ok := vals[name]
	if !ok {
		return 0, nil
	}
	n, err := strconv.Atoi(s[0])
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s is %q: use a whole number from %d to %d", name, s[0], lo, hi)
	}
	return n, nil
}

func toAPI(resp *mdsearch.SearchResponse) SearchResponse {
	out := SearchResponse{Query: resp.Query, Total: resp.Total, Mode: resp.Mode, TookMS: resp.TookMS,
		Notice: resp.Notice, Results: make([]SearchResult, 0, len(resp.Results))}
	for _, r := range resp.Results {
		out.Results = append(out.Results, SearchResult{
			Name: strings.TrimSuffix(r.Path, path.Ext(r.Path)), Path: r.Path, Title: r.Title,
			Snippet: render.Prefix(r) + r.Text, Distance: r.Distance, Section: r.Section, SectionPath: nonNil(r.SectionPath),
			ChunkIndex: r.ChunkIndex, TotalChunks: r.TotalChunks, PageWordCount: r.PageWordCount,
			Score: r.Score, StartLine: r.StartLine, EndLine: r.EndLine, Collection: r.Collection, Stale: r.Stale,
			Sections: r.Sections, ChunkEnd: r.ChunkEnd, Truncated: r.Truncated, ReadHint: r.ReadHint, ReadURL: readURL(r),
		})
	}
	return out
}

// readURL is the address that reads what a cut result left out, or ""
// for a result that was not cut.
func readURL(r mdsearch.Result) string {
	if !r.Truncated || r.RestFrom == 0 {
		return ""
	}
	note := r.Path
	if r.Collection != "" { // names it even where another collection holds the path
		note = r.Collection + ":" + r.Path
	}
	segs := strings.Split(note, "/")
	for i := range segs {
		segs[i] = url.PathEscape(segs[i])
	}
	return fmt.Sprintf("/api/v1/notes/%s?lines=%d-%d", strings.Join(segs, "/"), r.RestFrom, r.RestTo)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
