package jsonenc

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestSortedKeys checks the order generated encoders, bindings and digests
// rely on (byte order, as encoding/json writes a map), and that an empty
// map, the unknown members of nearly every request, allocates nothing.
func TestSortedKeys(t *testing.T) {
	tests := []struct {
		name string
		in   map[string]json.RawMessage
		want []string
	}{
		{"nil", nil, nil},
		{"empty", map[string]json.RawMessage{}, nil},
		{"one", map[string]json.RawMessage{"x": nil}, []string{"x"}},
		{"byte order", map[string]json.RawMessage{"b": nil, "B": nil, "a": nil, "com.example.z": nil, "Ä": nil}, []string{"B", "a", "b", "com.example.z", "Ä"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SortedKeys(tt.in, nil); !slices.Equal(got, tt.want) {
				t.Errorf("SortedKeys = %q, want %q", got, tt.want)
			}
		})
	}
	if n := testing.AllocsPerRun(100, func() { SortedKeys(map[string]string(nil), make([]string, 0, 16)) }); n != 0 {
		t.Errorf("SortedKeys of an empty map allocates %v times, want 0", n)
	}
}
