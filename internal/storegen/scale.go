package storegen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
)

// GenerateTo streams a dataset of exactly n stores to w, so benchmarks can
// measure the store finder at sizes far beyond the committed file without
// holding the whole file in memory. Each metro gets a share of n in
// proportion to its share of the default dataset (the same density model,
// scaled), and stores keep unique ids and aliases at any size. The output is
// a pure function of seed and n, in the committed file's format.
func GenerateTo(w io.Writer, seed uint64, n int) error {
	return GenerateShapeTo(w, seed, n, Full)
}

// Shape selects how much each generated record carries.
type Shape int

const (
	// Full is the committed file's record shape: every holiday a store
	// publishes, all its amenities, items and coverage (about 1.85 KB a
	// store).
	Full Shape = iota
	// Light is the same stores (the same random draws, so the same ids,
	// names, places, density and weekly hours) with less on each: at most
	// one exception date (a quarter of the stores), one amenity (half of
	// them) and one item, and a service area of country and radius only
	// (about 860 bytes a store). It is the
	// "synthetic" file of the start-up benchmarks, for measuring the
	// loader against JSON decoding where the records are smaller.
	Light
)

// GenerateShapeTo is GenerateTo with records of the given shape.
func GenerateShapeTo(w io.Writer, seed uint64, n int, shape Shape) error {
	if shape != Full && shape != Light {
		return fmt.Errorf("record shape %d: unknown", shape)
	}
	if n < 1 {
		return fmt.Errorf("store count %d: must be at least 1", n)
	}
	base := 0
	for i := range metros {
		base += metros[i].stores
	}
	g := &generator{
		rng:    rand.NewPCG(seed, seed^0x9e3779b97f4a7c15),
		ids:    map[string]bool{},
		names:  map[string]int{},
		legacy: map[string]int{},
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false)
	bw.WriteString("[\n")
	written := 0
	for mi := range metros {
		m := &metros[mi]
		// The last metro takes the rounding remainder so the total is n.
		share := n * m.stores / base
		if mi == len(metros)-1 {
			share = n - written
		}
		total := 0
		for _, l := range m.localities {
			total += l.weight
		}
		for range share {
			w := g.intn(total)
			li := 0
			for w >= m.localities[li].weight {
				w -= m.localities[li].weight
				li++
			}
			rec := g.store(m, &m.localities[li])
			if shape == Light {
				lighten(&rec)
			}
			if err := checkSchedule(&rec.Location); err != nil {
				return fmt.Errorf("generated store %s: %w", rec.Location.ID, err)
			}
			if written > 0 {
				bw.WriteString(",\n")
			}
			line.Reset()
			if err := enc.Encode(&rec); err != nil {
				return fmt.Errorf("encode store %s: %w", rec.Location.ID, err)
			}
			bw.Write(bytes.TrimSuffix(line.Bytes(), []byte("\n")))
			written++
		}
	}
	bw.WriteString("\n]\n")
	return bw.Flush()
}

// lighten trims a full record to the Light shape. It keeps a prefix of each
// list, so every rule the full record met (distinct values, exception
// ranges that do not overlap) still holds; which stores keep an exception
// date (a quarter) or an amenity (half) follows the last hex digit of their
// random id.
func lighten(rec *outRecord) {
	loc := &rec.Location
	digit := strings.IndexByte("0123456789abcdef", loc.ID[len(loc.ID)-1])
	if digit < 0 || digit >= 4 || len(loc.ExceptionHours) == 0 {
		loc.ExceptionHours = nil
	} else {
		loc.ExceptionHours = loc.ExceptionHours[:1]
	}
	switch {
	case digit%2 == 1 || len(loc.Amenities) == 0:
		loc.Amenities = nil
	case len(loc.Amenities) > 1:
		keys := make([]string, 0, len(loc.Amenities))
		for k := range loc.Amenities {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		loc.Amenities = map[string]outAmenity{keys[0]: loc.Amenities[keys[0]]}
	}
	rec.Items = rec.Items[:min(len(rec.Items), 1)]
	if len(rec.Items) == 0 {
		rec.Items = nil
	}
	if sa := rec.ServiceArea; sa != nil {
		rec.ServiceArea = &outServiceArea{Countries: sa.Countries, RadiusM: sa.RadiusM}
	}
}
