package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// The version line says the module version, the commit, whether the tree
// was modified and when it was built, from the toolchain's record or the
// values given at link time.
func TestVersionLine(t *testing.T) {
	stamped := &debug.BuildInfo{
		Main: debug.Module{Path: "github.com/mdsearch/mdsearch", Version: "v0.0.0-20261128032900-7a9b7e636971+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "7a9b7e636971a05dca0de75878fb7994157bd908"},
			{Key: "vcs.time", Value: "2026-11-28T03:29:00Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	local := &debug.BuildInfo{Main: debug.Module{Path: "github.com/mdsearch/mdsearch", Version: "(devel)"}}
	for _, tt := range []struct {
		name                     string
		info                     *debug.BuildInfo
		version, rev, mod, built string
		want                     string
	}{
		{"no build info", nil, "", "", "", "", "devel"},
		{"unstamped", local, "", "", "", "", "devel"},
		{"toolchain stamp", stamped, "", "", "", "",
			"v0.0.0-20261128032900-7a9b7e636971+dirty (rev 7a9b7e636971, modified, committed 2026-11-28T03:29:00Z)"},
		{"release", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, "", "", "", "", "v1.2.0"},
		{"link-time values in a worktree", local, "", "0123456789abcdef", "", "2026-11-28T04:00:00Z",
			"devel (rev 0123456789ab, built 2026-11-28T04:00:00Z)"},
		{"link-time values win", stamped, "v1.3.0", "fedcba9876543210", "true", "2026-11-28T04:00:00Z",
			"v1.3.0 (rev fedcba987654, modified, built 2026-11-28T04:00:00Z)"},
	} {
		if got := readBuild(tt.info, tt.version, tt.rev, tt.mod, tt.built).String(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// "mdsearch version" prints one line from the binary's own build info.
func TestVersionCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }}
	if code := Main(context.Background(), env, []string{"version"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if got := strings.TrimSuffix(out.String(), "\n"); got != "mdsearch "+version() || strings.Contains(got, "\n") || strings.Contains(got, "dev ") {
		t.Errorf("version printed %q", out.String())
	}
}

// "mdsearch version --json" says the same as the line, each part in its
// field, and where the model and ONNX Runtime are (or why they are not).
func TestVersionJSON(t *testing.T) {
	home := t.TempDir()
	for _, tt := range []struct {
		name   string
		getenv map[string]string
	}{
		{"no assets", map[string]string{"MDSEARCH_HOME": home}},
		{"assets named wrong", map[string]string{"MDSEARCH_HOME": home, "MDSEARCH_ORT_LIB": "/", "MDSEARCH_MODEL_DIR": "/"}},
	} {
		var out, errOut bytes.Buffer
		env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return tt.getenv[k] }}
		if code := Main(context.Background(), env, []string{"version", "--json"}); code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.name, code, errOut.String())
		}
		var v map[string]any
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v\n%s", tt.name, err, out.String())
		}
		b := thisBuild()
		if v["version"] != b.version || v["go"] != runtime.Version() || v["assets_error"] == nil {
			t.Errorf("%s: %s", tt.name, out.String())
		}
	}
}

// A serve is asked by a search of the same code: any build of one commit
// without changes (by the same toolchain), or exactly the same build.
func TestSameCode(t *testing.T) {
	local := &debug.BuildInfo{Main: debug.Module{Path: "github.com/mdsearch/mdsearch", Version: "(devel)"}}
	code := func(rev, mod, built string) string { return readBuild(local, "", rev, mod, built).code() }
	const rev = "0123456789abcdef"
	for _, tt := range []struct {
		name string
		a, b string
		same bool
	}{
		{"a commit rebuilt", code(rev, "", "2026-11-28T04:00:00Z"), code(rev, "", "2026-11-29T09:00:00Z"), true},
		{"another commit", code(rev, "", "2026-11-28T04:00:00Z"), code("fedcba9876543210", "", "2026-11-28T04:00:00Z"), false},
		{"changes rebuilt", code(rev, "true", "2026-11-28T04:00:00Z"), code(rev, "true", "2026-11-29T09:00:00Z"), false},
		{"changes, the same build", code(rev, "true", "2026-11-28T04:00:00Z"), code(rev, "true", "2026-11-28T04:00:00Z"), true},
		{"the commit and changes to it", code(rev, "", "2026-11-28T04:00:00Z"), code(rev, "true", "2026-11-28T04:00:00Z"), false},
		{"no revision, rebuilt", code("", "", "2026-11-28T04:00:00Z"), code("", "", "2026-11-29T09:00:00Z"), false},
	} {
		if same := tt.a == tt.b; same != tt.same {
			t.Errorf("%s: %q and %q the same: %v, want %v", tt.name, tt.a, tt.b, same, tt.same)
		}
	}
	// Builds with changes and no build time (go build records the
	// commit's) are told apart by their binary file.
	if got, exe := code(rev, "true", ""), executableStamp(); exe == "" || !strings.HasSuffix(got, exe) {
		t.Errorf("code of a build with changes %q does not name its binary %q", got, exe)
	}
}
