package hours

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// Calendar used below (America/New_York, summer 2026, UTC-4):
// Wed 2026-07-15, Thu 07-16, Fri 07-17, Sat 07-18, Sun 07-19.

func iv(day, opens, closes string) Interval { return Interval{Day: day, Opens: opens, Closes: closes} }

func timed(from, through, opens, closes string) Exception {
	return Exception{ValidFrom: from, ValidThrough: through, Opens: &opens, Closes: &closes}
}

func closure(from, through string) Exception {
	return Exception{ValidFrom: from, ValidThrough: through}
}

func weekly(tz string, ivs ...Interval) Schedule {
	return Schedule{Timezone: tz, HasHours: true, Hours: ivs}
}

func (s Schedule) with(ex ...Exception) Schedule {
	s.HasExceptions = true
	s.Exceptions = append(slices.Clone(s.Exceptions), ex...)
	return s
}

const ny = "America/New_York"

var (
	nineToFiveWed = weekly(ny, iv("wednesday", "10:00", "17:00"))
	fridayNight   = weekly(ny, iv("wednesday", "10:00", "17:00"), iv("friday", "22:00", "02:00"))
)

type statusCase struct {
	name  string
	sched Schedule
	at    string // RFC 3339
	want  Status
}

var statusCases = []statusCase{
	// Interval bounds: open at opens, closed at closes.
	{"open exactly at opens", nineToFiveWed, "2026-07-15T10:00:00-04:00", Open},
	{"closed just before opens", nineToFiveWed, "2026-07-15T09:59:59.999999999-04:00", Closed},
	{"open at 16:59:59", nineToFiveWed, "2026-07-15T16:59:59-04:00", Open},
	{"open at 16:59:59.999999999", nineToFiveWed, "2026-07-15T16:59:59.999999999-04:00", Open},
	{"closed exactly at closes 17:00", nineToFiveWed, "2026-07-15T17:00:00-04:00", Closed},
	{"instant offset is irrelevant (Z)", nineToFiveWed, "2026-07-15T14:30:00Z", Open},
	{"instant offset is irrelevant (+09:00, next UTC date)", nineToFiveWed, "2026-07-15T23:30:00+09:00", Open},
	{"instant offset is irrelevant (closed via -10:00)", nineToFiveWed, "2026-07-15T11:00:00-10:00", Closed},
	{"omitted weekday is closed", nineToFiveWed, "2026-07-16T12:00:00-04:00", Closed},

	// Split shifts.
	{"split shift morning", weekly(ny, iv("wednesday", "13:00", "17:00"), iv("wednesday", "09:00", "12:00")), "2026-07-15T11:59:00-04:00", Open},
	{"split shift gap", weekly(ny, iv("wednesday", "13:00", "17:00"), iv("wednesday", "09:00", "12:00")), "2026-07-15T12:30:00-04:00", Closed},
	{"split shift afternoon opens", weekly(ny, iv("wednesday", "13:00", "17:00"), iv("wednesday", "09:00", "12:00")), "2026-07-15T13:00:00-04:00", Open},

	// Overnight intervals.
	{"overnight before midnight", fridayNight, "2026-07-17T23:00:00-04:00", Open},
	{"overnight carries into omitted saturday", fridayNight, "2026-07-18T01:59:59-04:00", Open},
	{"overnight closes at 02:00 next date", fridayNight, "2026-07-18T02:00:00-04:00", Closed},
	{"overnight not yet open", fridayNight, "2026-07-17T21:59:00-04:00", Closed},
	{"overnight does not carry into the same date", fridayNight, "2026-07-17T01:00:00-04:00", Closed},
	{"closes 00:00 open until midnight", weekly(ny, iv("friday", "18:00", "00:00")), "2026-07-17T23:59:59-04:00", Open},
	{"closes 00:00 closed at midnight", weekly(ny, iv("friday", "18:00", "00:00")), "2026-07-18T00:00:00-04:00", Closed},
	{"sunday overnight carries into monday", weekly(ny, iv("sunday", "20:00", "03:00")), "2026-07-20T02:00:00-04:00", Open},

	// Whole day.
	{"00:00-23:59 covers 23:59:30", weekly(ny, iv("sunday", "00:00", "23:59")), "2026-07-19T23:59:30-04:00", Open},
	{"00:00-23:59 covers 00:00", weekly(ny, iv("sunday", "00:00", "23:59")), "2026-07-19T00:00:00-04:00", Open},
	{"00:00-23:59 ends with the date", weekly(ny, iv("sunday", "00:00", "23:59")), "2026-07-20T00:00:00-04:00", Closed},
	{"10:00-23:59 is an ordinary interval closed at 23:59", weekly(ny, iv("sunday", "10:00", "23:59")), "2026-07-19T23:59:30-04:00", Closed},
	{"whole day on 23-hour spring day, first instant", weekly(ny, iv("sunday", "00:00", "23:59")), "2026-03-08T05:00:00Z", Open},
	{"whole day on 23-hour spring day, last second", weekly(ny, iv("sunday", "00:00", "23:59")), "2026-03-09T03:59:59Z", Open},
	{"whole day on 23-hour spring day, next date", weekly(ny, iv("sunday", "00:00", "23:59")), "2026-03-09T04:00:00Z", Closed},
	{"whole day on 25-hour fall day, first instant", weekly(ny, iv("sunday", "00:00", "23:59")), "2026-11-01T04:00:00Z", Open},
	{"whole day on 25-hour fall day, last second", weekly(ny, iv("sunday", "00:00", "23:59")), "2026-11-02T04:59:59Z", Open},
	{"whole day on 25-hour fall day, next date", weekly(ny, iv("sunday", "00:00", "23:59")), "2026-11-02T05:00:00Z", Closed},

	// Invalid data poisons the whole schedule.
	{"opens equals closes", weekly(ny, iv("wednesday", "10:00", "10:00")), "2026-07-15T10:00:00-04:00", Invalid},
	{"00:00-00:00 is invalid", weekly(ny, iv("wednesday", "00:00", "00:00")), "2026-07-15T10:00:00-04:00", Invalid},
	{"one bad entry poisons a good one", weekly(ny, iv("wednesday", "10:00", "17:00"), iv("thursday", "9:00", "17:00")), "2026-07-15T12:00:00-04:00", Invalid},
	{"24:00 is not a time", weekly(ny, iv("wednesday", "10:00", "24:00")), "2026-07-15T12:00:00-04:00", Invalid},
	{"12:60 is not a time", weekly(ny, iv("wednesday", "10:00", "12:60")), "2026-07-15T11:00:00-04:00", Invalid},
	{"seconds are not allowed", weekly(ny, iv("wednesday", "10:00:00", "17:00")), "2026-07-15T12:00:00-04:00", Invalid},
	{"capitalised day", weekly(ny, iv("Wednesday", "10:00", "17:00")), "2026-07-15T12:00:00-04:00", Invalid},
	{"abbreviated day", weekly(ny, iv("wed", "10:00", "17:00")), "2026-07-15T12:00:00-04:00", Invalid},
	{"unknown zone", weekly("Mars/Olympus_Mons", iv("wednesday", "10:00", "17:00")), "2026-07-15T16:00:00Z", Invalid},
	{"Local is not an IANA zone", weekly("Local", iv("wednesday", "10:00", "17:00")), "2026-07-15T16:00:00Z", Invalid},
	{"missing timezone with hours", weekly("", iv("wednesday", "10:00", "17:00")), "2026-07-15T16:00:00Z", Invalid},
	{"missing timezone with hours: []", Schedule{HasHours: true}, "2026-07-15T16:00:00Z", Invalid},
	{"missing timezone with exceptions only", Schedule{}.with(timed("2026-07-15", "2026-07-15", "10:00", "17:00")), "2026-07-15T16:00:00Z", Invalid},
	{"hours slice without HasHours still counts (missing zone)", Schedule{Hours: []Interval{iv("wednesday", "10:00", "17:00")}}, "2026-07-15T16:00:00Z", Invalid},

	// Unknown versus closed.
	{"no data at all is unknown", Schedule{}, "2026-07-15T16:00:00Z", Unknown},
	{"timezone alone is unknown", Schedule{Timezone: ny}, "2026-07-15T16:00:00Z", Unknown},
	{"hours: [] is known closed", weekly(ny), "2026-07-15T16:00:00Z", Closed},
	{"hours slice without HasHours still counts", Schedule{Timezone: ny, Hours: []Interval{iv("wednesday", "10:00", "17:00")}}, "2026-07-15T12:00:00-04:00", Open},
	{"absent hours, exception date open", Schedule{Timezone: ny}.with(timed("2026-07-15", "2026-07-15", "09:00", "17:00")), "2026-07-15T12:00:00-04:00", Open},
	{"absent hours, exception date closed outside interval", Schedule{Timezone: ny}.with(timed("2026-07-15", "2026-07-15", "09:00", "17:00")), "2026-07-15T18:00:00-04:00", Closed},
	{"absent hours, uncovered date unknown", Schedule{Timezone: ny}.with(timed("2026-07-15", "2026-07-15", "09:00", "17:00")), "2026-07-16T12:00:00-04:00", Unknown},
	{"absent hours, exception overnight carries into uncovered date", Schedule{Timezone: ny}.with(timed("2026-07-15", "2026-07-15", "20:00", "03:00")), "2026-07-16T02:00:00-04:00", Open},
	{"absent hours, after the carry the date is unknown", Schedule{Timezone: ny}.with(timed("2026-07-15", "2026-07-15", "20:00", "03:00")), "2026-07-16T03:00:00-04:00", Unknown},

	// America/New_York spring-forward gap 2026-03-08 (02:00 -> 03:00).
	{"NY gap: 02:00-02:30 never occurs (01:59:59 EST)", weekly(ny, iv("sunday", "02:00", "02:30")), "2026-03-08T06:59:59Z", Closed},
	{"NY gap: 02:00-02:30 never occurs (03:00 EDT)", weekly(ny, iv("sunday", "02:00", "02:30")), "2026-03-08T07:00:00Z", Closed},
	{"NY gap: interval spanning the gap open before it", weekly(ny, iv("sunday", "01:30", "03:30")), "2026-03-08T06:59:59Z", Open},
	{"NY gap: interval spanning the gap open after it", weekly(ny, iv("sunday", "01:30", "03:30")), "2026-03-08T07:29:59Z", Open},
	{"NY gap: interval spanning the gap closes at 03:30 EDT", weekly(ny, iv("sunday", "01:30", "03:30")), "2026-03-08T07:30:00Z", Closed},
	{"NY gap: opening inside the gap is open from 03:00", weekly(ny, iv("sunday", "02:30", "04:00")), "2026-03-08T07:00:00Z", Open},

	// America/New_York fall-back fold 2026-11-01 (01:00-02:00 twice).
	{"NY fold: 01:30 EDT", weekly(ny, iv("sunday", "01:00", "01:45")), "2026-11-01T05:30:00Z", Open},
	{"NY fold: 01:30 EST same answer", weekly(ny, iv("sunday", "01:00", "01:45")), "2026-11-01T06:30:00Z", Open},
	{"NY fold: 01:45 EDT closed", weekly(ny, iv("sunday", "01:00", "01:45")), "2026-11-01T05:45:00Z", Closed},
	{"NY fold: 01:00 EST opens again", weekly(ny, iv("sunday", "01:00", "01:45")), "2026-11-01T06:00:00Z", Open},
	{"NY fold: 01:45 EST closed", weekly(ny, iv("sunday", "01:00", "01:45")), "2026-11-01T06:45:00Z", Closed},
	{"NY fold: closed interval both instants", weekly(ny, iv("sunday", "01:45", "03:00")), "2026-11-01T05:30:00Z", Closed},
	{"NY fold: closed interval both instants (EST)", weekly(ny, iv("sunday", "01:45", "03:00")), "2026-11-01T06:30:00Z", Closed},

	// Europe/Berlin: gap 2026-03-29 02:00 -> 03:00, fold 2026-10-25 02:00-03:00.
	{"Berlin gap: 02:00-03:00 never occurs (before)", weekly("Europe/Berlin", iv("sunday", "02:00", "03:00")), "2026-03-29T00:59:59Z", Closed},
	{"Berlin gap: 02:00-03:00 never occurs (after)", weekly("Europe/Berlin", iv("sunday", "02:00", "03:00")), "2026-03-29T01:00:00Z", Closed},
	{"Berlin fold: 02:30 CEST", weekly("Europe/Berlin", iv("sunday", "02:00", "02:45")), "2026-10-25T00:30:00Z", Open},
	{"Berlin fold: 02:30 CET same answer", weekly("Europe/Berlin", iv("sunday", "02:00", "02:45")), "2026-10-25T01:30:00Z", Open},

	// Australia/Lord_Howe: 30-minute shifts. Gap 2026-10-04 02:00 -> 02:30; fold 2026-04-05 01:30-02:00.
	{"Lord Howe gap: 02:00-02:30 never occurs (before)", weekly("Australia/Lord_Howe", iv("sunday", "02:00", "02:30")), "2026-10-03T15:29:59Z", Closed},
	{"Lord Howe gap: 02:00-02:30 never occurs (after)", weekly("Australia/Lord_Howe", iv("sunday", "02:00", "02:30")), "2026-10-03T15:30:00Z", Closed},
	{"Lord Howe gap: 02:15-03:00 open from 02:30", weekly("Australia/Lord_Howe", iv("sunday", "02:15", "03:00")), "2026-10-03T15:30:00Z", Open},
	{"Lord Howe fold: 01:45 +11", weekly("Australia/Lord_Howe", iv("sunday", "01:45", "02:00")), "2026-04-04T14:45:00Z", Open},
	{"Lord Howe fold: 01:45 +10:30 same answer", weekly("Australia/Lord_Howe", iv("sunday", "01:45", "02:00")), "2026-04-04T15:15:00Z", Open},
	{"Lord Howe fold: 01:30 +10:30 closed", weekly("Australia/Lord_Howe", iv("sunday", "01:45", "02:00")), "2026-04-04T15:00:00Z", Closed},

	// Pacific/Apia skipped Friday 2011-12-30: Thu 23:59:59 -10:00 is followed by Sat 00:00 +14:00.
	{"Apia: friday whole day, last thursday second", weekly("Pacific/Apia", iv("friday", "00:00", "23:59")), "2011-12-30T09:59:59Z", Closed},
	{"Apia: friday whole day, first saturday second", weekly("Pacific/Apia", iv("friday", "00:00", "23:59")), "2011-12-30T10:00:00Z", Closed},
	{"Apia: thursday overnight open thursday night", weekly("Pacific/Apia", iv("thursday", "22:00", "02:00")), "2011-12-30T09:00:00Z", Open},
	{"Apia: thursday overnight ends with thursday", weekly("Pacific/Apia", iv("thursday", "22:00", "02:00")), "2011-12-30T10:00:00Z", Closed},
	{"Apia: thursday overnight does not reach saturday 01:00", weekly("Pacific/Apia", iv("thursday", "22:00", "02:00")), "2011-12-30T11:00:00Z", Closed},
	{"Apia: friday overnight's saturday part exists", weekly("Pacific/Apia", iv("friday", "22:00", "02:00")), "2011-12-30T10:30:00Z", Open},

	// Exceptions replace the regular schedule.
	{"full closure replaces weekday", nineToFiveWed.with(closure("2026-07-15", "2026-07-15")), "2026-07-15T12:00:00-04:00", Closed},
	{"timed exception replaces weekday (closed in old hours)", nineToFiveWed.with(timed("2026-07-15", "2026-07-15", "12:00", "14:00")), "2026-07-15T11:00:00-04:00", Closed},
	{"timed exception replaces weekday (open in new hours)", nineToFiveWed.with(timed("2026-07-15", "2026-07-15", "12:00", "14:00")), "2026-07-15T13:00:00-04:00", Open},
	{"timed exception opens an omitted weekday", nineToFiveWed.with(timed("2026-07-16", "2026-07-16", "08:00", "09:00")), "2026-07-16T08:30:00-04:00", Open},
	{"exception ends after valid_through", nineToFiveWed.with(closure("2026-07-14", "2026-07-15")), "2026-07-22T12:00:00-04:00", Open},
	{"identical timed ranges are split shifts (first)", nineToFiveWed.with(timed("2026-07-15", "2026-07-15", "15:00", "16:00"), timed("2026-07-15", "2026-07-15", "09:00", "11:00")), "2026-07-15T10:00:00-04:00", Open},
	{"identical timed ranges are split shifts (second)", nineToFiveWed.with(timed("2026-07-15", "2026-07-15", "15:00", "16:00"), timed("2026-07-15", "2026-07-15", "09:00", "11:00")), "2026-07-15T15:30:00-04:00", Open},
	{"identical timed ranges are split shifts (gap)", nineToFiveWed.with(timed("2026-07-15", "2026-07-15", "15:00", "16:00"), timed("2026-07-15", "2026-07-15", "09:00", "11:00")), "2026-07-15T12:00:00-04:00", Closed},
	{"exception 00:00-23:59 on DST day", weekly(ny).with(timed("2026-03-08", "2026-03-08", "00:00", "23:59")), "2026-03-09T03:59:59Z", Open},

	// Overnight intervals meeting exception dates.
	{"regular overnight stops at midnight before a timed exception", fridayNight.with(timed("2026-07-18", "2026-07-18", "10:00", "12:00")), "2026-07-18T01:00:00-04:00", Closed},
	{"regular overnight still open before midnight", fridayNight.with(timed("2026-07-18", "2026-07-18", "10:00", "12:00")), "2026-07-17T23:30:00-04:00", Open},
	{"regular overnight stops at midnight before a closure", fridayNight.with(closure("2026-07-18", "2026-07-18")), "2026-07-18T01:00:00-04:00", Closed},
	{"exception overnight carries into a regular date", nineToFiveWed.with(timed("2026-07-15", "2026-07-15", "20:00", "03:00")), "2026-07-16T02:30:00-04:00", Open},
	{"exception overnight closes on time in a regular date", nineToFiveWed.with(timed("2026-07-15", "2026-07-15", "20:00", "03:00")), "2026-07-16T03:00:00-04:00", Closed},
	{"exception overnight stops at another exception", nineToFiveWed.with(timed("2026-07-15", "2026-07-15", "20:00", "03:00"), timed("2026-07-16", "2026-07-16", "09:00", "10:00")), "2026-07-16T02:30:00-04:00", Closed},
	{"exception overnight stops at another closure", nineToFiveWed.with(timed("2026-07-15", "2026-07-15", "20:00", "03:00"), closure("2026-07-16", "2026-07-16")), "2026-07-16T02:30:00-04:00", Closed},
	{"multi-day exception carries between its own dates", weekly(ny, iv("tuesday", "22:00", "02:00")).with(timed("2026-07-15", "2026-07-16", "22:00", "02:00")), "2026-07-16T01:00:00-04:00", Open},
	{"multi-day exception carries out of its last date", weekly(ny, iv("tuesday", "22:00", "02:00")).with(timed("2026-07-15", "2026-07-16", "22:00", "02:00")), "2026-07-17T01:00:00-04:00", Open},
	{"regular overnight into first exception date stops", weekly(ny, iv("tuesday", "22:00", "02:00")).with(timed("2026-07-15", "2026-07-16", "22:00", "02:00")), "2026-07-15T01:00:00-04:00", Closed},

	// Full closure among other entries.
	{"closure among entries: closed day", nineToFiveWed.with(timed("2026-07-16", "2026-07-16", "08:00", "09:00"), closure("2026-07-15", "2026-07-15"), timed("2026-07-20", "2026-07-21", "10:00", "11:00")), "2026-07-15T12:00:00-04:00", Closed},
	{"closure among entries: other entry applies", nineToFiveWed.with(timed("2026-07-16", "2026-07-16", "08:00", "09:00"), closure("2026-07-15", "2026-07-15"), timed("2026-07-20", "2026-07-21", "10:00", "11:00")), "2026-07-21T10:30:00-04:00", Open},

	// Invalid exceptions.
	{"overlapping exception ranges", nineToFiveWed.with(closure("2026-07-14", "2026-07-15"), timed("2026-07-15", "2026-07-16", "10:00", "11:00")), "2026-07-22T12:00:00-04:00", Invalid},
	{"contained exception range", nineToFiveWed.with(closure("2026-07-10", "2026-07-20"), timed("2026-07-15", "2026-07-15", "10:00", "11:00")), "2026-07-22T12:00:00-04:00", Invalid},
	{"closure sharing its range with a timed entry", nineToFiveWed.with(closure("2026-07-15", "2026-07-15"), timed("2026-07-15", "2026-07-15", "10:00", "11:00")), "2026-07-15T10:30:00-04:00", Invalid},
	{"two identical closures", nineToFiveWed.with(closure("2026-07-15", "2026-07-15"), closure("2026-07-15", "2026-07-15")), "2026-07-15T10:30:00-04:00", Invalid},
	{"valid_from after valid_through", nineToFiveWed.with(closure("2026-07-16", "2026-07-15")), "2026-07-15T12:00:00-04:00", Invalid},
	{"impossible date", nineToFiveWed.with(closure("2026-02-30", "2026-02-30")), "2026-07-15T12:00:00-04:00", Invalid},
	{"unpadded date", nineToFiveWed.with(closure("2026-7-15", "2026-07-15")), "2026-07-15T12:00:00-04:00", Invalid},
	{"exception with opens only", nineToFiveWed.with(Exception{ValidFrom: "2026-07-15", ValidThrough: "2026-07-15", Opens: ptr("10:00")}), "2026-07-15T12:00:00-04:00", Invalid},
	{"exception opens equals closes", nineToFiveWed.with(timed("2026-07-15", "2026-07-15", "10:00", "10:00")), "2026-07-15T12:00:00-04:00", Invalid},
}

func ptr(s string) *string { return &s }

func mustInstant(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("test instant %q: %v", s, err)
	}
	return v
}

func TestStatusAt(t *testing.T) {
	for _, tc := range statusCases {
		t.Run(tc.name, func(t *testing.T) {
			at := mustInstant(t, tc.at)
			if got := tc.sched.StatusAt(at); got != tc.want {
				t.Errorf("StatusAt(%s) = %v, want %v", tc.at, got, tc.want)
			}
			if got := tc.sched.OpenAt(at); got != (tc.want == Open) {
				t.Errorf("OpenAt(%s) = %v, want %v", tc.at, got, tc.want == Open)
			}
			_, err := tc.sched.Compile()
			if (err != nil) != (tc.want == Invalid) {
				t.Errorf("Compile error = %v, want invalid=%v", err, tc.want == Invalid)
			}
		})
	}
}

// Array order means nothing: reversing both lists never changes the answer.
func TestStatusAtIgnoresOrder(t *testing.T) {
	for _, tc := range statusCases {
		s := tc.sched
		s.Hours = slices.Clone(s.Hours)
		slices.Reverse(s.Hours)
		s.Exceptions = slices.Clone(s.Exceptions)
		slices.Reverse(s.Exceptions)
		if got := s.StatusAt(mustInstant(t, tc.at)); got != tc.want {
			t.Errorf("%s: reversed lists give %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Every instant whose local time lies in a fall-back fold gets the answer of
// the other instant with the same wall clock.
func TestFoldInstantsAgree(t *testing.T) {
	sched := weekly(ny, iv("sunday", "01:10", "01:20"), iv("sunday", "01:40", "03:00"))
	loc, err := time.LoadLocation(ny)
	if err != nil {
		t.Fatal(err)
	}
	first := time.Date(2026, 11, 1, 5, 0, 0, 0, time.UTC) // 01:00 EDT
	for m := 0; m < 60; m++ {
		a := first.Add(time.Duration(m) * time.Minute)
		b := a.Add(time.Hour) // same wall clock, EST
		if a.In(loc).Format(time.TimeOnly) != b.In(loc).Format(time.TimeOnly) {
			t.Fatalf("test setup: %v and %v do not share a wall clock", a, b)
		}
		if sa, sb := sched.StatusAt(a), sched.StatusAt(b); sa != sb {
			t.Errorf("%s: %v vs %s: %v", a.Format(time.RFC3339), sa, b.Format(time.RFC3339), sb)
		}
	}
}

// Pacific/Apia had no 2011-12-30: no instant of the transition window is
// inside a Friday interval.
func TestApiaSkippedFridayNeverOpens(t *testing.T) {
	sched := weekly("Pacific/Apia", iv("friday", "00:00", "23:59"))
	start := time.Date(2011, 12, 29, 0, 0, 0, 0, time.UTC)
	for at := start; at.Before(start.Add(72 * time.Hour)); at = at.Add(time.Minute) {
		if sched.OpenAt(at) {
			t.Fatalf("open at %s (local %s)", at.Format(time.RFC3339), at.In(mustZone(t, "Pacific/Apia")).Format(time.RFC3339))
		}
	}
	// The week after, Friday exists again.
	if !sched.OpenAt(time.Date(2012, 1, 6, 0, 0, 0, 0, time.UTC)) {
		t.Error("Friday 2012-01-06 should be open")
	}
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := loadZone(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestCompileErrorsNameTheField(t *testing.T) {
	cases := []struct {
		name  string
		sched Schedule
		want  []string
	}{
		{"missing zone", weekly("", iv("monday", "10:00", "11:00")), []string{"timezone", "required"}},
		{"unknown zone", weekly("Nowhere/Land", iv("monday", "10:00", "11:00")), []string{"timezone", "Nowhere/Land"}},
		{"bad day", weekly(ny, iv("monday", "10:00", "11:00"), iv("Funday", "10:00", "11:00")), []string{"hours[1].day", "Funday"}},
		{"bad opens", weekly(ny, iv("monday", "1000", "11:00")), []string{"hours[0].opens", "1000", "HH:MM"}},
		{"closes out of range", weekly(ny, iv("monday", "10:00", "25:00")), []string{"hours[0].closes", "25:00", "range"}},
		{"equal times", weekly(ny, iv("monday", "10:00", "10:00")), []string{"hours[0].closes", "equals opens"}},
		{"bad from", weekly(ny).with(closure("2026-13-01", "2026-12-01")), []string{"exception_hours[0].valid_from", "month"}},
		{"bad through", weekly(ny).with(closure("2026-01-01", "2026-02-29")), []string{"exception_hours[0].valid_through", "29"}},
		{"reversed range", weekly(ny).with(closure("2026-01-02", "2026-01-01")), []string{"exception_hours[0].valid_through", "earlier than valid_from"}},
		{"closes only", weekly(ny).with(Exception{ValidFrom: "2026-01-01", ValidThrough: "2026-01-01", Closes: ptr("10:00")}), []string{"exception_hours[0].opens", "required"}},
		{"bad exception time", weekly(ny).with(timed("2026-01-01", "2026-01-01", "10:00", "x")), []string{"exception_hours[0].closes", `"x"`}},
		{"closure shares range", weekly(ny).with(timed("2026-01-01", "2026-01-01", "10:00", "11:00"), closure("2026-01-01", "2026-01-01")), []string{"exception_hours[1]", "exception_hours[0]", "full closure"}},
		{"intersection", weekly(ny).with(closure("2026-01-01", "2026-01-05"), closure("2026-01-05", "2026-01-06")), []string{"2026-01-01..2026-01-05", "2026-01-05..2026-01-06", "intersects"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.sched.Compile()
			if err == nil {
				t.Fatal("Compile succeeded, want an error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestLeapYearDates(t *testing.T) {
	for _, tc := range []struct {
		date string
		ok   bool
	}{
		{"2024-02-29", true}, {"2000-02-29", true}, {"1900-02-29", false}, {"2026-02-29", false},
		{"2026-04-31", false}, {"2026-12-31", true}, {"0000-01-01", true}, {"2026-00-10", false},
		{"2026-01-00", false}, {"2026/01/01", false}, {"2026-01-1a", false}, {"2026-01-011", false},
	} {
		_, err := parseDate(tc.date)
		if (err == nil) != tc.ok {
			t.Errorf("parseDate(%q) error = %v, want ok=%v", tc.date, err, tc.ok)
		}
	}
}

func TestNilCompiledIsInvalid(t *testing.T) {
	var c *Compiled
	if got := c.StatusAt(time.Now()); got != Invalid {
		t.Errorf("nil Compiled StatusAt = %v, want invalid", got)
	}
}

func FuzzOpenAt(f *testing.F) {
	f.Add(ny, "friday", "22:00", "02:00", "2026-07-18", "2026-07-18", "10:00", "12:00", false, int64(1784340000))
	f.Add("Pacific/Apia", "friday", "00:00", "23:59", "2011-12-30", "2011-12-31", "", "", true, int64(1325239200))
	f.Add("Australia/Lord_Howe", "sunday", "02:00", "02:30", "2026-10-04", "2026-10-04", "02:00", "01:00", false, int64(1791041400))
	f.Add("", "monday", "10:00", "10:00", "2026-02-30", "2026-01-01", "x", "y", false, int64(0))
	f.Add("Local", "Monday", "24:00", "9:00", "", "", "", "", true, int64(-1<<62))
	f.Fuzz(func(t *testing.T, tz, day, opens, closes, from, through, eopens, ecloses string, isClosure bool, unix int64) {
		ex := timed(from, through, eopens, ecloses)
		if isClosure {
			ex = closure(from, through)
		}
		s := weekly(tz, iv(day, opens, closes), iv("monday", "09:00", "17:00")).with(ex, closure("2030-01-01", "2030-01-31"))
		at := time.Unix(unix, 0)
		st := s.StatusAt(at)
		if s.OpenAt(at) != (st == Open) {
			t.Fatalf("OpenAt disagrees with StatusAt %v", st)
		}
		c, err := s.Compile()
		if (err != nil) != (st == Invalid) {
			t.Fatalf("Compile error %v but status %v", err, st)
		}
		if err == nil && c.StatusAt(at) != st {
			t.Fatalf("Compiled.StatusAt differs from Schedule.StatusAt")
		}
	})
}
