// Package conform checks a UCP Business's Location capability from the
// outside, as a Platform sees it: it reads the Business profile, calls the
// advertised MCP and REST endpoints with read-only requests, and judges every
// answer against the rules of LOCATION.md that a Platform can observe.
//
// The checker knows nothing of the Business's data. Predicates are checked
// metamorphically: it samples Locations through search and lookup, then
// asks questions whose right answer follows from what the Business itself
// returned (a radius just past a returned Location must include it, one just
// short of it must not; amenities [a, b] must return exactly the Locations
// with both keys among those the radius returned).
package conform
