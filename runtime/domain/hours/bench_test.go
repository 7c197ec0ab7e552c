package hours

import (
	"testing"
	"time"
)

// benchSchedule is a typical store: split shifts on weekdays, a late Friday,
// and a few holiday exceptions.
var benchSchedule = weekly(ny,
	iv("monday", "09:00", "12:00"), iv("monday", "13:00", "18:00"),
	iv("tuesday", "09:00", "18:00"), iv("wednesday", "09:00", "18:00"),
	iv("thursday", "09:00", "18:00"), iv("friday", "09:00", "02:00"),
	iv("saturday", "10:00", "16:00"),
).with(
	closure("2026-12-25", "2026-12-25"),
	timed("2026-12-24", "2026-12-24", "09:00", "13:00"),
	timed("2026-12-31", "2026-12-31", "09:00", "12:00"), timed("2026-12-31", "2026-12-31", "20:00", "01:00"),
	closure("2027-01-01", "2027-01-01"),
)

var benchSink bool

// BenchmarkOpenAt compares evaluating the raw Schedule (parse and validate on
// every call, as a one-off filter check does) with a Compiled schedule
// evaluated repeatedly (the baseline).
func BenchmarkOpenAt(b *testing.B) {
	at := time.Date(2026, 12, 31, 23, 30, 0, 0, time.UTC)
	b.Run("baseline=compiled", func(b *testing.B) {
		c, err := benchSchedule.Compile()
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			benchSink = c.OpenAt(at)
		}
	})
	b.Run("schedule", func(b *testing.B) {
		for b.Loop() {
			benchSink = benchSchedule.OpenAt(at)
		}
	})
}
