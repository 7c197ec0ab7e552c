package hours

import (
	"regexp"
	"strconv"
)

// fieldPath matches the member path that Compile's errors start with, e.g.
// "hours[2].closes", "exception_hours[0].valid_from" or "timezone".
var fieldPath = regexp.MustCompile(`^([a-z_]+)(?:\[(\d+)\])?(?:\.([a-z_]+))?:`)

// Pointer returns the JSON Pointer, relative to the Location, of the member
// a Compile error names ("" when it names none), so a loader can report a
// broken schedule at the value to fix without knowing the message format.
func Pointer(err error) string {
	if err == nil {
		return ""
	}
	m := fieldPath.FindStringSubmatch(err.Error())
	if m == nil {
		return ""
	}
	p := "/" + m[1]
	if m[2] != "" {
		p += "/" + m[2]
	}
	if m[3] != "" {
		p += "/" + m[3]
	}
	return p
}

// Value returns the string held at pointer (as Pointer returns it) in s,
// or "" when the pointer names no string member, so an error about a
// schedule can quote the value to fix.
func (s Schedule) Value(pointer string) string {
	m := pointerPath.FindStringSubmatch(pointer)
	if m == nil {
		return ""
	}
	if m[1] == "timezone" {
		return s.Timezone
	}
	i, err := strconv.Atoi(m[2])
	if err != nil || i < 0 {
		return ""
	}
	switch m[1] {
	case "hours":
		if i >= len(s.Hours) {
			return ""
		}
		h := s.Hours[i]
		return map[string]string{"day": h.Day, "opens": h.Opens, "closes": h.Closes}[m[3]]
	case "exception_hours":
		if i >= len(s.Exceptions) {
			return ""
		}
		x := s.Exceptions[i]
		switch m[3] {
		case "valid_from":
			return x.ValidFrom
		case "valid_through":
			return x.ValidThrough
		case "opens":
			if x.Opens != nil {
				return *x.Opens
			}
		case "closes":
			if x.Closes != nil {
				return *x.Closes
			}
		}
	}
	return ""
}

// pointerPath splits a pointer made by Pointer into list, index and member.
var pointerPath = regexp.MustCompile(`^/([a-z_]+)(?:/(\d+))?(?:/([a-z_]+))?$`)
