package schemacheck

import (
	"fmt"
	"testing"
	"time"
)

// TestDateMatchesTimeParse holds the hand-written full-date check to Go's
// calendar (month lengths, leap years) on every day number of 2,500 years.
func TestDateMatchesTimeParse(t *testing.T) {
	for y := 0; y < 2500; y += 1 {
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
