package sections

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// yaml.v3's decode compares each two keys of a mapping for duplicates, so
// a frontmatter of 100,000 keys took 37 s to read, and one of 4,000 keys
// of 2,400 bytes (alike but for their ends) 1.1 s. YAML is decoded only
// where no mapping has over maxYAMLKeys keys and all mappings together
// cost at most maxYAMLWork, a mapping of k keys of b bytes in all costing
// k*k + k*b/64 (keys of 60 bytes took 1.6 times as long as of 10). At
// either bound a decode took 25-55 ms (2 vCPUs, loaded).
const (
	maxYAMLKeys = 3000
	maxYAMLWork = 3 * maxYAMLKeys * maxYAMLKeys / 2
)

// yamlCost is what decoding YAML would cost, as a decode meets its
// mappings (an alias's as often as it is used): the keys of the top
// mapping and of the largest, the keys and their bytes in all, and the
// work. It is decodeYAML's error for YAML over the bounds.
type yamlCost struct{ top, most, keys, bytes, work int }

func (c yamlCost) over() bool { return c.most > maxYAMLKeys || c.work > maxYAMLWork }

func (c yamlCost) Error() string {
	const notRead = "its properties are not read"
	switch {
	case c.most > maxYAMLKeys && c.most == c.top:
		return fmt.Sprintf("frontmatter has %d keys, more than %d: %s", c.most, maxYAMLKeys, notRead)
	case c.most > maxYAMLKeys:
		return fmt.Sprintf("frontmatter has a mapping of %d keys, more than %d: %s", c.most, maxYAMLKeys, notRead)
	}
	return fmt.Sprintf("frontmatter's %d keys of %d bytes are too many or too long to compare for duplicates: %s", c.keys, c.bytes, notRead)
}

// decodeYAML decodes YAML frontmatter, a number with a leading zero kept
// as written, and returns its document node too. YAML over the bounds is
// parsed (in linear time) but not decoded: a yamlCost error.
func decodeYAML(text []byte) (any, *yaml.Node, error) {
	var node yaml.Node
	if err := yaml.Unmarshal(text, &node); err != nil {
		return nil, nil, err
	}
	c := costOf(&node, map[*yaml.Node]yamlCost{})
	if len(node.Content) > 0 && node.Content[0].Kind == yaml.MappingNode {
		c.top = len(node.Content[0].Content) / 2
	}
	if c.over() {
		return nil, nil, c
	}
	keepLeadingZeros(&node)
	var v any
	if err := node.Decode(&v); err != nil {
		return nil, nil, err
	}
	return v, &node, nil
}

// costOf is the cost of decoding n. An anchored node's is kept, so that
// aliases of aliases cost no more to count than to parse; sums stop
// growing at a cap, as aliases multiply them.
func costOf(n *yaml.Node, anchored map[*yaml.Node]yamlCost) yamlCost {
	if n.Kind == yaml.AliasNode {
		c, ok := anchored[n.Alias]
		if !ok {
			anchored[n.Alias] = yamlCost{} // an anchor inside itself, which the decode refuses
			c = costOf(n.Alias, anchored)
			anchored[n.Alias] = c
		}
		return c
	}
	var c yamlCost
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			c.keys++
			c.bytes += len(n.Content[i].Value)
		}
		c.most, c.work = c.keys, c.keys*c.keys+c.keys*c.bytes/64
	}
	const most = 1 << 40
	for _, ch := range n.Content {
		k := costOf(ch, anchored)
		c.most = max(c.most, k.most)
		c.keys, c.bytes, c.work = min(c.keys+k.keys, most), min(c.bytes+k.bytes, most), min(c.work+k.work, most)
	}
	return c
}
