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

// Unknown collects the members of the JSON object data whose names are not
// in known (exact, case-sensitive), or nil when there are none.
func Unknown(data []byte, known func(string) bool) (map[string]json.RawMessage, error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, err
	}
	var out map[string]json.RawMessage
	for k, v := range all {
		if known(k) {
			continue
		}
		if out == nil {
			out = map[string]json.RawMessage{}
		}
		out[k] = v
	}
	return out, nil
}

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

// StringMember returns the string value of member name (exact case) of the
// JSON object data, which tagged unions use to pick their variant.
func StringMember(data []byte, name string) (string, bool, error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return "", false, err
	}
	raw, ok := all[name]
	if !ok {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, nil
	}
	return s, true, nil
}
