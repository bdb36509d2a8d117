package sentenceencoder

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	ort "github.com/yalue/onnxruntime_go"
)

// builderVersion changes whenever buildONNX produces a different graph, so
// cached model.onnx files from older builds are rebuilt.
const builderVersion = "use-onnx-1"

// OnnxName is the file the float32 ONNX graph is cached in, inside the
// model directory; the int8 graph has its own (Precision.onnxName).
const OnnxName = "model.onnx"

const stampKey = "mdsearch.source"

// sourceStamp hashes everything the ONNX graph is built from: the builder
// version, the precision's model ID (but for float32, whose stamp predates
// it, so a new int8 graph gets a new ID and rebuilds the cache),
// model.json and every weight shard it lists.
func sourceStamp(dir string, prec Precision) (string, error) {
	stamp, _, err := sourceStampFiles(dir, prec)
	return stamp, err
}

// sourceStampFiles is sourceStamp, with the names of the files it read.
func sourceStampFiles(dir string, prec Precision) (stamp string, names []string, err error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", builderVersion)
	if prec != Float32 {
		fmt.Fprintf(h, "precision %s\n", prec.ModelID())
	}
	data, err := readModelFile(dir, "model.json")
	if err != nil {
		return "", nil, err
	}
	h.Write(data)
	names = append(names, "model.json")
	var mf struct {
		WeightsManifest []struct {
			Paths []string `json:"paths"`
		} `json:"weightsManifest"`
	}
	if err := json.Unmarshal(data, &mf); err != nil {
		return "", nil, fmt.Errorf("model.json: not a TensorFlow.js model: %w", err)
	}
	for _, group := range mf.WeightsManifest {
		for _, name := range group.Paths {
			shard, err := readModelFile(dir, name)
			if err != nil {
				return "", nil, err
			}
			fmt.Fprintf(h, "\n%s %d\n", name, len(shard))
			h.Write(shard)
			names = append(names, name)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), names, nil
}

// ownGraph reports whether path may be written with a graph built from
// the tfjs model: it is absent, or a graph mdsearch wrote (its stamp).
func ownGraph(path string) bool {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return true
	}
	return cachedStamp(path) != ""
}

// cachedStamp reads the source stamp recorded in a cached model.onnx, or ""
// if the file is absent or carries none.
func cachedStamp(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	v, _ := readMetadata(head[:n], stampKey)
	return v
}

// openModel opens the cached graph of precision prec when it was built from
// the current source files, and otherwise builds it from the tfjs model and
// caches it.
// vocabSize is asked for only when the graph is built.
func openModel(dir, cache string, threads int, vocabSize func() (int, error), prec Precision) (*sessionPool, error) {
	sessions, each := splitThreads(threads)
	cfg := sessionConfig{threads: each}
	stamp, err := cachedSourceStamp(dir, cache, prec)
	if err != nil {
		return nil, err
	}
	saved := ortCachePath(cache, stamp, prec, cfg)
	if p, ok := openSaved(saved, sessions, cfg); ok {
		return p, nil
	}
	// The first session saves its optimised graph for the next process.
	first := cfg
	first.saveTo = saveTemp(saved)
	defer finishSaved(first.saveTo, saved)
	path := filepath.Join(dir, prec.onnxName())
	fromFile := func() (*ort.DynamicAdvancedSession, error) { return newSession(path, nil, cfg) }
	if cachedStamp(path) == stamp {
		if s, err := newSession(path, nil, first); err == nil {
			return newSessionPool(s, sessions, fromFile), nil
		}
		// A damaged cache file: rebuild it below.
	}
	g, err := loadTFJS(dir)
	if err != nil {
		return nil, err
	}
	spec, err := readSpec(g)
	if err != nil {
		return nil, err
	}
	size, err := vocabSize()
	if err != nil {
		return nil, err
	}
	if err := spec.fits(size); err != nil {
		return nil, err
	}
	data := buildONNX(spec, [][2]string{{stampKey, stamp}}, prec)
	s, err := newSession("", data, first)
	if err != nil {
		return nil, fmt.Errorf("ONNX Runtime rejected the graph built from model.json: %w", err)
	}
	// A read-only model directory only costs a rebuild on the next load;
	// until then the pool's other sessions read the graph from memory. A
	// file there that mdsearch did not write (no stamp) is left as it is.
	if ownGraph(path) && writeAtomic(path, data) == nil {
		return newSessionPool(s, sessions, fromFile), nil
	}
	return newSessionPool(s, sessions, func() (*ort.DynamicAdvancedSession, error) { return newSession("", data, cfg) }), nil
}

// fits checks the spec against what Model assumes.
func (s *encoderSpec) fits(vocabSize int) error {
	switch {
	case s.maxLen != Window:
		return fmt.Errorf("model window is %d tokens, want %d", s.maxLen, Window)
	case s.tanhW.shape[1] != Dimension:
		return fmt.Errorf("model outputs %d dimensions, want %d", s.tanhW.shape[1], Dimension)
	case s.embed.shape[0] < vocabSize:
		return fmt.Errorf("vocab.json has %d tokens but the model embeds only %d", vocabSize, s.embed.shape[0])
	}
	return nil
}

// writeAtomic writes data to path through a temporary file in the same
// directory, so readers never see a partial file.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = io.Copy(f, bytes.NewReader(data))
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
