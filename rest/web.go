package rest

import (
	"embed"
	"io/fs"
	"net/http"
)

// The search page: plain HTML, CSS and JavaScript, no build step and no
// third-party code, so the binary serves it offline.
//
//go:embed web
var webFS embed.FS

// pageHandler serves the embedded page files. Browsers revalidate them on
// each load, since they change only with the binary.
func pageHandler() http.Handler {
	sub, err := fs.Sub(webFS, "web")
	if err != nil {
		panic(err)
	}
	files := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}
