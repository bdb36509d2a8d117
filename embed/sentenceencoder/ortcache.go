package sentenceencoder

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"

	ort "github.com/yalue/onnxruntime_go"
)

// ONNX Runtime optimises a graph every time a session opens it: it parses
// the protobuf, copies every weight and rewrites the graph (about 30 ms
// of a cold process's load). Saved once in ONNX Runtime's own format,
// after optimisation, the graph opens from a read-only mapping of the file
// with its weights used in place (about 20 ms), into the same kernels.
//
// The file, in the cache root's graphs folder, is named by everything the
// saved graph depends on (ortCacheKey), and ends with a trailer holding
// the CRC-32C of the graph, checked before each use, so a file changed or
// cut short is made again rather than run.

// ortCacheVersion changes whenever the way the file is made changes.
const ortCacheVersion = "mdsearch-ort-1"

// graphsDir is the folder of saved graphs in the cache root.
const graphsDir = "graphs"

// ortTrailer ends a saved graph: this magic, then the CRC-32C of the
// graph before it (little-endian).
var ortTrailer = []byte("mdsg")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ortCachePath is where the optimised graph of the ONNX graph built from
// stamp at prec is kept: its name hashes the source stamp, the precision,
// ONNX Runtime's version, the session options that shape the graph and
// the CPU (an optimised graph may hold kernels chosen for it).
func ortCachePath(cache, stamp string, prec Precision, cfg sessionConfig) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n%s\nopt=%d\n%s/%s\n%s\n", ortCacheVersion, stamp, prec.onnxName(),
		ort.GetVersion(), cfg.optLevel, runtime.GOOS, runtime.GOARCH, cpuFlags())
	return filepath.Join(cache, graphsDir, hex.EncodeToString(h.Sum(nil))[:32]+".ort")
}

// cpuFlags is the feature list of the first CPU in /proc/cpuinfo, or ""
// where there is none.
func cpuFlags() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for line := range bytes.Lines(data) {
		if name, value, ok := bytes.Cut(line, []byte(":")); ok && string(bytes.TrimSpace(name)) == "flags" {
			return string(bytes.TrimSpace(value))
		}
	}
	return ""
}

// openSaved opens sessions from the saved graph at path, if it is whole:
// the first one at once, the others (on demand) from the same mapping,
// which the pool unmaps when it closes. ok is false when there is no
// usable file.
func openSaved(path string, sessions int, cfg sessionConfig) (*sessionPool, bool) {
	g, err := mapFile(path)
	if err != nil {
		return nil, false
	}
	graph, ok := checkTrailer(g.data)
	if !ok {
		g.close()
		return nil, false
	}
	cfg.inPlace = true
	open := func() (*ort.DynamicAdvancedSession, error) { return newSession("", graph, cfg) }
	s, err := open()
	if err != nil {
		g.close()
		return nil, false
	}
	p := newSessionPool(s, sessions, open)
	p.onClose = g.close
	return p, true
}

// checkTrailer returns the graph of a saved file when its trailer's
// checksum matches.
func checkTrailer(data []byte) ([]byte, bool) {
	n := len(data) - len(ortTrailer) - 4
	if n <= 0 || !bytes.Equal(data[n:n+len(ortTrailer)], ortTrailer) {
		return nil, false
	}
	graph := data[:n]
	return graph, crc32.Checksum(graph, castagnoli) == binary.LittleEndian.Uint32(data[len(data)-4:])
}

// saveTemp returns a new temporary file beside path for ONNX Runtime to
// save the optimised graph in, or "" when the folder cannot be written.
func saveTemp(path string) string {
	if os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return ""
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return ""
	}
	f.Close()
	return f.Name()
}

// finishSaved appends the trailer to the graph ONNX Runtime saved at tmp
// and renames it to path; on any failure it removes tmp. Errors are
// dropped: the file only saves time.
func finishSaved(tmp, path string) {
	if tmp == "" {
		return
	}
	defer os.Remove(tmp)
	graph, err := os.ReadFile(tmp)
	if err != nil || len(graph) == 0 {
		return
	}
	trailer := binary.LittleEndian.AppendUint32(append([]byte(nil), ortTrailer...), crc32.Checksum(graph, castagnoli))
	writeAtomic(path, append(graph, trailer...))
}
