package sentenceencoder

import (
	"math"
	"testing"

	ort "github.com/yalue/onnxruntime_go"
)

func TestReadMetadata(t *testing.T) {
	model := encodeModel([]byte("graph bytes"), [][2]string{{"a", "1"}, {stampKey, "abc"}}, false)
	tests := []struct {
		name, key, want string
		data            []byte
		ok              bool
	}{
		{"first", "a", "1", model, true},
		{"second", stampKey, "abc", model, true},
		{"absent", "zzz", "", model, false},
		{"garbage", stampKey, "", []byte{0xff, 0xff, 0xff}, false},
		{"cut short", stampKey, "", model[:5], false},
		{"empty", stampKey, "", nil, false},
	}
	for _, tt := range tests {
		got, ok := readMetadata(tt.data, tt.key)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: readMetadata = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

// TestONNXEncoding runs a tiny hand-built graph in ONNX Runtime, checking
// the protobuf encoding of nodes, attributes, initializers and value infos.
func TestONNXEncoding(t *testing.T) {
	lib, _ := testAssets(t)
	if err := initRuntime(lib); err != nil {
		t.Fatal(err)
	}
	g := &onnxGraph{}
	g.input("x", onnxFloat, "n", 2)
	w := g.floats([]int{2, 2}, 1, 2, 3, 4) // [[1 2] [3 4]]
	y := g.op("MatMul", nil, "x", w)
	y = g.op("Add", nil, y, g.floats(nil, 0.5))
	g.opN("Transpose", [][]byte{attrInts("perm", 1, 0)}, []string{y}, []string{"t"})
	ln := g.op("LayerNormalization", [][]byte{attrInt("axis", -1), attrFloat("epsilon", 0)}, y, g.floats([]int{2}, 2, 3), g.floats([]int{2}, 0, 1))
	g.opN("Identity", nil, []string{ln}, []string{"ln"})
	g.output("t", onnxFloat, 2, "n")
	g.output("ln", onnxFloat, "n", 2)
	data := encodeModel(g.encode("tiny"), nil, false)

	s, err := ort.NewDynamicAdvancedSessionWithONNXData(data, []string{"x"}, []string{"t", "ln"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Destroy()
	x, _ := ort.NewTensor(ort.NewShape(1, 2), []float32{1, 1})
	defer x.Destroy()
	tr, _ := ort.NewEmptyTensor[float32](ort.NewShape(2, 1))
	defer tr.Destroy()
	norm, _ := ort.NewEmptyTensor[float32](ort.NewShape(1, 2))
	defer norm.Destroy()
	if err := s.Run([]ort.Value{x}, []ort.Value{tr, norm}); err != nil {
		t.Fatal(err)
	}
	// [1 1]·W + 0.5 = [4.5 6.5]; normalised that is [-1 1], then scaled by
	// [2 3] and shifted by [0 1].
	if got := tr.GetData(); got[0] != 4.5 || got[1] != 6.5 {
		t.Errorf("transposed output %v, want [4.5 6.5]", got)
	}
	if got := norm.GetData(); math.Abs(float64(got[0]+2)) > 1e-5 || math.Abs(float64(got[1]-4)) > 1e-5 {
		t.Errorf("layer norm output %v, want [-2 4]", got)
	}
}
