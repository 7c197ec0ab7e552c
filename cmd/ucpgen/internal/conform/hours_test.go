package conform

import (
	"testing"
	"time"
)

// TestScheduleOpenAtFollowsSectionSix pins the checker's own hours
// evaluation to the rules of LOCATION.md section 6, one rule a row.
func TestScheduleOpenAtFollowsSectionSix(t *testing.T) {
	ny := "America/New_York"
	weekdays9to17 := []weekly{{"monday", "09:00", "17:00"}, {"tuesday", "09:00", "17:00"}}
	late := []weekly{{"friday", "20:00", "02:00"}}
	cases := []struct {
		name string
		s    schedule
		at   string
		want bool
	}{
		{"open at opens", schedule{ny, true, weekdays9to17, nil}, "2026-12-07T09:00:00-05:00", true},
		{"open a second before closes", schedule{ny, true, weekdays9to17, nil}, "2026-12-07T16:59:59-05:00", true},
		{"closed at closes", schedule{ny, true, weekdays9to17, nil}, "2026-12-07T17:00:00-05:00", false},
		{"the instant's offset says nothing of the zone", schedule{ny, true, weekdays9to17, nil}, "2026-12-07T14:30:00Z", true},
		{"read in the Location's zone, not UTC", schedule{ny, true, weekdays9to17, nil}, "2026-12-07T10:00:00Z", false},
		{"an omitted weekday has no interval", schedule{ny, true, weekdays9to17, nil}, "2026-12-09T10:00:00-05:00", false},
		{"overnight runs into the next date", schedule{ny, true, late, nil}, "2026-12-12T01:30:00-05:00", true},
		{"overnight ends at its closes", schedule{ny, true, late, nil}, "2026-12-12T02:00:00-05:00", false},
		{"an exception stops a carried interval at midnight", schedule{ny, true, late, []exception{{"2026-12-12", "2026-12-12", "10:00", "12:00"}}}, "2026-12-12T01:30:00-05:00", false},
		{"a full closure replaces the day", schedule{ny, true, weekdays9to17, []exception{{"2026-12-07", "2026-12-07", "", ""}}}, "2026-12-07T10:00:00-05:00", false},
		{"identical timed ranges are split shifts", schedule{ny, true, nil, []exception{{"2026-12-24", "2026-12-24", "08:00", "12:00"}, {"2026-12-24", "2026-12-24", "13:00", "18:00"}}}, "2026-12-24T14:00:00-05:00", true},
		{"intersecting ranges are invalid", schedule{ny, true, weekdays9to17, []exception{{"2026-12-07", "2026-12-08", "", ""}, {"2026-12-08", "2026-12-09", "10:00", "11:00"}}}, "2026-12-07T10:00:00-05:00", false},
		{"whole day on a spring-forward date", schedule{ny, true, []weekly{{"sunday", "00:00", "23:59"}}, nil}, "2027-03-14T23:59:30-04:00", true},
		{"opens equal to closes is invalid", schedule{ny, true, []weekly{{"monday", "00:00", "00:00"}, {"monday", "09:00", "17:00"}}, nil}, "2026-12-07T10:00:00-05:00", false},
		{"no timezone never matches", schedule{"", true, weekdays9to17, nil}, "2026-12-07T10:00:00-05:00", false},
		{"an unknown zone never matches", schedule{"Mars/Olympus_Mons", true, weekdays9to17, nil}, "2026-12-07T10:00:00-05:00", false},
		{"absent hours are unknown, not open", schedule{ny, false, nil, nil}, "2026-12-07T10:00:00-05:00", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			at, err := time.Parse(time.RFC3339, tc.at)
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.s.openAt(at); got != tc.want {
				t.Fatalf("openAt(%s) = %v, want %v", tc.at, got, tc.want)
			}
		})
	}
}
