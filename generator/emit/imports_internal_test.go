package emit

import "testing"

// TestGroupImports: standard library first, then modules, a blank line
// between, aliases that repeat the path's last element dropped and others
// kept.
func TestGroupImports(t *testing.T) {
	src := "package p\n\nimport (\n\tschemacheck \"github.com/ucpgen/ucpgen/runtime/schemacheck\"\n\t\"strconv\"\n\tjs \"github.com/santhosh-tekuri/jsonschema/v6\"\n\t\"encoding/json\"\n)\n\nvar _ = json.Valid\nvar _ = strconv.Itoa\nvar _ = schemacheck.Value{}\nvar _ = js.Draft2020\n"
	want := "package p\n\nimport (\n\t\"encoding/json\"\n\t\"strconv\"\n\n\tjs \"github.com/santhosh-tekuri/jsonschema/v6\"\n\t\"github.com/ucpgen/ucpgen/runtime/schemacheck\"\n)\n\nvar _ = json.Valid\nvar _ = strconv.Itoa\nvar _ = schemacheck.Value{}\nvar _ = js.Draft2020\n"
	got, err := groupImports([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	single := "package p\n\nimport \"fmt\"\n\nvar _ = fmt.Sprint\n"
	if got, err := groupImports([]byte(single)); err != nil || string(got) != single {
		t.Errorf("single import: %q, %v", got, err)
	}
}
