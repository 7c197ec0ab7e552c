package schemacheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestDocumentReuse parses different documents through one Document, with
// and without Release in between, and requires each tree to equal a fresh
// Parse of the same bytes: reused arena slots must not leak old fields
// (a true Bool, a Num, a Members slice) into new values.
func TestDocumentReuse(t *testing.T) {
	docs := []string{
		`{"a":true,"b":[1,2,{"c":3.5}],"d":"x"}`,
		`[false,null,"s",{"k":[]},{}]`,
		`{"a":"str","b":[null,null,null],"d":false}`,
		`7`,
		`{"deep":{"er":{"est":[true,1e3,"\u00e9"]}}}`,
	}
	d := NewDocument()
	for round := 0; round < 2; round++ {
		for i, src := range docs {
			want, err := Parse([]byte(src))
			if err != nil {
				t.Fatalf("%d: %v", i, err)
			}
			got, err := d.Parse([]byte(src))
			if err != nil {
				t.Fatalf("%d: %v", i, err)
			}
			if !reflect.DeepEqual(*got, want) {
				t.Fatalf("round %d doc %d: reused Document gives\n%#v\nwant\n%#v", round, i, *got, want)
			}
			if round == 1 {
				d.Release()
				d = NewDocument()
			}
		}
	}
	d.Release()
	// A failed parse leaves slots half written; the next one must not care.
	d = NewDocument()
	if _, err := d.Parse([]byte(`{"a":[true,true,"x",`)); err == nil {
		t.Fatal("truncated document accepted")
	}
	got, err := d.Parse([]byte(`{"a":[null,false,1]}`))
	if err != nil {
		t.Fatal(err)
	}
	var back any
	if err := json.Unmarshal([]byte(got.Raw), &back); err != nil || got.Members[0].Value.Items[1].Bool {
		t.Fatalf("stale value after a failed parse: %#v", got)
	}
	d.Release()
}

// TestDocumentChunks parses documents whose containers outgrow the arena
// chunks in the middle of a parse, through one reused Document and
// through Parse, and requires equal trees that read back as the input;
// and it finds a repeated name below and above the width at which an
// object's names go into a set.
func TestDocumentChunks(t *testing.T) {
	wide := func(n int, dupAt int) string {
		b := []byte(`{`)
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			name := fmt.Sprintf("m%d", i)
			if i == dupAt {
				name = "m0"
			}
			b = append(b, fmt.Sprintf("%q:[%d,{\"k\":%d}]", name, i, i)...)
		}
		return string(append(b, '}'))
	}
	var list []byte
	list = append(list, '[')
	for i := range 300 {
		if i > 0 {
			list = append(list, ',')
		}
		list = append(list, fmt.Sprintf(`{"a":%d,"b":[%d,%d],"c":{"d":"e%d"}}`, i, i, -i, i)...)
	}
	list = append(list, ']')
	d := NewDocument()
	defer func() { d.Release() }()
	for round := range 3 {
		for i, src := range []string{string(list), wide(100, -1), `[1]`, wide(20, -1), string(list)} {
			want, err := Parse([]byte(src))
			if err != nil {
				t.Fatalf("%d: %v", i, err)
			}
			got, err := d.Parse([]byte(src))
			if err != nil {
				t.Fatalf("round %d doc %d: %v", round, i, err)
			}
			if !reflect.DeepEqual(*got, want) {
				t.Fatalf("round %d doc %d: reused Document and Parse differ", round, i)
			}
			var a, b any
			if err := json.Unmarshal([]byte(src), &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(treeJSON(got)), &b); err != nil || !reflect.DeepEqual(a, b) {
				t.Fatalf("round %d doc %d: the tree does not read back as the input (%v)", round, i, err)
			}
		}
		if round == 1 {
			d.Release()
			d = NewDocument()
		}
	}
	for _, dupAt := range []int{5, wideObject - 1, wideObject, 70} {
		_, err := d.Parse([]byte(wide(100, dupAt)))
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Pointer != "/m0" || !strings.Contains(pe.Reason, `duplicate member name "m0"`) {
			t.Errorf("repeated name at member %d: %v", dupAt, err)
		}
	}
}

// treeJSON writes a parsed tree back as JSON from its kinds and values
// only (not Raw), so a slot filled wrongly shows.
func treeJSON(v *Value) string {
	switch v.Kind {
	case Object:
		parts := make([]string, len(v.Members))
		for i := range v.Members {
			name, _ := json.Marshal(v.Members[i].Name)
			parts[i] = string(name) + ":" + treeJSON(&v.Members[i].Value)
		}
		return "{" + strings.Join(parts, ",") + "}"
	case Array:
		parts := make([]string, len(v.Items))
		for i := range v.Items {
			parts[i] = treeJSON(&v.Items[i])
		}
		return "[" + strings.Join(parts, ",") + "]"
	case String:
		s, _ := json.Marshal(v.Str)
		return string(s)
	case Number:
		return v.Str
	case Bool:
		return fmt.Sprint(v.Bool)
	}
	return "null"
}
