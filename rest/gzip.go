package rest

import (
	"compress/gzip"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// minGzip is the smallest answer worth compressing: below it, gzip's
// header and the work cost more than they save.
const minGzip = 1024

// gzipPool's writers compress at gzip's best speed: a 50-result answer
// of 112 KB took 1.3 ms to 39 KB, against 3.0 ms to 32 KB at the default
// level (docs/benchmarks.md), and a search should not wait on its
// compression longer than on its ranking.
var gzipPool = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return w
}}

// gzipped compresses text answers (JSON, HTML, JavaScript, CSS, plain
// text) of minGzip bytes or more for a client that takes gzip: a search
// of 50 results is 93 KB of JSON, 20 KB gzipped. Images, ranges and answers
// without a body are sent as they are.
func gzipped(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead || r.Header.Get("Range") != "" {
			h.ServeHTTP(w, r)
			return
		}
		gw := &gzipWriter{ResponseWriter: w, accepted: acceptsGzip(r.Header.Get("Accept-Encoding"))}
		defer gw.close()
		h.ServeHTTP(gw, r)
	})
}

// acceptsGzip reports whether an Accept-Encoding header takes gzip (or
// any coding) at a weight above 0.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "x-gzip" && coding != "*" {
			continue
		}
		if q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q="); ok {
			if v, err := strconv.ParseFloat(q, 64); err == nil && v <= 0 {
				return false
			}
		}
		return true
	}
	return false
}

// compressible reports whether a content type is text that gzip shrinks.
func compressible(ctype string) bool {
	ctype, _, _ = strings.Cut(ctype, ";")
	ctype = strings.TrimSpace(strings.ToLower(ctype))
	return strings.HasPrefix(ctype, "text/") || ctype == "application/json" || ctype == "application/javascript"
}

// gzipWriter holds back the first minGzip bytes of a compressible answer
// to learn its size, then sends it compressed or as it is.
type gzipWriter struct {
	http.ResponseWriter
	accepted bool
	code     int          // the status held back, 0 until WriteHeader
	buf      []byte       // the body held back while undecided
	decided  bool         // the header is sent
	zw       *gzip.Writer // set when compressing
}

func (g *gzipWriter) WriteHeader(code int) {
	if g.code != 0 || g.decided {
		return
	}
	g.code = code
	hd := g.Header()
	if !compressible(hd.Get("Content-Type")) || hd.Get("Content-Encoding") != "" {
		g.send(false)
		return
	}
	hd.Add("Vary", "Accept-Encoding")
	switch n, err := strconv.Atoi(hd.Get("Content-Length")); {
	case !g.accepted, code != http.StatusOK && code < 400, err == nil && n < minGzip:
		g.send(false)
	case err == nil:
		g.send(true)
	}
}

func (g *gzipWriter) Write(b []byte) (int, error) {
	if g.code == 0 {
		if g.Header().Get("Content-Type") == "" {
			g.Header().Set("Content-Type", http.DetectContentType(b))
		}
		g.WriteHeader(http.StatusOK)
	}
	switch {
	case g.zw != nil:
		return g.zw.Write(b)
	case g.decided:
		return g.ResponseWriter.Write(b)
	}
	g.buf = append(g.buf, b...)
	if len(g.buf) >= minGzip {
		g.send(true)
		if err := g.flushBuf(); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

// send writes the header, compressing the body from here on or not.
func (g *gzipWriter) send(compress bool) {
	g.decided = true
	if compress {
		hd := g.Header()
		hd.Set("Content-Encoding", "gzip")
		hd.Del("Content-Length")
		if tag := hd.Get("ETag"); tag != "" && !strings.HasPrefix(tag, "W/") {
			hd.Set("ETag", "W/"+tag) // the bytes differ; the meaning does not
		}
		g.zw = gzipPool.Get().(*gzip.Writer)
		g.zw.Reset(g.ResponseWriter)
	}
	g.ResponseWriter.WriteHeader(g.code)
}

// flushBuf passes on what was held back.
func (g *gzipWriter) flushBuf() error {
	b := g.buf
	g.buf = nil
	var err error
	if g.zw != nil {
		_, err = g.zw.Write(b)
	} else if len(b) > 0 {
		_, err = g.ResponseWriter.Write(b)
	}
	return err
}

// close ends the answer: one still held back was small, and goes as it is.
func (g *gzipWriter) close() {
	if g.code == 0 {
		return // nothing written: net/http sends its empty 200
	}
	if !g.decided {
		g.send(false)
	}
	_ = g.flushBuf()
	if g.zw != nil {
		_ = g.zw.Close()
		gzipPool.Put(g.zw)
		g.zw = nil
	}
}

// Flush sends what is held back and compressed so far: an answer that
// streams is not held back for minGzip bytes.
func (g *gzipWriter) Flush() {
	if g.code != 0 && !g.decided {
		g.send(g.accepted && len(g.buf) >= minGzip)
	}
	_ = g.flushBuf()
	if g.zw != nil {
		_ = g.zw.Flush()
	}
	if f, ok := g.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the connection's writer.
func (g *gzipWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }

var _ http.Flusher = (*gzipWriter)(nil)
