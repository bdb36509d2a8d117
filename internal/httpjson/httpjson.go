package httpjson

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Post sends body as JSON to url, with "Authorization: Bearer KEY" when
// key is set, and reads at most max+1 bytes of the answer: more than max
// says it was over. The response's body is closed; err is the client's or
// the read's, for the caller to explain.
func Post(ctx context.Context, c *http.Client, url, key string, body []byte, max int) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, int64(max)+1))
	return resp, data, err
}

// Clip shortens s to at most n bytes, on a rune boundary, marking the cut.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// Mask hides key in text taken from a server's answer: a server that
// echoes the Authorization header in its error would have the key
// printed, logged and pasted into bug reports.
func Mask(text, key string) string {
	if key == "" {
		return text
	}
	return strings.ReplaceAll(text, key, "***")
}

// Redact is a URL as it may be shown: its password, if any, as "xxxxx"
// (url.URL.Redacted), so notices, logs and the answers a server sends
// its clients never carry it. A URL that does not parse may still hold
// user info, so everything between "://" and its last "@" is hidden.
func Redact(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		if i, j := strings.Index(raw, "://"), strings.LastIndex(raw, "@"); i >= 0 && j > i {
			return raw[:i+3] + "xxxxx" + raw[j:]
		}
		return raw
	}
	return u.Redacted()
}

// NoRedirects makes a client hand a redirect back rather than follow it:
// followed, a 301 or 302 turns the POST into a GET, and a redirect to
// another host drops the API key, each failing with a message that names
// neither. The clients' status errors name where the server points.
func NoRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
