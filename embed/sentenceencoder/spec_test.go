package sentenceencoder

import (
	"maps"
	"strings"
	"sync"
	"testing"
)

var (
	tfjsOnce  sync.Once
	tfjsCache *tfjsGraph
	tfjsErr   error
)

// testGraph loads the tfjs model once per test binary.
func testGraph(t *testing.T) *tfjsGraph {
	t.Helper()
	_, dir := testAssets(t)
	tfjsOnce.Do(func() { tfjsCache, tfjsErr = loadTFJS(dir) })
	if tfjsErr != nil {
		t.Fatal(tfjsErr)
	}
	return tfjsCache
}

func TestReadSpec(t *testing.T) {
	s, err := readSpec(testGraph(t))
	if err != nil {
		t.Fatal(err)
	}
	if s.maxLen != 128 || s.maskBias != -1e9 || len(s.layers) != 2 || s.embed.shape[0] != 8002 {
		t.Fatalf("window %d, mask bias %g, %d layers, %d embeddings", s.maxLen, s.maskBias, len(s.layers), s.embed.shape[0])
	}
	want := []struct{ dIn, dAttn, dOut, dF, heads, headDim int }{
		{256, 256, 512, 1536, 4, 64},
		{512, 512, 512, 1536, 4, 128},
	}
	for k, l := range s.layers {
		got := struct{ dIn, dAttn, dOut, dF, heads, headDim int }{l.dIn, l.dAttn, l.dOut, l.dF, l.heads, l.headDim}
		if got != want[k] {
			t.Errorf("layer %d: %+v, want %+v", k, got, want[k])
		}
		if (l.resW != nil) != (k == 0) {
			t.Errorf("layer %d: residual projection %v", k, l.resW != nil)
		}
	}
}

// TestReadSpecRejectsOtherGraphs changes one node at a time: each change
// must give a clear error, never a panic or a silently different model.
func TestReadSpecRejectsOtherGraphs(t *testing.T) {
	g := testGraph(t)
	layer1 := tfStack + "Layer_1/TransformerLayer/"
	tests := []struct {
		name    string
		change  func(nodes map[string]*tfjsNode)
		mention string
	}{
		{"missing node", func(n map[string]*tfjsNode) { delete(n, tfKona+"div") }, "no node " + tfKona + "div"},
		{"other op", func(n map[string]*tfjsNode) { n[layer1+"FFN/conv1/Relu"].Op = "Relu6" }, "is Relu6, want Relu"},
		{"no doubled embedding", func(n map[string]*tfjsNode) {
			n[tfStack+"Layer_0/add"].Input = []string{tfStack + "Layer_0/AddTimingSignal/Scatter/ScatterNd", tfStack + "Layer_0/AddTimingSignal/Scatter/ScatterNd"}
		}, "Layer_0/add"},
		{"post-norm residual", func(n map[string]*tfjsNode) {
			n[layer1+"layer_postprocess/add"].Input = []string{layer1 + "MultiheadAttention/Squeeze_1", layer1 + "layer_prepostprocess/layer_norm/add_1"}
		}, "want the layer input"},
		{"weight not in manifest", func(n map[string]*tfjsNode) {
			n[layer1+"MultiheadAttention/mul"].Input = []string{layer1 + "MultiheadAttention/split_heads/transpose", "nowhere"}
		}, "no node nowhere"},
		{"strided conv", func(n map[string]*tfjsNode) {
			n[layer1+"MultiheadAttention/qkv_transform_single/Conv2D"].Attr = nil
		}, "data format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes := maps.Clone(g.nodes)
			for name, n := range nodes {
				c := *n
				c.Input = append([]string(nil), n.Input...)
				nodes[name] = &c
			}
			tt.change(nodes)
			_, err := readSpec(&tfjsGraph{nodes: nodes, weights: g.weights})
			if err == nil || !strings.Contains(err.Error(), tt.mention) || !strings.Contains(err.Error(), "unexpected graph") {
				t.Fatalf("readSpec = %v, want an unexpected-graph error mentioning %q", err, tt.mention)
			}
		})
	}
}
