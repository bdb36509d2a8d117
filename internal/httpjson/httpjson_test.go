package httpjson

import "testing"

// A URL shown in a message never carries its password, parsed or not.
func TestRedact(t *testing.T) {
	for raw, want := range map[string]string{
		"http://h:8080/v1":                 "http://h:8080/v1",
		"http://user:secret@h/v1":          "http://user:xxxxx@h/v1",
		"http://user:pw 1234@127.0.0.1:80": "http://xxxxx@127.0.0.1:80", // does not parse
		"http://user:pw%zz@h/v1":           "http://xxxxx@h/v1",
		"not a url at all %zz":             "not a url at all %zz",
	} {
		if got := Redact(raw); got != want {
			t.Errorf("Redact(%q) = %q, want %q", raw, got, want)
		}
	}
}
