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
	// Int8Row is Int8 with activations quantised per token: each row of
	// a projection's input gets its own symmetric scale, so a text's
	// vector depends neither on the other texts in its batch nor on one
	// outlier token elsewhere.
	Int8Row Precision = "int8-row"
	// DefaultPrecision is what New uses when Options.Precision is empty.
	DefaultPrecision = Float32
)

// ParsePrecision accepts "float32" or "int8" (any case); "" is the default.
func ParsePrecision(s string) (Precision, error) {
	switch p := Precision(strings.ToLower(strings.TrimSpace(s))); p {
	case "":
		return DefaultPrecision, nil
	case Int8, Int8Row, Float32:
		return p, nil
	}
	return "", fmt.Errorf("unknown precision %q: want float32, int8 or int8-row", s)
}

// modelID is ModelID for float32 and ModelID-int8 for int8, so an index
// never mixes vectors of the two.
func (p Precision) modelID() string {
	if p == Float32 {
		return ModelID
	}
	return ModelID + "-" + string(p)
}

// onnxName is the cache file of the graph built at precision p.
func (p Precision) onnxName() string {
	if p == Float32 {
		return OnnxName
	}
	return "model-" + string(p) + ".onnx"
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

// rowQuantU8 makes denseInt8Row feed MatMulInteger uint8 activations
// offset by 128 (zero point 128) instead of int8 ones. Experiment switch.
var rowQuantU8 = false

// denseInt8Row is denseInt8 with x quantised per row (per token):
// s = max|x[row, :]| / 127, xq = round(x / s), y = (xq·Wq) * s * colScale + b.
// The integer product runs in MatMulInteger; quantising and scaling back
// are plain float32 operators around it.
func denseInt8Row(g *onnxGraph, name, x string, w, b *tensor) string {
	rows, cols := w.shape[0], w.shape[1]
	q, scales := quantizeColumns(w.floats(), rows, cols)
	raw := make([]byte, len(q))
	for i, v := range q {
		raw[i] = byte(v)
	}
	qw := g.initializer(name+"_wq", onnxInt8, []int{rows, cols}, raw)
	colScale := g.initializer(name+"_ws", onnxFloat, []int{cols}, float32Bytes(scales))

	// Row maxima, kept away from zero so an all-zero row (padding after
	// ReLU, say) quantises to zeros instead of NaNs.
	m := g.op("ReduceMax", [][]byte{attrInts("axes", -1), attrInt("keepdims", 1)}, g.op("Abs", nil, x))
	m = g.op("Max", nil, m, g.floats(nil, 1e-30))
	inv := g.op("Div", nil, g.floats(nil, 127), m) // [.., 1]
	scaled := g.op("Mul", nil, x, inv)             // in [-127, 127]
	var prod string
	if rowQuantU8 {
		// round(v + 128) = round(v) + 128, as 128 is even.
		xq := g.op("Cast", [][]byte{attrInt("to", onnxUint8)}, g.op("Round", nil, g.op("Add", nil, scaled, g.floats(nil, 128))))
		prod = g.op("MatMulInteger", nil, xq, qw, g.constant(onnxUint8, nil, []byte{128}))
	} else {
		xq := g.op("Cast", [][]byte{attrInt("to", onnxInt8)}, g.op("Round", nil, scaled))
		prod = g.op("MatMulInteger", nil, xq, qw)
	}
	y := g.op("Cast", [][]byte{attrInt("to", onnxFloat)}, prod)
	s := g.op("Div", nil, m, g.floats(nil, 127))
	y = g.op("Mul", nil, g.op("Mul", nil, y, s), colScale)
	return g.op("Add", nil, y, g.weight(name+"_b", b, b.size()))
}
