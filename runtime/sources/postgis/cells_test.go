package postgis

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/domain/geodesic"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis/pgtest"
)

// TestCoverCellsHoldEveryPointOfTheCircle: every point within the radius
// (by the Karney distance the engine uses) lies in one of the covering
// cells, near the poles and across the antimeridian included.
func TestCoverCellsHoldEveryPointOfTheCircle(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	covered := 0
	defer func() {
		if covered < 1000 {
			t.Errorf("only %d of 3000 circles were covered by cells", covered)
		}
	}()
	for i := range 3000 {
		c := geodesic.Point{Lat: rng.Float64()*180 - 90, Lon: rng.Float64()*360 - 180}
		switch i % 5 {
		case 0:
			c.Lat = math.Copysign(80+rng.Float64()*10, c.Lat)
		case 1:
			c.Lon = math.Copysign(179+rng.Float64(), c.Lon)
		}
		r := math.Pow(10, 1+rng.Float64()*5)
		level, cells, ok := coverCells(c.Lat, c.Lon, r)
		if !ok {
			if r < 100000 && math.Abs(c.Lat) < 80 {
				t.Fatalf("no covering cells for %v r=%v: circles this small must use cells", c, r)
			}
			continue
		}
		covered++
		if len(cells) == 0 || len(cells) > maxCells {
			t.Fatalf("%d cells at level %d", len(cells), level)
		}
		for range 40 {
			// A point at a random bearing, at a random fraction of up to
			// 1.2 radii, placed by a small-step walk on the sphere and then
			// measured exactly.
			ang := r / 6371000 * 1.2 * math.Sqrt(rng.Float64())
			brg := rng.Float64() * 2 * math.Pi
			lat1, lon1 := c.Lat*math.Pi/180, c.Lon*math.Pi/180
			lat2 := math.Asin(math.Sin(lat1)*math.Cos(ang) + math.Cos(lat1)*math.Sin(ang)*math.Cos(brg))
			lon2 := lon1 + math.Atan2(math.Sin(brg)*math.Sin(ang)*math.Cos(lat1), math.Cos(ang)-math.Sin(lat1)*math.Sin(lat2))
			p := geodesic.Point{Lat: lat2 * 180 / math.Pi, Lon: math.Remainder(lon2*180/math.Pi, 360)}
			if d := geodesic.Distance(c, p); d <= r && !slices.Contains(cells, cellOf(p.Lat, p.Lon, level)) {
				t.Fatalf("point %v at %.1f m of %v (r=%.1f) is in cell %d, not among the %d covering cells at level %d",
					p, d, c, r, cellOf(p.Lat, p.Lon, level), len(cells), level)
			}
		}
	}
}

// TestCellSQLAgreesWithGo: the cells PostgreSQL stores are the cells Go
// computes, at cell boundaries, the poles and the antimeridian included.
func TestCellSQLAgreesWithGo(t *testing.T) {
	pool := pgtest.Pool(t, pgtest.DSN(t), pgtest.Schema(t))
	rng := rand.New(rand.NewPCG(7, 8))
	var lats, lons []float64
	for _, v := range []float64{-90, 90, 0, -0.1, 0.1, 89.95, -89.95, 45.3, 10, 30, 60} {
		lats = append(lats, v)
		lons = append(lons, -180)
		lats = append(lats, v)
		lons = append(lons, 180)
		lats = append(lats, v)
		lons = append(lons, v*2-0.3)
	}
	for range 500 {
		lats = append(lats, math.Round((rng.Float64()*180-90)*1e6)/1e6)
		lons = append(lons, math.Round((rng.Float64()*360-180)*1e6)/1e6)
	}
	for level := range cellLevels {
		rows, err := pool.Query(context.Background(), `SELECT `+cellSQL("t.lat", "t.lon", level)+` FROM unnest($1::float8[], $2::float8[]) AS t(lat, lon)`, lats, lons)
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		for rows.Next() {
			var got int64
			if err := rows.Scan(&got); err != nil {
				t.Fatal(err)
			}
			if want := cellOf(lats[i], lons[i], level); got != want {
				t.Errorf("level %d (%v, %v): SQL cell %d, Go cell %d", level, lats[i], lons[i], got, want)
			}
			i++
		}
		rows.Close()
		if err := rows.Err(); err != nil || i != len(lats) {
			t.Fatalf("level %d: %d rows, %v", level, i, err)
		}
	}
}

// TestCoverCellsLeaveOutOnlyUnreachableCells: a cell near the circle that
// coverCells leaves out has no point within the radius: its edges (where
// the nearest point of a cell to an outside centre lies), sampled densely,
// are all farther than r by the engine's distance. Some cells must be left
// out, or the test would prove nothing. In -short mode (the race pass; the
// cover is single-threaded) it samples 100 circles instead of 400.
func TestCoverCellsLeaveOutOnlyUnreachableCells(t *testing.T) {
	t.Parallel() // no database: it computes beside the tests that wait on one
	rng := rand.New(rand.NewPCG(9, 10))
	pruned := 0
	circles := 400
	if testing.Short() {
		circles = 100
	}
	for i := range circles {
		c := geodesic.Point{Lat: rng.Float64()*170 - 85, Lon: rng.Float64()*360 - 180}
		if i%4 == 0 {
			c.Lon = math.Copysign(179.5+rng.Float64()/2, c.Lon)
		}
		r := math.Pow(10, 2.5+rng.Float64()*3)
		level, cells, ok := coverCells(c.Lat, c.Lon, r)
		if !ok {
			continue
		}
		s := cellLevels[level]
		row0, col0 := int64(math.Floor((c.Lat+90)/s)), int64(math.Floor((c.Lon+180)/s))
		dr := int64(r/110000/s) + 2
		dc := int64(r/110000/s/math.Cos(math.Min(89, math.Abs(c.Lat)+r/110000)*math.Pi/180)) + 2
		n := lonCells(level)
		for row := row0 - dr; row <= row0+dr; row++ {
			if row < 0 || float64(row)*s >= 180 {
				continue
			}
			for col := col0 - dc; col <= col0+dc; col++ {
				cell := row*10000 + ((col%n)+n)%n
				if slices.Contains(cells, cell) {
					continue
				}
				near := math.Inf(1)
				const k = 64
				for j := 0; j <= k; j++ {
					f := float64(j) / k
					south, west := float64(row)*s-90, float64(col)*s-180
					for _, p := range []geodesic.Point{
						{Lat: south, Lon: west + f*s}, {Lat: math.Min(90, south+s), Lon: west + f*s},
						{Lat: south + f*s, Lon: west}, {Lat: math.Min(90, south+f*s), Lon: west + s},
					} {
						p.Lon = math.Remainder(p.Lon, 360)
						near = math.Min(near, geodesic.Distance(c, p))
					}
				}
				if near <= r {
					t.Fatalf("circle %v r=%.1f: cell %d (level %d) was left out, but its edge is %.1f m away", c, r, cell, level, near)
				}
				if near < 1.5*r {
					pruned++
				}
			}
		}
	}
	if pruned < 100 {
		t.Errorf("only %d cells near circles were left out; the test needs cases", pruned)
	}
}
