package sentenceencoder

import (
	"fmt"
	"strings"
)

// encoderSpec is what the tfjs graph computes, read from its nodes and
// weights. For token ids t_1..t_n (n <= maxLen) it is:
//
//	x    = 2*E[t] + timing(pos)         // the graph adds the embedding twice
//	x    = layer_k(x) for each layer     // pre-norm transformer layers
//	out  = l2normalize(tanh(mean_pos(x) W + b))
//
// Padding never influences a real position: attention adds maskBias to
// padded keys, and pooling only averages real positions.
type encoderSpec struct {
	maxLen   int
	embed    *tensor // [vocab, d0]
	invScale *tensor // [1, d0/2]; timing = [sin(pos*inv), cos(pos*inv)]
	maskBias float32 // added to attention logits of padded keys
	layers   []layerSpec
	tanhW    *tensor
	tanhB    *tensor
	l2Eps    float32
}

type layerSpec struct {
	lnEps                float32
	ln1Scale, ln1Bias    *tensor
	qkvW, qkvB           *tensor // qkvW is [din, 3*dAttn]
	split                [3]int  // widths of q, k and v in the qkv output
	heads, headDim       int
	qScale               float32
	outW, outB           *tensor // [dAttn, dOut]
	resW, resB           *tensor // projects the input to dOut when widths differ; nil = identity
	ln2Scale, ln2Bias    *tensor
	ffn1W, ffn1B         *tensor
	ffn2W, ffn2B         *tensor
	dIn, dAttn, dOut, dF int
}

const (
	tfRoot  = "module_apply_default/Encoder_en/"
	tfKona  = tfRoot + "KonaTransformer/"
	tfStack = tfKona + "Encode/TransformerStack/"
)

// readSpec reads the encoder out of the tfjs graph, checking every node
// whose meaning the ONNX graph reproduces. A graph of another shape is an
// error rather than a silently different model.
func readSpec(g *tfjsGraph) (*encoderSpec, error) {
	r := &graphReader{g: g}
	s := &encoderSpec{}

	r.expectIn(tfKona+"ClipToMaxLength/strided_slice", "StridedSlice", 0, "indices")
	s.maxLen = r.constInt(r.in(tfKona+"ClipToMaxLength/Less", "Less", 1))
	s.embed = r.weight(r.in(tfKona+"Encode/embedding_lookup", "GatherV2", 0), -1, -1)
	r.expectIn(tfKona+"Encode/embedding_lookup", "GatherV2", 1, tfKona+"ClipToMaxLength/GatherV2_1")

	timing := tfStack + "Layer_0/AddTimingSignal/"
	s.invScale = r.weight(r.in(timing+"TimingSignal/mul_2", "Mul", 1), 1, -1)
	r.expectIn(timing+"TimingSignal/concat", "ConcatV2", 0, timing+"TimingSignal/Sin")
	r.expectIn(timing+"TimingSignal/concat", "ConcatV2", 1, timing+"TimingSignal/Cos")
	r.expectIn(timing+"TimingSignal/Sin", "Sin", 0, timing+"TimingSignal/mul_2")
	r.expectIn(timing+"TimingSignal/Cos", "Cos", 0, timing+"TimingSignal/mul_2")
	r.expectIn(timing+"Gather/GatherNd", "GatherNd", 0, tfKona+"Encode/Scatter/ScatterNd")
	r.expectIn(timing+"add", "Add", 0, timing+"Gather/GatherNd")
	r.expectIn(timing+"add", "Add", 1, timing+"TimingSignal/concat")
	// The stack input is the scattered embedding plus (embedding + timing).
	r.expectIn(tfStack+"Layer_0/add", "Add", 0, tfKona+"Encode/Scatter/ScatterNd")
	r.expectIn(tfStack+"Layer_0/add", "Add", 1, timing+"Scatter/ScatterNd")
	r.expectIn(timing+"Scatter/ScatterNd", "ScatterNd", 1, timing+"add")

	x := tfStack + "Layer_0/add"
	for k := 0; ; k++ {
		prefix := fmt.Sprintf("%sLayer_%d/TransformerLayer/", tfStack, k)
		if _, ok := g.nodes[prefix+"MultiheadAttention/qkv_transform_single/Conv2D"]; !ok {
			break
		}
		layer := r.layer(prefix, x)
		if k == 0 {
			s.maskBias = r.maskBias(prefix)
		}
		s.layers = append(s.layers, layer)
		x = prefix + "FFN/layer_postprocess/add"
	}
	if len(s.layers) == 0 {
		r.fail("no transformer layers found under %s", tfStack)
	}

	r.expectIn(tfKona+"mul", "Mul", 0, x)
	r.expectIn(tfKona+"Sum", "Sum", 0, tfKona+"mul")
	r.expectIn(tfKona+"div", "RealDiv", 0, tfKona+"Sum")
	if v := r.constInt(r.in(tfKona+"Maximum", "Maximum", 1)); v != 1 {
		r.fail("mean pooling divides by max(length, %d), want 1", v)
	}
	tanh := tfRoot + "hidden_layers/tanh_layer_0/"
	r.expectIn(tanh+"MatMul", "MatMul", 0, tfKona+"div")
	s.tanhW = r.weight(r.in(tanh+"MatMul", "MatMul", 1), -1, -1)
	s.tanhB = r.weight(r.in(tanh+"BiasAdd", "BiasAdd", 1), -1)
	r.expectIn(tanh+"Tanh", "Tanh", 0, tanh+"BiasAdd")
	l2 := tfRoot + "hidden_layers/l2_normalize"
	s.l2Eps = r.constFloat(r.in(l2+"/Maximum", "Maximum", 1))
	r.expectIn(l2, "Mul", 0, tanh+"Tanh")
	r.expectIn(l2, "Mul", 1, l2+"/Rsqrt")
	if r.err != nil {
		return nil, r.err
	}
	return s, s.check()
}

// layer reads one transformer layer whose input is the node x.
func (r *graphReader) layer(p, x string) layerSpec {
	var l layerSpec
	mha := p + "MultiheadAttention/"
	l.ln1Scale, l.ln1Bias, l.lnEps = r.layerNorm(p+"layer_prepostprocess/layer_norm/", x)
	r.expectIn(mha+"ExpandDims", "ExpandDims", 0, p+"layer_prepostprocess/layer_norm/add_1")
	l.qkvW = r.conv1x1(mha+"qkv_transform_single/Conv2D", mha+"ExpandDims")
	l.qkvB = r.weight(r.in(mha+"qkv_transform_single/BiasAdd", "BiasAdd", 1), -1)
	r.expectIn(mha+"split", "SplitV", 0, mha+"Squeeze")
	sizes := r.constInts(r.in(mha+"split", "SplitV", 1))
	if len(sizes) == 3 {
		copy(l.split[:], sizes)
	} else {
		r.fail("%s: want 3 split sizes, got %v", mha+"split", sizes)
	}
	if axis := r.constInt(r.in(mha+"split", "SplitV", 2)); axis != 2 && axis != -1 {
		r.fail("%s splits axis %d, want the last", mha+"split", axis)
	}
	for i, head := range []string{"split_heads", "split_heads_1", "split_heads_2"} {
		src := mha + "split"
		if i > 0 {
			src += fmt.Sprintf(":%d", i)
		}
		r.expectIn(mha+head+"/split_last_dimension/Reshape", "Reshape", 0, src)
		shape := mha + head + "/split_last_dimension/Reshape/shape"
		h, d := r.constInt(r.in(shape, "Pack", 2)), r.constInt(r.in(shape, "Pack", 3))
		if i == 0 {
			l.heads, l.headDim = h, d
		} else if h != l.heads || d != l.headDim {
			r.fail("%s: %d heads of %d, but queries have %d of %d", shape, h, d, l.heads, l.headDim)
		}
		if perm := r.constInts(r.in(mha+head+"/transpose", "Transpose", 1)); fmt.Sprint(perm) != "[0 2 1 3]" {
			r.fail("%s: transpose %v, want [0 2 1 3]", mha+head, perm)
		}
	}
	r.expectIn(mha+"mul", "Mul", 0, mha+"split_heads/transpose")
	l.qScale = r.constFloat(r.in(mha+"mul", "Mul", 1))
	dpa := mha + "DotProductAttention/BaseDotProductAttention/"
	r.expectIn(dpa+"MatMul", "BatchMatMul", 0, mha+"mul")
	r.expectIn(dpa+"MatMul", "BatchMatMul", 1, mha+"split_heads_1/transpose")
	if adj, _ := r.node(dpa+"MatMul", "BatchMatMul").attrBool("adj_y"); !adj {
		r.fail("%s does not transpose the keys", dpa+"MatMul")
	}
	r.expectIn(dpa+"Softmax", "Softmax", 0, dpa+"Reshape")
	r.expectIn(dpa+"MatMul_1", "BatchMatMul", 0, dpa+"attention_weights")
	r.expectIn(dpa+"MatMul_1", "BatchMatMul", 1, mha+"split_heads_2/transpose")
	r.expectIn(mha+"combine_heads/transpose", "Transpose", 0, dpa+"MatMul_1")
	r.expectIn(mha+"ExpandDims_1", "ExpandDims", 0, mha+"combine_heads/combine_last_two_dimensions/Reshape")
	l.outW = r.conv1x1(mha+"output_transform_single/Conv2D", mha+"ExpandDims_1")
	l.outB = r.weight(r.in(mha+"output_transform_single/BiasAdd", "BiasAdd", 1), -1)

	// Residual: the layer input, projected by a dense layer when the width changes.
	r.expectIn(p+"layer_postprocess/add", "Add", 0, mha+"Squeeze_1")
	switch res := r.in(p+"layer_postprocess/add", "Add", 1); res {
	case x:
	case p + "AdjustResidualInput/Scatter/ScatterNd":
		r.expectIn(p+"AdjustResidualInput/Gather/GatherNd", "GatherNd", 0, x)
		r.expectIn(p+"AdjustResidualInput/dense/MatMul", "MatMul", 0, p+"AdjustResidualInput/Gather/GatherNd")
		l.resW = r.weight(r.in(p+"AdjustResidualInput/dense/MatMul", "MatMul", 1), -1, -1)
		l.resB = r.weight(r.in(p+"AdjustResidualInput/dense/BiasAdd", "BiasAdd", 1), -1)
	default:
		r.fail("%s adds %s, want the layer input or its projection", p+"layer_postprocess/add", res)
	}

	ffn := p + "FFN/"
	var eps float32
	l.ln2Scale, l.ln2Bias, eps = r.layerNorm(ffn+"layer_prepostprocess/layer_norm/", p+"layer_postprocess/add")
	if eps != l.lnEps {
		r.fail("%s: layer norm epsilons differ (%g, %g)", p, l.lnEps, eps)
	}
	r.expectIn(ffn+"Gather/GatherNd", "GatherNd", 0, ffn+"layer_prepostprocess/layer_norm/add_1")
	l.ffn1W = r.weight(r.in(ffn+"conv1/Tensordot/MatMul", "MatMul", 1), -1, -1)
	l.ffn1B = r.weight(r.in(ffn+"conv1/BiasAdd", "BiasAdd", 1), -1)
	r.expectIn(ffn+"conv1/Relu", "Relu", 0, ffn+"conv1/BiasAdd")
	r.expectIn(ffn+"conv2/Tensordot/Reshape", "Reshape", 0, ffn+"conv1/Relu")
	l.ffn2W = r.weight(r.in(ffn+"conv2/Tensordot/MatMul", "MatMul", 1), -1, -1)
	l.ffn2B = r.weight(r.in(ffn+"conv2/BiasAdd", "BiasAdd", 1), -1)
	r.expectIn(ffn+"layer_postprocess/add", "Add", 0, ffn+"Scatter/ScatterNd")
	r.expectIn(ffn+"layer_postprocess/add", "Add", 1, p+"layer_postprocess/add")

	if r.err == nil {
		l.dIn, l.dAttn, l.dOut, l.dF = l.qkvW.shape[0], l.split[2], l.outW.shape[1], l.ffn1W.shape[1]
	}
	return l
}

// layerNorm reads TensorFlow's layer norm over the last axis of x:
// scale * rsqrt(mean((x-mean)^2) + eps) * (x - mean) + bias.
func (r *graphReader) layerNorm(p, x string) (scale, bias *tensor, eps float32) {
	r.expectIn(p+"Mean", "Mean", 0, x)
	r.expectIn(p+"sub_1", "Sub", 0, x)
	r.expectIn(p+"Square", "Square", 0, p+"sub_1")
	r.expectIn(p+"Mean_1", "Mean", 0, p+"Square")
	eps = r.constFloat(r.in(p+"add", "Add", 1))
	r.expectIn(p+"Rsqrt", "Rsqrt", 0, p+"add")
	scale = r.weight(r.in(p+"mul", "Mul", 0), -1)
	r.expectIn(p+"mul", "Mul", 1, p+"Rsqrt")
	r.expectIn(p+"mul_1", "Mul", 1, p+"sub_1")
	bias = r.weight(r.in(p+"add_1", "Add", 1), -1)
	for _, axes := range []string{p + "Mean", p + "Mean_1"} {
		if a := r.constInts(r.in(axes, "Mean", 1)); fmt.Sprint(a) != "[-1]" {
			r.fail("%s reduces axes %v, want [-1]", axes, a)
		}
	}
	return scale, bias, eps
}

// conv1x1 reads a 1x1, stride-1 Conv2D over [batch, len, 1, d] as a matrix
// multiply, returning its kernel reshaped to [in, out].
func (r *graphReader) conv1x1(name, input string) *tensor {
	r.expectIn(name, "Conv2D", 0, input)
	n := r.node(name, "Conv2D")
	if f := n.attrString("data_format"); f != "NHWC" {
		r.fail("%s: data format %q, want NHWC", name, f)
	}
	for _, attr := range []string{"strides", "dilations"} {
		if v := n.attrInts(attr); fmt.Sprint(v) != "[1 1 1 1]" {
			r.fail("%s: %s %v, want all 1", name, attr, v)
		}
	}
	k := r.weight(r.in(name, "Conv2D", 1), 1, 1, -1, -1)
	if k == nil {
		return nil
	}
	return &tensor{name: k.name, dtype: k.dtype, shape: k.shape[2:], raw: k.raw}
}

// maskBias reads the constant added to attention logits of padded keys.
func (r *graphReader) maskBias(p string) float32 {
	dpa := p + "MultiheadAttention/DotProductAttention/"
	bias := r.in(dpa+"BaseDotProductAttention/add", "Add", 1)
	if !strings.HasSuffix(bias, "attention_bias_ignore_padding/ExpandDims_1") {
		r.fail("%s adds %s, want the padding bias", dpa+"BaseDotProductAttention/add", bias)
		return 0
	}
	base := strings.TrimSuffix(bias, "ExpandDims_1")
	r.expectIn(base+"ExpandDims_1", "ExpandDims", 0, base+"ExpandDims")
	r.expectIn(base+"ExpandDims", "ExpandDims", 0, base+"mul")
	notValid := r.in(base+"mul", "Mul", 0)
	r.expectIn(notValid, "Cast", 0, strings.TrimSuffix(notValid, "ToFloat")+"LogicalNot")
	return r.constFloat(r.in(base+"mul", "Mul", 1))
}

// check verifies that the widths of consecutive pieces fit together.
func (s *encoderSpec) check() error {
	d := s.embed.shape[1]
	if s.invScale.shape[1]*2 != d {
		return fmt.Errorf("timing signal has %d channels, embeddings %d", 2*s.invScale.shape[1], d)
	}
	for k, l := range s.layers {
		ok := l.dIn == d && l.ln1Scale.size() == d && l.qkvB.size() == l.qkvW.shape[1] &&
			l.split[0]+l.split[1]+l.split[2] == l.qkvW.shape[1] && l.split[0] == l.split[1] &&
			l.split[0] == l.heads*l.headDim && l.split[2] == l.heads*l.headDim &&
			l.outW.shape[0] == l.dAttn && l.outB.size() == l.dOut &&
			(l.resW == nil && d == l.dOut || l.resW != nil && l.resW.shape[0] == d && l.resW.shape[1] == l.dOut) &&
			l.ln2Scale.size() == l.dOut && l.ffn1W.shape[0] == l.dOut && l.ffn1B.size() == l.dF &&
			l.ffn2W.shape[0] == l.dF && l.ffn2W.shape[1] == l.dOut && l.ffn2B.size() == l.dOut
		if !ok {
			return fmt.Errorf("transformer layer %d: weight shapes do not fit together", k)
		}
		d = l.dOut
	}
	if s.tanhW.shape[0] != d || s.tanhB.size() != s.tanhW.shape[1] {
		return fmt.Errorf("tanh layer is %v, the encoder outputs %d", s.tanhW.shape, d)
	}
	if s.maxLen <= 0 {
		return fmt.Errorf("window of %d tokens", s.maxLen)
	}
	return nil
}

// graphReader looks nodes up by name, recording the first mismatch.
type graphReader struct {
	g   *tfjsGraph
	err error
}

func (r *graphReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("model.json: unexpected graph: "+format, args...)
	}
}

func (r *graphReader) node(name, op string) *tfjsNode {
	n, ok := r.g.nodes[name]
	switch {
	case !ok:
		r.fail("no node %s", name)
	case n.Op != op:
		r.fail("node %s is %s, want %s", name, n.Op, op)
	default:
		return n
	}
	return &tfjsNode{Name: name}
}

func (r *graphReader) in(name, op string, i int) string {
	n := r.node(name, op)
	if i >= len(n.Input) {
		if r.err == nil {
			r.fail("node %s has %d inputs, want more than %d", name, len(n.Input), i)
		}
		return ""
	}
	return n.Input[i]
}

func (r *graphReader) expectIn(name, op string, i int, want string) {
	if got := r.in(name, op, i); r.err == nil && got != want {
		r.fail("input %d of %s is %s, want %s", i, name, got, want)
	}
}

// weight returns a float32 constant, checking its shape (-1 = any size).
func (r *graphReader) weight(name string, shape ...int) *tensor {
	t := r.constant(name, "float32")
	if t == nil {
		return nil
	}
	if len(t.shape) != len(shape) {
		r.fail("weight %s has shape %v, want rank %d", name, t.shape, len(shape))
		return nil
	}
	for i, d := range shape {
		if d >= 0 && t.shape[i] != d || t.shape[i] <= 0 {
			r.fail("weight %s has shape %v, want %v", name, t.shape, shape)
			return nil
		}
	}
	return t
}

func (r *graphReader) constant(name, dtype string) *tensor {
	if r.err != nil {
		return nil
	}
	r.node(name, "Const")
	t, ok := r.g.weights[name]
	switch {
	case r.err != nil:
		return nil
	case !ok:
		r.fail("constant %s is not in the weights manifest", name)
		return nil
	case t.dtype != dtype:
		r.fail("constant %s is %s, want %s", name, t.dtype, dtype)
		return nil
	}
	return t
}

func (r *graphReader) constInts(name string) []int {
	if t := r.constant(name, "int32"); t != nil {
		return t.ints()
	}
	return nil
}

func (r *graphReader) constInt(name string) int {
	v := r.constInts(name)
	if len(v) != 1 {
		if r.err == nil {
			r.fail("constant %s holds %d values, want 1", name, len(v))
		}
		return 0
	}
	return v[0]
}

func (r *graphReader) constFloat(name string) float32 {
	t := r.constant(name, "float32")
	if t == nil {
		return 0
	}
	if t.size() != 1 {
		r.fail("constant %s holds %d values, want 1", name, t.size())
		return 0
	}
	return t.floats()[0]
}
