package hours

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestLocalDayMatchesTheTimePackage holds localDay to t.In(loc)'s Date,
// Clock, Nanosecond and Weekday around DST changes, in zones east and west
// of UTC and off the hour, before 1970 and far after it.
func TestLocalDayMatchesTheTimePackage(t *testing.T) {
	zones := []string{"UTC", "America/New_York", "Europe/London", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Chatham", "America/St_Johns", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Africa/Casablanca"}
	instants := []time.Time{
		time.Date(2026, 3, 8, 6, 59, 59, 999_999_999, time.UTC), time.Date(2026, 3, 8, 7, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 1, 5, 30, 0, 0, time.UTC), time.Date(2026, 12, 31, 23, 30, 0, 0, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 1, time.UTC), time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1583, 10, 15, 12, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		instants = append(instants, time.Unix(r.Int64N(1<<36)-(1<<35), r.Int64N(1e9)))
	}
	for _, name := range zones {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, at := range instants {
			local := at.In(loc)
			y, m, d := local.Date()
			hh, mm, ss := local.Clock()
			wantWall := int64(hh)*int64(time.Hour) + int64(mm)*int64(time.Minute) + int64(ss)*int64(time.Second) + int64(local.Nanosecond())
			day, wall, weekday := localDay(at, loc)
			if day != daysSinceEpoch(y, m, d) || wall != wantWall || weekday != local.Weekday() {
				t.Fatalf("%s at %s: day %d wall %d %s; the time package: %d %d %s", name, at.Format(time.RFC3339Nano), day, wall, weekday, daysSinceEpoch(y, m, d), wantWall, local.Weekday())
			}
		}
	}
}
