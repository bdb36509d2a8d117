package assets

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"syscall"

	"github.com/mdsearch/mdsearch"
)

// maxConvert bounds a member that is read into memory to be converted.
const maxConvert = 64 << 20

// unpack extracts b's files from the tarball into dir. Each file is
// written to a temporary name and checked against its pins; only when all
// of them pass are they renamed into place, their identities recorded and
// the stamp written. (Install
// has already removed any stamp that matches, so dir never looks complete
// while it is not.)
func unpack(tgz string, b Bundle, dir string) error {
	removeTemps(dir)
	temps, err := extractTemps(tgz, b, dir)
	defer func() {
		for _, t := range temps {
			os.Remove(t) // no-op for the renamed ones
		}
	}()
	if err != nil {
		return err
	}
	for _, f := range b.Files {
		if err := os.Rename(temps[f.Name], filepath.Join(dir, f.Name)); err != nil {
			return mdsearch.Errorf(mdsearch.KindUnavailable, "setup", dir, "", "cannot install %s: %v", f.Name, err)
		}
	}
	syncDir(dir)
	if err := writeVerified(dir, identities(dir, b)); err != nil {
		return err
	}
	return writeStamp(dir, b)
}

// extractTemps writes every wanted member to a checked temporary file in
// dir and returns their names by File.Name.
func extractTemps(tgz string, b Bundle, dir string) (map[string]string, error) {
	fail := func(format string, args ...any) error {
		return mdsearch.Errorf(mdsearch.KindUnavailable, "setup", tgz,
			"delete the tarball and run `mdsearch setup` again", format, args...)
	}
	f, err := os.Open(tgz)
	if err != nil {
		return nil, fail("cannot read: %v", errors.Unwrap(err))
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fail("not a gzip tarball: %v", err)
	}
	want := make(map[string]File, len(b.Files))
	for _, file := range b.Files {
		want[file.Src] = file
	}
	temps := make(map[string]string, len(b.Files))
	tr := tar.NewReader(zr)
	for len(want) > 0 {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return temps, fail("broken tar archive: %v", err)
		}
		file, ok := want[hdr.Name]
		if !ok || hdr.Typeflag != tar.TypeReg {
			continue
		}
		delete(want, hdr.Name)
		tmp, err := extractOne(tr, file, dir)
		if tmp != "" {
			temps[file.Name] = tmp
		}
		if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) { // the cache's disk, not the tarball
			return temps, mdsearch.Errorf(mdsearch.KindUnavailable, "setup", dir,
				"free some space there (or point MDSEARCH_HOME at a disk with room) and run `mdsearch setup` again", "cannot write %s: %v", file.Name, err)
		}
		if err != nil {
			return temps, fail("%s: %v", hdr.Name, err)
		}
	}
	if len(want) > 0 {
		var missing []string
		for src := range want {
			missing = append(missing, src)
		}
		sort.Strings(missing)
		return temps, fail("the tarball lacks %v", missing)
	}
	return temps, nil
}

// extractOne copies one member to a temporary file, converting it if the
// File says so, and checks its size and SHA-256.
func extractOne(r io.Reader, file File, dir string) (string, error) {
	if file.Convert != nil {
		data, err := io.ReadAll(io.LimitReader(r, maxConvert+1))
		if err != nil {
			return "", err
		}
		if len(data) > maxConvert {
			return "", fmt.Errorf("over %d bytes", maxConvert)
		}
		if data, err = file.Convert(data); err != nil {
			return "", err
		}
		r = bytes.NewReader(data)
	}
	out, err := os.CreateTemp(dir, "."+file.Name+".tmp-")
	if err != nil {
		return "", err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), io.LimitReader(r, file.Size+1))
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(out.Name(), 0o644)
	}
	if err != nil {
		return out.Name(), err
	}
	if n > file.Size {
		return out.Name(), fmt.Errorf("has over %d bytes, want %d", file.Size, file.Size)
	}
	if n != file.Size {
		return out.Name(), fmt.Errorf("has %d bytes, want %d", n, file.Size)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != file.SHA256 {
		return out.Name(), fmt.Errorf("checksum mismatch: sha256 %s, want %s", sum, file.SHA256)
	}
	return out.Name(), nil
}

// syncDir flushes renames in dir to disk; failure only weakens durability.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
