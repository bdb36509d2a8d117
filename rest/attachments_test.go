package rest

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/vault"
)

// attachmentServer serves, over real HTTP, the attachments of collection
// "v": a vault with images, a note, a hidden folder and symlinks out of
// it.
func attachmentServer(t *testing.T) *httptest.Server {
	outside := t.TempDir()
	root := t.TempDir()
	files := map[string]string{
		"assets/diagram.png": "\x89PNG\r\n\x1a\nfake", "draw.svg": `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`,
		"a.md": "# A\n", ".obsidian/x.png": "x", ".hidden/h.png": "h", filepath.Join(outside, "secret.png"): "s", "notes/b.md": "# B\n",
	}
	for p, text := range files {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"esc.png": filepath.Join(outside, "secret.png"), "escdir": outside,
		"hid": ".hidden", "hid.png": ".hidden/h.png", "gone": "../.hidden"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	v, err := vault.Open(root, vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	open := func(_ context.Context, coll, p string) (*os.File, error) {
		if coll != "v" {
			return nil, mdsearch.Errorf(mdsearch.KindNotFound, "open attachment", p, "", "no collection %q", coll)
		}
		return v.OpenAttachment(p)
	}
	ts := httptest.NewServer(New(&fake{}, Options{OpenAttachment: open}))
	t.Cleanup(ts.Close)
	return ts
}

// An attachment is served from inside its collection's folder, typed,
// never sniffed, an SVG under a policy that runs no script; every path
// that leads elsewhere is refused.
func TestAttachments(t *testing.T) {
	ts := attachmentServer(t)
	tests := []struct {
		method, target string
		code           int
		ctype, want    string
	}{
		{"GET", "/api/v1/attachments/assets/diagram.png?collection=v", 200, "image/png", "\x89PNG"},
		{"HEAD", "/api/v1/attachments/assets/diagram.png?collection=v", 200, "image/png", ""},
		{"GET", "/api/v1/attachments/assets%2Fdiagram.png?collection=v", 200, "image/png", "\x89PNG"},
		{"GET", "/api/v1/attachments/draw.svg?collection=v", 200, "image/svg+xml", "<svg"},
		{"GET", "/api/v1/attachments/../secret.png?collection=v", 403, "application/json", "is refused"},
		{"GET", "/api/v1/attachments/%2e%2e/secret.png?collection=v", 403, "application/json", "is refused"},
		{"GET", "/api/v1/attachments/assets%2F..%2F..%2Fsecret.png?collection=v", 403, "application/json", "is refused"},
		{"GET", "/api/v1/attachments/%2Fetc%2Fpasswd.png?collection=v", 403, "application/json", "absolute paths are refused"},
		{"GET", "/api/v1/attachments/esc.png?collection=v", 403, "application/json", "leads out of the vault"},
		{"GET", "/api/v1/attachments/escdir/secret.png?collection=v", 403, "application/json", "leads out of the vault"},
		{"GET", "/api/v1/attachments/.obsidian/x.png?collection=v", 403, "application/json", "not indexed"},
		{"GET", "/api/v1/attachments/hid/h.png?collection=v", 403, "application/json", "symlink to .hidden/h.png"},
		{"GET", "/api/v1/attachments/hid.png?collection=v", 403, "application/json", "symlink to .hidden/h.png"},
		{"GET", "/api/v1/attachments/gone/h.png?collection=v", 404, "application/json", "no such file"},
		{"GET", "/api/v1/attachments/a.md?collection=v", 403, "application/json", "not an attachment"},
		{"GET", "/api/v1/attachments/missing.png?collection=v", 404, "application/json", "no such file"},
		{"GET", "/api/v1/attachments/assets/diagram.png?collection=w", 404, "application/json", "no collection"},
		{"GET", "/api/v1/attachments/assets/diagram.png", 400, "application/json", "collection is missing"},
		{"GET", "/api/v1/attachments/assets/diagram.png?collection=%20", 400, "application/json", "collection is missing"},
		{"GET", "/api/v1/attachments/assets/diagram.png?collection=v&x=1", 400, "application/json", "unknown parameter"},
		{"GET", "/api/v1/attachments/?collection=v", 400, "application/json", "missing attachment path"},
		{"POST", "/api/v1/attachments/assets/diagram.png?collection=v", 405, "application/json", "use GET"},
	}
	for _, tt := range tests {
		req, err := http.NewRequest(tt.method, ts.URL+tt.target, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.code || !strings.HasPrefix(resp.Header.Get("Content-Type"), tt.ctype) || !strings.Contains(string(body), tt.want) {
			t.Errorf("%s %s: %d %s %q", tt.method, tt.target, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Cross-Origin-Resource-Policy") != "same-origin" {
			t.Errorf("%s %s: sniffed, or loadable by other sites", tt.method, tt.target)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); tt.code == 200 && (!strings.Contains(csp, "sandbox") || !strings.Contains(csp, "default-src 'none'")) {
			t.Errorf("%s %s: policy %q", tt.method, tt.target, csp)
		}
	}
}

// A server given no way to open attachments serves none.
func TestNoAttachments(t *testing.T) {
	if resp, body := get(t, New(&fake{}, Options{}), "GET", "/api/v1/attachments/a.png?collection=v"); resp.StatusCode != 404 || !strings.Contains(body, "serves no attachments") {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
}
