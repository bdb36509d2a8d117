package sentenceencoder

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"

	"github.com/mdsearch/mdsearch/internal/fileident"
)

// memoFile is the file of stamp memos in the cache root; it keeps the
// memos of the last maxMemos model directories loaded.
const (
	memoFile = "model-stamps.json"
	maxMemos = 8
)

// A stampMemo remembers a model directory's source stamp with the identity
// of every file hashed for it, so a load whose files are all unchanged
// skips hashing 27 MB of weights (about 30 ms, most of a cold load). A
// file's identity is package fileident's.
type stampMemo struct {
	Key   string      `json:"key"`
	Files []fileIdent `json:"files"`
	Stamp string      `json:"stamp"`
}

// fileIdent is one file's identity, by name.
type fileIdent struct {
	Name string `json:"name"`
	fileident.ID
}

// memoKey names what a stamp covers: the directory, the precision and the
// builder version (sourceStamp's inputs besides the files).
func memoKey(dir string, prec Precision) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	return abs + "\x00" + prec.ModelID() + "\x00" + builderVersion
}

// cachedSourceStamp is sourceStamp(dir, prec), from the memo in the cache
// root when every file it lists is unchanged, else computed and memoised.
// A missing or damaged memo only costs the hashing.
func cachedSourceStamp(dir, cache string, prec Precision) (string, error) {
	key := memoKey(dir, prec)
	path := filepath.Join(cache, memoFile)
	memos := readMemos(path)
	if stamp, ok := memos.lookup(key, dir); ok {
		return stamp, nil
	}
	// Identities taken before hashing: a file changed meanwhile gets a new
	// change time, so the memo never vouches for content it did not hash.
	before, idErr := identifyAll(dir)
	stamp, names, err := sourceStampFiles(dir, prec)
	if err != nil {
		return "", err
	}
	if files, ok := pick(before, names); idErr == nil && ok {
		memos.put(stampMemo{Key: key, Files: files, Stamp: stamp})
		memos.write(path)
	}
	return stamp, nil
}

// stampMemos are the memos of one cache root, the latest first.
type stampMemos []stampMemo

// readMemos reads the memo file; a missing or damaged one holds none.
func readMemos(path string) stampMemos {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var m stampMemos
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	return m
}

// lookup returns key's memoised stamp when every file its memo lists has
// its recorded identity.
func (ms stampMemos) lookup(key, dir string) (string, bool) {
	i := slices.IndexFunc(ms, func(m stampMemo) bool { return m.Key == key })
	if i < 0 || ms[i].Stamp == "" || len(ms[i].Files) == 0 {
		return "", false
	}
	for _, f := range ms[i].Files {
		id, ok := fileident.Of(filepath.Join(dir, f.Name))
		if !ok || id != f.ID {
			return "", false
		}
	}
	return ms[i].Stamp, true
}

// put makes m the latest memo, replacing its key's, and drops the oldest
// beyond maxMemos.
func (ms *stampMemos) put(m stampMemo) {
	rest := slices.DeleteFunc(*ms, func(o stampMemo) bool { return o.Key == m.Key })
	*ms = append(stampMemos{m}, rest[:min(len(rest), maxMemos-1)]...)
}

// write stores the memos; a cache root that cannot be written is no
// error, as memos only save time. Two processes writing at once may lose
// one's memo, which costs it one more hashing.
func (ms stampMemos) write(path string) {
	data, err := json.Marshal(ms)
	if err != nil || os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return
	}
	writeAtomic(path, data)
}

// identifyAll identifies every regular file in dir by name.
func identifyAll(dir string) ([]fileIdent, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []fileIdent
	for _, e := range entries {
		if id, ok := fileident.Of(filepath.Join(dir, e.Name())); ok {
			out = append(out, fileIdent{e.Name(), id})
		}
	}
	return out, nil
}

// pick returns the identities of the files named in names; ok is false
// unless every one of them was identified.
func pick(ids []fileIdent, names []string) (picked []fileIdent, ok bool) {
	for _, id := range ids {
		if slices.Contains(names, id.Name) {
			picked = append(picked, id)
		}
	}
	return picked, len(picked) == len(names) && len(picked) > 0
}
