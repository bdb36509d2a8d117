package cli

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

// sqliteFile writes an SQLite file through raw SQL.
func sqliteFile(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// TestDamagedIndex: status --check reads the whole index for damage that
// a search has not met, and reports it, naming the file and the way out.
func TestDamagedIndex(t *testing.T) {
	noModel(t)
	index := filepath.Join(t.TempDir(), "index.db")
	run(t, index, "index", "../sample-vault")
	if code, out, _ := run(t, index, "status", "--check"); code != 0 || !strings.Contains(out, "no damage found") {
		t.Errorf("status --check on a sound index: exit %d, %q", code, out)
	}
	if code, out, _ := run(t, index, "status", "--check", "--json"); code != 0 || !strings.Contains(out, `"check": "the index file reads whole, no damage found"`) {
		t.Errorf("status --check --json on a sound index: exit %d, %q", code, out)
	}
	if _, out, _ := run(t, index, "status", "--json"); strings.Contains(out, `"check"`) {
		t.Errorf("status --json without --check says it checked: %q", out)
	}
	testenv.GarblePage(t, index, "chunks_fts_data") // the keyword index: status reads none of it
	if code, out, _ := run(t, index, "status"); code != 0 || strings.Contains(out, "check:") {
		t.Errorf("status without --check: exit %d, %q", code, out)
	}
	for _, args := range [][]string{{"status", "--check"}, {"status", "--check", "--json"}} {
		code, _, errOut := run(t, index, args...)
		if code != 1 || !strings.Contains(errOut, "the index file is damaged") || !strings.Contains(errOut, "mdsearch index DIR") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestIndexFilesNotOurs runs every command that opens an index against
// files mdsearch did not write, or cannot read, and checks that each is
// refused with its path and reason, byte for byte untouched.
func TestIndexFilesNotOurs(t *testing.T) {
	noModel(t)
	dir := t.TempDir()
	foreign := filepath.Join(dir, "foreign.db")
	sqliteFile(t, foreign, `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)`,
		`INSERT INTO meta VALUES ('schema_version', '3')`, `CREATE TABLE notes (body TEXT)`, `INSERT INTO notes VALUES ('keep me')`)
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o644)
	newer := filepath.Join(dir, "newer.db")
	run(t, newer, "index", "../sample-vault")
	sqliteFile(t, newer, `UPDATE meta SET value = '999' WHERE key = 'schema_version'`)
	damaged := filepath.Join(dir, "damaged.db")
	run(t, damaged, "index", "../sample-vault")
	testenv.GarblePage(t, damaged, "meta")

	cases := []struct {
		file string
		msg  string
	}{
		{foreign, "not an mdsearch index"},
		{empty, "an empty file, not an mdsearch index"},
		{newer, "written by a newer mdsearch"},
		{damaged, "the index file is damaged"}, // not an older index to rebuild empty
	}
	for _, c := range cases {
		for _, args := range [][]string{{"status"}, {"search", "starter"}, {"read", "kitchen/Sourdough.md"}, {"index", "../sample-vault"}} {
			before, _ := os.ReadFile(c.file)
			code, _, errOut := run(t, c.file, args...)
			if code != 1 || !strings.Contains(errOut, c.msg) || !strings.Contains(errOut, c.file) {
				t.Errorf("%s %v: exit %d, stderr %q; want exit 1 naming the file and %q", filepath.Base(c.file), args, code, errOut, c.msg)
			}
			if after, _ := os.ReadFile(c.file); !bytes.Equal(before, after) {
				t.Errorf("%s %v changed the file", filepath.Base(c.file), args)
			}
		}
	}
}

// TestOlderIndex: reading commands leave an index of an older schema as
// it is; search and read refuse it and status reports what it can, each
// saying how to rebuild it; `index` rebuilds it and re-indexes its
// collections at once.
func TestOlderIndex(t *testing.T) {
	noModel(t)
	for _, c := range []struct {
		name    string
		version string
		edit    []string // made of an index of this version
	}{
		{"schema 0", "0", []string{`UPDATE meta SET value = '0' WHERE key = 'schema_version'`}},
		// store's v1Index: written before the application ID.
		{"schema 1", "1", []string{`PRAGMA application_id = 0`, `UPDATE meta SET value = '1' WHERE key = 'schema_version'`,
			`DROP TABLE windows`, `DROP TABLE doc_changes`, `DROP TABLE commit_stamps`, `DROP TABLE chunks_vocab`, `DROP TABLE chunks_instances`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			index := filepath.Join(dir, "index.db")
			if code, _, errOut := run(t, index, "index", "../sample-vault", "--name", "sample"); code != 0 {
				t.Fatal(errOut)
			}
			sqliteFile(t, index, c.edit...)
			files := func() []string { names, _ := filepath.Glob(filepath.Join(dir, "*")); return names }
			before, beside := readFile(index), files()
			for _, args := range [][]string{{"search", "starter"}, {"read", "kitchen/Sourdough.md"}} {
				code, _, errOut := run(t, index, args...)
				if code != 1 || !strings.Contains(errOut, "older mdsearch") || !strings.Contains(errOut, "mdsearch index") {
					t.Errorf("%v: exit %d, stderr %q; want exit 1 naming the older index and `mdsearch index`", args, code, errOut)
				}
			}
			code, out, errOut := run(t, index, "status")
			for _, want := range []string{"schema " + c.version + ")", "made by an older version of mdsearch", "the next `mdsearch index` rebuilds it",
				"serve, mcp or watch", "sample  "} {
				if code != 0 || !strings.Contains(out, want) {
					t.Errorf("status: exit %d, stdout lacks %q:\n%s%s", code, want, out, errOut)
				}
			}
			if root, _ := filepath.Abs("../sample-vault"); !regexp.MustCompile(`(?m)^sample +[1-9]\d* +` + regexp.QuoteMeta(root) + `$`).MatchString(out) {
				t.Errorf("status names no collection sample with its notes and folder:\n%s", out)
			}
			code, out, _ = run(t, index, "status", "--json")
			if code != 0 || !strings.Contains(out, `"schema_version": `+c.version) || !strings.Contains(out, `"name": "sample"`) ||
				!strings.Contains(out, `"outdated": true`) {
				t.Errorf("status --json: exit %d\n%s", code, out)
			}
			if !bytes.Equal(before, readFile(index)) || !slices.Equal(beside, files()) {
				t.Fatalf("reading commands changed an older index, or left files beside it: %v, were %v", files(), beside)
			}
			code, out, errOut = run(t, index, "index", "--name", "other", "../sample-vault/garden")
			if code != 0 || !strings.Contains(errOut, "rebuilt sample") {
				t.Fatalf("index on an older index: %d\n%s\n%s", code, out, errOut)
			}
			code, out, _ = run(t, index, "search", "restore drill", "--collection", "sample")
			if code != 0 || !strings.Contains(out, "Backups.md") {
				t.Errorf("search after the rebuild: %d %s", code, out)
			}
		})
	}
}

// readFile is the file's bytes, or nil.
func readFile(path string) []byte {
	b, _ := os.ReadFile(path)
	return b
}

// TestBadCollectionName: a folder whose name cannot be a collection's is
// refused before the index is opened, so no empty index is left behind.
func TestBadCollectionName(t *testing.T) {
	noModel(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "a:b")
	if err := os.Mkdir(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	dash := filepath.Join(dir, "-notes")
	if err := os.Mkdir(dash, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"index", bad}, `unusable collection name "a:b"`},
		{[]string{"index", "../sample-vault", "--name", "x/y"}, `unusable collection name "x/y"`},
		// "drop -x" would take it for a flag.
		{[]string{"index", "../sample-vault", "--name", "-x"}, `unusable collection name "-x": it starts with '-', which commands would take for a flag`},
		{[]string{"index", dash}, `unusable collection name "-notes": it starts with '-'`},
	} {
		args := c.args
		index := filepath.Join(dir, "index.db")
		code, _, stderr := run(t, index, args...)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
		if left, _ := filepath.Glob(index + "*"); len(left) > 0 {
			t.Errorf("%v left %v behind", args, left)
		}
	}
}
