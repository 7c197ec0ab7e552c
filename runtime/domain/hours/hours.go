// Package hours answers "is this Location open at instant T?" for the
// operating-hours data of a UCP Location (regular weekly hours, date-specific
// exceptions and an IANA timezone), following the evaluation rules of the
// Location capability (2026-08-25).
//
// Evaluation always goes from the instant to local civil time: the instant is
// converted into the Location's zone, and the local date, weekday and wall
// clock read from the result are compared with the schedule. Local times that a
// spring-forward gap skips therefore correspond to no instant, and both
// instants of a fall-back fold read the same wall clock and get the same
// answer.
//
// Schedule data that is invalid anywhere (a bad time, an unknown zone, a
// conflicting exception, ...) makes the whole schedule unusable: OpenAt then
// answers false for every instant. A partially understood schedule could
// otherwise claim "open" on the strength of the entries that happened to
// parse, which the capability forbids.
package hours

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// Interval is one regular weekly entry of a Location's `hours` list, kept as
// the raw strings so that invalid data is detected here rather than lost in a
// conversion upstream.
type Interval struct {
	Day    string // monday..sunday (lowercase, as the schema enumerates them)
	Opens  string // HH:MM, 24-hour
	Closes string // HH:MM, 24-hour
}

// Exception is one entry of a Location's `exception_hours` list; nil Opens and
// Closes together mean a full closure, so the pointers keep "absent" apart
// from any string value.
type Exception struct {
	ValidFrom    string  // first covered local date, YYYY-MM-DD
	ValidThrough string  // last covered local date, YYYY-MM-DD, inclusive
	Opens        *string // HH:MM, or nil for a full closure
	Closes       *string // HH:MM, or nil for a full closure
}

// Schedule is the operating-hours data of one Location, independent of any
// generated type, with presence flags so that an absent list (unknown) stays
// distinct from an empty one (known, no entries).
type Schedule struct {
	// Timezone is the Location's IANA zone; required when either list is present.
	Timezone string
	// HasHours reports that `hours` was present (possibly as []). A non-empty
	// Hours slice counts as present even when HasHours is false, so that data
	// is never silently dropped.
	HasHours bool
	Hours    []Interval
	// HasExceptions reports that `exception_hours` was present (possibly as
	// []); a non-empty Exceptions slice counts as present as well.
	HasExceptions bool
	Exceptions    []Exception
}

// Status is the answer for one instant, finer than open/closed so callers and
// tests can tell "known closed" from "unknown" and "unusable data".
type Status int

// The possible answers of StatusAt; only Open satisfies an hours filter.
const (
	// Invalid: the schedule data cannot be used (see Compile's error).
	Invalid Status = iota
	// Unknown: no data establishes whether the Location is open (absent hours
	// on a date no exception covers).
	Unknown
	// Closed: the schedule establishes that the Location is closed.
	Closed
	// Open: the schedule establishes that the Location is open.
	Open
)

func (s Status) String() string {
	switch s {
	case Invalid:
		return "invalid"
	case Unknown:
		return "unknown"
	case Closed:
		return "closed"
	case Open:
		return "open"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// OpenAt reports whether the schedule establishes that the Location is open at
// t; unknown, closed and invalid schedules all answer false, because an hours
// filter matches only a Location that can be shown to be open.
func (s Schedule) OpenAt(t time.Time) bool {
	return s.StatusAt(t) == Open
}

// StatusAt evaluates the schedule at t, reporting Invalid instead of an error
// so that bad Location data never turns into a request failure.
func (s Schedule) StatusAt(t time.Time) Status {
	c, err := s.Compile()
	if err != nil {
		return Invalid
	}
	return c.StatusAt(t)
}

// Compiled is a validated, parsed schedule ready to be evaluated at many
// instants without re-parsing; build it with Schedule.Compile.
type Compiled struct {
	loc       *time.Location // nil only when the schedule holds no lists
	hasHours  bool
	weekly    [7][]span       // indexed by time.Weekday
	exception []exceptionSpan // sorted by first date, pairwise disjoint
}

// span is one daily interval in minutes after local midnight.
type span struct {
	opens, closes int // minutes, 0..1439
}

const minuteNanos = int64(time.Minute)

// wholeDay reports the exact 00:00-23:59 pair, which means the entire local
// date however long that date is.
func (s span) wholeDay() bool { return s.opens == 0 && s.closes == 23*60+59 }

// overnight reports an interval that runs past the end of the local date on
// which it begins.
func (s span) overnight() bool { return s.closes < s.opens }

// coversOwnDate reports whether the part of the interval on the date it
// begins contains the wall clock w (nanoseconds after local midnight).
func (s span) coversOwnDate(w int64) bool {
	if s.wholeDay() {
		return true
	}
	if w < int64(s.opens)*minuteNanos {
		return false
	}
	return s.overnight() || w < int64(s.closes)*minuteNanos
}

// coversNextDate reports whether the carried part of an overnight interval
// contains the wall clock w on the following local date.
func (s span) coversNextDate(w int64) bool {
	return s.overnight() && w < int64(s.closes)*minuteNanos
}

// exceptionSpan is one group of exception entries sharing an identical date
// range: either timed split shifts or a single full closure (no spans).
type exceptionSpan struct {
	from, through int64 // days since 1970-01-01, inclusive
	spans         []span
	entry         int // index of the first entry with this range, for messages
}

// Weekdays are the values of a daily hour's day that Compile interprets,
// indexed by time.Weekday. The generator compares them with the schema's
// day enum, so a value added upstream is reported instead of making every
// schedule carrying it unusable without a word.
var Weekdays = [7]string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

var weekdays = func() map[string]time.Weekday {
	m := make(map[string]time.Weekday, len(Weekdays))
	for i, d := range Weekdays {
		m[d] = time.Weekday(i)
	}
	return m
}()

// Compile validates the whole schedule and prepares it for evaluation; the
// error names the first offending field (e.g. "hours[2].closes") and why, for
// logs and data-quality reports. Any error makes the schedule unusable.
func (s Schedule) Compile() (*Compiled, error) {
	hasHours := s.HasHours || len(s.Hours) > 0
	hasExceptions := s.HasExceptions || len(s.Exceptions) > 0
	c := &Compiled{hasHours: hasHours}

	if s.Timezone == "" {
		if hasHours || hasExceptions {
			return nil, errors.New("timezone: required when hours or exception_hours is present")
		}
	} else {
		loc, err := loadZone(s.Timezone)
		if err != nil {
			return nil, fmt.Errorf("timezone: %w", err)
		}
		c.loc = loc
	}

	// The week's spans share one array, each day a slice of it: a large
	// dataset keeps a hundred thousand distinct schedules, and seven small
	// objects each were most of what the collector had to find in them.
	var count [7]int
	for i, iv := range s.Hours {
		day, ok := weekdays[iv.Day]
		if !ok {
			return nil, fmt.Errorf("hours[%d].day: %q is not a day this runtime interprets (hours.Weekdays: monday..sunday)", i, iv.Day)
		}
		if _, err := parseSpan(iv.Opens, iv.Closes); err != nil {
			return nil, fmt.Errorf("hours[%d].%w", i, err)
		}
		count[day]++
	}
	if len(s.Hours) > 0 {
		week, at := make([]span, len(s.Hours)), 0
		for day, n := range count {
			if n > 0 {
				c.weekly[day] = week[at : at : at+n]
				at += n
			}
		}
		for _, iv := range s.Hours {
			day := weekdays[iv.Day]
			sp, _ := parseSpan(iv.Opens, iv.Closes) // checked above
			c.weekly[day] = append(c.weekly[day], sp)
		}
	}

	groups, err := groupExceptions(s.Exceptions)
	if err != nil {
		return nil, err
	}
	c.exception = groups
	return c, nil
}

// parseSpan checks one opens/closes pair; the error starts with the field
// name so callers can prefix the entry index.
func parseSpan(opens, closes string) (span, error) {
	o, err := parseClock(opens)
	if err != nil {
		return span{}, fmt.Errorf("opens: %w", err)
	}
	c, err := parseClock(closes)
	if err != nil {
		return span{}, fmt.Errorf("closes: %w", err)
	}
	if o == c {
		return span{}, fmt.Errorf("closes: %q equals opens, which describes no interval", closes)
	}
	return span{opens: o, closes: c}, nil
}

// parseClock reads a strict 24-hour "HH:MM" (00:00..23:59) into minutes.
func parseClock(s string) (int, error) {
	if len(s) != 5 || s[2] != ':' || !isDigit(s[0]) || !isDigit(s[1]) || !isDigit(s[3]) || !isDigit(s[4]) {
		return 0, fmt.Errorf("%q is not a 24-hour HH:MM time", s)
	}
	h := int(s[0]-'0')*10 + int(s[1]-'0')
	m := int(s[3]-'0')*10 + int(s[4]-'0')
	if h > 23 || m > 59 {
		return 0, fmt.Errorf("%q is out of range 00:00..23:59", s)
	}
	return h*60 + m, nil
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// groupExceptions validates every exception entry, merges entries with an
// identical date range into one group and rejects ranges that intersect
// without being identical. A full closure must be the only entry for its
// range: sharing it with a timed entry (or another closure) is treated as an
// intersection conflict, because "closed all day" and "open at these times"
// cannot both describe the same dates.
func groupExceptions(entries []Exception) ([]exceptionSpan, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	type key struct{ from, through int64 }
	byRange := make(map[key]int, len(entries)) // index into groups
	groups := make([]exceptionSpan, 0, len(entries))
	// Each group's first span comes from one array (a second for the same
	// range, which is rare, moves its group's spans out of it).
	first := make([]span, 0, len(entries))

	for i, e := range entries {
		from, err := parseDate(e.ValidFrom)
		if err != nil {
			return nil, fmt.Errorf("exception_hours[%d].valid_from: %w", i, err)
		}
		through, err := parseDate(e.ValidThrough)
		if err != nil {
			return nil, fmt.Errorf("exception_hours[%d].valid_through: %w", i, err)
		}
		if from > through {
			return nil, fmt.Errorf("exception_hours[%d].valid_through: %s is earlier than valid_from %s", i, e.ValidThrough, e.ValidFrom)
		}
		var sp *span
		switch {
		case e.Opens == nil && e.Closes == nil:
		case e.Opens == nil:
			return nil, fmt.Errorf("exception_hours[%d].opens: required when closes is present", i)
		case e.Closes == nil:
			return nil, fmt.Errorf("exception_hours[%d].closes: required when opens is present", i)
		default:
			v, err := parseSpan(*e.Opens, *e.Closes)
			if err != nil {
				return nil, fmt.Errorf("exception_hours[%d].%w", i, err)
			}
			sp = &v
		}

		k := key{from, through}
		gi, seen := byRange[k]
		if !seen {
			byRange[k] = len(groups)
			g := exceptionSpan{from: from, through: through, entry: i}
			if sp != nil {
				first = append(first, *sp)
				g.spans = first[len(first)-1 : len(first) : len(first)]
			}
			groups = append(groups, g)
			continue
		}
		if sp == nil || len(groups[gi].spans) == 0 {
			return nil, fmt.Errorf("exception_hours[%d]: range %s..%s is also used by exception_hours[%d]; a full closure must be the only exception for its range", i, e.ValidFrom, e.ValidThrough, groups[gi].entry)
		}
		groups[gi].spans = append(groups[gi].spans, *sp)
	}

	slices.SortFunc(groups, func(a, b exceptionSpan) int {
		if a.from != b.from {
			return compareInt64(a.from, b.from)
		}
		return compareInt64(a.through, b.through)
	})
	for i := 1; i < len(groups); i++ {
		a, b := groups[i-1], groups[i]
		if b.from <= a.through {
			return nil, fmt.Errorf("exception_hours: range %s..%s intersects range %s..%s without being identical", formatDate(a.from), formatDate(a.through), formatDate(b.from), formatDate(b.through))
		}
	}
	return groups, nil
}

func compareInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// OpenAt reports whether the compiled schedule establishes that the Location
// is open at t.
func (c *Compiled) OpenAt(t time.Time) bool { return c.StatusAt(t) == Open }

// StatusAt evaluates the compiled schedule at t by converting t into the
// Location's zone and reading the local date and wall clock.
//
// Rules applied, for local date D and wall clock W:
//   - intervals beginning on D come from the exception group covering D, or,
//     when no exception covers D, from the regular hours for D's weekday;
//   - an overnight interval beginning on D-1 carries into D until its closing
//     time, unless D is covered by an exception other than the one the
//     interval came from: there it stops at local midnight. (An overnight
//     interval of a multi-day exception carries between the dates of that
//     same exception, since the exception itself describes those nights.)
//   - with absent regular hours and nothing establishing "open", a date no
//     exception covers is Unknown rather than Closed.
func (c *Compiled) StatusAt(t time.Time) Status {
	if c == nil {
		return Invalid
	}
	if c.loc == nil {
		// A valid schedule without a zone holds no lists: nothing is known.
		return Unknown
	}
	day, wall, weekday := localDay(t, c.loc)

	today := c.exceptionOn(day)
	yesterday := c.exceptionOn(day - 1)

	var own []span
	if today != nil {
		own = today.spans
	} else {
		own = c.weekly[weekday]
	}
	for _, s := range own {
		if s.coversOwnDate(wall) {
			return Open
		}
	}

	if today == nil || today == yesterday {
		var carried []span
		if yesterday != nil {
			carried = yesterday.spans
		} else {
			carried = c.weekly[(weekday+6)%7]
		}
		for _, s := range carried {
			if s.coversNextDate(wall) {
				return Open
			}
		}
	}

	if today == nil && !c.hasHours {
		return Unknown
	}
	return Closed
}

// exceptionOn returns the exception group covering the given day, or nil.
func (c *Compiled) exceptionOn(day int64) *exceptionSpan {
	// lo ends as the first group starting after day, so lo-1 is the last
	// starting on or before it: the only one that can cover day, since
	// groups do not overlap.
	lo, hi := 0, len(c.exception)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if c.exception[h].from <= day {
			lo = h + 1
		} else {
			hi = h
		}
	}
	if lo > 0 && c.exception[lo-1].through >= day {
		return &c.exception[lo-1]
	}
	return nil
}
