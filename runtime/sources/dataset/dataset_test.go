package dataset

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestParseAcceptsMinimalAndFullRecords(t *testing.T) {
	data := `[
	  {"location": {"id": "a", "name": "A"}},
	  {"location": {"id": "b", "name": "B"}, "aliases": ["b-1", "legacy/b"], "items": ["sku-1", "sku-2"],
	   "service_area": {"countries": ["US"], "regions": ["NY"], "postal_codes": ["10001"], "radius_m": 0}, "private": true},
	  {"location": {"id": "c", "name": "C"}, "aliases": [], "service_area": {}, "private": false}
	]`
	recs, err := Parse([]byte(data))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if len(recs) != 3 {
		t.Fatalf("got %d records, want 3", len(recs))
	}
	b := recs[1]
	if b.ID != "b" || !b.Private || len(b.Aliases) != 2 || b.Aliases[1] != "legacy/b" || len(b.Items) != 2 {
		t.Errorf("record b decoded wrongly: %+v", b)
	}
	if b.ServiceArea == nil || b.ServiceArea.RadiusM == nil || *b.ServiceArea.RadiusM != 0 || b.ServiceArea.PostalCodes[0] != "10001" {
		t.Errorf("record b service area decoded wrongly: %+v", b.ServiceArea)
	}
	if recs[0].ServiceArea != nil || recs[0].Private {
		t.Errorf("record a got defaults wrong: %+v", recs[0])
	}
	if recs[2].ServiceArea == nil || recs[2].ServiceArea.RadiusM != nil {
		t.Errorf("record c: empty service_area must decode as present without radius: %+v", recs[2].ServiceArea)
	}
	if !json.Valid(recs[1].Location) || !strings.Contains(string(recs[1].Location), `"name": "B"`) {
		t.Errorf("location not kept raw: %s", recs[1].Location)
	}
	empty, err := Parse([]byte(" [ ] \n"))
	if err != nil || len(empty) != 0 {
		t.Errorf("empty dataset: got %v, %v", empty, err)
	}
}

func TestParseErrorsNameIndexAndPointer(t *testing.T) {
	ok := `{"location":{"id":"ok","name":"OK"}}`
	cases := []struct {
		name    string
		data    string
		index   int
		pointer string
		reason  string
	}{
		{"truncated", `[{`, 0, "/0", "not valid JSON"},
		{"not json", `nope`, -1, "", "not valid JSON"},
		{"object at top", `{"location":{}}`, -1, "", "JSON array"},
		{"trailing data", `[] []`, -1, "", "after the top-level array"},
		{"record not object", `[` + ok + `, 7]`, 1, "/1", "must be an object, got a number"},
		{"record null", `[null]`, 0, "/0", "got null"},
		{"unknown member", `[` + ok + `,{"location":{"id":"b"},"stock":[]}]`, 1, "/1/stock", `unknown record member "stock"`},
		{"unknown member escaped", `[{"location":{"id":"b"},"a/b~c":1}]`, 0, "/0/a~1b~0c", "unknown record member"},
		{"duplicate member", `[{"location":{"id":"b"},"private":true,"private":false}]`, 0, "/0/private", "duplicate member"},
		{"location missing", `[{"aliases":["x"]}]`, 0, "/0/location", "required member is missing"},
		{"location not object", `[{"location":"store"}]`, 0, "/0/location", "must be an object, got a string"},
		{"location null", `[{"location":null}]`, 0, "/0/location", "got null"},
		{"location id missing", `[{"location":{"name":"x"}}]`, 0, "/0/location/id", "required member is missing"},
		{"location id number", `[{"location":{"id":5}}]`, 0, "/0/location/id", "must be a string, got a number"},
		{"location id empty", `[{"location":{"id":""}}]`, 0, "/0/location/id", "must not be empty"},
		{"location duplicate member", `[{"location":{"id":"a","id":"b"}}]`, 0, "/0/location/id", "duplicate member"},
		{"duplicate id", `[` + ok + `,` + ok + `]`, 1, "/1/location/id", "already used by record 0"},
		{"aliases not array", `[{"location":{"id":"a"},"aliases":"a1"}]`, 0, "/0/aliases", "must be an array of strings"},
		{"aliases null", `[{"location":{"id":"a"},"aliases":null}]`, 0, "/0/aliases", "got null"},
		{"alias not string", `[{"location":{"id":"a"},"aliases":["x",3]}]`, 0, "/0/aliases/1", "alias must be a string, got a number"},
		{"alias empty", `[{"location":{"id":"a"},"aliases":[""]}]`, 0, "/0/aliases/0", "must not be empty"},
		{"alias repeated", `[{"location":{"id":"a"},"aliases":["x","y","x"]}]`, 0, "/0/aliases/2", "repeats element 0"},
		{"alias is own id", `[{"location":{"id":"a"},"aliases":["a"]}]`, 0, "/0/aliases/0", "own location id"},
		{"alias is other id", `[` + ok + `,{"location":{"id":"b"},"aliases":["z","ok"]}]`, 1, "/1/aliases/1", "location id of record 0"},
		{"alias is other alias", `[{"location":{"id":"a"},"aliases":["s1"]},{"location":{"id":"b"},"aliases":["s1"]}]`, 1, "/1/aliases/0", "also an alias of record 0"},
		{"id is earlier alias", `[{"location":{"id":"a"},"aliases":["b"]},{"location":{"id":"b"}}]`, 0, "/0/aliases/0", "location id of record 1"},
		{"items not array", `[{"location":{"id":"a"},"items":{}}]`, 0, "/0/items", "must be an array of strings, got an object"},
		{"item empty", `[{"location":{"id":"a"},"items":["sku",""]}]`, 0, "/0/items/1", "item id must not be empty"},
		{"item not string", `[{"location":{"id":"a"},"items":[true]}]`, 0, "/0/items/0", "got a boolean"},
		{"item repeated", `[{"location":{"id":"a"},"items":["s","s"]}]`, 0, "/0/items/1", "repeats element 0"},
		{"item repeated later", `[{"location":{"id":"a"},"items":["sku-1","sku-2","sku-1"]}]`, 0, "/0/items/2", "repeats element 0"},
		{"private string", `[{"location":{"id":"a"},"private":"yes"}]`, 0, "/0/private", "must be a boolean, got a string"},
		{"private null", `[{"location":{"id":"a"},"private":null}]`, 0, "/0/private", "got null"},
		{"service area array", `[{"location":{"id":"a"},"service_area":[]}]`, 0, "/0/service_area", "must be an object, got an array"},
		{"service area unknown", `[{"location":{"id":"a"},"service_area":{"polygon":[]}}]`, 0, "/0/service_area/polygon", `unknown service_area member "polygon"`},
		{"service area duplicate", `[{"location":{"id":"a"},"service_area":{"radius_m":1,"radius_m":2}}]`, 0, "/0/service_area/radius_m", "duplicate member"},
		{"radius negative", `[` + ok + `,{"location":{"id":"b"},"service_area":{"radius_m":-5}}]`, 1, "/1/service_area/radius_m", "must be >= 0"},
		{"radius overflow", `[{"location":{"id":"a"},"service_area":{"radius_m":1e400}}]`, 0, "/0/service_area/radius_m", "finite"},
		{"radius string", `[{"location":{"id":"a"},"service_area":{"radius_m":"5km"}}]`, 0, "/0/service_area/radius_m", "must be a number of meters, got a string"},
		{"radius null", `[{"location":{"id":"a"},"service_area":{"radius_m":null}}]`, 0, "/0/service_area/radius_m", "got null"},
		{"country not string", `[{"location":{"id":"a"},"service_area":{"countries":[1]}}]`, 0, "/0/service_area/countries/0", "country must be a string"},
		{"region empty", `[{"location":{"id":"a"},"service_area":{"regions":[""]}}]`, 0, "/0/service_area/regions/0", "region must not be empty"},
		{"postal repeated", `[{"location":{"id":"a"},"service_area":{"postal_codes":["1","1"]}}]`, 0, "/0/service_area/postal_codes/1", "repeats element 0"},
		{"bad json inside record", `[` + ok + `,{"location":{"id":"b"},"items":[1,]}]`, 1, "/1", "not valid JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			recs, err := Parse([]byte(c.data))
			if err == nil {
				t.Fatalf("Parse accepted %s: %+v", c.data, recs)
			}
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a *FieldError", err, err)
			}
			if fe.Index != c.index || fe.Pointer != c.pointer {
				t.Errorf("got index %d pointer %q, want %d %q (%v)", fe.Index, fe.Pointer, c.index, c.pointer, err)
			}
			if !strings.Contains(fe.Reason, c.reason) {
				t.Errorf("reason %q does not contain %q", fe.Reason, c.reason)
			}
			msg := err.Error()
			if c.index >= 0 && (!strings.Contains(msg, "record "+strconv.Itoa(c.index)) || !strings.Contains(msg, c.pointer)) {
				t.Errorf("message %q does not name record %d and %s", msg, c.index, c.pointer)
			}
		})
	}
}
