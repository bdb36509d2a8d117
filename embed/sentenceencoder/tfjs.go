package sentenceencoder

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// tfjsGraph is a TensorFlow.js graph model: the frozen TensorFlow graph from
// model.json and the constant tensors from its weight shards.
type tfjsGraph struct {
	nodes   map[string]*tfjsNode
	weights map[string]*tensor
}

type tfjsNode struct {
	Name  string                     `json:"name"`
	Op    string                     `json:"op"`
	Input []string                   `json:"input"`
	Attr  map[string]json.RawMessage `json:"attr"`
}

type tfjsModelFile struct {
	ModelTopology struct {
		Node []*tfjsNode `json:"node"`
	} `json:"modelTopology"`
	WeightsManifest []struct {
		Paths   []string `json:"paths"`
		Weights []struct {
			Name         string          `json:"name"`
			Shape        []int           `json:"shape"`
			Dtype        string          `json:"dtype"`
			Quantization json.RawMessage `json:"quantization"`
		} `json:"weights"`
	} `json:"weightsManifest"`
}

// tensor is a constant from the weight shards, kept as little-endian bytes
// (the layout both tfjs and ONNX use).
type tensor struct {
	name  string
	dtype string // "float32" or "int32"
	shape []int
	raw   []byte
}

func (t *tensor) size() int {
	n := 1
	for _, d := range t.shape {
		n *= d
	}
	return n
}

// floats decodes a float32 tensor.
func (t *tensor) floats() []float32 {
	out := make([]float32, t.size())
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(t.raw[4*i:]))
	}
	return out
}

// ints decodes an int32 tensor.
func (t *tensor) ints() []int {
	out := make([]int, t.size())
	for i := range out {
		out[i] = int(int32(binary.LittleEndian.Uint32(t.raw[4*i:])))
	}
	return out
}

// loadTFJS reads dir/model.json and the weight shards it lists. Any file
// that is missing, malformed or too short is an error naming that file
// (relative to dir).
func loadTFJS(dir string) (*tfjsGraph, error) {
	data, err := readModelFile(dir, "model.json")
	if err != nil {
		return nil, err
	}
	var mf tfjsModelFile
	if err := json.Unmarshal(data, &mf); err != nil {
		return nil, fmt.Errorf("model.json: not a TensorFlow.js model: %w", err)
	}
	if len(mf.ModelTopology.Node) == 0 || len(mf.WeightsManifest) == 0 {
		return nil, fmt.Errorf("model.json: no graph nodes or no weights manifest")
	}
	g := &tfjsGraph{nodes: map[string]*tfjsNode{}, weights: map[string]*tensor{}}
	for _, n := range mf.ModelTopology.Node {
		g.nodes[n.Name] = n
	}
	for _, group := range mf.WeightsManifest {
		buf, err := readShards(dir, group.Paths)
		if err != nil {
			return nil, err
		}
		need := 0
		for _, w := range group.Weights {
			if len(w.Quantization) > 0 && string(w.Quantization) != "null" {
				return nil, fmt.Errorf("model.json: weight %s is quantized, which is not supported", w.Name)
			}
			if w.Dtype != "float32" && w.Dtype != "int32" {
				return nil, fmt.Errorf("model.json: weight %s has dtype %q, want float32 or int32", w.Name, w.Dtype)
			}
			t := &tensor{name: w.Name, dtype: w.Dtype, shape: w.Shape}
			if t.size() <= 0 {
				return nil, fmt.Errorf("model.json: weight %s has shape %v", w.Name, w.Shape)
			}
			need += 4 * t.size()
			if need <= len(buf) {
				t.raw = buf[need-4*t.size() : need : need]
			}
			g.weights[w.Name] = t
		}
		if need != len(buf) {
			return nil, fmt.Errorf("weight shards %s hold %d bytes, model.json needs %d (a truncated or damaged download)",
				shardRange(group.Paths), len(buf), need)
		}
	}
	return g, nil
}

// shardRange names a list of shard files compactly.
func shardRange(names []string) string {
	if len(names) > 2 {
		return names[0] + " to " + names[len(names)-1]
	}
	return strings.Join(names, ", ")
}

// readShards concatenates a weight group's shard files in order.
func readShards(dir string, names []string) ([]byte, error) {
	var buf []byte
	for _, name := range names {
		data, err := readModelFile(dir, name)
		if err != nil {
			return nil, err
		}
		buf = append(buf, data...)
	}
	return buf, nil
}

// readModelFile reads a file of the model directory; errors name the file
// relative to the directory.
func readModelFile(dir, name string) ([]byte, error) {
	if name == "" || name == "." || name == ".." || filepath.Base(name) != name {
		return nil, fmt.Errorf("model.json: file name %q is not a plain file name", name)
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	var pe *os.PathError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("%s: %w", name, pe.Err)
	}
	return data, err
}

// attrString reads a bytes attribute ({"s": "VkFMSUQ="}, base64 in JSON).
func (n *tfjsNode) attrString(name string) string {
	var v struct {
		S []byte `json:"s"`
	}
	if raw, ok := n.Attr[name]; ok && json.Unmarshal(raw, &v) == nil {
		return string(v.S)
	}
	return ""
}

// attrInts reads a list-of-ints attribute ({"list": {"i": ["1", "1"]}}).
func (n *tfjsNode) attrInts(name string) []int64 {
	var v struct {
		List struct {
			I []json.Number `json:"i"`
		} `json:"list"`
	}
	raw, ok := n.Attr[name]
	if !ok || json.Unmarshal(raw, &v) != nil {
		return nil
	}
	out := make([]int64, 0, len(v.List.I))
	for _, s := range v.List.I {
		i, err := s.Int64()
		if err != nil {
			return nil
		}
		out = append(out, i)
	}
	return out
}

// attrBool reads a boolean attribute ({"b": true}); ok is false when absent.
func (n *tfjsNode) attrBool(name string) (value, ok bool) {
	var v struct {
		B bool `json:"b"`
	}
	raw, ok := n.Attr[name]
	if !ok || json.Unmarshal(raw, &v) != nil {
		return false, false
	}
	return v.B, true
}
