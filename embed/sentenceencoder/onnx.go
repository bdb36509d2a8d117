package sentenceencoder

import (
	"encoding/binary"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// This file encodes the few ONNX protobuf messages the graph needs. Field
// numbers are those of onnx.proto.

// ONNX tensor element types (TensorProto.DataType).
const (
	onnxFloat = 1
	onnxUint8 = 2
	onnxInt8  = 3
	onnxInt64 = 7
)

// ONNX attribute types (AttributeProto.AttributeType).
const (
	attrTypeFloat = 1
	attrTypeInt   = 2
	attrTypeInts  = 7
)

const (
	onnxIRVersion = 8  // IR version of ONNX 1.13, read by every recent runtime
	onnxOpset     = 17 // first opset with LayerNormalization

	// msDomain holds ONNX Runtime's contrib operators, such as
	// MatMulIntegerToFloat; its opset is imported only when used.
	msDomain = "com.microsoft"
	msOpset  = 1
)

// onnxGraph collects nodes and initializers of a GraphProto.
type onnxGraph struct {
	nodes   [][]byte
	inits   [][]byte
	inputs  [][]byte
	outputs [][]byte
	consts  map[string]string // initializers by value, so repeated constants are shared
	seq     int
	usesMS  bool // a node is in msDomain
}

// op appends a node with one output and returns the output's name.
func (g *onnxGraph) op(opType string, attrs [][]byte, inputs ...string) string {
	g.seq++
	out := fmt.Sprintf("%s_%d", opType, g.seq)
	g.opN(opType, attrs, inputs, []string{out})
	return out
}

// opN appends a node with the given outputs.
func (g *onnxGraph) opN(opType string, attrs [][]byte, inputs, outputs []string) {
	g.nodes = append(g.nodes, node(opType, attrs, inputs, outputs))
}

// msOp appends a node of ONNX Runtime's contrib domain with one output.
func (g *onnxGraph) msOp(opType string, inputs ...string) string {
	g.seq++
	out := fmt.Sprintf("%s_%d", opType, g.seq)
	b := node(opType, nil, inputs, []string{out})
	g.nodes = append(g.nodes, appendString(b, 7, msDomain))
	g.usesMS = true
	return out
}

// node encodes a NodeProto. An empty input name marks an omitted optional
// input.
func node(opType string, attrs [][]byte, inputs, outputs []string) []byte {
	var b []byte
	for _, in := range inputs {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendString(b, in)
	}
	for _, out := range outputs {
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendString(b, out)
	}
	b = appendString(b, 3, outputs[0])
	b = appendString(b, 4, opType)
	for _, a := range attrs {
		b = appendBytes(b, 5, a)
	}
	return b
}

// initializer adds a constant tensor from little-endian bytes.
func (g *onnxGraph) initializer(name string, elemType int32, dims []int, raw []byte) string {
	var b []byte
	for _, d := range dims {
		b = protowire.AppendTag(b, 1, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(d))
	}
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(elemType))
	b = appendString(b, 8, name)
	b = appendBytes(b, 9, raw)
	g.inits = append(g.inits, b)
	return name
}

// weight adds a tfjs weight as an initializer, reshaped to dims.
func (g *onnxGraph) weight(name string, t *tensor, dims ...int) string {
	if len(dims) == 0 {
		dims = t.shape
	}
	return g.initializer(name, onnxFloat, dims, t.raw)
}

// floats adds (or reuses) a float32 constant of the given shape.
func (g *onnxGraph) floats(dims []int, v ...float32) string {
	return g.constant(onnxFloat, dims, float32Bytes(v))
}

// float32Bytes encodes v little-endian, as ONNX raw_data wants.
func float32Bytes(v []float32) []byte {
	raw := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(x))
	}
	return raw
}

// int64s adds (or reuses) a 1-D int64 constant.
func (g *onnxGraph) int64s(v ...int64) string {
	raw := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(raw[8*i:], uint64(x))
	}
	return g.constant(onnxInt64, []int{len(v)}, raw)
}

func (g *onnxGraph) constant(elemType int32, dims []int, raw []byte) string {
	key := fmt.Sprint(elemType, dims, raw)
	if name, ok := g.consts[key]; ok {
		return name
	}
	if g.consts == nil {
		g.consts = map[string]string{}
	}
	name := g.initializer(fmt.Sprintf("const_%d", len(g.consts)), elemType, dims, raw)
	g.consts[key] = name
	return name
}

// input and output declare graph inputs and outputs. A dim is an int (fixed)
// or a string (symbolic, e.g. "batch").
func (g *onnxGraph) input(name string, elemType int32, dims ...any) {
	g.inputs = append(g.inputs, valueInfo(name, elemType, dims))
}

func (g *onnxGraph) output(name string, elemType int32, dims ...any) {
	g.outputs = append(g.outputs, valueInfo(name, elemType, dims))
}

// valueInfo encodes a ValueInfoProto with a tensor TypeProto.
func valueInfo(name string, elemType int32, dims []any) []byte {
	var shape []byte
	for _, d := range dims {
		var dim []byte
		switch v := d.(type) {
		case int:
			dim = protowire.AppendTag(dim, 1, protowire.VarintType)
			dim = protowire.AppendVarint(dim, uint64(v))
		case string:
			dim = appendString(dim, 2, v)
		}
		shape = appendBytes(shape, 1, dim)
	}
	var tt []byte
	tt = protowire.AppendTag(tt, 1, protowire.VarintType)
	tt = protowire.AppendVarint(tt, uint64(elemType))
	tt = appendBytes(tt, 2, shape)
	typ := appendBytes(nil, 1, tt)
	b := appendString(nil, 1, name)
	return appendBytes(b, 2, typ)
}

// encodeGraph encodes the GraphProto.
func (g *onnxGraph) encode(name string) []byte {
	var b []byte
	for _, n := range g.nodes {
		b = appendBytes(b, 1, n)
	}
	b = appendString(b, 2, name)
	for _, t := range g.inits {
		b = appendBytes(b, 5, t)
	}
	for _, v := range g.inputs {
		b = appendBytes(b, 11, v)
	}
	for _, v := range g.outputs {
		b = appendBytes(b, 12, v)
	}
	return b
}

// encodeModel encodes a ModelProto. The metadata comes first in the file so
// readStamp can find it without parsing the weights. withMS imports the
// contrib domain's opset as well.
func encodeModel(graph []byte, metadata [][2]string, withMS bool) []byte {
	var b []byte
	for _, kv := range metadata {
		entry := appendString(appendString(nil, 1, kv[0]), 2, kv[1])
		b = appendBytes(b, 14, entry)
	}
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, onnxIRVersion)
	var opset []byte
	opset = appendString(opset, 1, "")
	opset = protowire.AppendTag(opset, 2, protowire.VarintType)
	opset = protowire.AppendVarint(opset, onnxOpset)
	b = appendBytes(b, 8, opset)
	if withMS {
		ms := appendString(nil, 1, msDomain)
		ms = protowire.AppendTag(ms, 2, protowire.VarintType)
		ms = protowire.AppendVarint(ms, msOpset)
		b = appendBytes(b, 8, ms)
	}
	b = appendString(b, 2, "mdsearch")
	b = appendBytes(b, 7, graph)
	return b
}

// readMetadata returns the value of a ModelProto metadata entry that
// precedes the graph, as encodeModel writes it.
func readMetadata(prefix []byte, key string) (string, bool) {
	for len(prefix) > 0 {
		num, typ, n := protowire.ConsumeTag(prefix)
		if n < 0 || num != 14 || typ != protowire.BytesType {
			return "", false
		}
		prefix = prefix[n:]
		entry, m := protowire.ConsumeBytes(prefix)
		if m < 0 {
			return "", false
		}
		prefix = prefix[m:]
		var k, v string
		for len(entry) > 0 {
			f, t, n := protowire.ConsumeTag(entry)
			if n < 0 || t != protowire.BytesType {
				return "", false
			}
			s, m := protowire.ConsumeBytes(entry[n:])
			if m < 0 {
				return "", false
			}
			entry = entry[n+m:]
			switch f {
			case 1:
				k = string(s)
			case 2:
				v = string(s)
			}
		}
		if k == key {
			return v, true
		}
	}
	return "", false
}

func attrInt(name string, v int64) []byte {
	b := appendString(nil, 1, name)
	b = protowire.AppendTag(b, 3, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(v))
	return appendType(b, attrTypeInt)
}

func attrInts(name string, v ...int64) []byte {
	b := appendString(nil, 1, name)
	for _, x := range v {
		b = protowire.AppendTag(b, 8, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(x))
	}
	return appendType(b, attrTypeInts)
}

func attrFloat(name string, v float32) []byte {
	b := appendString(nil, 1, name)
	b = protowire.AppendTag(b, 2, protowire.Fixed32Type)
	b = protowire.AppendFixed32(b, math.Float32bits(v))
	return appendType(b, attrTypeFloat)
}

func appendType(b []byte, t uint64) []byte {
	b = protowire.AppendTag(b, 20, protowire.VarintType)
	return protowire.AppendVarint(b, t)
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendBytes(b []byte, num protowire.Number, v []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}
