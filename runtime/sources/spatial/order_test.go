package spatial

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestNewOrdered: an index rebuilt from its Order answers like the one
// New built, and an order New would not produce is an error.
func TestNewOrdered(t *testing.T) {
	points := []Point{{40.7, -74}, {40.8, -73.9}, {-33.9, 151.2}, {40.7, -74}, {51.5, -0.1}, {0, 180}, {0, -180}}
	built, err := New(points)
	if err != nil {
		t.Fatal(err)
	}
	order := built.Order()
	again, err := NewOrdered(points, slices.Clone(order))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(built, again) {
		t.Fatal("the rebuilt index differs")
	}
	swapped := slices.Clone(order)
	i := slices.Index(swapped, 0)
	j := slices.Index(swapped, 3) // same place as point 0, so only the id orders them
	swapped[i], swapped[j] = swapped[j], swapped[i]
	for _, tc := range []struct {
		name  string
		order []int32
		want  string
	}{
		{"short", order[1:], "order of 6 ids for 7 points"},
		{"repeated", append([]int32{order[1]}, order[1:]...), "out of range or repeated"},
		{"out of range", append([]int32{9}, order[1:]...), "out of range or repeated"},
		{"rows backwards", slices.Concat(order[len(order)-1:], order[:len(order)-1]), "goes back to row"},
		{"ties by id", swapped, "is not after id"},
	} {
		if _, err := NewOrdered(points, tc.order); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestNewOrdersEveryRowByLongitudeThenID: on thousands of points on a
// coarse grid (so many share a longitude in a row), New's rows are in the
// order NewOrdered holds an index to, ties by id included.
func TestNewOrdersEveryRowByLongitudeThenID(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	points := make([]Point, 5000)
	for i := range points {
		points[i] = Point{Lat: float64(r.IntN(40)) / 4, Lon: float64(r.IntN(50)) - 25}
	}
	built, err := New(points)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewOrdered(points, built.Order()); err != nil {
		t.Fatalf("New's order is not one NewOrdered accepts: %v", err)
	}
}
