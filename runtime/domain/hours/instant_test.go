package hours

import (
	"strings"
	"testing"
	"time"
)

func TestParseInstantAccepts(t *testing.T) {
	cases := []struct {
		in   string
		want string // the same instant in UTC, RFC 3339 with nanoseconds
	}{
		{"2026-07-15T10:00:00Z", "2026-07-15T10:00:00Z"},
		{"2026-07-15t10:00:00z", "2026-07-15T10:00:00Z"},
		{"2026-07-15T10:00:00-04:00", "2026-07-15T14:00:00Z"},
		{"2026-07-15T10:00:00+05:45", "2026-07-15T04:15:00Z"},
		{"2026-07-15T10:00:00-00:00", "2026-07-15T10:00:00Z"},
		{"2026-07-15T23:30:00+23:59", "2026-07-14T23:31:00Z"},
		{"2026-07-15T10:00:00.5Z", "2026-07-15T10:00:00.5Z"},
		{"2026-07-15T10:00:00.123456789Z", "2026-07-15T10:00:00.123456789Z"},
		{"2026-07-15T16:59:59.99999999999999Z", "2026-07-15T16:59:59.999999999Z"},
		{"2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z"},
		{"0000-01-01T00:00:00Z", "0000-01-01T00:00:00Z"},
		{"9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"},
		{"2016-12-31T23:59:60Z", "2016-12-31T23:59:59.999999999Z"},
		{"2016-12-31T23:59:60.5Z", "2016-12-31T23:59:59.999999999Z"},
		{"2016-12-31T18:59:60-05:00", "2016-12-31T23:59:59.999999999Z"},
		{"2017-01-01T05:29:60+05:30", "2016-12-31T23:59:59.999999999Z"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseInstant(tc.in)
			if err != nil {
				t.Fatalf("ParseInstant: %v", err)
			}
			if s := got.UTC().Format(time.RFC3339Nano); s != tc.want {
				t.Errorf("got %s, want %s", s, tc.want)
			}
		})
	}
}

func TestParseInstantKeepsOffset(t *testing.T) {
	got, err := ParseInstant("2026-07-15T10:00:00+05:45")
	if err != nil {
		t.Fatal(err)
	}
	if _, off := got.Zone(); off != 5*3600+45*60 {
		t.Errorf("offset = %d s, want %d", off, 5*3600+45*60)
	}
}

func TestParseInstantRejects(t *testing.T) {
	cases := []struct {
		in   string
		want string // part of the error message
	}{
		{"", "too short"},
		{"2026-07-15", "too short"},
		{"2026-07-15T10:00:00", "missing UTC offset"},
		{"2026-07-15T10:00:00.25", "missing UTC offset"},
		{"2026-07-15 10:00:00Z", "space"},
		{"2026-07-15_10:00:00Z", `"T"`},
		{"2026-07-15T10:00Z", "too short"},
		{"2026-07-15T10:00:00+0400", "not ±HH:MM"},
		{"2026-07-15T10:00:00+04", "not ±HH:MM"},
		{"2026-07-15T10:00:00+24:00", "offset hour 24"},
		{"2026-07-15T10:00:00+04:60", "offset minute 60"},
		{"2026-07-15T10:00:00UTC", "unexpected"},
		{"2026-07-15T10:00:00Zjunk", "unexpected"},
		{"2026-07-15T10:00:00Z ", "unexpected"},
		{"2026-07-15T10:00:00.Z", "no digits"},
		{"2026-07-15T10:00:00,5Z", "unexpected"},
		{"2026-07-15T24:00:00Z", "hour 24"},
		{"2026-07-15T10:60:00Z", "minute 60"},
		{"2026-07-15T10:00:61Z", "second 61"},
		{"2026-07-15T10:00:60Z", "leap second"},
		{"2016-12-31T23:59:60+01:00", "leap second"},
		{"2026-13-15T10:00:00Z", "month 13"},
		{"2026-02-29T10:00:00Z", "day 29"},
		{"2026-04-31T10:00:00Z", "day 31"},
		{"2026-07-00T10:00:00Z", "day 00"},
		{"26-07-15T10:00:00Z+00:00", "YYYY-MM-DD"},
		{"+2026-07-15T10:00:00Z", "YYYY-MM-DD"},
		{"2026-07-15T1a:00:00Z", "HH:MM:SS"},
		{"2026-07-15T10-00-00Z", "HH:MM:SS"},
		{"２026-07-15T10:00:00Z", "YYYY-MM-DD"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			_, err := ParseInstant(tc.in)
			if err == nil {
				t.Fatalf("ParseInstant(%q) succeeded, want error", tc.in)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}

func TestParseInstantShortensHugeInput(t *testing.T) {
	in := "x" + strings.Repeat("9", 10000)
	_, err := ParseInstant(in)
	if err == nil {
		t.Fatal("want error")
	}
	if len(err.Error()) > 300 {
		t.Errorf("error is %d bytes long; the input should be shortened", len(err.Error()))
	}
}

func FuzzParseInstant(f *testing.F) {
	for _, s := range []string{
		"2026-07-15T10:00:00Z", "2026-07-15t10:00:00.123456789123z", "2016-12-31T23:59:60Z",
		"2016-12-31T18:59:60-05:00", "2026-07-15 10:00:00Z", "2026-07-15T10:00:00", "2026-02-29T00:00:00+23:59",
		"0000-01-01T00:00:00-23:59", "9999-12-31T23:59:59+00:00", "2026-07-15T10:00:00.Z",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseInstant(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		// Whatever we accept is RFC 3339 that time.Parse also reads as the
		// same instant, except for the leap second, which it rejects.
		if len(s) > 17 && s[17:19] == "60" {
			if got.UTC().Nanosecond() != 999_999_999 || got.UTC().Second() != 59 || got.UTC().Minute() != 59 || got.UTC().Hour() != 23 {
				t.Fatalf("leap second %q mapped to %v", s, got.UTC())
			}
			return
		}
		ref, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s))
		if err != nil {
			t.Fatalf("accepted %q, which time.Parse rejects: %v", s, err)
		}
		if !ref.Equal(got) {
			t.Fatalf("%q: got %v, time.Parse gives %v", s, got, ref)
		}
		// The result round-trips through RFC 3339 output.
		again, err := ParseInstant(got.Format(time.RFC3339Nano))
		if err != nil || !again.Equal(got) {
			t.Fatalf("round trip of %q: %v, %v", s, again, err)
		}
	})
}
