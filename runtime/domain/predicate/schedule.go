package predicate

import (
	"fmt"
	"time"

	"github.com/ucpgen/ucpgen/runtime/domain/hours"
)

// ServesKinds are the built-in keys of a serves target that the engine
// interprets itself; any other key must be a negotiated extension key. The
// generator compares them with the schema's serves keys, so a kind added
// upstream is reported at generate time.
var ServesKinds = []string{"point", "address"}

// UnusableScheduleError is what an hours filter returns when it meets a
// Location whose schedule cannot be evaluated (for example a day value the
// runtime does not interpret), so that the request fails loudly (-32603,
// logged with the location and member) instead of silently matching
// nothing. Sources that compile schedules at load refuse such data first.
type UnusableScheduleError struct {
	// LocationID is the id of the Location holding the schedule.
	LocationID string
	// Pointer is the JSON Pointer, relative to the Location, of the
	// offending member (e.g. /hours/3/day); "" when the error names none.
	Pointer string
	// Value is the offending value as found at Pointer, "" when unknown.
	Value string
	// Err is the schedule's compile error.
	Err error
}

func (e *UnusableScheduleError) Error() string {
	return fmt.Sprintf("location %q: unusable schedule at %s (value %q), so an hours filter cannot be evaluated: %v", e.LocationID, e.Pointer, e.Value, e.Err)
}

func (e *UnusableScheduleError) Unwrap() error { return e.Err }

// openAt evaluates the hours filter on c, with its compiled schedule when it
// has one; a schedule that does not compile is an *UnusableScheduleError.
func (c *Candidate) openAt(t time.Time) (bool, error) {
	if c.Compiled != nil {
		return c.Compiled.OpenAt(t), nil
	}
	compiled, err := c.Schedule.Compile()
	if err != nil {
		p := hours.Pointer(err)
		return false, &UnusableScheduleError{LocationID: c.ID, Pointer: p, Value: c.Schedule.Value(p), Err: err}
	}
	return compiled.OpenAt(t), nil
}
