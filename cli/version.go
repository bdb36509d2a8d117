package cli

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
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
