package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/mdsearch/mdsearch/assets"
)

func runSetup(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "setup", "")
	verify := fs.Bool("verify", false, "re-hash every installed file and repair any that differ from the pinned checksums")
	testData := fs.Bool("test-data", false, "also install the CommonMark spec examples the tests use")
	from := fs.String("from", "", "take the npm tarballs from this directory when they are there, named as npm pack or the registry names them (still checksum-verified)")
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected argument %q", rest[0])
	}
	home, err := assets.Home(env.Getenv)
	if err != nil {
		return err
	}
	env.say("cache %s", home)
	results, err := assets.Setup(ctx, assets.Options{
		Home: home, Verify: *verify, TestData: *testData, TarballDir: *from,
		Log: prefixed{env.Stderr, "mdsearch: setup: "},
	})
	if err != nil {
		return err
	}
	// The paths, for scripts and for MDSEARCH_ORT_LIB / MDSEARCH_MODEL_DIR.
	for _, r := range results {
		switch r.Bundle.Dir {
		case assets.ORT.Dir:
			fmt.Fprintf(env.Stdout, "onnxruntime  %s\n", filepath.Join(r.Dir, assets.ORTLibName))
		case assets.Model.Dir:
			fmt.Fprintf(env.Stdout, "model        %s\n", r.Dir)
		case assets.SpecTests.Dir:
			fmt.Fprintf(env.Stdout, "test data    %s\n", filepath.Join(r.Dir, "tests.json"))
		}
	}
	env.say("next: `mdsearch index DIR` indexes a folder of notes, then `mdsearch search QUERY` searches it")
	return nil
}

// prefixed writes each progress line with a prefix; assets.Setup writes
// whole lines.
type prefixed struct {
	w      io.Writer
	prefix string
}

func (p prefixed) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, p.prefix); err != nil {
		return 0, err
	}
	return p.w.Write(b)
}
