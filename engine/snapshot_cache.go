package engine

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/mdsearch/mdsearch/store"
)

// A vector cache file holds one index's snapshot as the index held it at
// one version, so that a process that searches once (the command line)
// reads 0.55 KB a window from one file instead of the index's three tables
// through SQLite, which costs several times more. It is only ever a copy:
// a file of an older version catches up through the index's change log
// (and is written again once that reads more than a few rows); any doubt
// (another index file, instance, model or heading weight, a damaged or
// partial file, a change log that cannot bring it up to date) and the
// vectors load from the index, which then rewrites the file.
//
// Layout: vectorCacheMagic, a uint32 header length, the JSON header
// (cacheKey, the version and the row count), then ids, docs and sections
// (int64), chunk indexes (int32), scales with the heading weight folded in
// (float32), heading flags (one byte), the high nibble plane and the low
// one (snapshot_planes.go), all little-endian, and last the CRC-32C of everything
// before it.
const vectorCacheMagic = "mdsearch vectors " + vectorCacheFormat + "\n"

// vectorCacheFormat is the file layout's version, in the magic and the
// file's name: builds of two formats keep a file each instead of
// rewriting one another's on every search.
const vectorCacheFormat = "3"

// cacheKey names the state of the index a cache file holds.
type cacheKey struct {
	Path     string  `json:"path"`     // the index file, absolute
	File     string  `json:"file"`     // its device and inode: a file moved in its place differs
	Instance string  `json:"instance"` // the index's random ID (store.Reader.Instance)
	Model    int64   `json:"model"`    // the model's id in the index
	Name     string  `json:"name"`     // the model's name
	Dim      int     `json:"dim"`
	Heading  float64 `json:"heading"` // the heading weight folded into the scales
}

type cacheHeader struct {
	Key     cacheKey      `json:"key"`
	Version store.Version `json:"version"` // of the index the rows were read at
	Rows    int           `json:"rows"`
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// vectorCacheKey is the key of the snapshots of model, and the cache
// file's path; ok is false when the engine keeps no cache or the index
// cannot be named (no instance ID yet, no file identity).
func (e *Engine) vectorCacheKey(ctx context.Context, model int64) (cacheKey, string, bool) {
	if e.opts.VectorCache == "" {
		return cacheKey{}, "", false
	}
	inst, err := e.st.Instance(ctx)
	if err != nil || inst == "" {
		return cacheKey{}, "", false
	}
	path := e.st.Path()
	fi, err := os.Stat(path)
	if err != nil {
		return cacheKey{}, "", false
	}
	id, ok := fileIdentity(fi)
	if !ok {
		return cacheKey{}, "", false
	}
	k := cacheKey{Path: path, File: id, Instance: inst, Model: model, Name: e.emb.ModelID(), Dim: e.emb.Dim(),
		Heading: e.opts.Fusion.HeadingCos}
	sum := sha256.Sum256([]byte(path))
	return k, filepath.Join(e.opts.VectorCache, hex.EncodeToString(sum[:16])+"-"+vectorCacheFormat+".vec"), true
}

// readVectorCache reads the snapshot of key the file at path holds, whole,
// or nil. The planes are read straight into arrays of their own, each
// with room to spare after it for catch-ups to append into.
func readVectorCache(path string, key cacheKey) *snapshot {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	r := &crcReader{r: bufio.NewReaderSize(f, 1<<20)}
	head := make([]byte, len(vectorCacheMagic)+4)
	if r.full(head) != nil || !bytes.HasPrefix(head, []byte(vectorCacheMagic)) {
		return nil
	}
	n := int(binary.LittleEndian.Uint32(head[len(vectorCacheMagic):]))
	if n > int(fi.Size()) {
		return nil
	}
	var h cacheHeader
	js := make([]byte, n)
	if r.full(js) != nil || json.Unmarshal(js, &h) != nil || h.Key != key || h.Rows < 0 {
		return nil
	}
	s := &snapshot{ver: h.Version, loaded: time.Now(), model: key.Model, dim: key.Dim}
	cols := h.Rows * (8 + 8 + 8 + 4 + 4 + 1)
	if int64(len(head)+n+cols+2*h.Rows*s.half()+4) != fi.Size() {
		return nil
	}
	b := make([]byte, cols)
	if r.full(b) != nil {
		return nil
	}
	decodeRows(b, h.Rows, s)
	s.allocVecs(h.Rows)
	if r.full(s.hi) != nil || r.full(s.lo) != nil {
		return nil
	}
	want := r.sum
	var sum [4]byte
	if r.full(sum[:]) != nil || binary.LittleEndian.Uint32(sum[:]) != want {
		return nil
	}
	s.indexRows()
	return s
}

// crcReader reads whole buffers and keeps the CRC-32C of what it read.
type crcReader struct {
	r   io.Reader
	sum uint32
}

func (c *crcReader) full(b []byte) error {
	if _, err := io.ReadFull(c.r, b); err != nil {
		return err
	}
	c.sum = crc32.Update(c.sum, castagnoli, b)
	return nil
}

// decodeRows reads the columns of rows rows of s from b, which holds
// exactly them.
func decodeRows(b []byte, rows int, s *snapshot) {
	s.allocRows(rows)
	for _, col := range [][]int64{s.ids, s.docs, s.secs} {
		for i := range col {
			col[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
		}
		b = b[8*rows:]
	}
	for i := range rows {
		s.index[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
		s.scales[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*(rows+i):]))
		s.heads[i] = b[8*rows+i] != 0
	}
}

// writeVectorCache stores s as key's snapshot, without its dead rows.
// Errors are dropped: the cache only saves time. Written to a temporary
// file and renamed, so readers see a whole file or none; not synced, since
// a file a crash leaves short fails its checksum.
func writeVectorCache(path string, key cacheKey, s *snapshot) {
	if s.dead > 0 {
		s = s.compact()
	}
	head, err := json.Marshal(cacheHeader{Key: key, Version: s.ver, Rows: len(s.ids)})
	if err != nil || os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return
	}
	b := make([]byte, 0, len(vectorCacheMagic)+4+len(head)+len(s.ids)*(33+2*s.half())+4)
	b = append(b, vectorCacheMagic...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(head)))
	b = append(b, head...)
	for _, col := range [][]int64{s.ids, s.docs, s.secs} {
		for _, v := range col {
			b = binary.LittleEndian.AppendUint64(b, uint64(v))
		}
	}
	for _, v := range s.index {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	for _, v := range s.scales {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	for _, h := range s.heads {
		var v byte
		if h {
			v = 1
		}
		b = append(b, v)
	}
	b = append(b, s.hi...)
	b = append(b, s.lo...)
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	replaceFile(path, b)
	pruneVectorCache(path, key.Path)
}

// pruneVectorCache deletes, beside the file written just now, the cache
// files of index files that are gone, so the folder does not keep a copy
// of every index ever searched, and those of another format for the same
// index, which this build cannot read. Only files that open with a vector
// cache header of any version are touched.
func pruneVectorCache(written, index string) {
	names, _ := filepath.Glob(filepath.Join(filepath.Dir(written), "*.vec"))
	for _, name := range names {
		p, magic, ok := cachedIndexPath(name)
		if !ok || name == written {
			continue
		}
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) || (p == index && magic != vectorCacheMagic) {
			os.Remove(name)
		}
	}
}

// cachedIndexPath reads the index path and the magic line (newline
// included) from a cache file's header.
func cachedIndexPath(name string) (path, magic string, ok bool) {
	f, err := os.Open(name)
	if err != nil {
		return "", "", false
	}
	defer f.Close()
	head := make([]byte, 64*1024)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	line, rest, ok := bytes.Cut(head, []byte("\n"))
	if !ok || !bytes.HasPrefix(line, []byte("mdsearch vectors ")) || len(rest) < 4 {
		return "", "", false
	}
	size := int(binary.LittleEndian.Uint32(rest))
	if size > len(rest)-4 {
		return "", "", false
	}
	var h struct {
		Key struct {
			Path string `json:"path"`
		} `json:"key"`
	}
	if json.Unmarshal(rest[4:4+size], &h) != nil || !filepath.IsAbs(h.Key.Path) {
		return "", "", false
	}
	return h.Key.Path, string(line) + "\n", true
}

// replaceFile writes data to path through a temporary file beside it.
func replaceFile(path string, data []byte) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
}
