package schemacheck

import "testing"

// TestReuseText: a Document told to reuse its text parses as one that
// copies, its tree's strings change when it parses the next document (the
// contract its callers must keep), and Release takes the mode away, so the
// next user of the pooled Document gets trees that outlive it.
func TestReuseText(t *testing.T) {
	first, second := `{"name":"first","hours":["a","b"]} tail`, `{"name":"other","hours":["c","d"]} more`
	d := NewDocument()
	d.ReuseText()
	v, n, err := d.ParseFirst([]byte(first))
	if err != nil || n != len(`{"name":"first","hours":["a","b"]}`) {
		t.Fatalf("first parse: %d, %v", n, err)
	}
	name := v.Get("name").Str
	if name != "first" || v.Get("hours").Items[1].Str != "b" {
		t.Fatalf("first tree: name %q", name)
	}
	w, _, err := d.ParseFirst([]byte(second))
	if err != nil || w.Get("name").Str != "other" || w.Get("hours").Items[0].Str != "c" {
		t.Fatalf("second tree wrong: %v", err)
	}
	if name == "first" {
		t.Fatal("a reused text kept the first document's strings: the mode copies")
	}
	d.Release()
	if d.p.reuse {
		t.Fatal("Release left the Document reusing its text")
	}
	v, _, err = d.ParseFirst([]byte(first))
	if err != nil {
		t.Fatal(err)
	}
	name = v.Get("name").Str
	if _, _, err := d.ParseFirst([]byte(second)); err != nil {
		t.Fatal(err)
	}
	if name != "first" {
		t.Fatalf("after Release, a tree's string changed with the next parse: %q", name)
	}
	d.Release()
}
