package cli

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/mdsearch/mdsearch/assets"
)

// Set at link time with -ldflags "-X github.com/mdsearch/mdsearch/cli.NAME=...".
// The Go toolchain stamps the module version and VCS state into the binary
// itself, but not in a git worktree or with -buildvcs=false, and never the
// build time, so the Makefile passes what git and date say.
var (
	Version   = "" // a release's version, over the module's
	Revision  = "" // the commit, when the toolchain did not record it
	Modified  = "" // "true" when the tree had uncommitted changes
	BuildTime = "" // when the binary was linked (RFC 3339)
)

// build is what a binary knows of where it came from.
type build struct {
	version, revision string
	modified          bool
	time              string // the build's, else the commit's
	timeIsCommit      bool
}

func runVersion(_ context.Context, env *Env, args []string) error {
	fs := newFlags(env, "version", "", "Prints the version, the commit and when it was built.")
	asJSON := fs.Bool("json", false, "print them as JSON, with the Go release and where the local model and ONNX Runtime are")
	if _, err := parseArgs(fs, args, 0, ""); err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env, versionOf(thisBuild(), env.Getenv))
	}
	_, err := fmt.Fprintln(env.Stdout, "mdsearch", version())
	return err
}

// versionJSON is what "mdsearch version --json" prints.
type versionJSON struct {
	Version   string `json:"version"`
	Revision  string `json:"revision,omitempty"`
	Modified  bool   `json:"modified,omitempty"`
	Built     string `json:"built,omitempty"`     // when the binary was linked
	Committed string `json:"committed,omitempty"` // the commit's time, when the build's is not known
	Go        string `json:"go"`
	// Where the local model's files are, as a run would look for them
	// (flags aside); AssetsError says why they were not found instead.
	ORTLib      string `json:"ort_lib,omitempty"`
	ModelDir    string `json:"model_dir,omitempty"`
	AssetsError string `json:"assets_error,omitempty"`
}

// versionOf is b, and the assets getenv's settings find, as JSON.
func versionOf(b build, getenv func(string) string) versionJSON {
	v := versionJSON{Version: b.version, Revision: b.revision, Modified: b.modified, Go: runtime.Version()}
	if b.timeIsCommit {
		v.Committed = b.time
	} else {
		v.Built = b.time
	}
	p, err := assets.Locate(assets.Paths{}, getenv)
	if err != nil {
		v.AssetsError = err.Error()
	} else {
		v.ORTLib, v.ModelDir = p.LibPath, p.ModelDir
	}
	return v
}

// version is the one line "mdsearch version" prints after "mdsearch":
// "v1.2.0 (rev 7a9b7e6d1f2a, modified, built 2026-11-28T03:29:00Z)".
func version() string { return thisBuild().String() }

// thisBuild is where the running binary came from.
func thisBuild() build {
	info, _ := debug.ReadBuildInfo()
	return readBuild(info, Version, Revision, Modified, BuildTime)
}

// sameCode names the code a binary runs, for a search to tell whether a
// running serve answers as it would: a build of a commit without changes
// is that commit's code whenever it was built (and with the same
// toolchain), so rebuilding it keeps the serve; any other build is only
// itself, its build time included.
func sameCode() string { return thisBuild().code() }

func (b build) code() string {
	if b.revision == "" || b.modified {
		// Builds with changes all read alike without a build time (go
		// build records the commit's): the binary file tells them apart.
		return b.String() + executableStamp()
	}
	return b.version + " (rev " + b.revision + ", " + runtime.Version() + ")"
}

// executableStamp is the running binary's size and modification time, or
// "" when it cannot be read.
func executableStamp() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return fmt.Sprintf(" [%s %d bytes %d]", exe, fi.Size(), fi.ModTime().UnixNano())
}

// readBuild merges the toolchain's record (info, nil when absent) with the
// values given at link time, which win: they were asked for.
func readBuild(info *debug.BuildInfo, version, revision, modified, built string) build {
	b := build{version: "devel"}
	if info != nil {
		if v := info.Main.Version; v != "" && v != "(devel)" {
			b.version = v
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				b.revision = s.Value
			case "vcs.modified":
				b.modified = s.Value == "true"
			case "vcs.time":
				b.time, b.timeIsCommit = s.Value, true
			}
		}
	}
	if version != "" {
		b.version = version
	}
	if revision != "" {
		b.revision, b.modified = revision, modified == "true"
	}
	if built != "" {
		b.time, b.timeIsCommit = built, false
	}
	return b
}

func (b build) String() string {
	var parts []string
	if b.revision != "" {
		parts = append(parts, "rev "+b.revision[:min(12, len(b.revision))])
		if b.modified {
			parts = append(parts, "modified")
		}
	}
	switch {
	case b.time == "":
	case b.timeIsCommit:
		parts = append(parts, "committed "+b.time)
	default:
		parts = append(parts, "built "+b.time)
	}
	if len(parts) == 0 {
		return b.version
	}
	return b.version + " (" + strings.Join(parts, ", ") + ")"
}
