package schemacheck

import (
	"encoding/json"
	"reflect"
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
