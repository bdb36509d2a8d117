package rest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/mdsearch/mdsearch/internal/fileident"
	"github.com/mdsearch/mdsearch/vault"
)

// attachmentCSP is the Content-Security-Policy of an attachment: an SVG
// opened by its address runs no script and reaches nothing, in an origin
// of its own (sandbox), whatever it holds.
const attachmentCSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

// handleAttachment answers GET /api/v1/attachments/{path}?collection=C:
// an image a note embeds, from inside the collection's folder (what
// Options.OpenAttachment opens), with its type and no sniffing.
func (srv *Server) handleAttachment(w http.ResponseWriter, r *http.Request, escaped string) {
	p, ok := notePath(w, "attachments", escaped)
	if !ok {
		return
	}
	vals, err := onlyParams(r.URL.RawQuery, "collection")
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid", err.Error())
		return
	}
	// The collection is required here, so an empty one reads as a missing
	// one rather than textParam's "leave it out".
	coll := strings.TrimSpace(vals.Get("collection"))
	if coll == "" {
		err = errors.New("collection is missing: name the collection the attachment is in, e.g. ?collection=notes")
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid", err.Error())
		return
	}
	if srv.opts.OpenAttachment == nil {
		writeError(w, http.StatusNotFound, "not_found", "this server serves no attachments")
		return
	}
	f, err := srv.opts.OpenAttachment(r.Context(), coll, p)
	if err != nil {
		srv.writeEngineError(w, r, err)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		srv.writeEngineError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", vault.AttachmentType(p))
	h.Set("Content-Security-Policy", attachmentCSP)
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", attachmentETag(fi))
	http.ServeContent(w, r, "", fi.ModTime(), f)
}

// attachmentETag names this version of the file: its size and times, and
// where the system tells them, its inode and change time, which no
// program sets back, so a file replaced by one of the same size with an
// older modification time is not taken for the one a browser holds (as
// Last-Modified alone would be).
func attachmentETag(fi os.FileInfo) string {
	id, ok := fileident.OfInfo(fi)
	if !ok {
		id = fileident.ID{Size: fi.Size(), Mtime: fi.ModTime().UnixNano()}
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "%d %d %d %d %d", id.Size, id.Mtime, id.Ctime, id.Ino, id.Dev))
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

// attachmentHref is the address an attachment is served at, for an
// <img> in a rendered note.
func attachmentHref(collection, p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return "/api/v1/attachments/" + strings.Join(segs, "/") + "?" + url.Values{"collection": {collection}}.Encode()
}
