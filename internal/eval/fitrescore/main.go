package main

import (
	"context"
	"encoding/gob"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/embed/provider"
	"github.com/mdsearch/mdsearch/internal/eval"
)

// command is what model.json records as its maker.
const command = eval.FitCommand

func main() {
	out := flag.String("o", "", "write the model fitted on every dev set to this file")
	loso := flag.Bool("loso", false, "print the leave-one-set-out table")
	quick := flag.Bool("quick", false, "print the leave-one-set-out ranking and calibration read from the samples alone (seconds with -cache)")
	cache := flag.String("cache", "", "keep each set's vectors in this folder between runs")
	l2 := flag.Float64("l2", eval.DefaultFit.L2, "the ranker's L2 penalty (on its distance from the first stage's fit)")
	fo := eval.DefaultFit
	flag.Func("everyday", "the weight of the everyday questions (internal/eval/everyday/fit.txt) in each mode's calibrators, as keyword=1,hybrid=0.5 (unset: the shipped fit's; a mode not named: 0)",
		func(v string) (err error) { fo.Everyday, err = modeWeights(v); return err })
	flag.Func("terms", "the weight of the generated set's one-word queries in each mode's calibrators, as -everyday's",
		func(v string) (err error) { fo.Terms, err = modeWeights(v); return err })
	offTopic := flag.Float64("off-topic", eval.DefaultFit.OffTopic, "the weight of the other sets' queries, off-topic, in the calibrators' fit")
	oneCalib := flag.Bool("one-calibrator", false, "fit one calibrator for every candidate, none of its own for those below the best")
	capLine := flag.Bool("cap", false, "print the line where search's default per-note cap gives way, chosen with each set left out (from the samples)")
	flag.Parse()
	fo.L2, fo.OneCalib, fo.OffTopic, fo.Command = *l2, *oneCalib, *offTopic, command
	if err := run(*out, *loso, *quick, *capLine, *cache, fo); err != nil {
		fmt.Fprintln(os.Stderr, "fitrescore:", err)
		os.Exit(1)
	}
}

func run(out string, loso, quick, capLine bool, cache string, fo eval.FitOptions) error {
	ctx := context.Background()
	corpora := os.Getenv("MDSEARCH_CORPORA")
	if corpora == "" {
		corpora = "../shared/corpora"
	}
	emb, err := provider.Open(provider.FromEnv(os.Getenv))
	if err != nil {
		return err
	}
	defer provider.Close(emb)
	samples, err := collect(ctx, emb, corpora, cache)
	if err != nil {
		return err
	}
	if out != "" {
		m, err := eval.FitModel(samples, fo)
		if err != nil {
			return err
		}
		b, err := m.Marshal()
		if err != nil {
			return err
		}
		if err := os.WriteFile(out, b, 0o644); err != nil {
			return err
		}
	}
	if quick {
		if err := eval.QuickLeaveOneOut(os.Stdout, samples, corpora, fo); err != nil {
			return err
		}
	}
	if capLine {
		if err := eval.CapLeaveOneOut(os.Stdout, samples, corpora, fo); err != nil {
			return err
		}
	}
	if loso {
		return eval.LeaveOneOut(ctx, os.Stdout, emb, samples, corpora, cache, fo)
	}
	return nil
}

// collect collects the dev samples, or with a cache folder reads those
// it kept (delete samples.gob there after changing the features).
func collect(ctx context.Context, emb embed.Embedder, corpora, cache string) ([]eval.Sample, error) {
	if cache == "" {
		return eval.CollectDev(ctx, emb, corpora, "", nil)
	}
	file := filepath.Join(cache, "samples.gob")
	if f, err := os.Open(file); err == nil {
		defer f.Close()
		var s []eval.Sample
		return s, gob.NewDecoder(f).Decode(&s)
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return nil, err
	}
	s, err := eval.CollectDev(ctx, emb, corpora, cache, nil)
	if err != nil {
		return nil, err
	}
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return s, gob.NewEncoder(f).Encode(s)
}

// modeWeights reads "keyword=1,hybrid=0.5".
func modeWeights(s string) (map[mdsearch.Mode]float64, error) {
	out := map[mdsearch.Mode]float64{}
	for _, part := range strings.Split(s, ",") {
		mode, w, ok := strings.Cut(part, "=")
		f, err := strconv.ParseFloat(w, 64)
		if !ok || err != nil || !(f >= 0) || math.IsInf(f, 1) || !slices.Contains(eval.StageModes, mdsearch.Mode(mode)) {
			return nil, fmt.Errorf("%q: want MODE=WEIGHT, a mode of %v and a finite weight of 0 or more", part, eval.StageModes)
		}
		if _, twice := out[mdsearch.Mode(mode)]; twice {
			return nil, fmt.Errorf("%q: %s given twice", s, mode)
		}
		out[mdsearch.Mode(mode)] = f
	}
	return out, nil
}
