package hours

import "testing"

func TestPointerOfCompileErrors(t *testing.T) {
	cases := []struct {
		s           Schedule
		want, value string
	}{
		{Schedule{HasHours: true, Hours: []Interval{{Day: "monday", Opens: "09:00", Closes: "17:00"}}}, "/timezone", ""},
		{Schedule{Timezone: "Mars/Olympus_Mons"}, "/timezone", "Mars/Olympus_Mons"},
		{Schedule{Timezone: "UTC", HasHours: true, Hours: []Interval{{Day: "monday", Opens: "09:00", Closes: "17:00"}, {Day: "funday", Opens: "09:00", Closes: "10:00"}}}, "/hours/1/day", "funday"},
		{Schedule{Timezone: "UTC", HasHours: true, Hours: []Interval{{Day: "monday", Opens: "09:00", Closes: "09:00"}}}, "/hours/0", "09:00"},
		{Schedule{Timezone: "UTC", HasExceptions: true, Exceptions: []Exception{{ValidFrom: "2026-12-02", ValidThrough: "2026-12-01"}}}, "/exception_hours/0/valid_through", "2026-12-01"},
	}
	for _, c := range cases {
		_, err := c.s.Compile()
		if err == nil {
			t.Errorf("%+v: Compile accepted it", c.s)
			continue
		}
		if got := Pointer(err); got != c.want && !(c.want == "/hours/0" && len(got) > len(c.want) && got[:len(c.want)+1] == c.want+"/") {
			t.Errorf("Pointer(%q) = %q, want %q", err, got, c.want)
		}
		if got := c.s.Value(Pointer(err)); got != c.value {
			t.Errorf("Value(%q) = %q, want %q", Pointer(err), got, c.value)
		}
	}
	if Pointer(nil) != "" {
		t.Error("Pointer(nil) is not empty")
	}
}
