package hours

import "regexp"

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
