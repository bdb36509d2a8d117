package sentenceencoder

import (
	"debug/elf"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// ortMu guards the process-wide ONNX Runtime environment. A failed attempt
// (say, a damaged library) leaves it uninitialised, so a later New with a
// good library still works; once loaded, the library stays for the life of
// the process and serves every Model.
var ortMu sync.Mutex

// initRuntime loads the ONNX Runtime library at lib unless the environment
// is already up.
func initRuntime(lib string) error {
	if err := checkLibrary(lib); err != nil {
		return err
	}
	ortMu.Lock()
	defer ortMu.Unlock()
	if ort.IsInitialized() {
		return nil
	}
	ort.SetSharedLibraryPath(lib)
	// Telemetry must be off before the environment exists: creating it
	// reads /proc/self/cmdline and matches it with a recursive regex that
	// overflows the stack on a long command line, and it later resolves
	// host names. mdsearch makes no network contact at run time.
	if err := os.Setenv("ORT_DISABLE_TELEMETRY", "1"); err != nil {
		return fmt.Errorf("disabling ONNX Runtime telemetry: %w", err)
	}
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		if ort.IsInitialized() { // initialised elsewhere meanwhile
			return nil
		}
		return fmt.Errorf("loading ONNX Runtime: %w", err)
	}
	if err := ort.DisableTelemetry(); err != nil {
		return fmt.Errorf("disabling ONNX Runtime telemetry: %w", err)
	}
	return nil
}

// elfMachines maps GOARCH to the ELF machine a library must be built for.
var elfMachines = map[string]elf.Machine{
	"amd64": elf.EM_X86_64,
	"arm64": elf.EM_AARCH64,
}

// checkLibrary rejects a file that cannot be the ONNX Runtime shared
// library before it is loaded: loading garbage can crash the process,
// while this check gives a clear error.
func checkLibrary(lib string) error {
	f, err := elf.Open(lib)
	if err != nil {
		return fmt.Errorf("not a shared library: %w", err)
	}
	defer f.Close()
	if f.Type != elf.ET_DYN {
		return fmt.Errorf("not a shared library (ELF type %s)", f.Type)
	}
	if want, ok := elfMachines[runtime.GOARCH]; ok && f.Machine != want {
		return fmt.Errorf("built for %s, this machine is %s", f.Machine, runtime.GOARCH)
	}
	syms, err := f.DynamicSymbols()
	if err != nil {
		return fmt.Errorf("reading symbols: %w", err)
	}
	if !slices.ContainsFunc(syms, func(s elf.Symbol) bool { return s.Name == "OrtGetApiBase" }) {
		return fmt.Errorf("not ONNX Runtime: no OrtGetApiBase symbol")
	}
	return nil
}

// allowSpinning lets ONNX Runtime's worker threads busy-wait for work
// between operators. It is off: spinning gains little on an idle machine and
// starves other goroutines (parsing, SQLite) and other processes on a busy
// one.
var allowSpinning = false

// sessionConfig holds the session options mdsearch sets. The zero value of
// each field but threads is ONNX Runtime's default.
type sessionConfig struct {
	threads   int                        // intra-op threads
	optLevel  ort.GraphOptimizationLevel // 0: ONNX Runtime's default, all optimisations
	noArena   bool                       // disable the CPU memory arena
	noPattern bool                       // disable memory pattern planning
	saveTo    string                     // save the optimised graph here, in ONNX Runtime's format
	inPlace   bool                       // the data is a saved graph whose bytes outlive the session: use them in place
}

// newSession opens the ONNX model, from a file or from bytes when data is
// not nil.
func newSession(path string, data []byte, cfg sessionConfig) (*ort.DynamicAdvancedSession, error) {
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	defer opts.Destroy()
	if err := opts.SetIntraOpNumThreads(cfg.threads); err != nil {
		return nil, err
	}
	if err := opts.SetInterOpNumThreads(1); err != nil {
		return nil, err
	}
	spin := map[bool]string{false: "0", true: "1"}[allowSpinning]
	if err := opts.AddSessionConfigEntry("session.intra_op.allow_spinning", spin); err != nil {
		return nil, err
	}
	if cfg.optLevel != 0 {
		if err := opts.SetGraphOptimizationLevel(cfg.optLevel); err != nil {
			return nil, err
		}
	}
	if cfg.noArena {
		if err := opts.SetCpuMemArena(false); err != nil {
			return nil, err
		}
	}
	if cfg.noPattern {
		if err := opts.SetMemPattern(false); err != nil {
			return nil, err
		}
	}
	if err := cfg.setCache(opts); err != nil {
		return nil, err
	}
	in, out := []string{inputIDs, inputMask}, []string{outputName}
	if data != nil {
		return ort.NewDynamicAdvancedSessionWithONNXData(data, in, out, opts)
	}
	return ort.NewDynamicAdvancedSession(path, in, out, opts)
}

// setCache sets the options that save a graph or open a saved one.
func (cfg sessionConfig) setCache(opts *ort.SessionOptions) error {
	if cfg.saveTo != "" {
		if err := opts.SetOptimizedModelFilePath(cfg.saveTo); err != nil {
			return err
		}
		if err := opts.AddSessionConfigEntry("session.save_model_format", "ORT"); err != nil {
			return err
		}
	}
	if cfg.inPlace {
		for _, key := range []string{"session.use_ort_model_bytes_directly", "session.use_ort_model_bytes_for_initializers"} {
			if err := opts.AddSessionConfigEntry(key, "1"); err != nil {
				return err
			}
		}
	}
	return nil
}
