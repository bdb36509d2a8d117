package sentenceencoder

import (
	"fmt"
	"math"
	"runtime"
	"strings"

	"golang.org/x/sys/cpu"
)

// Precision selects the arithmetic of the projections in the ONNX graph.
type Precision string

const (
	// Float32 runs the whole graph in float32, as the tfjs model does.
	Float32 Precision = "float32"
	// Int8 stores the projection weights of every transformer layer as
	// int8 with one scale per output column and quantises their inputs
	// per token (one scale per row), so a text's vector depends neither
	// on the other texts in its batch nor on an outlier token elsewhere.
	// Embeddings, layer norm, attention and pooling stay float32.
	// It embeds about 1.9 times as fast; its vectors keep a cosine of at
	// least 0.99 with float32's (TestInt8Parity).
	Int8 Precision = "int8"
	// DefaultPrecision is what New uses when Options.Precision is empty:
	// int8 holds the parity bar and the dev evaluation (docs/evaluation.md)
	// and halves the time of a cold index.
	DefaultPrecision = Int8
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

// ModelID is ModelID for float32 and ModelID-int8-row for int8, so an
// index never mixes vectors of the two. ("-int8" named an earlier int8
// graph with one activation scale per batch, whose vectors differ.)
func (p Precision) ModelID() string {
	if p == Int8 {
		return ModelID + "-int8-row"
	}
	return ModelID
}

// onnxName is the cache file of the graph built at precision p.
func (p Precision) onnxName() string {
	switch {
	case p != Int8:
		return OnnxName
	case weightLevels == 127:
		return "model-int8.onnx"
	}
	return "model-int8-w7.onnx"
}

// weightLevels is the largest int8 weight the graph stores. ONNX
// Runtime's uint8 × int8 kernels for x86 CPUs without VNNI (AVX2,
// AVX-512 without VNNI) add pairs of products in 16 bits, which saturate
// when an activation near 255 meets a weight near ±127: vectors then kept a
// cosine of only 0.95 with float32's. Weights of at most ±63 (7 bits)
// cannot saturate; VNNI and other platforms add in 32 bits and keep 8.
// Either graph's vectors are float32's to within int8 rounding, so they
// share one model ID.
var weightLevels = int8WeightLevels()

func int8WeightLevels() float32 {
	x := cpu.X86
	if runtime.GOARCH == "amd64" && !x.HasAVX512VNNI && !x.HasAVXVNNI {
		return 63
	}
	return 127
}

// quantizeColumns quantises a row-major [rows, cols] float32 matrix
// symmetrically per column: q = round(w / scale) with
// scale = max|w[:, c]| / levels, so q is in [-levels, levels] and zero
// maps to zero. Per-column scales keep a column of small weights from
// losing its resolution to a column of large ones.
func quantizeColumns(w []float32, rows, cols int, levels float32) (q []int8, scales []float32) {
	scales = make([]float32, cols)
	for r := range rows {
		for c, x := range w[r*cols : (r+1)*cols] {
			scales[c] = max(scales[c], float32(math.Abs(float64(x))))
		}
	}
	for c := range scales {
		scales[c] /= levels
		if scales[c] == 0 {
			scales[c] = 1 // an all-zero column: any scale gives zeros
		}
	}
	q = make([]int8, len(w))
	for r := range rows {
		for c, x := range w[r*cols : (r+1)*cols] {
			v := math.Round(float64(x / scales[c]))
			q[r*cols+c] = int8(max(-float64(levels), min(float64(levels), v)))
		}
	}
	return q, scales
}

// denseInt8 is dense with W quantised to int8 per column and x quantised
// per row (per token): s = max|x[row, :]| / 127, xq = round(x / s),
// y = (xq·Wq) * s * colScale + b.
// MatMulInteger's fast kernels want uint8 activations (int8 ones took a
// path ten times slower), so xq is offset by zero point 128, except when
// x is never negative (nonNeg: after a ReLU), where it uses all of 0..255
// with zero point 0.
// MatMulIntegerToFloat multiplies in integers and applies both scales;
// its bias input would be added before the row scale, so b is an Add.
func denseInt8(g *onnxGraph, name, x string, nonNeg bool, w, b *tensor) string {
	rows, cols := w.shape[0], w.shape[1]
	q, scales := quantizeColumns(w.floats(), rows, cols, weightLevels)
	raw := make([]byte, len(q))
	for i, v := range q {
		raw[i] = byte(v)
	}
	qw := g.initializer(name+"_wq", onnxInt8, []int{rows, cols}, raw)
	colScale := g.initializer(name+"_ws", onnxFloat, []int{cols}, float32Bytes(scales))

	// Row maxima of |x|, kept away from zero so an all-zero row quantises
	// to zeros instead of NaNs. Max and -Min spare a pass writing Abs(x).
	reduce := func(op string) string {
		return g.op(op, [][]byte{attrInts("axes", -1), attrInt("keepdims", 1)}, x)
	}
	m, levels, zp := reduce("ReduceMax"), float32(127), byte(128)
	if nonNeg {
		levels, zp = 255, 0
	} else {
		m = g.op("Max", nil, m, g.op("Neg", nil, reduce("ReduceMin")))
	}
	s := g.op("Div", nil, g.op("Max", nil, m, g.floats(nil, 1e-30)), g.floats(nil, levels)) // [batch, seq, 1]
	// QuantizeLinear has per-axis scales, not per-row ones over a 3-D
	// tensor: quantise x as a [rows, d] matrix with one scale per row.
	rowS := g.op("Reshape", nil, s, g.int64s(-1))
	rowZP := g.op("Expand", nil, g.constant(onnxUint8, []int{1}, []byte{zp}), g.op("Shape", nil, rowS))
	xq := g.op("QuantizeLinear", [][]byte{attrInt("axis", 0)},
		g.op("Reshape", nil, x, g.int64s(-1, int64(rows))), rowS, rowZP)
	xq = g.op("Reshape", nil, xq, g.op("Shape", nil, x))
	y := g.msOp("MatMulIntegerToFloat", xq, qw, s, colScale, g.constant(onnxUint8, nil, []byte{zp}))
	return g.op("Add", nil, y, g.weight(name+"_b", b, b.size()))
}
