package main

import (
	"fmt"
	"maps"
	"slices"

	"github.com/ucpgen/ucpgen/generated/location"
	old "github.com/ucpgen/ucpgen/generated/location20260821"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// conversion20260821 serves the draft 2026-08-21 from the current package:
// ucpgen converts every member that kept its shape, and these methods the
// ones old.Conversion names.
type conversion20260821 struct{}

var _ old.Conversion = conversion20260821{}

// MetaIdempotencyKey drops the key: both tools only read.
func (conversion20260821) MetaIdempotencyKey(*old.Meta, *location.Meta) error { return nil }

// LocationFilterInventory asks for in-stock items, all that filters.items
// says. A request valid at 2026-08-21 is never refused for a rule only
// 2026-08-25 has: the ids go over as a set (a repeated id asks nothing more,
// the filter being an AND, so it is dropped where 2026-08-25's uniqueItems
// would refuse it), and an empty id, which names no item, goes over as it
// is: the engine evaluates it as matching nothing, as it does an unknown id
// (LOCATION.md section 5). What this version's filter says and the server
// cannot honour is refused at this version's pointers, with a keyword: an
// availability other than in_stock, and an entry member the server does not
// read (the same rule as every other operand's unknown members).
func (conversion20260821) LocationFilterInventory(in *old.LocationFilter, out *location.LocationFilter) error {
	seen := make(map[string]bool, len(in.Inventory.V))
	for i, f := range in.Inventory.V {
		if len(f.Unknown) > 0 {
			k := slices.Sorted(maps.Keys(f.Unknown))[0]
			return rpcerr.Invalid(fmt.Sprintf("/inventory/%d/%s", i, rpcerr.EscapeToken(k)), "unsupported", "inventory filter member %q is not supported; only id and availability_status are", k)
		}
		if s, ok := f.AvailabilityStatus.Get(); ok && s != "in_stock" {
			return rpcerr.Invalid(fmt.Sprintf("/inventory/%d/availability_status", i), "unsupported", "only in_stock is served, not %q", s)
		}
		out.Items.Set = true
		if !seen[f.ID] {
			seen[f.ID] = true
			out.Items.V = append(out.Items.V, f.ID)
		}
	}
	return nil
}

// LocationAmenities lists the map's identifiers, sorted.
func (conversion20260821) LocationAmenities(in opt.Value[map[location.AmenityType]location.Amenity], out *opt.Value[[]old.AmenityType]) error {
	out.V, out.Set = make([]old.AmenityType, 0, len(in.V)), in.Set
	for id := range in.V {
		out.V = append(out.V, old.AmenityType(id))
	}
	slices.Sort(out.V)
	return nil
}
