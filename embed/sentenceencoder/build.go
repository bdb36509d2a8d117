package sentenceencoder

import "fmt"

// Names of the ONNX graph's inputs and output.
const (
	inputIDs   = "input_ids"  // int64 [batch, seq]: token ids, any valid id in padding
	inputMask  = "mask"       // float [batch, seq]: 1 for tokens, 0 for padding
	outputName = "embeddings" // float [batch, dim], L2-normalised
)

// buildONNX turns the encoder into an ONNX model over dense, padded
// batches. The tfjs graph takes sparse (row, position) indices and values,
// clips positions at the window, and moves between a packed list of real
// tokens and dense [batch, len] tensors with Where, GatherNd and ScatterNd.
// Here the caller pads instead: every real position gets exactly the tfjs
// value, because each per-position operation (embedding, timing, layer
// norm, projections, feed-forward) ignores other positions, attention hides
// padded keys with the same bias, and pooling averages real positions only.
// Padded positions may hold values where the tfjs graph has zeros, but
// those never reach a real position or the pooled vector. Layer norm is
// ONNX LayerNormalization, which computes TensorFlow's formula.
//
// At Int8 the projections inside the layers run as denseInt8; the final
// tanh projection, one row per text, stays float32.
func buildONNX(s *encoderSpec, metadata [][2]string, prec Precision) []byte {
	g := &onnxGraph{}
	proj := projection(func(g *onnxGraph, name, x string, _ bool, w, b *tensor) string { return dense(g, name, x, w, b) })
	if prec == Int8 {
		proj = denseInt8
	}
	g.input(inputIDs, onnxInt64, "batch", "seq")
	g.input(inputMask, onnxFloat, "batch", "seq")

	// Embedding plus timing signal, then the embedding again (the tfjs graph
	// adds the scattered embedding to AddTimingSignal's output).
	emb := g.op("Gather", [][]byte{attrInt("axis", 0)}, g.weight("token_embeddings", s.embed), inputIDs)
	seqLen := g.op("Gather", [][]byte{attrInt("axis", 0)}, g.op("Shape", nil, inputIDs), g.int64s(1))
	seqLenF := g.op("Cast", [][]byte{attrInt("to", onnxFloat)}, seqLen)
	pos := g.op("Range", nil, g.floats(nil, 0), g.op("Squeeze", nil, seqLenF, g.int64s(0)), g.floats(nil, 1))
	angles := g.op("Mul", nil, g.op("Unsqueeze", nil, pos, g.int64s(1)), g.weight("timing_inv_scale", s.invScale))
	timing := g.op("Concat", [][]byte{attrInt("axis", 1)}, g.op("Sin", nil, angles), g.op("Cos", nil, angles))
	mask3 := g.op("Unsqueeze", nil, inputMask, g.int64s(2))
	x := g.op("Add", nil, emb, g.op("Add", nil, emb, timing))
	x = g.op("Mul", nil, x, mask3)

	// Attention bias: maskBias where the key is padding, else 0.
	notValid := g.op("Sub", nil, g.floats(nil, 1), inputMask)
	bias := g.op("Mul", nil, notValid, g.floats(nil, s.maskBias))
	bias = g.op("Unsqueeze", nil, bias, g.int64s(1, 2)) // [batch, 1, 1, seq]

	for k, l := range s.layers {
		x = buildLayer(g, proj, fmt.Sprintf("layer%d", k), l, x, bias)
	}

	// Mean over real positions, tanh layer, L2 normalisation.
	sum := g.op("ReduceSum", [][]byte{attrInt("keepdims", 0)}, g.op("Mul", nil, x, mask3), g.int64s(1))
	count := g.op("ReduceSum", [][]byte{attrInt("keepdims", 1)}, inputMask, g.int64s(1))
	mean := g.op("Div", nil, sum, g.op("Max", nil, count, g.floats(nil, 1)))
	h := dense(g, "tanh", mean, s.tanhW, s.tanhB)
	h = g.op("Tanh", nil, h)
	sq := g.op("ReduceSum", [][]byte{attrInt("keepdims", 1)}, g.op("Mul", nil, h, h), g.int64s(1))
	norm := g.op("Sqrt", nil, g.op("Max", nil, sq, g.floats(nil, s.l2Eps)))
	g.opN("Div", nil, []string{h, norm}, []string{outputName})
	g.output(outputName, onnxFloat, "batch", s.tanhW.shape[1])

	return encodeModel(g.encode("use_lite"), metadata, g.usesMS)
}

// buildLayer adds one pre-norm transformer layer: x + attention(norm(x)),
// then y + ffn(norm(y)), with x projected when the width changes.
// proj builds each projection (dense or denseInt8).
func buildLayer(g *onnxGraph, proj projection, name string, l layerSpec, x, bias string) string {
	h := layerNorm(g, name+"_ln1", x, l.ln1Scale, l.ln1Bias, l.lnEps)
	qkv := proj(g, name+"_qkv", h, false, l.qkvW, l.qkvB)
	parts := []string{name + "_q", name + "_k", name + "_v"}
	g.opN("Split", [][]byte{attrInt("axis", 2)}, []string{qkv, g.int64s(int64(l.split[0]), int64(l.split[1]), int64(l.split[2]))}, parts)
	heads := func(t string, perm ...int64) string {
		t = g.op("Reshape", nil, t, g.int64s(0, 0, int64(l.heads), int64(l.headDim)))
		return g.op("Transpose", [][]byte{attrInts("perm", perm...)}, t)
	}
	q := g.op("Mul", nil, heads(parts[0], 0, 2, 1, 3), g.floats(nil, l.qScale))
	kT := heads(parts[1], 0, 2, 3, 1) // [batch, heads, headDim, seq]
	v := heads(parts[2], 0, 2, 1, 3)
	logits := g.op("Add", nil, g.op("MatMul", nil, q, kT), bias)
	weights := g.op("Softmax", [][]byte{attrInt("axis", -1)}, logits)
	ctx := g.op("Transpose", [][]byte{attrInts("perm", 0, 2, 1, 3)}, g.op("MatMul", nil, weights, v))
	ctx = g.op("Reshape", nil, ctx, g.int64s(0, 0, int64(l.dAttn)))
	attn := proj(g, name+"_out", ctx, false, l.outW, l.outB)
	res := x
	if l.resW != nil {
		res = proj(g, name+"_res", x, false, l.resW, l.resB)
	}
	y := g.op("Add", nil, attn, res)

	h = layerNorm(g, name+"_ln2", y, l.ln2Scale, l.ln2Bias, l.lnEps)
	f := g.op("Relu", nil, proj(g, name+"_ffn1", h, false, l.ffn1W, l.ffn1B))
	f = proj(g, name+"_ffn2", f, true, l.ffn2W, l.ffn2B)
	return g.op("Add", nil, f, y)
}

// projection adds x·W + b over the last axis to g and returns its output;
// nonNeg says x is never negative (a ReLU's output), which lets int8
// activations use all 256 levels.
type projection func(g *onnxGraph, name, x string, nonNeg bool, w, b *tensor) string

// dense is x·W + b over the last axis, in float32.
func dense(g *onnxGraph, name, x string, w, b *tensor) string {
	xw := g.op("MatMul", nil, x, g.weight(name+"_w", w))
	return g.op("Add", nil, xw, g.weight(name+"_b", b, b.size()))
}

// layerNorm normalises over the last axis, as TensorFlow's layer norm.
func layerNorm(g *onnxGraph, name, x string, scale, bias *tensor, eps float32) string {
	return g.op("LayerNormalization", [][]byte{attrInt("axis", -1), attrFloat("epsilon", eps)},
		x, g.weight(name+"_scale", scale, scale.size()), g.weight(name+"_bias", bias, bias.size()))
}
