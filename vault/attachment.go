package vault

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/mdsearch/mdsearch"
)

// attachmentTypes are the attachments a note may embed that the page
// shows, by extension, with their content types: the image formats
// Obsidian shows.
var attachmentTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".svg": "image/svg+xml", ".webp": "image/webp", ".avif": "image/avif", ".bmp": "image/bmp",
}

// attachmentKinds names them in messages.
const attachmentKinds = "png, jpg, jpeg, gif, svg, webp, avif or bmp"

// IsAttachment reports whether a file name is an attachment's: an image a
// note embeds (![[diagram.png]]).
func IsAttachment(name string) bool { return AttachmentType(name) != "" }

// AttachmentType is the content type of an attachment by its name, or ""
// when the name is no attachment's.
func AttachmentType(name string) string {
	return attachmentTypes[strings.ToLower(path.Ext(name))]
}

// OpenAttachment opens the attachment at the vault-relative path rel. It
// refuses (KindForbidden) a name that is no attachment's, what Resolve
// refuses (absolute paths, "..", symlinks out of the vault), what the walk
// does not reach (a hidden or never-walked folder, an ignore rule) and a
// symlink to a file that is no attachment or that the walk does not
// reach; what is not a regular file is KindInvalid. The file is opened
// through an os.Root of the vault, so a symlink swapped in meanwhile
// cannot lead out of it.
func (v *Vault) OpenAttachment(rel string) (*os.File, error) {
	if err := checkRel(rel); err != nil {
		return nil, err
	}
	clean := filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel)))
	if why, err := v.unshown(clean); err != nil || why != "" {
		if err != nil {
			return nil, err
		}
		return nil, mdsearch.Errorf(mdsearch.KindForbidden, "open attachment", rel, "", "%s", why)
	}
	real, err := v.Resolve(clean)
	if mdsearch.KindOf(err) == mdsearch.KindNotFound {
		return nil, mdsearch.Errorf(mdsearch.KindNotFound, "open attachment", rel, "", "no such file")
	}
	if err != nil {
		return nil, err
	}
	if r, err := filepath.Rel(v.root, real); err == nil && filepath.ToSlash(r) != clean {
		if why, err := v.unshown(filepath.ToSlash(r)); err != nil {
			return nil, err
		} else if why != "" {
			return nil, mdsearch.Errorf(mdsearch.KindForbidden, "open attachment", rel, "", "symlink to %s: %s", filepath.ToSlash(r), why)
		}
	}
	return v.openRegular(rel, clean)
}

// unshown says why the vault-relative path rel is no attachment the walk
// reaches, or "" when it is one; an error when an ignore file on the way
// cannot be read.
func (v *Vault) unshown(rel string) (string, error) {
	if !IsAttachment(rel) {
		return "not an attachment (an image: " + attachmentKinds + ")", nil
	}
	return v.unreachable(strings.Split(rel, "/"), false)
}

// shown reports whether rel is an attachment the walk reaches (an ignore
// file on the way that cannot be read hides it).
func (v *Vault) shown(rel string) bool {
	why, err := v.unshown(rel)
	return err == nil && why == ""
}

// openRegular opens clean inside the vault, read-only and non-blocking (a
// named pipe cannot hang the server), and checks it is a regular file.
func (v *Vault) openRegular(rel, clean string) (*os.File, error) {
	root, err := os.OpenRoot(v.root)
	if err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindNotFound, "open attachment", rel, "", "vault folder is gone: %v", pathless(err))
	}
	defer root.Close()
	f, err := root.OpenFile(filepath.FromSlash(clean), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	switch {
	case absent(err):
		return nil, mdsearch.Errorf(mdsearch.KindNotFound, "open attachment", rel, "", "no such file")
	case err != nil:
		return nil, mdsearch.Errorf(mdsearch.KindForbidden, "open attachment", rel, "", "%v", pathless(err))
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = errors.New(NotRegular(fi.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "open attachment", rel, "", "%v", pathless(err))
	}
	return f, nil
}
