package hours

import (
	"fmt"
	"time"
)

// parseDate reads a strict RFC 3339 full-date "YYYY-MM-DD" and returns it as a
// day count since 1970-01-01, so that date ranges compare as integers.
func parseDate(s string) (int64, error) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, fmt.Errorf("%q is not a YYYY-MM-DD date", s)
	}
	for _, i := range [...]int{0, 1, 2, 3, 5, 6, 8, 9} {
		if !isDigit(s[i]) {
			return 0, fmt.Errorf("%q is not a YYYY-MM-DD date", s)
		}
	}
	y := int(s[0]-'0')*1000 + int(s[1]-'0')*100 + int(s[2]-'0')*10 + int(s[3]-'0')
	m := int(s[5]-'0')*10 + int(s[6]-'0')
	d := int(s[8]-'0')*10 + int(s[9]-'0')
	if m < 1 || m > 12 {
		return 0, fmt.Errorf("%q has month %02d outside 01..12", s, m)
	}
	if d < 1 || d > daysIn(y, time.Month(m)) {
		return 0, fmt.Errorf("%q has day %02d, but that month has %d days", s, d, daysIn(y, time.Month(m)))
	}
	return daysSinceEpoch(y, time.Month(m), d), nil
}

// daysIn returns the length of a proleptic Gregorian month.
func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// daysSinceEpoch numbers civil dates consecutively (1970-01-01 is 0), which
// makes "the previous local date" a subtraction.
func daysSinceEpoch(y int, m time.Month, d int) int64 {
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400
}

// formatDate turns a day count back into YYYY-MM-DD for error messages.
func formatDate(day int64) string {
	return time.Unix(day*86400, 0).UTC().Format(time.DateOnly)
}

// localDay is t's civil date in loc as daysSinceEpoch numbers it, the wall
// clock time of day in nanoseconds, and the weekday: the same as reading
// t.In(loc)'s Date, Clock and Weekday, with one zone lookup instead of one
// for each, since every candidate of a request with open_at needs them.
func localDay(t time.Time, loc *time.Location) (day, wall int64, weekday time.Weekday) {
	_, offset := t.In(loc).Zone()
	sec := t.Unix() + int64(offset)
	day, rem := sec/86400, sec%86400
	if rem < 0 {
		day, rem = day-1, rem+86400
	}
	// 1970-01-01, day 0, was a Thursday.
	weekday = time.Weekday((day%7 + 11) % 7)
	return day, rem*int64(time.Second) + int64(t.Nanosecond()), weekday
}
