package use

import (
	"fmt"
	"math"
	"strings"
)

// Precision selects the arithmetic of the projections in the ONNX graph.
type Precision string

const (
	// Float32 runs the whole graph in float32, as the tfjs model does.
	Float32 Precision = "float32"
	// Int8 stores the projection weights of every transformer layer as
	// int8 with one scale per output column and quantises activations per
	// call (ONNX Runtime's DynamicQuantizeMatMul). Embeddings, layer norm,
	// attention and pooling stay float32.
	// It embeds about twice as fast; its vectors keep a cosine of at least
	// 0.99 with float32's (TestInt8Parity).
	Int8 Precision = "int8"
	// DefaultPrecision is what New uses when Options.Precision is empty.
	DefaultPrecision = Float32
)

// ParsePrecision accepts "float32" or "int8" (any case); "" is the default.
func ParsePrecision(s string) (Precision, error) {
	switch p := Precision(strings.ToLower(strings.TrimSpace(s))); p {
	case "":
		return DefaultPrecision, nil
	case Int8, Float32:
		return p, nil
	}
	return "", fmt.Errorf("unknown precision %q: want float32 or int8", s)
}

// modelID is ModelID for float32 and ModelID-int8 for int8, so an index
// never mixes vectors of the two.
func (p Precision) modelID() string {
	if p == Int8 {
		return ModelID + "-int8"
	}
	return ModelID
}

// onnxName is the cache file of the graph built at precision p.
func (p Precision) onnxName() string {
	if p == Int8 {
		return "model-int8.onnx"
	}
	return OnnxName
}

// quantizeColumns quantises a row-major [rows, cols] float32 matrix
// symmetrically per column: q = round(w / scale) with
// scale = max|w[:, c]| / 127, so q is in [-127, 127] and zero maps to zero.
// Per-column scales keep a column of small weights from losing its
// resolution to a column of large ones.
func quantizeColumns(w []float32, rows, cols int) (q []int8, scales []float32) {
	scales = make([]float32, cols)
	for r := range rows {
		for c, x := range w[r*cols : (r+1)*cols] {
			scales[c] = max(scales[c], float32(math.Abs(float64(x))))
		}
	}
	for c := range scales {
		scales[c] /= 127
		if scales[c] == 0 {
			scales[c] = 1 // an all-zero column: any scale gives zeros
		}
	}
	q = make([]int8, len(w))
	for r := range rows {
		for c, x := range w[r*cols : (r+1)*cols] {
			v := math.Round(float64(x / scales[c]))
			q[r*cols+c] = int8(max(-127, min(127, v)))
		}
	}
	return q, scales
}

// denseInt8 is dense with W quantised to int8 per column: ONNX Runtime
// quantises x to uint8 per call and multiplies in integers, then scales
// back and adds b in float32, all in one contrib operator.
func denseInt8(g *onnxGraph, name, x string, w, b *tensor) string {
	rows, cols := w.shape[0], w.shape[1]
	q, scales := quantizeColumns(w.floats(), rows, cols)
	raw := make([]byte, len(q))
	for i, v := range q {
		raw[i] = byte(v)
	}
	qw := g.initializer(name+"_wq", onnxInt8, []int{rows, cols}, raw)
	scale := g.initializer(name+"_ws", onnxFloat, []int{cols}, float32Bytes(scales))
	return g.msOp("DynamicQuantizeMatMul", x, qw, scale, "", g.weight(name+"_b", b, b.size()))
}
