package engine

import (
	"context"
	"errors"
	"os"
	"sync"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/vault"
)

// noteLinks keeps, by collection, the listing of its notes and
// attachments that resolves the links and embeds of a rendered note
// (NoteLinks). A listing is reused for a few
// seconds, so a page that opens note after note walks the vault once, and
// calls that miss the cache together wait for one walk. The zero value is
// ready to use.
type noteLinks struct {
	mu    sync.Mutex
	cache map[string]*listing
}

// listing is one walk of a collection's vault and the link index built
// from it; done closes when it ends.
type listing struct {
	done  chan struct{}
	links *vault.LinkIndex
	err   error
	at    time.Time
}

// noteLinksTTL is how long a listing is reused.
const noteLinksTTL = 10 * time.Second

// NoteLinks is the link index of the named collection's notes: its folder
// walked as indexing walks it (the same ignore rules and size limit), so a
// link in a rendered note resolves to the note Obsidian would open. An
// unknown collection has no notes.
func (e *Engine) NoteLinks(ctx context.Context, collection string) (*vault.LinkIndex, error) {
	n := &e.links
	for {
		n.mu.Lock()
		l := n.cache[collection]
		if l == nil || (finished(l) && time.Since(l.at) >= noteLinksTTL) {
			l = &listing{done: make(chan struct{})}
			if n.cache == nil {
				n.cache = map[string]*listing{}
			}
			n.cache[collection] = l
			n.mu.Unlock()
			e.fillLinks(ctx, collection, l)
			return l.links, l.err
		}
		n.mu.Unlock()
		select {
		case <-l.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if l.err == nil {
			return l.links, nil
		}
		// The walk failed; fillLinks dropped it from the cache. Its call
		// may have been cancelled while this one was not: walk again.
		cancelled := errors.Is(l.err, context.Canceled) || errors.Is(l.err, context.DeadlineExceeded)
		if !cancelled || ctx.Err() != nil {
			return nil, l.err
		}
	}
}

// fillLinks walks the collection's vault into l and closes l.done. A
// failed walk is not kept.
func (e *Engine) fillLinks(ctx context.Context, collection string, l *listing) {
	var paths, attachments []string
	paths, attachments, l.err = e.notePaths(ctx, collection)
	l.links, l.at = vault.NewLinkIndex(paths).WithAttachments(attachments), time.Now()
	if l.err != nil {
		n := &e.links
		n.mu.Lock()
		if n.cache[collection] == l {
			delete(n.cache, collection)
		}
		n.mu.Unlock()
	}
	close(l.done)
}

// notePaths lists the vault-relative paths of the notes in the folder of
// the named collection, as a walk with the collection's size limit finds
// them, and of its attachments; none for an unknown collection.
func (e *Engine) notePaths(ctx context.Context, collection string) (notes, attachments []string, err error) {
	v, err := e.collectionVault(ctx, collection)
	if err != nil || v == nil {
		return nil, nil, err
	}
	l, err := v.List(ctx) // the folder, not the index: without holding it
	if err != nil {
		return nil, nil, err
	}
	notes = make([]string, 0, len(l.Files))
	for _, f := range l.Files {
		notes = append(notes, f.Path)
	}
	return notes, l.Attachments, nil
}

// OpenAttachment opens an attachment of the named collection: an image
// inside its folder that a note embeds, checked as vault.OpenAttachment
// checks it. An unknown collection is KindNotFound.
func (e *Engine) OpenAttachment(ctx context.Context, collection, rel string) (*os.File, error) {
	v, err := e.collectionVault(ctx, collection)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, mdsearch.Errorf(mdsearch.KindNotFound, "open attachment", rel, "", "no collection %q", collection)
	}
	return v.OpenAttachment(rel)
}

// collectionVault opens the folder of the named collection with the
// collection's size limit (vaultOf); nil for an unknown collection.
func (e *Engine) collectionVault(ctx context.Context, name string) (_ *vault.Vault, err error) {
	defer e.explain(&err)
	leave, err := e.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	c, err := e.st.Collection(ctx, name)
	if err != nil || c == nil {
		return nil, err
	}
	return e.vaultOf(ctx, name, c.Root)
}

// finished reports whether l's walk has ended.
func finished(l *listing) bool {
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}
