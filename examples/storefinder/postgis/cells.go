package postgis

import (
	"math"
	"strconv"
)

// Grid cells let a local distance search read O(page) rows in id order.
// Every Location with a geo carries its cell at each level (a lat/lon square
// of cellLevels[k] degrees) in column cell<k>, with a btree index on
// (cell<k>, id). A circle is covered by the cells of its bounding box at the
// finest level that needs at most maxCells of them; each cell is read in id
// order from its index until it yields limit candidates, and the union is
// cut to limit. A page therefore reads about cells × limit rows, however
// many Locations the circle holds, plus the rows of covering cells that lie
// outside the circle. That waste grows with the cell size, so circles too
// large for the 1° level (a radius of a few hundred kilometres) are read
// another way (see Candidates).
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
// to spare); a box reaching a pole spans every longitude.
//
// ok is false when even the coarsest level needs more than maxCells.
func coverCells(lat, lon, r float64) (level int, cells []int64, ok bool) {
	dlat := r/110000 + 1e-9
	south, north := lat-dlat, lat+dlat
	full := south <= -90 || north >= 90
	var dlon float64
	if !full {
		c := math.Cos(math.Max(math.Abs(south), math.Abs(north)) * math.Pi / 180)
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
		count := (r1 - r0 + 1) * (c1 - c0 + 1)
		if count > maxCells {
			continue
		}
		cells = make([]int64, 0, count)
		for row := r0; row <= r1; row++ {
			for col := c0; col <= c1; col++ {
				cells = append(cells, row*10000+((col%n)+n)%n)
			}
		}
		return level, cells, true
	}
	return 0, nil, false
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
