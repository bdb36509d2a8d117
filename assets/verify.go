package assets

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mdsearch/mdsearch/internal/fileident"
)

// verifiedName is the file, beside the stamp, that records each
// installed file's identity when its SHA-256 last matched its pin: a file
// that keeps that identity is trusted without being read again, and any
// other is hashed again, at setup and whenever the model is located.
const verifiedName = ".mdsearch-verified"

// verified maps a bundle file's name to its identity when last hashed.
type verified map[string]fileident.ID

// readVerified reads dir's record; a missing or damaged one vouches for
// nothing, which costs one hashing of every file.
func readVerified(dir string) verified {
	data, err := os.ReadFile(filepath.Join(dir, verifiedName))
	if err != nil {
		return verified{}
	}
	var v verified
	if json.Unmarshal(data, &v) != nil || v == nil {
		return verified{}
	}
	return v
}

func writeVerified(dir string, v verified) error {
	data, _ := json.MarshalIndent(v, "", "  ") // cannot fail: strings and ints
	return writeAtomic(filepath.Join(dir, verifiedName), bytes.NewReader(append(data, '\n')))
}

// fileProblem is why an installed file cannot be trusted.
type fileProblem struct {
	Name    string
	Missing bool
	What    string // "has 12 bytes, want 42", "is damaged (sha256 …, want …)"
}

func (p *fileProblem) Error() string { return p.Name + " " + p.What }

// check compares b's files in dir with their pins. A file whose identity
// is the one rec holds was hashed with that identity and is trusted
// (unless full); any other is hashed, its identity read first, so a write
// during the hashing is seen next time. Where identities cannot be read,
// sizes vouch, as they did before identities were recorded. It returns
// the identities to record, how many files were hashed, and the first
// problem, if any.
func check(dir string, b Bundle, rec verified, full bool) (verified, int, *fileProblem) {
	ids := verified{}
	hashed := 0
	for _, f := range b.Files {
		p := filepath.Join(dir, f.Name)
		id, known := fileident.Of(p)
		if known && !full && rec[f.Name] == id {
			ids[f.Name] = id
			continue
		}
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			return ids, hashed, &fileProblem{Name: f.Name, Missing: true, What: "is missing"}
		}
		if fi.Size() != f.Size {
			return ids, hashed, &fileProblem{Name: f.Name, What: fmt.Sprintf("has %d bytes, want %d", fi.Size(), f.Size)}
		}
		if !known && !full {
			continue
		}
		hashed++
		sum, _, err := hashFile(p)
		if err != nil {
			return ids, hashed, &fileProblem{Name: f.Name, What: "cannot be read: " + err.Error()}
		}
		if sum != f.SHA256 {
			return ids, hashed, &fileProblem{Name: f.Name, What: fmt.Sprintf("is damaged (sha256 %s, want %s)", sum, f.SHA256)}
		}
		if known {
			ids[f.Name] = id
		}
	}
	return ids, hashed, nil
}

// identities reads the identities of b's files in dir, just installed
// and hashed (a rename sets the change time, so they are read after it).
func identities(dir string, b Bundle) verified {
	ids := verified{}
	for _, f := range b.Files {
		if id, ok := fileident.Of(filepath.Join(dir, f.Name)); ok {
			ids[f.Name] = id
		}
	}
	return ids
}
