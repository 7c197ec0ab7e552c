package openapidoc_test

import (
	"reflect"
	"testing"

	"github.com/ucpgen/ucpgen/generator/load/internal/openapidoc"
)

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      *openapidoc.Doc
	}{
		{
			name: "no info and no paths",
			doc:  `{"openapi":"3.1.0"}`,
			want: &openapidoc.Doc{},
		},
		{
			name: "everything the binding reads, in document order",
			doc: `{"openapi":"3.1.0","info":{"title":"t","version":"2026-08-25"},"paths":{
				"/b":{"post":{"operationId":"second",
					"parameters":[
						{"name":"Request-Id","in":"header","required":true,"schema":{"type":"string","format":"uuid"}},
						{"name":"q","in":"query"}],
					"requestBody":{"required":true,"content":{"application/json":{"schema":{"type":"object"}}}},
					"responses":{
						"200":{"description":"ok","headers":{"Retry-After":{"schema":{"type":"integer"}},"X-Ok":{"required":true}},
							"content":{"application/json":{},"text/plain":{}}},
						"400":{"description":"bad"}}}},
				"/a":{"get":{"operationId":"first","requestBody":{}},"delete":{"operationId":"third"}}}}`,
			want: &openapidoc.Doc{Version: "2026-08-25", Paths: []openapidoc.Path{
				{Path: "/b", Ops: []openapidoc.Op{{
					Method: "post", ID: "second",
					Params: []openapidoc.Param{
						{Name: "Request-Id", In: "header", Required: true, Type: "string", Format: "uuid"},
						{Name: "q", In: "query"},
					},
					Body:         &openapidoc.Content{Required: true, MediaTypes: []string{"application/json"}, JSON: true},
					HasResponses: true,
					Responses: []openapidoc.Response{
						{Status: "200", Content: &openapidoc.Content{MediaTypes: []string{"application/json", "text/plain"}, JSON: true},
							Headers: []openapidoc.Header{{Name: "Retry-After", Type: "integer"}, {Name: "X-Ok", Required: true}}},
						{Status: "400"},
					},
				}}},
				{Path: "/a", Ops: []openapidoc.Op{
					{Method: "get", ID: "first", Body: &openapidoc.Content{}},
					{Method: "delete", ID: "third"},
				}},
			}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := openapidoc.Read([]byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Read:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestReadRefusesWhatIsNotOpenAPI(t *testing.T) {
	for _, doc := range []string{``, `[1,2]`, `{"swagger":"2.0"}`} {
		if _, err := openapidoc.Read([]byte(doc)); err == nil {
			t.Errorf("Read(%q) = nil error", doc)
		}
	}
}
