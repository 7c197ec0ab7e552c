package hours

import "testing"

func TestPointerOfCompileErrors(t *testing.T) {
	cases := []struct {
		s    Schedule
		want string
	}{
		{Schedule{HasHours: true, Hours: []Interval{{Day: "monday", Opens: "09:00", Closes: "17:00"}}}, "/timezone"},
		{Schedule{Timezone: "Mars/Olympus_Mons"}, "/timezone"},
		{Schedule{Timezone: "UTC", HasHours: true, Hours: []Interval{{Day: "monday", Opens: "09:00", Closes: "17:00"}, {Day: "funday", Opens: "09:00", Closes: "10:00"}}}, "/hours/1/day"},
		{Schedule{Timezone: "UTC", HasHours: true, Hours: []Interval{{Day: "monday", Opens: "09:00", Closes: "09:00"}}}, "/hours/0"},
		{Schedule{Timezone: "UTC", HasExceptions: true, Exceptions: []Exception{{ValidFrom: "2026-12-02", ValidThrough: "2026-12-01"}}}, "/exception_hours/0/valid_through"},
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
	}
	if Pointer(nil) != "" {
		t.Error("Pointer(nil) is not empty")
	}
}
