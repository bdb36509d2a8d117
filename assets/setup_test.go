package assets

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/fsfault"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

// member is one entry of a fixture tarball.
type member struct {
	name string
	body string
	typ  byte // tar.TypeReg if zero
}

// makeTGZ writes an npm-style tarball and returns its path and SHA-256.
func makeTGZ(t *testing.T, dir, name string, members []member) (string, string) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, m := range members {
		typ := m.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		hdr := &tar.Header{Name: m.name, Mode: 0o640, Typeflag: typ}
		if typ == tar.TypeReg {
			hdr.Size = int64(len(m.body))
		} else {
			hdr.Linkname = m.body
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			if _, err := tw.Write([]byte(m.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, sha(buf.Bytes())
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func pin(src, name, body string) File {
	return File{Src: src, Name: name, Size: int64(len(body)), SHA256: sha([]byte(body))}
}

const (
	libBody   = "\x7fELF pretend shared library"
	modelBody = `{"format":"graph-model"}`
	specBody  = "# Tabs\n\n```````````````````````````````` example\n\tfoo\n.\n<pre><code>foo\n</code></pre>\n````````````````````````````````\n"
)

// installedFixture is a good fixture bundle, installed in a home of its
// own: its bundle, the folder it was fetched from, and the home.
func installedFixture(t *testing.T) (b Bundle, from, home string) {
	t.Helper()
	b, from = fixture(t, goodMembers(), goodFiles(t)...)
	home = t.TempDir()
	if _, err := Install(context.Background(), offline(home, from), b); err != nil {
		t.Fatal(err)
	}
	return b, from, home
}

// fixture is a tarball in its own directory and a Bundle pinned to it.
func fixture(t *testing.T, members []member, files ...File) (Bundle, string) {
	t.Helper()
	dir := t.TempDir()
	_, sum := makeTGZ(t, dir, "fake-pkg-1.0.0.tgz", members)
	return Bundle{
		Dir: "fake-1.0.0", Package: "fake-pkg", Version: "1.0.0",
		Tarball: "fake-pkg-1.0.0.tgz", SHA256: sum, Files: files,
	}, dir
}

func goodMembers() []member {
	return []member{
		{name: "package/package.json", body: "{}"},
		{name: "package/lib/evil", typ: tar.TypeSymlink, body: "/etc/passwd"},
		{name: "package/lib/libfake.so.1", body: libBody},
		{name: "package/dist/model.json", body: modelBody},
		{name: "package/spec.txt", body: specBody},
	}
}

func goodFiles(t *testing.T) []File {
	conv, err := specTestsJSON([]byte(specBody))
	if err != nil {
		t.Fatal(err)
	}
	tests := pin("package/spec.txt", "tests.json", string(conv))
	tests.Convert = specTestsJSON
	return []File{
		pin("package/lib/libfake.so.1", "libfake.so.1", libBody),
		pin("package/dist/model.json", "model.json", modelBody),
		tests,
	}
}

// offline makes any attempt to run npm fail loudly.
func offline(home, from string) Options {
	return Options{Home: home, TarballDir: from, NPM: filepath.Join(home, "no-such-npm")}
}

func TestInstallFromTarball(t *testing.T) {
	b, from := fixture(t, goodMembers(), goodFiles(t)...)
	home := t.TempDir()
	var log bytes.Buffer
	opts := offline(home, from)
	opts.Log = &log
	res, err := Install(context.Background(), opts, b)
	if err != nil {
		t.Fatal(err)
	}
	if res.Action != Installed {
		t.Fatalf("action %q, want installed", res.Action)
	}
	dir := filepath.Join(home, b.Dir)
	for name, want := range map[string]string{"libfake.so.1": libBody, "model.json": modelBody} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
	var tests []SpecExample
	data, _ := os.ReadFile(filepath.Join(dir, "tests.json"))
	if err := json.Unmarshal(data, &tests); err != nil || len(tests) != 1 || tests[0].Section != "Tabs" {
		t.Errorf("tests.json = %s (%v)", data, err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, ","); got != ".mdsearch-complete,.mdsearch-verified,libfake.so.1,model.json,tests.json" {
		t.Errorf("cache holds %s; want only the pinned files and the stamp", got)
	}
	for _, want := range []string{"fake-pkg@1.0.0: using", "tarball sha256 ok", "installed 3 file(s)"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, log.String())
		}
	}
}

func TestInstallIsIdempotentAndOffline(t *testing.T) {
	b, _, home := installedFixture(t)
	lib := filepath.Join(home, b.Dir, "libfake.so.1")
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(lib, old, old)
	// The tarball and npm are gone: a second run must not need them. It
	// hashes the touched file again, finds it intact and keeps it.
	res, err := Install(context.Background(), offline(home, t.TempDir()), b)
	if err != nil || res.Action != Rechecked {
		t.Fatalf("second run: %q, %v; want rechecked", res.Action, err)
	}
	if fi, _ := os.Stat(lib); !fi.ModTime().Equal(old) {
		t.Errorf("second run rewrote %s", lib)
	}
	res, err = Install(context.Background(), offline(home, t.TempDir()), b)
	if err != nil || res.Action != Cached {
		t.Fatalf("third run: %q, %v; want cached", res.Action, err)
	}
	opts := offline(home, t.TempDir())
	opts.Verify = true
	if res, err := Install(context.Background(), opts, b); err != nil || res.Action != Verified {
		t.Fatalf("--verify run: %q, %v; want verified", res.Action, err)
	}
}

func TestInstallRepairs(t *testing.T) {
	tests := []struct {
		name   string
		damage func(dir string, b Bundle)
		verify bool
		want   Action
	}{
		{"missing file", func(dir string, b Bundle) { os.Remove(filepath.Join(dir, "model.json")) }, false, Installed},
		{"truncated file", func(dir string, b Bundle) { os.WriteFile(filepath.Join(dir, "model.json"), []byte("{"), 0o644) }, false, Installed},
		{"same size, other bytes", func(dir string, b Bundle) {
			os.WriteFile(filepath.Join(dir, "libfake.so.1"), []byte(strings.ToUpper(libBody)), 0o644)
		}, false, Installed},
		{"damage no identity shows, caught by --verify", func(dir string, b Bundle) {
			os.WriteFile(filepath.Join(dir, "libfake.so.1"), []byte(strings.ToUpper(libBody)), 0o644)
			writeVerified(dir, identities(dir, b)) // as a failing disk: the identity stays
		}, true, Installed},
		{"stale stamp from other pins", func(dir string, b Bundle) {
			os.WriteFile(filepath.Join(dir, stampName), []byte("{}\n"), 0o644)
		}, false, Stamped},
		{"stamp lost after the renames", func(dir string, b Bundle) { os.Remove(filepath.Join(dir, stampName)) }, false, Stamped},
		{"unstamped corrupt file", func(dir string, b Bundle) {
			os.Remove(filepath.Join(dir, stampName))
			os.WriteFile(filepath.Join(dir, "libfake.so.1"), []byte(strings.ToUpper(libBody)), 0o644)
		}, false, Installed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, from, home := installedFixture(t)
			dir := filepath.Join(home, b.Dir)
			tt.damage(dir, b)
			opts := offline(home, from)
			opts.Verify = tt.verify
			res, err := Install(context.Background(), opts, b)
			if err != nil || res.Action != tt.want {
				t.Fatalf("repair: %q, %v; want %q", res.Action, err, tt.want)
			}
			if err := intact(dir, b); err != nil || !stampMatches(dir, b) {
				t.Errorf("after repair: %v, stamp ok %v", err, stampMatches(dir, b))
			}
		})
	}
}

func TestInstallRejectsBadTarballs(t *testing.T) {
	files := goodFiles(t)
	tests := []struct {
		name    string
		prepare func(t *testing.T, b *Bundle, from string)
		want    string
	}{
		{"corrupt tarball", func(t *testing.T, b *Bundle, from string) {
			p := filepath.Join(from, b.Tarball)
			data, _ := os.ReadFile(p)
			data[len(data)/2] ^= 0xff
			os.WriteFile(p, data, 0o644)
		}, "checksum mismatch for fake-pkg@1.0.0"},
		{"tarball of another release", func(t *testing.T, b *Bundle, from string) {
			b.SHA256 = strings.Repeat("0", 64)
		}, "not the pinned release"},
		{"member with wrong checksum", func(t *testing.T, b *Bundle, from string) {
			b.Files = append([]File(nil), b.Files...)
			b.Files[1].SHA256 = strings.Repeat("a", 64)
		}, "package/dist/model.json: checksum mismatch"},
		{"member of wrong size", func(t *testing.T, b *Bundle, from string) {
			b.Files = append([]File(nil), b.Files...)
			b.Files[0].Size--
		}, "package/lib/libfake.so.1: has over"},
		{"missing member", func(t *testing.T, b *Bundle, from string) {
			b.Files = append(append([]File(nil), b.Files...), pin("package/dist/vocab.json", "vocab.json", "{}"))
		}, "lacks [package/dist/vocab.json]"},
		{"symlink instead of a file", func(t *testing.T, b *Bundle, from string) {
			b.Files = append(append([]File(nil), b.Files...), pin("package/lib/evil", "evil", ""))
		}, "lacks [package/lib/evil]"},
		{"not gzip", func(t *testing.T, b *Bundle, from string) {
			body := []byte("<html>proxy error</html>")
			os.WriteFile(filepath.Join(from, b.Tarball), body, 0o644)
			b.SHA256 = sha(body)
		}, "not a gzip tarball"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, from := fixture(t, goodMembers(), files...)
			tt.prepare(t, &b, from)
			home := t.TempDir()
			_, err := Install(context.Background(), offline(home, from), b)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v; want one containing %q", err, tt.want)
			}
			if mdsearch.KindOf(err) != mdsearch.KindUnavailable {
				t.Errorf("kind = %v; want KindUnavailable", mdsearch.KindOf(err))
			}
			var e *mdsearch.Error
			if !errors.As(err, &e) || e.Hint == "" {
				t.Errorf("error %v has no hint", err)
			}
			entries, _ := os.ReadDir(filepath.Join(home, b.Dir))
			for _, e := range entries {
				t.Errorf("nothing should be installed, found %s", e.Name())
			}
		})
	}
}

// A failed update must not leave the previous good install looking broken,
// nor a broken one looking complete.
func TestFailedReinstallKeepsStampHonest(t *testing.T) {
	b, from, home := installedFixture(t)
	dir := filepath.Join(home, b.Dir)
	os.Remove(filepath.Join(dir, "model.json"))
	os.WriteFile(filepath.Join(dir, ".model.json.tmp-123"), []byte("left by a killed run"), 0o644)
	p := filepath.Join(from, b.Tarball)
	data, _ := os.ReadFile(p)
	os.WriteFile(p, data[:len(data)/2], 0o644)
	if _, err := Install(context.Background(), offline(home, from), b); err == nil {
		t.Fatal("install from a truncated tarball succeeded")
	}
	if stampMatches(dir, b) {
		t.Error("a bundle known to be broken is still stamped complete")
	}
	os.WriteFile(p, data, 0o644)
	if res, err := Install(context.Background(), offline(home, from), b); err != nil || res.Action != Installed {
		t.Fatalf("retry: %q, %v", res.Action, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".model.json.tmp-123")); err == nil {
		t.Error("stale temporary file was not cleaned up")
	}
}

func TestSetupNeedsHome(t *testing.T) {
	if _, err := Setup(context.Background(), Options{}); err == nil {
		t.Fatal("Setup without Home succeeded")
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	_, err := Setup(context.Background(), Options{Home: filepath.Join(file, "home")})
	if mdsearch.KindOf(err) != mdsearch.KindUnavailable || !strings.Contains(err.Error(), "MDSEARCH_HOME") {
		t.Fatalf("unwritable home: %v", err)
	}
}

func TestSetupHonoursCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Setup(ctx, Options{Home: t.TempDir()}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v; want context.Canceled", err)
	}
}

func TestPinnedBundles(t *testing.T) {
	seen := map[string]bool{}
	for _, b := range All() {
		if len(b.SHA256) != 64 || b.Size <= 0 || len(b.Files) == 0 || seen[b.Dir] {
			t.Errorf("bundle %s is badly pinned", b.Dir)
		}
		seen[b.Dir] = true
		for _, f := range b.Files {
			if len(f.SHA256) != 64 || f.Size <= 0 || !strings.HasPrefix(f.Src, "package/") || filepath.Base(f.Name) != f.Name {
				t.Errorf("%s: file %s is badly pinned", b.Dir, f.Name)
			}
		}
	}
	if len(Model.Files) != 9 || ORT.Files[0].Name != ORTLibName {
		t.Errorf("the model needs model.json, vocab.json and 7 shards; ORT needs %s", ORTLibName)
	}
}

// intact hashes every file of b in dir against its pin.
func intact(dir string, b Bundle) error {
	if _, _, p := check(dir, b, verified{}, true); p != nil {
		return p
	}
	return nil
}

// A setup that finds another installing into the same cache waits for it,
// says so, and then finds everything installed.
func TestSetupTakesTurns(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock")
	}
	b, from := fixture(t, goodMembers(), goodFiles(t)...)
	home := t.TempDir()
	unlock, err := lockHome(context.Background(), home, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	var log testenv.SyncBuffer
	opts := offline(home, from)
	opts.Log = &log
	done := make(chan []Result)
	go func() {
		res, err := setup(context.Background(), opts, []Bundle{b})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	for !strings.Contains(log.String(), "waiting") {
		time.Sleep(10 * time.Millisecond)
	}
	want := fmt.Sprintf("another mdsearch setup (pid %d) is installing into %s; waiting", os.Getpid(), home)
	if !strings.Contains(log.String(), want) {
		t.Errorf("log %q lacks %q", log.String(), want)
	}
	if _, err := os.Stat(filepath.Join(home, b.Dir)); err == nil {
		t.Error("the waiting setup installed while the lock was held")
	}
	// The holder installs; the waiter then finds it done.
	if _, err := Install(context.Background(), offline(home, from), b); err != nil {
		t.Fatal(err)
	}
	unlock()
	if res := <-done; len(res) != 1 || res[0].Action != Cached {
		t.Fatalf("the waiting setup: %+v; want the bundle found installed", res)
	}
}

// Two setups started together into one empty cache both succeed (unlocked,
// one deleted the other's temporary files as leftovers, now and then).
func TestSetupTwoAtOnce(t *testing.T) {
	b, from := fixture(t, goodMembers(), goodFiles(t)...)
	for range 5 {
		home := t.TempDir()
		var wg sync.WaitGroup
		actions := make([]Action, 2)
		for i := range actions {
			wg.Go(func() {
				res, err := setup(context.Background(), offline(home, from), []Bundle{b})
				if err != nil {
					t.Error(err)
					return
				}
				actions[i] = res[0].Action
			})
		}
		wg.Wait()
		if got := fmt.Sprint(actions); got != "[installed cached]" && got != "[cached installed]" {
			t.Fatalf("actions %s; want one install and one that finds it done", got)
		}
	}
}

// --from takes a tarball by npm pack's name or the registry's, and refuses
// a folder that is not there before anything is fetched.
func TestSetupFrom(t *testing.T) {
	scoped := func(t *testing.T) (Bundle, string) {
		b, from := fixture(t, goodMembers(), goodFiles(t)...)
		b.Package, b.Tarball = "@fake/pkg", "fake-pkg-1.0.0.tgz" // as npm pack names a scoped package
		return b, from
	}
	tests := []struct {
		name    string
		prepare func(t *testing.T, b Bundle, from string) string // the --from folder
		want    string                                           // in the log, or the error
		ok      bool
	}{
		{"npm pack's name", func(t *testing.T, b Bundle, from string) string { return from }, "using ", true},
		{"the registry's name", func(t *testing.T, b Bundle, from string) string {
			os.Rename(filepath.Join(from, b.Tarball), filepath.Join(from, "pkg-1.0.0.tgz"))
			return from
		}, "pkg-1.0.0.tgz", true},
		{"neither name", func(t *testing.T, b Bundle, from string) string {
			os.Rename(filepath.Join(from, b.Tarball), filepath.Join(from, "other.tgz"))
			return from
		}, "no fake-pkg-1.0.0.tgz or pkg-1.0.0.tgz in ", false},
		{"no such folder", func(t *testing.T, b Bundle, from string) string {
			return filepath.Join(from, "missing")
		}, "--from folder: no such file or directory", false},
		{"a file", func(t *testing.T, b Bundle, from string) string {
			return filepath.Join(from, b.Tarball)
		}, "--from folder: not a directory", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, from := scoped(t)
			dir := tt.prepare(t, b, from)
			home := t.TempDir()
			var log bytes.Buffer
			opts := offline(home, dir)
			opts.Log = &log
			_, err := setup(context.Background(), opts, []Bundle{b})
			if tt.ok != (err == nil) || !strings.Contains(fmt.Sprint(log.String(), err), tt.want) {
				t.Fatalf("err = %v, log:\n%s\nwant ok %v and %q", err, log.String(), tt.ok, tt.want)
			}
			if err != nil && strings.HasPrefix(tt.want, "--from") {
				var e *mdsearch.Error
				if !errors.As(err, &e) || e.Path != dir || e.Kind != mdsearch.KindNotFound || strings.Contains(log.String(), "npm") {
					t.Errorf("err = %#v, log %q; want the folder named, before npm was tried", err, log.String())
				}
			}
		})
	}
}

// A cache that cannot be written is refused before anything is fetched,
// with the way out.
func TestSetupUnwritableCache(t *testing.T) {
	tests := []struct {
		name string
		deny func(home string, b Bundle) string // the folder denied
	}{
		{"cache root", func(home string, b Bundle) string { return home }},
		{"bundle folder", func(home string, b Bundle) string { return filepath.Join(home, b.Dir) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, from := fixture(t, goodMembers(), goodFiles(t)...)
			home := t.TempDir()
			denied := tt.deny(home, b)
			defer fsfault.DenyWrite(denied)()
			var log bytes.Buffer
			opts := offline(home, from)
			opts.Log = &log
			_, err := setup(context.Background(), opts, []Bundle{b})
			var e *mdsearch.Error
			if !errors.As(err, &e) || e.Path != denied || !strings.Contains(err.Error(), "cannot write to the cache: permission denied") ||
				!strings.Contains(e.Hint, "MDSEARCH_HOME to a writable directory") {
				t.Fatalf("err = %v; want %s named as not writable, with the fix", err, denied)
			}
			if strings.Contains(log.String(), "using") || strings.Contains(log.String(), "fetching") {
				t.Errorf("a tarball was read before the cache was found unwritable:\n%s", log.String())
			}
		})
	}
}

// Download folders that a killed setup left in the cache are removed by the
// next setup, which holds the cache's lock; nothing else is touched.
func TestSetupRemovesStaleFetches(t *testing.T) {
	b, from := fixture(t, goodMembers(), goodFiles(t)...)
	home := t.TempDir()
	outside := t.TempDir()
	for _, dir := range []string{".mdsearch-fetch-123", ".mdsearch-fetch-456/nested", "mdsearch-fetch-789", ".mdsearch-fetching"} {
		os.MkdirAll(filepath.Join(home, dir), 0o755)
		os.WriteFile(filepath.Join(home, dir, "onnxruntime-node-1.30.0.tgz"), []byte("half a download"), 0o644)
	}
	os.WriteFile(filepath.Join(home, ".mdsearch-fetch-file"), nil, 0o644)
	os.Symlink(outside, filepath.Join(home, ".mdsearch-fetch-link"))
	os.WriteFile(filepath.Join(outside, "keep"), nil, 0o644)
	var log bytes.Buffer
	opts := offline(home, from)
	opts.Log = &log
	if _, err := setup(context.Background(), opts, []Bundle{b}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{
		".mdsearch-fetch-123": false, ".mdsearch-fetch-456": false,
		"mdsearch-fetch-789": true, ".mdsearch-fetching": true, ".mdsearch-fetch-file": true, ".mdsearch-fetch-link": true,
	} {
		if _, err := os.Lstat(filepath.Join(home, name)); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", name, err == nil, want)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "keep")); err != nil {
		t.Error("a folder a link pointed to was emptied")
	}
	if !strings.Contains(log.String(), "removed "+filepath.Join(home, ".mdsearch-fetch-123")+", left by a setup that was stopped") {
		t.Errorf("log:\n%s", log.String())
	}
	entries, _ := os.ReadDir(home)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), fetchPrefix) && e.IsDir() {
			t.Errorf("the setup left its own download folder %s", e.Name())
		}
	}
}
