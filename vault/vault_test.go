package vault

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

// build creates files under root: a path ending in "/" is a folder, a value
// starting with "->" is a symlink target.
func build(t *testing.T, root string, tree map[string]string) {
	t.Helper()
	for p, content := range tree {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			must(t, os.MkdirAll(abs, 0o755))
			continue
		}
		must(t, os.MkdirAll(filepath.Dir(abs), 0o755))
		if target, ok := strings.CutPrefix(content, "->"); ok {
			must(t, os.Symlink(target, abs))
			continue
		}
		must(t, os.WriteFile(abs, []byte(content), 0o644))
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func walk(t *testing.T, root string, opts Options) ([]string, map[string]string) {
	t.Helper()
	v, err := Open(root, opts)
	must(t, err)
	files, skips, err := v.Walk(context.Background())
	must(t, err)
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	reasons := map[string]string{}
	for _, s := range skips {
		reasons[s.Path] = s.Reason
	}
	return paths, reasons
}

func TestWalk(t *testing.T) {
	outside := t.TempDir()
	build(t, outside, map[string]string{"secret.md": "# secret", "dir/x.md": "x"})
	root := t.TempDir()
	build(t, root, map[string]string{
		"a.md":                    "# A",
		"b.markdown":              "# B",
		"C.MD":                    "# C",
		"notes.txt":               "not markdown",
		"sub/deep/d.md":           "# D",
		".obsidian/app.md":        "x",
		".git/HEAD.md":            "x",
		".trash/old.md":           "x",
		"node_modules/pkg/r.md":   "x",
		".hidden/h.md":            "x",
		".dotfile.md":             "hidden, as Obsidian hides it",
		"sub/.#d.md":              "->user@host.1234:1700000000", // an editor's lock: left out silently
		".link.md":                "->a.md",
		"drafts/wip.md":           "x",
		"private.md":              "x",
		"keep/.mdsearchignore":    "*.tmp.md\n",
		"keep/a.tmp.md":           "x",
		"keep/b.md":               "x",
		"big.md":                  strings.Repeat("x", 2000),
		"link-in.md":              "->a.md",
		"link-out.md":             "->" + filepath.Join(outside, "secret.md"),
		"linkdir-out":             "->" + filepath.Join(outside, "dir"),
		"linkdir-in":              "->sub",
		"loop/self":               "->..",
		"broken.md":               "->nowhere.md",
		"selfloop.md":             "->selfloop.md",
		"folder.md/inside.md":     "a folder named like a note is walked",
		".mdsearchignore":         "drafts/\n/private.md\n# comment\n",
		"sub/.mdsearchignore":     "",
		"sub/deep/ignored-too.md": "x",
	})
	must(t, os.WriteFile(filepath.Join(root, "sub/deep/.mdsearchignore"), []byte("ignored-too.md"), 0o644))
	must(t, syscall.Mkfifo(filepath.Join(root, "pipe.md"), 0o644))

	paths, skips := walk(t, root, Options{MaxFileSize: 1000})
	want := []string{"C.MD", "a.md", "b.markdown", "folder.md/inside.md", "keep/b.md",
		"sub/deep/d.md"}
	if strings.Join(paths, "\n") != strings.Join(want, "\n") {
		t.Errorf("files:\n got %q\nwant %q", paths, want)
	}
	wantSkips := map[string]string{
		"big.md":      "over the 1000 bytes size limit",
		"link-out.md": "outside the vault",
		"linkdir-out": "outside the vault",
		"loop/self":   "already walked as .",
		"broken.md":   "broken symlink",
		"selfloop.md": "symlink loop",
		"pipe.md":     "named pipe",
		"linkdir-in":  "already walked as sub", // the real path wins
		"link-in.md":  "already indexed as a.md",
	}
	for p, frag := range wantSkips {
		got, ok := skips[p]
		if !ok || !strings.Contains(got, frag) {
			t.Errorf("skip %s: got %q, want it to mention %q", p, got, frag)
		}
	}
	for p := range skips {
		if _, ok := wantSkips[p]; !ok {
			t.Errorf("unexpected skip %s: %s", p, skips[p])
		}
	}
}

// A symlink inside the vault is followed only to what the walk would reach
// by its own path: what is hidden or ignored stays out, whatever links to
// it, and read refuses it too.
func TestWalkSymlinkToHiddenOrIgnored(t *testing.T) {
	root := t.TempDir()
	build(t, root, map[string]string{
		".attic/n.md": "x", ".obsidian/o.md": "o", "private/p.md": "p", ".mdsearchignore": "private/\n",
		"pub": "->.attic", "peek.md": "->.attic/n.md", "peek2.md": "->private/p.md", "peek3.md": "->.obsidian/o.md",
		"priv": "->private", "ok.md": "->pubdir/a.md", "pubdir/a.md": "a", "env.md": "->.env", ".env": "SECRET=1",
		"txt.md": "->notes.txt", "notes.txt": "t", "dots/.h.md": "h", "peek4.md": "->dots/.h.md",
	})
	paths, skips := walk(t, root, Options{})
	if !slices.Equal(paths, []string{"pubdir/a.md"}) || !strings.Contains(skips["ok.md"], "duplicate") {
		t.Errorf("paths %q, skips %v: want pubdir/a.md, and ok.md, a link to it, skipped as a duplicate", paths, skips)
	}
	for _, link := range []string{"pub", "peek.md", "peek2.md", "peek3.md", "peek4.md", "priv", "env.md", "txt.md"} {
		if !strings.Contains(skips[link], "which is not indexed") {
			t.Errorf("%s: skip %q, want it named as a link to what is not indexed", link, skips[link])
		}
	}
	v, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"peek.md", "peek2.md", "peek3.md", "peek4.md", "pub/n.md", "priv/p.md", "env.md", "txt.md"} {
		if _, err := v.ReadNote(rel); mdsearch.KindOf(err) != mdsearch.KindForbidden {
			t.Errorf("read %s: %v, want it refused", rel, err)
		}
	}
	if _, err := v.ReadNote("ok.md"); err != nil {
		t.Errorf("read ok.md: %v", err)
	}
}

func TestResolve(t *testing.T) {
	outside := t.TempDir()
	build(t, outside, map[string]string{"secret.md": "s"})
	root := t.TempDir()
	build(t, root, map[string]string{
		"a.md": "a", "sub/b.md": "b", "esc.md": "->" + filepath.Join(outside, "secret.md"),
		"escdir": "->" + outside, "in.md": "->sub/b.md",
	})
	cases := []struct {
		rel  string
		kind mdsearch.Kind
		ok   bool
	}{
		{"a.md", 0, true},
		{"sub/b.md", 0, true},
		{"./sub//b.md", 0, true},
		{"in.md", 0, true},
		{"../etc/passwd", mdsearch.KindForbidden, false},
		{"sub/../a.md", mdsearch.KindForbidden, false},
		{`sub\..\..\x`, mdsearch.KindForbidden, false},
		{"/etc/passwd", mdsearch.KindForbidden, false},
		{filepath.Join(root, "a.md"), mdsearch.KindForbidden, false},
		{"esc.md", mdsearch.KindForbidden, false},
		{"escdir/secret.md", mdsearch.KindForbidden, false},
		{"nope.md", mdsearch.KindNotFound, false},
		{"", mdsearch.KindInvalid, false},
		{"a\x00.md", mdsearch.KindForbidden, false},
	}
	for _, c := range cases {
		got, err := Resolve(root, c.rel)
		if c.ok {
			if err != nil || !strings.HasPrefix(got, mustReal(t, root)) {
				t.Errorf("Resolve(%q) = %q, %v", c.rel, got, err)
			}
			continue
		}
		var me *mdsearch.Error
		if !errors.As(err, &me) || me.Kind != c.kind {
			t.Errorf("Resolve(%q) = %q, %v; want kind %d", c.rel, got, err, c.kind)
		}
		if strings.HasPrefix(c.rel, "esc") && !strings.HasPrefix(mdsearch.HintOf(err), "a symlink on its way leads out of the vault") {
			t.Errorf("Resolve(%q): hint %q", c.rel, mdsearch.HintOf(err))
		}
	}
}

// A path with ".." is refused, with the path it names where that stays
// inside the vault.
func TestDotDotHint(t *testing.T) {
	for rel, want := range map[string]string{
		"sub/../a.md":    `name it without "..": a.md`,
		`sub\..\b\c.md`:  `name it without "..": b/c.md`,
		"../etc/passwd":  "give a path inside the vault",
		"sub/../../x.md": "give a path inside the vault",
	} {
		_, err := Resolve(t.TempDir(), rel)
		if hint := mdsearch.HintOf(err); !strings.HasPrefix(hint, want) {
			t.Errorf("%q: hint %q, want %q", rel, hint, want)
		}
	}
}

func mustReal(t *testing.T, p string) string {
	r, err := filepath.EvalSymlinks(p)
	must(t, err)
	return r
}

func TestIncludedAndReadNote(t *testing.T) {
	root := t.TempDir()
	build(t, root, map[string]string{
		"a.md": "# A", ".obsidian/w.md": "x", "drafts/d.md": "x", "x.txt": "x",
		".mdsearchignore": "drafts/\n", "bin.md": "a\x00b", "sub/s.md": "# S", "sub/.h.md": "x",
	})
	v, err := Open(root, Options{})
	must(t, err)
	for rel, want := range map[string]mdsearch.Kind{
		".obsidian/w.md": mdsearch.KindForbidden, "drafts/d.md": mdsearch.KindForbidden, "sub/.h.md": mdsearch.KindForbidden,
		"x.txt": mdsearch.KindForbidden, "bin.md": mdsearch.KindInvalid, "../a.md": mdsearch.KindForbidden,
		"missing.md": mdsearch.KindNotFound,
	} {
		if _, err := v.ReadNote(rel); mdsearch.KindOf(err) != want {
			t.Errorf("ReadNote(%q) = %v, want kind %d", rel, err, want)
		}
	}
	for _, rel := range []string{"a.md", "sub/s.md"} {
		if _, err := v.ReadNote(rel); err != nil {
			t.Errorf("ReadNote(%q): %v", rel, err)
		}
	}
}

func TestRead(t *testing.T) {
	root := t.TempDir()
	build(t, root, map[string]string{"ok.md": "# ok", "bin.md": "ab\x00c", "bad-utf8.md": "caf\xe9",
		"utf16.md": "\xff\xfe#\x00 \x00x\x00"})
	v, err := Open(root, Options{MaxFileSize: 3})
	must(t, err)
	files, skips, err := v.Walk(context.Background())
	must(t, err)
	if len(files) != 0 || len(skips) != 4 {
		t.Fatalf("a 3-byte limit should skip all: %v %v", files, skips)
	}
	v, _ = Open(root, Options{})
	files, _, _ = v.Walk(context.Background())
	got := map[string]string{}
	for _, f := range files {
		_, err := v.Read(f)
		if err != nil {
			got[f.Path] = err.Error()
		}
	}
	if !strings.Contains(got["bin.md"], "binary file (NUL byte at offset 2)") ||
		!strings.Contains(got["utf16.md"], "UTF-16 text") || !strings.Contains(got["utf16.md"], "save it as UTF-8") || len(got) != 2 {
		t.Errorf("read errors: %v", got)
	}
	// Read by name, each refusal says what to do.
	for rel, want := range map[string]string{"bin.md": "it is no text note", "utf16.md": ""} {
		_, err := v.ReadNote(rel)
		if hint := mdsearch.HintOf(err); err == nil || !strings.HasPrefix(hint, want) || want == "" && hint != "" {
			t.Errorf("ReadNote(%q): %v, hint %q", rel, err, hint)
		}
	}
}

// TestReadStamped: the stamp recorded with a note is that of the bytes
// read, not the walk's, when the note was saved between the two; a note
// deleted since the walk is gone, not unreadable.
func TestReadStamped(t *testing.T) {
	root := t.TempDir()
	build(t, root, map[string]string{"n.md": "# first"})
	v, _ := Open(root, Options{})
	files, _, err := v.Walk(context.Background())
	must(t, err)
	walked := files[0]
	later := time.Now().Add(time.Hour)
	must(t, os.WriteFile(filepath.Join(root, "n.md"), []byte("# saved after the walk"), 0o644))
	must(t, os.Chtimes(filepath.Join(root, "n.md"), later, later))
	data, f, err := v.ReadStamped(walked)
	if err != nil || string(data) != "# saved after the walk" || f.Size != int64(len(data)) || f.ModTime != later.UnixNano() || f.Path != walked.Path {
		t.Errorf("read %q, stamp %+v (walked %+v), %v", data, f, walked, err)
	}
	must(t, os.Remove(filepath.Join(root, "n.md")))
	var se *SkipError
	if _, _, err := v.ReadStamped(walked); !errors.As(err, &se) || !se.Gone {
		t.Errorf("deleted since the walk: %v", err)
	}
}

func TestOverLimit(t *testing.T) {
	for _, tc := range []struct {
		size, limit int64
		want        string
	}{
		{20 << 20, 10 << 20, "file is 20.0 MB, over the 10.0 MB size limit"},
		{10<<20 + 1, 10 << 20, "file is 10485761 bytes, over the 10485760-byte size limit"},
		{5, 3, "file is 5 bytes, over the 3 bytes size limit"},
	} {
		if got := OverLimit(tc.size, tc.limit); got != tc.want || !IsOverLimit(got) {
			t.Errorf("OverLimit(%d, %d) = %q (over the limit: %v), want %q", tc.size, tc.limit, got, IsOverLimit(got), tc.want)
		}
	}
	for reason, want := range map[string]bool{"file grew over the 10.0 MB size limit while it was read": true,
		"binary file (NUL byte at offset 3)": false, "symlink points outside the vault": false} {
		if IsOverLimit(reason) != want {
			t.Errorf("IsOverLimit(%q) = %v", reason, !want)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	root := t.TempDir()
	build(t, root, map[string]string{"f.md": "x"})
	if _, err := Open(filepath.Join(root, "nope"), Options{}); mdsearch.KindOf(err) != mdsearch.KindNotFound {
		t.Errorf("missing folder: %v", err)
	}
	if _, err := Open(filepath.Join(root, "f.md"), Options{}); mdsearch.KindOf(err) != mdsearch.KindInvalid {
		t.Errorf("file as vault: %v", err)
	}
}

// BenchmarkWalk compares Walk (ignore rules, symlink checks, stat) with a
// bare filepath.WalkDir listing the same markdown files.
func BenchmarkWalk(b *testing.B) {
	root := testenv.Corpora("rust-rfcs", "text")
	v, err := Open(root, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("walk", func(b *testing.B) {
		for b.Loop() {
			v.Walk(context.Background())
		}
	})
	b.Run("raw-walkdir", func(b *testing.B) {
		for b.Loop() {
			filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() && IsMarkdown(p) {
					d.Info()
				}
				return nil
			})
		}
	})
}

// A folder swapped for a symlink out of the vault after a note's path was
// checked (the walk listed it, or Resolve read it) does not lead the read
// out: the note is opened through the vault's root, which refuses it.
func TestReadAfterSwapToSymlink(t *testing.T) {
	dir := t.TempDir()
	root, outside := filepath.Join(dir, "vault"), filepath.Join(dir, "outside")
	for _, f := range []struct{ path, text string }{{filepath.Join(root, "race", "x.md"), "# Inside\n"},
		{filepath.Join(outside, "x.md"), "# LEAKED outside secret\n"}} {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f.path, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	abs, err := v.Resolve("race/x.md")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "race"), filepath.Join(root, "race-old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "race")); err != nil {
		t.Fatal(err)
	}
	data, err := v.Read(File{Path: "race/x.md", Abs: abs})
	if err == nil || strings.Contains(string(data), "LEAKED") {
		t.Errorf("read %q, %v: want it refused", data, err)
	}
}

// LimitFor names a limit above the file, in whole megabytes.
func TestLimitFor(t *testing.T) {
	for _, tc := range []struct {
		size int64
		want string
	}{{1500, "1MB"}, {1<<20 - 1, "1MB"}, {1 << 20, "2MB"}, {15_000_008, "15MB"}, {50<<20 + 1, "51MB"}} {
		if got := LimitFor(tc.size); got != tc.want {
			t.Errorf("LimitFor(%d) = %s, want %s", tc.size, got, tc.want)
		}
	}
}
