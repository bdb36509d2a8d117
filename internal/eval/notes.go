package eval

import (
	"context"

	"github.com/mdsearch/mdsearch/sections"
	"github.com/mdsearch/mdsearch/vault"
)

// openVault opens the vault at dir and lists its notes, sorted by path.
func openVault(ctx context.Context, dir string) (*vault.Vault, []vault.File, error) {
	v, err := vault.Open(dir, vault.Options{})
	if err != nil {
		return nil, nil, err
	}
	files, _, err := v.Walk(ctx)
	if err != nil {
		return nil, nil, err
	}
	return v, files, nil
}

// readDoc reads and parses one note of v.
func readDoc(v *vault.Vault, path string) ([]byte, *sections.Document, error) {
	src, err := v.ReadNote(path)
	if err != nil {
		return nil, nil, err
	}
	return src, sections.Parse(path, src), nil
}

// eachNote calls fn with every note of the vault at dir, parsed, in path
// order, and stops at fn's first error. Notes that cannot be read are
// skipped, as the index skips them.
func eachNote(ctx context.Context, dir string, fn func(path string, src []byte, doc *sections.Document) error) error {
	v, files, err := openVault(ctx, dir)
	if err != nil {
		return err
	}
	for _, f := range files {
		src, doc, err := readDoc(v, f.Path)
		if err != nil {
			continue
		}
		if err := fn(f.Path, src, doc); err != nil {
			return err
		}
	}
	return nil
}
