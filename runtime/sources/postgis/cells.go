package postgis

import (
	"math"
	"slices"
	"strconv"
)

// Grid cells let a local distance search read O(page) rows in id order.
// Every Location with a geo carries its cell at each level (a lat/lon square
// of cellLevels[k] degrees) in column cell<k>, with a btree index on
// (cell<k>, id). A circle is covered by the cells of its bounding box that
// it can reach, at the finest level that needs at most maxCells of them;
// the cells are read in id order from their index at once, merged (a Merge
// Append), and the merge stops at limit candidates. A page therefore reads
// about limit × (rows of the covering cells ÷ those that match) rows,
// however many Locations the circle holds. That ratio grows with the cell
// size, so circles too large for the 1° level (a radius of a few hundred
// kilometres) are read another way (see Candidates).
var cellLevels = [...]float64{0.1, 1}

// maxCells bounds the cells a circle is read from.
const maxCells = 64

// cellColumns names the cell column of each level.
var cellColumns = [...]string{"cell0", "cell1"}

// lonCells is the number of cells around a parallel at a level.
func lonCells(level int) int64 { return int64(math.Round(360 / cellLevels[level])) }

// cellOf is the cell of a coordinate at a level: row (from the south pole)
// times 10,000 plus column (from the antimeridian, 180° folded onto -180°).
// The SQL in cellSQL computes the same value with the same IEEE operations.
func cellOf(lat, lon float64, level int) int64 {
	s := cellLevels[level]
	row := int64(math.Floor((lat + 90) / s))
	col := int64(math.Floor((lon + 180) / s))
	n := lonCells(level)
	col = ((col % n) + n) % n
	return row*10000 + col
}

// cellSQL is cellOf as a SQL expression over lat and lon expressions.
func cellSQL(lat, lon string, level int) string {
	s := formatDegrees(cellLevels[level])
	n := formatInt(lonCells(level))
	return "(floor((" + lat + " + 90) / " + s + ")::bigint * 10000 + ((floor((" + lon + " + 180) / " + s + ")::bigint % " + n + ") + " + n + ") % " + n + ")"
}

// coverCells returns the level and the cells covering a geodesic circle of
// radius r meters (margin included) around (lat, lon): the cells of a
// latitude/longitude box that holds the circle. The box is generous: a
// degree of latitude is at least 110,574 m on WGS 84 (110,000 is used), and
// a geodesic circle's longitude half-width is at most its latitude
// half-width divided by the cosine of the box's highest latitude (with 10%
// to spare); a box reaching a pole spans every longitude. Cells of the box
// the circle cannot reach (its corners, mostly) are left out (cellOutside):
// a cell holding no match would otherwise be read to its end.
//
// ok is false when even the coarsest level needs more than maxCells.
func coverCells(lat, lon, r float64) (level int, cells []int64, ok bool) {
	dlat := r/110000 + 1e-9
	south, north := lat-dlat, lat+dlat
	full := south <= -90 || north >= 90
	var dlon, cosMin float64
	if !full {
		c := math.Cos(math.Max(math.Abs(south), math.Abs(north)) * math.Pi / 180)
		cosMin = c
		dlon = dlat / c * 1.1
		full = dlon >= 180 || math.IsNaN(dlon)
	}
	south, north = math.Max(south, -90), math.Min(north, 90)
	for level = range cellLevels {
		s := cellLevels[level]
		n := lonCells(level)
		r0, r1 := int64(math.Floor((south+90)/s)), int64(math.Floor((north+90)/s))
		var c0, c1 int64
		if full {
			c0, c1 = 0, n-1
		} else {
			c0, c1 = int64(math.Floor((lon-dlon+180)/s)), int64(math.Floor((lon+dlon+180)/s))
			if c1-c0+1 >= n {
				c0, c1 = 0, n-1
			}
		}
		if (r1-r0+1)*(c1-c0+1) > 4*maxCells {
			continue
		}
		cells = cells[:0]
		for row := r0; row <= r1; row++ {
			for col := c0; col <= c1; col++ {
				if !full && cellOutside(lat, lon, r, cosMin, s, row, col) {
					continue
				}
				cells = append(cells, row*10000+((col%n)+n)%n)
			}
		}
		if len(cells) > maxCells {
			continue
		}
		return level, slices.Clip(cells), true
	}
	return 0, nil, false
}

// Lower bounds of WGS 84 lengths per degree: of a meridian (its radius of
// curvature is smallest at the equator, a(1-e²)), and of a parallel at
// latitude φ (at least a·cos φ, the prime vertical radius being at least a).
const (
	meridianDegreeMin = 110574.27 // meters
	parallelDegreeMax = 111319.49 // meters at the equator, times cos φ
)

// cellOutside reports that no point of cell (row, col) at a level of s
// degrees lies within r meters of (lat, lon), so the cell need not be read.
// A point within r is reached by a geodesic of length at most r, which stays
// in the latitudes of the covering box, where cos φ >= cosMin; along it a
// meter covers at most 1/meridianDegreeMin degrees of latitude and
// 1/(parallelDegreeMax·cosMin) degrees of longitude, so the geodesic is at
// least as long as the straight line in those constant scales from (lat,
// lon) to the cell's nearest corner or edge. The cell is widened by a
// nanodegree against rounding in cellOf, and the bound shrunk by 0.1%.
func cellOutside(lat, lon, r, cosMin, s float64, row, col int64) bool {
	const slack = 1e-9
	south, north := float64(row)*s-90-slack, float64(row+1)*s-90+slack
	west, east := float64(col)*s-180-slack, float64(col+1)*s-180+slack
	dlat := math.Max(0, math.Max(south-lat, lat-north))
	dlon := math.Max(0, math.Max(west-lon, lon-east))
	bound := math.Hypot(dlat*meridianDegreeMin, dlon*parallelDegreeMax*cosMin)
	return bound*0.999 > r
}

func formatDegrees(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) + "::float8" }

func formatInt(v int64) string { return strconv.FormatInt(v, 10) }

// CellExpressions returns the SQL expressions of the cell0 and cell1 columns
// for a row whose latitude and longitude are the SQL expressions lat and
// lon, comma-separated, so a bulk loader written in SQL (the benchmark's
// replication) stores the same cells Load does.
func CellExpressions(lat, lon string) string {
	out := ""
	for level := range cellLevels {
		if level > 0 {
			out += ", "
		}
		out += cellSQL(lat, lon, level)
	}
	return out
}
