// Package jsonobj carries unknown object members through generated types:
// UCP objects are open (additionalProperties true) and a Business must not
// lose what a Platform or an extension added when it decodes and re-encodes.
package jsonobj

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// Merge appends the unknown members (in sorted order, for deterministic
// output) to the encoded object obj. Names that obj already has are an error:
// a typed field and an unknown member must not both claim one name.
func Merge(obj []byte, unknown map[string]json.RawMessage, known func(string) bool) ([]byte, error) {
	if len(unknown) == 0 {
		return obj, nil
	}
	keys := make([]string, 0, len(unknown))
	for k := range unknown {
		if known(k) {
			return nil, fmt.Errorf("unknown member %q duplicates a typed field", k)
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.Grow(len(obj) + 32*len(keys))
	trimmed := bytes.TrimRight(obj, " \n")
	if len(trimmed) < 2 || trimmed[len(trimmed)-1] != '}' {
		return nil, fmt.Errorf("not a JSON object")
	}
	b.Write(trimmed[:len(trimmed)-1])
	empty := bytes.Equal(bytes.TrimSpace(trimmed[:len(trimmed)-1]), []byte("{"))
	for i, k := range keys {
		if i > 0 || !empty {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		v := unknown[k]
		if len(v) == 0 {
			v = json.RawMessage("null")
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
