package rest

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/rest/notehtml"
	"github.com/mdsearch/mdsearch/vault"
)

// RenderedNote is a note read with render=html: the read, plus its content
// as safe HTML and its headings with their ids and lines.
type RenderedNote struct {
	mdsearch.ReadResponse
	HTML     string             `json:"html"`
	Headings []notehtml.Heading `json:"headings"`
}

// renderNote renders a read note for the page, its wikilinks resolved
// among the notes of its collection and its embeds among its attachments;
// comments says whether the read kept the note's comments (the renderer
// hides them either way). It stops with ctx's error once the client has
// gone.
func (srv *Server) renderNote(ctx context.Context, resp *mdsearch.ReadResponse, comments bool) (RenderedNote, error) {
	var links *vault.LinkIndex
	if srv.opts.NoteLinks != nil {
		var err error
		if links, err = srv.opts.NoteLinks(ctx, resp.Collection); err != nil {
			srv.log.Warn("listing notes to resolve links", "collection", resp.Collection, "err", err)
		}
	}
	link := func(target, heading string, wiki bool) (string, bool) {
		if links == nil {
			return "", false
		}
		resolve := links.ResolveRelative
		if wiki {
			resolve = links.Resolve
		}
		p, ok := resolve(resp.Path, target)
		if !ok {
			return "", false
		}
		return noteHref(resp.Collection, p, heading), true
	}
	attachment := func(name string) (string, bool) {
		if links == nil {
			return "", false
		}
		p, ok := links.ResolveAttachment(resp.Path, name)
		if !ok {
			return "", false
		}
		return attachmentHref(resp.Collection, p), true
	}
	opts := notehtml.Options{FirstLine: resp.StartLine, Link: link, Tag: tagHref, Attachment: attachment}
	if resp.Section != "" || resp.StartLine > 1 { // a section or lines: ids as the whole note gives them ("setup-1", not "setup")
		whole, err := srv.s.Read(ctx, mdsearch.ReadRequest{Path: resp.Collection + ":" + resp.Path, Full: true, Comments: comments})
		if err == nil {
			opts.IDs = notehtml.SectionIDs([]byte(whole.Content), resp.StartLine)
		}
	}
	r, err := notehtml.HTMLContext(ctx, []byte(resp.Content), opts)
	return RenderedNote{ReadResponse: *resp, HTML: r.HTML, Headings: r.Headings}, err
}

// noteHref is the page's address of a note, opened at a heading (its text)
// or at the block a block reference ("^id") names, when one is given.
// reader.js reads the same parameters.
func noteHref(collection, path, heading string) string {
	v := url.Values{"path": {path}}
	if collection != "" {
		v.Set("collection", collection)
	}
	if block, ok := strings.CutPrefix(heading, "^"); ok {
		v.Set("block", block)
	} else if heading != "" {
		v.Set("heading", heading)
	}
	return "#/note?" + v.Encode()
}

// tagHref is the page's address of a search in the notes with a tag.
// app.js reads the same parameter.
func tagHref(name string) string {
	return "#/search?" + url.Values{"tag": {name}}.Encode()
}

// writeRendered answers a read asked for with render=html.
func (srv *Server) writeRendered(w http.ResponseWriter, r *http.Request, resp *mdsearch.ReadResponse, comments bool) {
	note, err := srv.renderNote(r.Context(), resp, comments)
	if err != nil { // the client has gone: no one reads an answer
		srv.log.Debug("rendering stopped", "path", resp.Path, "err", err)
		return
	}
	writeJSON(w, http.StatusOK, note)
}
