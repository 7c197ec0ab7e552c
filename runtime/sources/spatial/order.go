package spatial

import "fmt"

// Order returns the point ids in the index's internal order (rows south to
// north, each by longitude then id), so a store can save it and rebuild the
// index with NewOrdered without sorting a million points again.
func (ix *Index) Order() []int32 {
	out := make([]int32, 0, ix.n)
	for r := range ix.rows {
		for _, e := range ix.rows[r] {
			out = append(out, int32(e.id))
		}
	}
	return out
}

// NewOrdered is New(points) given the Order of that index: it checks that
// order is exactly the one New would produce (a permutation of the ids, in
// row, longitude, id order) and otherwise returns an error, so a damaged
// copy never gives another index.
func NewOrdered(points []Point, order []int32) (*Index, error) {
	if len(order) != len(points) {
		return nil, fmt.Errorf("spatial index: order of %d ids for %d points", len(order), len(points))
	}
	ix := &Index{n: len(points)}
	seen := make([]bool, len(points))
	prevRow := -1
	var prev entry
	for k, id := range order {
		if id < 0 || int(id) >= len(points) || seen[id] {
			return nil, fmt.Errorf("spatial index: order position %d holds id %d, out of range or repeated", k, id)
		}
		seen[id] = true
		p := points[id]
		if err := checkPoint(p); err != nil {
			return nil, fmt.Errorf("spatial index point %d: %w", id, err)
		}
		r := rowOf(p.Lat)
		e := entry{lon: normLon(p.Lon), lat: p.Lat, id: int(id)}
		switch {
		case r < prevRow:
			return nil, fmt.Errorf("spatial index: order position %d goes back to row %d from %d", k, r, prevRow)
		case r == prevRow && byLonThenID(e, prev) < 0:
			return nil, fmt.Errorf("spatial index: order position %d (id %d) is not after id %d in its row", k, id, prev.id)
		}
		if r != prevRow {
			// Rows are filled one after the other, so each gets its own
			// exact-size slice.
			n := 0
			for _, next := range order[k:] {
				if int(next) >= len(points) || next < 0 || rowOf(points[next].Lat) != r {
					break
				}
				n++
			}
			ix.rows[r] = make([]entry, 0, n)
		}
		ix.rows[r] = append(ix.rows[r], e)
		prevRow, prev = r, e
	}
	return ix, nil
}
