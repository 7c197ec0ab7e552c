package schemacheck

import (
	"fmt"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// TestDateMatchesTimeParse holds the hand-written full-date check to Go's
// calendar (month lengths, leap years) on every day number of 2,500 years.
func TestDateMatchesTimeParse(t *testing.T) {
	for y := 0; y < 2500; y += 1 {
		// Under the race detector (a pure function, one goroutine) the
		// years around the leap rules' cases: 0, 1900, 2000, 2100, 2400.
		if testshared.Race && y%100 > 4 && y%100 < 96 {
			continue
		}
		for m := 0; m <= 13; m++ {
			for d := 0; d <= 32; d++ {
				s := fmt.Sprintf("%04d-%02d-%02d", y, m, d)
				_, err := time.Parse("2006-01-02", s)
				if (err == nil) != (checkDate(s) == nil) {
					t.Fatalf("%s: time %v ours %v", s, err, checkDate(s))
				}
			}
		}
	}
}
