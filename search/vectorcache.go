package search

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"unsafe"
)

// A vector cache file holds one index's snapshot as the index held it at
// one generation, so that a process that searches once (the command line)
// reads 0.55 KB a window from one file instead of the index's three tables
// through SQLite, which costs several times more. It is only ever a copy:
// any doubt (another index file, instance, generation, model, a damaged or
// partial file) and the vectors load from the index, which then rewrites
// the file.
//
// Layout: vectorCacheMagic, a uint32 header length, the JSON header
// (cacheKey and the row count), then ids, docs and sections (int64), chunk
// indexes (int32), scales before the heading weight (float32), heading
// flags (one byte) and the int8 vectors, all little-endian, and last the
// CRC-32C of everything before it.
const vectorCacheMagic = "mdsearch vectors 1\n"

// cacheKey names the state of the index a cache file holds.
type cacheKey struct {
	Path     string `json:"path"`     // the index file, absolute
	File     string `json:"file"`     // its device and inode: a file moved in its place differs
	Instance string `json:"instance"` // the index's random ID (store.Reader.Instance)
	Gen      int64  `json:"gen"`      // the generation the vectors were read at
	Model    int64  `json:"model"`    // the model's id in the index
	Name     string `json:"name"`     // the model's name
	Dim      int    `json:"dim"`
}

type cacheHeader struct {
	Key  cacheKey `json:"key"`
	Rows int      `json:"rows"`
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// vectorCacheKey is the key of the snapshot of model at gen, and the cache
// file's path; ok is false when the engine keeps no cache or the index
// cannot be named (no instance ID yet, no file identity).
func (e *Engine) vectorCacheKey(ctx context.Context, gen, model int64) (cacheKey, string, bool) {
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
	k := cacheKey{Path: path, File: id, Instance: inst, Gen: gen, Model: model, Name: e.emb.ModelID(), Dim: e.emb.Dim()}
	sum := sha256.Sum256([]byte(path))
	return k, filepath.Join(e.opts.VectorCache, hex.EncodeToString(sum[:16])+".vec"), true
}

// readVectorCache fills s from the file at path when it holds key's
// snapshot, whole.
func readVectorCache(path string, key cacheKey, s *snapshot) bool {
	data, err := os.ReadFile(path)
	if err != nil || len(data) < len(vectorCacheMagic)+8 || !bytes.HasPrefix(data, []byte(vectorCacheMagic)) {
		return false
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return false
	}
	body = body[len(vectorCacheMagic):]
	n := int(binary.LittleEndian.Uint32(body))
	if n > len(body)-4 {
		return false
	}
	var h cacheHeader
	if json.Unmarshal(body[4:4+n], &h) != nil || h.Key != key || h.Rows < 0 {
		return false
	}
	return decodeRows(body[4+n:], h.Rows, s)
}

// decodeRows reads rows rows of s from b, which must hold exactly them.
func decodeRows(b []byte, rows int, s *snapshot) bool {
	if len(b) != rows*(8+8+8+4+4+1+s.dim) {
		return false
	}
	s.ids, b = int64s(b, rows)
	s.docs, b = int64s(b, rows)
	s.secs, b = int64s(b, rows)
	s.index = make([]int32, rows)
	s.scales = make([]float32, rows)
	for i := range rows {
		s.index[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
		s.scales[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*(rows+i):]))
	}
	b = b[8*rows:]
	s.heads = make([]bool, rows)
	for i := range rows {
		s.heads[i] = b[i] != 0
	}
	b = b[rows:]
	if len(b) > 0 {
		s.vecs = unsafe.Slice((*int8)(unsafe.Pointer(&b[0])), len(b))
	}
	return true
}

func int64s(b []byte, n int) ([]int64, []byte) {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out, b[8*n:]
}

// writeVectorCache stores s (scales before the heading weight) as key's
// snapshot. Errors are dropped: the cache only saves time. Written to a
// temporary file and renamed, so readers see a whole file or none; not
// synced, since a file a crash leaves short fails its checksum.
func writeVectorCache(path string, key cacheKey, s *snapshot) {
	head, err := json.Marshal(cacheHeader{Key: key, Rows: len(s.ids)})
	if err != nil || os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return
	}
	b := make([]byte, 0, len(vectorCacheMagic)+4+len(head)+len(s.ids)*(33+s.dim)+4)
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
	if len(s.vecs) > 0 {
		b = append(b, unsafe.Slice((*byte)(unsafe.Pointer(&s.vecs[0])), len(s.vecs))...)
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	replaceFile(path, b)
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
