package hours

import (
	"errors"
	"fmt"
	"time"
)

// ParseInstant reads an RFC 3339 date-time (section 5.6) with a mandatory
// offset, as an hours filter's `open_at` requires, and reports what is wrong
// with anything else; time.Parse is not used because it accepts inputs RFC
// 3339 forbids and rejects the leap second.
//
// Accepted: full-date, "T" or "t", HH:MM:SS, an optional fraction of one or
// more digits, then "Z", "z" or a numeric offset ±HH:MM (-00:00 included, read
// as UTC). Fractions finer than a nanosecond are truncated, which never moves
// the instant across a second boundary. A leap second (second 60) is accepted
// only in the last minute of a UTC day, as leap seconds occur only there; Go
// time has no leap seconds, so it is mapped to the last nanosecond of that
// minute (23:59:59.999999999 UTC), which lies after every other instant of the
// minute and before the next day.
//
// The returned time carries the supplied offset as a fixed zone; the offset
// says nothing about any Location's zone.
func ParseInstant(s string) (time.Time, error) {
	t, err := parseInstant(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("RFC 3339 date-time %s: %w", quoteShort(s), err)
	}
	return t, nil
}

func parseInstant(s string) (time.Time, error) {
	const minLen = len("2006-01-02T15:04:05")
	if len(s) < minLen {
		return time.Time{}, errors.New("too short; want YYYY-MM-DDTHH:MM:SS followed by Z or ±HH:MM")
	}
	if _, err := parseDate(s[:10]); err != nil {
		return time.Time{}, fmt.Errorf("date: %w", err)
	}
	year := digits(s[0:4])
	month := digits(s[5:7])
	day := digits(s[8:10])

	switch s[10] {
	case 'T', 't':
	case ' ':
		return time.Time{}, errors.New("date and time are separated by a space; RFC 3339 date-time requires \"T\" (or \"t\")")
	default:
		return time.Time{}, fmt.Errorf("date and time must be separated by \"T\" (or \"t\"), not %q", s[10])
	}

	clock := s[11:19]
	if clock[2] != ':' || clock[5] != ':' || !allDigits(clock[0:2]) || !allDigits(clock[3:5]) || !allDigits(clock[6:8]) {
		return time.Time{}, fmt.Errorf("time %q is not HH:MM:SS", clock)
	}
	hour, minute, second := digits(clock[0:2]), digits(clock[3:5]), digits(clock[6:8])
	switch {
	case hour > 23:
		return time.Time{}, fmt.Errorf("hour %02d is outside 00..23", hour)
	case minute > 59:
		return time.Time{}, fmt.Errorf("minute %02d is outside 00..59", minute)
	case second > 60:
		return time.Time{}, fmt.Errorf("second %02d is outside 00..60", second)
	}

	rest := s[19:]
	nanos := 0
	if len(rest) > 0 && rest[0] == '.' {
		n := 1
		for n < len(rest) && isDigit(rest[n]) {
			if n <= 9 {
				nanos = nanos*10 + int(rest[n]-'0')
			}
			n++
		}
		if n == 1 {
			return time.Time{}, errors.New("fraction of a second has no digits after \".\"")
		}
		for i := n; i <= 9; i++ {
			nanos *= 10
		}
		rest = rest[n:]
	}

	offset, err := parseOffset(rest)
	if err != nil {
		return time.Time{}, err
	}

	if second == 60 {
		utcMinute := ((hour*60+minute-offset/60)%1440 + 1440) % 1440
		if utcMinute != 23*60+59 {
			return time.Time{}, errors.New("second 60 (a leap second) is only valid in the last minute of a UTC day (23:59 UTC)")
		}
		second, nanos = 59, 999_999_999
	}

	zone := time.UTC
	if offset != 0 {
		zone = time.FixedZone("", offset)
	}
	return time.Date(year, time.Month(month), day, hour, minute, second, nanos, zone), nil
}

// parseOffset reads the time-offset at the end of a date-time and returns it
// in seconds east of UTC.
func parseOffset(s string) (int, error) {
	switch {
	case s == "":
		return 0, errors.New("missing UTC offset; an instant needs Z or ±HH:MM")
	case s == "Z" || s == "z":
		return 0, nil
	case s[0] != '+' && s[0] != '-':
		return 0, fmt.Errorf("unexpected %s after the time; want Z or ±HH:MM", quoteShort(s))
	case len(s) != 6 || s[3] != ':' || !allDigits(s[1:3]) || !allDigits(s[4:6]):
		return 0, fmt.Errorf("offset %s is not ±HH:MM", quoteShort(s))
	}
	h, m := digits(s[1:3]), digits(s[4:6])
	if h > 23 {
		return 0, fmt.Errorf("offset hour %02d is outside 00..23", h)
	}
	if m > 59 {
		return 0, fmt.Errorf("offset minute %02d is outside 00..59", m)
	}
	off := (h*60 + m) * 60
	if s[0] == '-' {
		off = -off
	}
	return off, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// digits converts a string already checked by allDigits.
func digits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// quoteShort quotes user input for an error message, shortened so that a huge
// value cannot flood logs.
func quoteShort(s string) string {
	const max = 48
	if len(s) > max {
		return fmt.Sprintf("%q...", s[:max])
	}
	return fmt.Sprintf("%q", s)
}
