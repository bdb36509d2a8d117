package vault

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// attachmentTree is a vault with images where notes may embed them and
// where they must not be reached.
func attachmentTree(t *testing.T) (root, outside string) {
	outside = t.TempDir()
	build(t, outside, map[string]string{"secret.png": "s"})
	root = t.TempDir()
	build(t, root, map[string]string{
		"a.md": "# A", "assets/diagram.png": "png", "img/Photo.JPG": "jpg", "draw.svg": "<svg/>",
		".obsidian/x.png": "x", "private/p.png": "p", ".mdsearchignore": "private/\n", "notes.txt": "t",
		"in.png": "->assets/diagram.png", "esc.png": "->" + filepath.Join(outside, "secret.png"),
		"escdir": "->" + outside, "peek.png": "->.obsidian/x.png", "note.png": "->a.md",
		"hid": "->.obsidian", "dir.png/": "",
	})
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.png"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, outside
}

// OpenAttachment opens an image inside the vault and refuses all else:
// other types, "..", absolute paths, symlinks out of the vault or to what
// the walk does not reach, hidden and ignored folders, what is not a
// regular file.
func TestOpenAttachment(t *testing.T) {
	root, outside := attachmentTree(t)
	v, err := Open(root, Options{})
	must(t, err)
	for rel, want := range map[string]string{"assets/diagram.png": "png", "in.png": "png", "img/Photo.JPG": "jpg", "./assets//diagram.png": "png", "draw.svg": "<svg/>"} {
		f, err := v.OpenAttachment(rel)
		if err != nil {
			t.Errorf("OpenAttachment(%q): %v", rel, err)
			continue
		}
		got, _ := io.ReadAll(f)
		f.Close()
		if string(got) != want {
			t.Errorf("OpenAttachment(%q) read %q", rel, got)
		}
	}
	for rel, kind := range map[string]mdsearch.Kind{
		"a.md": mdsearch.KindForbidden, "notes.txt": mdsearch.KindForbidden, "../x.png": mdsearch.KindForbidden,
		"assets/../assets/diagram.png": mdsearch.KindForbidden, filepath.Join(root, "assets/diagram.png"): mdsearch.KindForbidden,
		filepath.Join(outside, "secret.png"): mdsearch.KindForbidden, "esc.png": mdsearch.KindForbidden,
		"escdir/secret.png": mdsearch.KindForbidden, ".obsidian/x.png": mdsearch.KindForbidden,
		"private/p.png": mdsearch.KindForbidden, "peek.png": mdsearch.KindForbidden, "hid/x.png": mdsearch.KindForbidden,
		"note.png": mdsearch.KindForbidden, "missing.png": mdsearch.KindNotFound, "dir.png": mdsearch.KindInvalid,
		"pipe.png": mdsearch.KindInvalid, "": mdsearch.KindInvalid,
	} {
		f, err := v.OpenAttachment(rel)
		if f != nil {
			f.Close()
		}
		if mdsearch.KindOf(err) != kind {
			t.Errorf("OpenAttachment(%q) = %v, want kind %v", rel, err, kind)
		}
	}
}

// List names the attachments the walk reaches, as OpenAttachment opens
// them.
func TestListAttachments(t *testing.T) {
	root, _ := attachmentTree(t)
	v, err := Open(root, Options{})
	must(t, err)
	l, err := v.List(context.Background())
	must(t, err)
	want := []string{"assets/diagram.png", "draw.svg", "img/Photo.JPG", "in.png"}
	if !slices.Equal(l.Attachments, want) {
		t.Errorf("attachments %q, want %q", l.Attachments, want)
	}
	if paths := filesOf(l); !slices.Equal(paths, []string{"a.md"}) {
		t.Errorf("notes %q", paths)
	}
}

func filesOf(l *Listing) []string {
	var out []string
	for _, f := range l.Files {
		out = append(out, f.Path)
	}
	return out
}
