package jsonobj

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestSortedNames checks the order generated encoders and digests rely on,
// and that the empty case, every request's, allocates nothing.
func TestSortedNames(t *testing.T) {
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
			if got := SortedNames(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("SortedNames = %q, want %q", got, tt.want)
			}
		})
	}
	if n := testing.AllocsPerRun(100, func() { SortedNames(map[string]string(nil)) }); n != 0 {
		t.Errorf("SortedNames of an empty map allocates %v times, want 0", n)
	}
}
