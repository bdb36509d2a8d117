package rest

import (
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/render"
)

// handleNote answers GET /api/v1/notes/{path}?section=S&full=true. escaped is the path
// as sent, still percent-encoded; it is decoded exactly once.
func (srv *Server) handleNote(w http.ResponseWriter, r *http.Request, escaped string) {
	p, ok := notePath(w, "notes", escaped)
	if !ok {
		return
	}
	vals, err := onlyParams(r.URL.RawQuery, "section", "lines", "render", "full", "comments")
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid", err.Error())
		return
	}
	var texts [3]string
	for i, name := range []string{"render", "section", "lines"} {
		if texts[i], err = textParam(vals, name); err != nil {
			writeError(w, http.StatusBadRequest, "invalid", err.Error())
			return
		}
	}
	if rd := texts[0]; rd != "" && rd != "html" {
		writeError(w, http.StatusBadRequest, "invalid", fmt.Sprintf("render is %q: the only rendering is html", rd))
		return
	}
	full, err := boolParam(vals, "full")
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid", err.Error())
		return
	}
	comments, err := boolParam(vals, "comments")
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid", err.Error())
		return
	}
	req := mdsearch.ReadRequest{Path: p, Section: texts[1], Full: full, Lines: texts[2], Comments: comments}
	resp, err := srv.s.Read(r.Context(), req)
	if err != nil {
		srv.writeEngineError(w, r, err)
		return
	}
	whole := resp.Unit(req)
	var how []string // a long note or section: say how to read more, in this API's terms
	if resp.Outline != nil {
		how = append(how, "section=PATH or ANCHOR from the outline")
	}
	if resp.More {
		how = append(how, "lines="+resp.Rest+" for the rest")
	}
	if len(how) > 0 {
		resp.Notice += " (" + strings.Join(how, "; ") + "; full=true for the whole " + whole + ")"
	}
	resp.Notice = mdsearch.JoinNotices(resp.Notice, resp.CommentsNotice("comments=true"))
	if vals.Get("render") == "html" {
		srv.writeRendered(w, r, resp, comments)
		return
	}
	if wantsMarkdown(r.Header.Get("Accept")) {
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if resp.Notice != "" {
			w.Header().Set("Mdsearch-Notice", asciiHeader(resp.Notice)) // the body stays the note's own text
		}
		if resp.Outline != nil {
			_ = render.Outline(w, resp.AsOutline())
			return
		}
		_, _ = io.WriteString(w, resp.Content)
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

// textParam is a text parameter's value, "" when it is absent. Given
// empty, it is refused: a client that sent collection= or section= meant
// one, and reading it as absent would widen the answer unsaid.
func textParam(vals url.Values, name string) (string, error) {
	s, ok := vals[name]
	if !ok {
		return "", nil
	}
	if strings.TrimSpace(s[0]) == "" {
		return "", fmt.Errorf("%s is empty: give one, or leave %s out", name, name)
	}
	return s[0], nil
}

// boolParam parses an optional true/false parameter; absent is false.
func boolParam(vals url.Values, name string) (bool, error) {
	s, ok := vals[name]
	if !ok {
		return false, nil
	}
	b, err := strconv.ParseBool(s[0])
	if err != nil {
		return false, fmt.Errorf("%s is %q: use true or false (or 1 or 0)", name, s[0])
	}
	return b, nil
}

// handleOutline answers GET /api/v1/outline/{path}.
func (srv *Server) handleOutline(w http.ResponseWriter, r *http.Request, escaped string) {
	p, ok := notePath(w, "outline", escaped)
	if !ok {
		return
	}
	if _, err := onlyParams(r.URL.RawQuery); err != nil {
		writeError(w, http.StatusBadRequest, "invalid", err.Error())
		return
	}
	o, err := srv.s.Outline(r.Context(), p)
	if err != nil {
		srv.writeEngineError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, o)
}

// notePath decodes a vault path from the URL of endpoint (notes, outline
// or attachments), answering 400 itself when it is empty or malformed.
func notePath(w http.ResponseWriter, endpoint, escaped string) (string, bool) {
	p, err := url.PathUnescape(escaped)
	switch {
	case err != nil:
		writeError(w, http.StatusBadRequest, "invalid", fmt.Sprintf("note path %q is not properly percent-encoded", escaped))
		return "", false
	case p == "":
		what, example := "note", "kitchen/Sourdough.md"
		if endpoint == "attachments" {
			what, example = "attachment", "assets/diagram.png?collection=notes"
		}
		writeError(w, http.StatusBadRequest, "invalid", fmt.Sprintf("missing %s path: use /api/v1/%s/{path}, e.g. /api/v1/%[2]s/%s", what, endpoint, example))
		return "", false
	case len(p) > maxParamLen:
		writeError(w, http.StatusBadRequest, "invalid", fmt.Sprintf("note path is longer than %d bytes", maxParamLen))
		return "", false
	}
	return p, true
}

// onlyParams parses a query string that may hold only the named
// parameters, each at most once, bounded and UTF-8.
func onlyParams(raw string, allowed ...string) (url.Values, error) {
	vals, err := url.ParseQuery(raw)
	if err != nil {
		return nil, fmt.Errorf("malformed query string: %v", err)
	}
	for k, v := range vals {
		if !slices.Contains(allowed, k) {
			if len(allowed) == 0 {
				return nil, fmt.Errorf("unknown parameter %q: this endpoint takes none", k)
			}
			return nil, fmt.Errorf("unknown parameter %q: use %s", k, strings.Join(allowed, ", "))
		}
		if len(v) > 1 {
			return nil, fmt.Errorf("parameter %q is given %d times; give it once", k, len(v))
		}
		if err := checkValues(k, v); err != nil {
			return nil, err
		}
	}
	return vals, nil
}

// wantsMarkdown reports whether an Accept header prefers markdown (or plain
// text) to JSON. Order decides ties; q-values are honoured.
func wantsMarkdown(accept string) bool {
	best, bestQ := "", -1.0
	for _, part := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if s, ok := params["q"]; ok {
			if _, err := fmt.Sscanf(s, "%g", &q); err != nil {
				continue
			}
		}
		switch mt {
		case "text/markdown", "text/plain", "text/x-markdown", "application/json":
			if q > bestQ {
				best, bestQ = mt, q
			}
		}
	}
	return best != "" && best != "application/json" && bestQ > 0
}

// asciiHeader is s fit for an HTTP header value, which is ASCII: dashes
// become '-', and other bytes outside printable ASCII, and '%', are
// percent-encoded, so a client decodes a notice in any script exactly
// (decodeURIComponent, url.PathUnescape).
func asciiHeader(s string) string {
	s = strings.NewReplacer("–", "-", "—", "-").Replace(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '%' {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}
