package provider

import (
	"context"
	"errors"
	"math"
	"os"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/assets"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

// TestOpenDeferredSameAsOpen checks, with the real model at each
// precision, that the deferred model names itself before it loads exactly
// as the loaded one does, and embeds the same vectors, bit for bit.
func TestOpenDeferredSameAsOpen(t *testing.T) {
	if _, err := assets.Locate(assets.Paths{}, os.Getenv); err != nil {
		testenv.Absent(t, "%v", err)
	}
	texts := []string{"how are closures captured", "", "naïve café — 日本語"}
	for _, prec := range []string{"", "float32", "int8"} {
		t.Run("precision="+prec, func(t *testing.T) {
			cfg := FromEnv(os.Getenv)
			cfg.Precision = prec
			d, err := OpenDeferred(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer Close(d)
			id, dim, window := d.ModelID(), d.Dim(), d.MaxTokens() // before the load ends
			e, err := Open(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer Close(e)
			if id != e.ModelID() || dim != e.Dim() || window != e.MaxTokens() {
				t.Fatalf("deferred: %s %d %d, loaded: %s %d %d", id, dim, window, e.ModelID(), e.Dim(), e.MaxTokens())
			}
			got, err := d.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			want, err := e.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				for j := range want[i] {
					if math.Float32bits(got[i][j]) != math.Float32bits(want[i][j]) {
						t.Fatalf("text %d, component %d: %v, want %v", i, j, got[i][j], want[i][j])
					}
				}
			}
			if d.CountTokens(texts[0]) != e.CountTokens(texts[0]) || embed.UnreadShare(d, texts[2]) != embed.UnreadShare(e, texts[2]) {
				t.Fatal("the deferred model counts or reads otherwise")
			}
		})
	}
}

// TestOpenDeferredErrors: missing assets fail at once, as with Open; a
// library that does not load fails the first Embed, as unavailable.
func TestOpenDeferredErrors(t *testing.T) {
	home := t.TempDir()
	_, err := OpenDeferred(FromEnv(envOf(map[string]string{"MDSEARCH_HOME": home})))
	var me *mdsearch.Error
	if !errors.As(err, &me) || me.Kind != mdsearch.KindUnavailable {
		t.Fatalf("err = %v; want KindUnavailable at once", err)
	}
	if _, err := assets.Locate(assets.Paths{}, os.Getenv); err != nil {
		testenv.Absent(t, "%v", err)
	}
	bad := home + "/libonnxruntime.so.1"
	if err := os.WriteFile(bad, []byte("not a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := FromEnv(os.Getenv)
	cfg.LibPath = bad
	d, err := OpenDeferred(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer Close(d)
	if _, err := d.Embed(context.Background(), []string{"q"}); mdsearch.KindOf(err) != mdsearch.KindUnavailable {
		t.Fatalf("Embed with a damaged library: %v; want KindUnavailable", err)
	}
}
