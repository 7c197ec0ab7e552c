package storegen

import (
	"fmt"
	"regexp"
	"time"
	_ "time/tzdata" // the generated zones must load on machines without a zone database
)

var (
	clockPattern  = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)
	amenityKeyPat = regexp.MustCompile(`^[a-z](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9_-]*[a-z0-9_])?)+$`)
)

// checkSchedule enforces, on one generated Location, the data rules of the
// Location capability that the JSON Schema alone does not express: opens
// differs from closes, dates are real and ordered, exception ranges are
// identical or disjoint with full closures standing alone, and the zone is
// a loadable IANA name. It also repeats the schema's patterns so that the
// generator fails fast without the upstream schema files.
func checkSchedule(loc *outLocation) error {
	if (len(loc.Hours) > 0 || len(loc.ExceptionHours) > 0) && loc.Timezone == "" {
		return fmt.Errorf("timezone: required when hours or exception_hours are present")
	}
	if loc.Timezone != "" {
		if _, err := time.LoadLocation(loc.Timezone); err != nil {
			return fmt.Errorf("timezone %q: %w", loc.Timezone, err)
		}
	}
	days := map[string]bool{}
	for _, d := range weekdays {
		days[d] = true
	}
	for i, h := range loc.Hours {
		if !days[h.Day] {
			return fmt.Errorf("hours[%d].day %q: not a weekday name", i, h.Day)
		}
		if err := checkInterval(h.Opens, h.Closes); err != nil {
			return fmt.Errorf("hours[%d]: %w", i, err)
		}
	}
	for i, e := range loc.ExceptionHours {
		from, err := time.Parse(time.DateOnly, e.ValidFrom)
		if err != nil {
			return fmt.Errorf("exception_hours[%d].valid_from: %w", i, err)
		}
		through, err := time.Parse(time.DateOnly, e.ValidThrough)
		if err != nil {
			return fmt.Errorf("exception_hours[%d].valid_through: %w", i, err)
		}
		if from.After(through) {
			return fmt.Errorf("exception_hours[%d]: valid_from %s is after valid_through %s", i, e.ValidFrom, e.ValidThrough)
		}
		if e.Opens != "" || e.Closes != "" {
			if err := checkInterval(e.Opens, e.Closes); err != nil {
				return fmt.Errorf("exception_hours[%d]: %w", i, err)
			}
		}
		if !fits(loc.ExceptionHours[:i], e) {
			return fmt.Errorf("exception_hours[%d] (%s..%s): intersects an earlier exception without being an identical timed range", i, e.ValidFrom, e.ValidThrough)
		}
	}
	for key, a := range loc.Amenities {
		if !amenityKeyPat.MatchString(key) {
			return fmt.Errorf("amenities key %q: not a reverse-domain name", key)
		}
		if a.Description == "" {
			return fmt.Errorf("amenities[%q].description: empty", key)
		}
	}
	return nil
}

func checkInterval(opens, closes string) error {
	if !clockPattern.MatchString(opens) {
		return fmt.Errorf("opens %q: not HH:MM", opens)
	}
	if !clockPattern.MatchString(closes) {
		return fmt.Errorf("closes %q: not HH:MM", closes)
	}
	if opens == closes {
		return fmt.Errorf("opens equals closes (%s)", opens)
	}
	return nil
}
