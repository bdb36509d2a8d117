package rest

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/render"
)

// SearchResponse is the engine's answer, as the CLI's --json and MCP give
// it, with each result carrying the fields of the semantic-search API
// (GET /api/v1/semantic-search, as otterwiki-semantic-search serves it)
// beside the shared ones, so that API's clients keep working.
type SearchResponse struct {
	mdsearch.SearchResponse
	Results []SearchResult `json:"results"` // in place of the embedded Results
}

// SearchResult is one result: mdsearch.Result with the semantic-search
// API's name and snippet, and where it was cut, the GET that reads the rest.
type SearchResult struct {
	Name    string `json:"name"`    // the path without its extension: the API's page name
	Snippet string `json:"snippet"` // Text prefixed with its heading path, "[A > B] ..."
	mdsearch.Result
	ReadURL string `json:"read_url,omitempty"` // with Truncated: the GET that reads the lines RestFrom to RestTo
}

// searchParams are the query parameters semantic-search accepts.
var searchParams = map[string]bool{"q": true, "n": true, "max_per_page": true, mdsearch.MaxPerPageAlias: true,
	"mode": true, "collection": true, "tag": true, "path_prefix": true, "where": true, "max_tokens": true, "exclude": true, "no_rerank": true, "as_typed": true, "explain": true, "min_score": true, "offset": true, "sort": true}

// repeatable are the parameters that may be given more than once: every
// tag and every frontmatter condition must match, every note named by
// exclude is left out.
var repeatable = map[string]bool{"tag": true, "where": true, "exclude": true}

// maxParamLen bounds each parameter but q, which the request's Check
// bounds to the longest query the engine takes.
const maxParamLen = mdsearch.MaxFieldBytes

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

// parseSearch reads the raw query string strictly (every parameter
// known and given once) into a request, and checks it.
func parseSearch(raw string) (mdsearch.SearchRequest, error) {
	var req mdsearch.SearchRequest
	vals, err := url.ParseQuery(raw)
	if err != nil {
		return req, fmt.Errorf("malformed query string: %v", err)
	}
	for k, v := range vals {
		switch {
		case !searchParams[k]:
			return req, fmt.Errorf("unknown parameter %q: use q, n, max_per_page (or %s), mode, collection, tag, path_prefix, where, exclude, no_rerank, as_typed, explain, max_tokens, min_score, offset or sort", k, mdsearch.MaxPerPageAlias)
		case len(v) > 1 && !repeatable[k]:
			return req, fmt.Errorf("parameter %q is given %d times; give it once", k, len(v))
		}
		if err := checkValues(k, v); err != nil {
			return req, err
		}
	}
	if !vals.Has("q") && !vals.Has("tag") && !vals.Has("path_prefix") && !vals.Has("where") && !vals.Has("sort") {
		return req, fmt.Errorf("missing q: say what to search for, e.g. ?q=sourdough+starter, or give tag, path_prefix or where alone to list the notes that have it, or sort=modified alone to list every note, last changed first")
	}
	req.Query = vals.Get("q")
	if req.N, err = intParam(vals, "n", "n", mdsearch.DefaultN); err != nil {
		return req, err
	}
	perPage := "max_per_page"
	if vals.Has(mdsearch.MaxPerPageAlias) {
		if vals.Has(perPage) {
			return req, mdsearch.BothNames(perPage, mdsearch.MaxPerPageAlias)
		}
		perPage = mdsearch.MaxPerPageAlias
	}
	if req.MaxPerPage, err = intParam(vals, perPage, "max_per_page", 0); err != nil { // 0: the default cap
		return req, err
	}
	if req.MaxTokens, err = intParam(vals, "max_tokens", "max_tokens", 0); err != nil { // 0: no budget, as in the CLI and MCP
		return req, err
	}
	if req.Offset, err = intParam(vals, "offset", "offset", 0); err != nil { // a list's page; 0: its first
		return req, err
	}
	if req.MinScore, err = floatParam(vals, "min_score"); err != nil { // 0: every result, as in the CLI and MCP
		return req, err
	}
	req.Mode = mdsearch.ModeHybrid
	m, err := textParam(vals, "mode")
	if err != nil {
		return req, err
	}
	if m != "" {
		req.Mode = mdsearch.Mode(m)
	}
	if req.Collection, err = textParam(vals, "collection"); err != nil {
		return req, err
	}
	if req.Sort, err = textParam(vals, "sort"); err != nil { // a list's order; "": by path
		return req, err
	}
	if req.Tag, req.Tags, err = mdsearch.SplitTags(vals["tag"]); err != nil {
		return req, err
	}
	if req.PathPrefix, err = textParam(vals, "path_prefix"); err != nil {
		return req, err
	}
	if req.Where, err = mdsearch.ParseWhere(vals["where"]); err != nil {
		return req, err
	}
	req.Exclude = vals["exclude"]
	if req.NoRerank, err = boolParam(vals, "no_rerank"); err != nil {
		return req, err
	}
	if req.AsTyped, err = boolParam(vals, "as_typed"); err != nil {
		return req, err
	}
	if req.Explain, err = boolParam(vals, "explain"); err != nil {
		return req, err
	}
	return req, req.Check()
}

// checkValues bounds the length of each value of a parameter and checks
// its encoding: bytes that are not UTF-8 name no heading, collection or
// tag (a note's own such bytes are read and shown as U+FFFD). The query
// is the request's Check's to judge.
func checkValues(k string, v []string) error {
	if k == "q" {
		return nil
	}
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

// intParam parses an optional integer parameter, the request's field
// (as SearchRequest's JSON names it); absent, it is def. Its range is the
// request's Check's to judge; a whole number too large for an int is out
// of it, and the error says the range.
func intParam(vals url.Values, name, field string, def int) (int, error) {
	s, ok := vals[name]
	if !ok {
		return def, nil
	}
	// Spaces around the number are no mistake (MCP takes " 3" too).
	n, err := strconv.Atoi(strings.TrimSpace(s[0]))
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, mdsearch.OutOfRange(field, strings.TrimSpace(s[0]))
	case err != nil:
		return 0, mdsearch.NotWhole(name, s[0])
	}
	return n, nil
}

// floatParam parses an optional number parameter; absent, it is 0. Its
// range is the request's Check's to judge.
func floatParam(vals url.Values, name string) (float64, error) {
	s, ok := vals[name]
	if !ok {
		return 0, nil
	}
	x, err := strconv.ParseFloat(s[0], 64)
	if err != nil {
		return 0, fmt.Errorf("%s is %q: use a number, e.g. 0.3", name, s[0])
	}
	return x, nil
}

func toAPI(resp *mdsearch.SearchResponse) SearchResponse {
	out := SearchResponse{SearchResponse: *resp, Results: make([]SearchResult, 0, len(resp.Results))}
	out.SearchResponse.Results = nil // the embedded list is out.Results
	for _, r := range resp.Results {
		out.Results = append(out.Results, SearchResult{Name: strings.TrimSuffix(r.Path, path.Ext(r.Path)),
			Snippet: render.Prefix(r) + r.Text, Result: r, ReadURL: readURL(r)})
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
