package emit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
)

func strField(json, goName string, required bool) *ir.Field {
	return &ir.Field{JSONName: json, GoName: goName, Type: &ir.Type{Kind: ir.String}, Required: required}
}

func lookupShapes(extraOnLocation, extraOnLookup *ir.Field) (loc, out *ir.Type) {
	input := &ir.Type{Name: "LookupLocationInput", Kind: ir.Struct, Fields: []*ir.Field{strField("id", "ID", true)}}
	loc = &ir.Type{Name: "Location", Kind: ir.Struct, KeepUnknown: true, Fields: []*ir.Field{strField("id", "ID", true), strField("name", "Name", true)}}
	out = &ir.Type{Name: "LookupLocation", Kind: ir.Struct, KeepUnknown: true, Fields: []*ir.Field{
		strField("id", "ID", true), strField("name", "Name", true),
		{JSONName: "inputs", GoName: "Inputs", Required: true, Type: &ir.Type{Kind: ir.Array, Elem: input}},
	}}
	if extraOnLocation != nil {
		loc.Fields = append(loc.Fields, extraOnLocation)
	}
	if extraOnLookup != nil {
		out.Fields = append(out.Fields, extraOnLookup)
	}
	return loc, out
}

// The conversion copies every member by name and refuses, at generation
// time, a member it would have to drop or invent.
func TestLookupLocationConversion(t *testing.T) {
	for _, tc := range []struct {
		name     string
		loc, out *ir.Field
		wantErr  string
		wantCode []string
	}{
		{"same members", nil, nil, "", []string{"ID:      l.ID", "Name:    l.Name", "Unknown: l.Unknown", "LookupLocationInput{ID: id}"}},
		{"member added to both", strField("parking", "Parking", false), strField("parking", "Parking", false), "", []string{"Parking: l.Parking"}},
		{"member only on Location", strField("parking", "Parking", false), nil, `Location member "parking" has no counterpart`, nil},
		{"member only on LookupLocation", nil, strField("parking", "Parking", false), `LookupLocation member "parking" has no counterpart`, nil},
		{"member differs", strField("parking", "Parking", false), strField("parking", "Parking", true), `member "parking" differs`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loc, out := lookupShapes(tc.loc, tc.out)
			code, err := lookupLocationConversion(loc, out)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			f := jen.NewFile("x")
			f.Add(code)
			src := fmt.Sprintf("%#v", f)
			for _, want := range tc.wantCode {
				if !strings.Contains(src, want) {
					t.Errorf("generated code lacks %q:\n%s", want, src)
				}
			}
		})
	}
}

// The digest covers every member but the ones that never decide matches.
func TestDigestMethodMembers(t *testing.T) {
	req := &ir.Type{Name: "SearchRequest", Kind: ir.Struct, KeepUnknown: true}
	for _, name := range []string{"query", "context", "signals", "distance", "pagination", "new_member"} {
		req.Fields = append(req.Fields, strField(name, ir.GoName(name), false))
	}
	f := jen.NewFile("x")
	digest, err := digestMethod(req)
	if err != nil {
		t.Fatal(err)
	}
	f.Add(digest)
	src := fmt.Sprintf("%#v", f)
	for _, in := range []string{"r.Query.Set", "r.Distance.Set", "r.NewMember.Set", "r.Unknown"} {
		if !strings.Contains(src, in) {
			t.Errorf("digest leaves out %s:\n%s", in, src)
		}
	}
	for _, out := range []string{"r.Pagination", "r.Context", "r.Signals"} {
		if strings.Contains(src, out) {
			t.Errorf("digest covers %s", out)
		}
	}
}
