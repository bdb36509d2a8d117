package rest

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"strings"
)

// The search page: plain HTML, CSS and JavaScript, no build step and no
// third-party code, so the binary serves it offline.
//
//go:embed web
var webFS embed.FS

// pageHandler serves the embedded page files. Browsers revalidate them on
// each load, since they change only with the binary; each carries an
// ETag of its content, so revalidating costs a 304, not the file.
func pageHandler() http.Handler {
	sub, err := fs.Sub(webFS, "web")
	if err != nil {
		panic(err)
	}
	tags := pageETags(sub)
	files := http.FileServerFS(sub)
	// Errors are the API's JSON, as for any path: the page's own are
	// few, and a client of either reads one shape.
	return only(http.MethodGet, func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "" {
			name = "index.html"
		}
		tag, ok := tags[name]
		if !ok {
			writeError(w, http.StatusNotFound, "not_found", "no such page file: "+r.URL.Path+
				": the search page is at /, the API under /api/v1/")
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("ETag", tag) // http.ServeContent answers If-None-Match with it
		files.ServeHTTP(w, r)
	})
}

// pageETags are the page files' ETags by name, hashes of their content,
// computed once. They are weak: a file sent gzipped is another string of
// bytes with the same meaning.
func pageETags(files fs.FS) map[string]string {
	tags := map[string]string{}
	err := fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files, name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		tags[name] = `W/"` + hex.EncodeToString(sum[:12]) + `"`
		return nil
	})
	if err != nil {
		panic(err) // the files are embedded: they cannot be unreadable
	}
	return tags
}
