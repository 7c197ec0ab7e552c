package conform

import (
	"fmt"
	"time"
	_ "time/tzdata" // IANA zones of returned Locations, whatever the host has
)

// weekly is one regular interval as a Location returns it.
type weekly struct {
	Day, Opens, Closes string
}

// exception is one exception_hours entry as a Location returns it; Opens
// and Closes are both empty for a full closure.
type exception struct {
	From, Through, Opens, Closes string
}

// schedule is what the checker needs of a Location to evaluate an hours
// filter itself (LOCATION.md section 6).
type schedule struct {
	Timezone   string
	HasHours   bool
	Hours      []weekly
	Exceptions []exception
}

// span is an interval in minutes after local midnight; closes < opens runs
// into the next local date, and wholeDay is the 00:00-23:59 pair.
type span struct {
	opens, closes int
	wholeDay      bool
}

func (s span) overnight() bool { return !s.wholeDay && s.closes < s.opens }

// ownDate reports whether s, beginning on the local date of wall (seconds
// after midnight), contains wall.
func (s span) ownDate(wall int) bool {
	if s.wholeDay {
		return true
	}
	if wall < s.opens*60 {
		return false
	}
	return s.overnight() || wall < s.closes*60
}

// nextDate reports whether the carried part of s, begun the day before,
// contains wall.
func (s span) nextDate(wall int) bool { return s.overnight() && wall < s.closes*60 }

var weekdays = map[string]time.Weekday{
	"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday,
	"wednesday": time.Wednesday, "thursday": time.Thursday, "friday": time.Friday,
	"saturday": time.Saturday,
}

func parseClock(s string) (int, error) {
	if len(s) != 5 || s[2] != ':' {
		return 0, fmt.Errorf("time %q is not HH:MM", s)
	}
	t, err := time.Parse("15:04", s)
	if err != nil {
		return 0, fmt.Errorf("time %q: %w", s, err)
	}
	return t.Hour()*60 + t.Minute(), nil
}

func parseSpan(opens, closes string) (span, error) {
	o, err := parseClock(opens)
	if err != nil {
		return span{}, err
	}
	c, err := parseClock(closes)
	if err != nil {
		return span{}, err
	}
	if o == c {
		return span{}, fmt.Errorf("opens equals closes (%s)", opens)
	}
	return span{opens: o, closes: c, wholeDay: opens == "00:00" && closes == "23:59"}, nil
}

// exceptionGroup is every exception sharing one date range.
type exceptionGroup struct {
	from, through time.Time // local dates at UTC midnight
	spans         []span
	closure       bool
}

// compiled is a schedule checked against section 6, ready to evaluate.
type compiled struct {
	loc      *time.Location
	hasHours bool
	weekly   [7][]span
	groups   []*exceptionGroup
}

// compile validates s; an error means the Location cannot be established
// to be open at any instant (invalid schedule data never matches).
func compile(s schedule) (*compiled, error) {
	if s.Timezone == "" {
		return nil, fmt.Errorf("no timezone")
	}
	loc, err := time.LoadLocation(s.Timezone)
	if err != nil {
		return nil, fmt.Errorf("timezone %q: %w", s.Timezone, err)
	}
	c := &compiled{loc: loc, hasHours: s.HasHours}
	for i, h := range s.Hours {
		wd, ok := weekdays[h.Day]
		if !ok {
			return nil, fmt.Errorf("hours[%d]: day %q is not a weekday name", i, h.Day)
		}
		sp, err := parseSpan(h.Opens, h.Closes)
		if err != nil {
			return nil, fmt.Errorf("hours[%d]: %w", i, err)
		}
		c.weekly[wd] = append(c.weekly[wd], sp)
	}
	byRange := map[[2]string]*exceptionGroup{}
	for i, e := range s.Exceptions {
		from, err1 := time.Parse(time.DateOnly, e.From)
		through, err2 := time.Parse(time.DateOnly, e.Through)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("exception_hours[%d]: dates %q..%q are not YYYY-MM-DD", i, e.From, e.Through)
		}
		if from.After(through) {
			return nil, fmt.Errorf("exception_hours[%d]: valid_from after valid_through", i)
		}
		key := [2]string{e.From, e.Through}
		g := byRange[key]
		if g == nil {
			g = &exceptionGroup{from: from, through: through}
			byRange[key] = g
			c.groups = append(c.groups, g)
		}
		switch {
		case e.Opens == "" && e.Closes == "":
			g.closure = true
		case e.Opens == "" || e.Closes == "":
			return nil, fmt.Errorf("exception_hours[%d]: opens and closes must come together", i)
		default:
			sp, err := parseSpan(e.Opens, e.Closes)
			if err != nil {
				return nil, fmt.Errorf("exception_hours[%d]: %w", i, err)
			}
			g.spans = append(g.spans, sp)
		}
		if g.closure && len(g.spans) > 0 {
			return nil, fmt.Errorf("exception_hours[%d]: a full closure shares its range with a timed exception", i)
		}
	}
	for i, a := range c.groups {
		for _, b := range c.groups[i+1:] {
			if !a.from.After(b.through) && !b.from.After(a.through) {
				return nil, fmt.Errorf("exception ranges %s..%s and %s..%s intersect",
					a.from.Format(time.DateOnly), a.through.Format(time.DateOnly),
					b.from.Format(time.DateOnly), b.through.Format(time.DateOnly))
			}
		}
	}
	return c, nil
}

func (c *compiled) groupOn(date time.Time) *exceptionGroup {
	for _, g := range c.groups {
		if !date.Before(g.from) && !date.After(g.through) {
			return g
		}
	}
	return nil
}

// openAt reports whether the schedule establishes the Location open at t:
// t goes to the Location's zone (never the other way round), then the
// intervals beginning on that local date, and the overnight ones carried
// from the date before, are read.
func (c *compiled) openAt(t time.Time) bool {
	local := t.In(c.loc)
	y, m, d := local.Date()
	date := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	wall := local.Hour()*3600 + local.Minute()*60 + local.Second()
	today, yesterday := c.groupOn(date), c.groupOn(date.AddDate(0, 0, -1))

	own := c.weekly[local.Weekday()]
	if today != nil {
		own = today.spans
	}
	for _, s := range own {
		if s.ownDate(wall) {
			return true
		}
	}
	if today != nil && today != yesterday {
		return false // an exception takes over at local midnight
	}
	carried := c.weekly[(local.Weekday()+6)%7]
	if yesterday != nil {
		carried = yesterday.spans
	}
	for _, s := range carried {
		if s.nextDate(wall) {
			return true
		}
	}
	return false
}

// openAt evaluates an hours filter against a Location's returned schedule;
// anything unusable (no zone, invalid entries) is "not open".
func (s schedule) openAt(t time.Time) bool {
	if !s.HasHours && len(s.Exceptions) == 0 {
		return false
	}
	c, err := compile(s)
	if err != nil {
		return false
	}
	return c.openAt(t)
}
