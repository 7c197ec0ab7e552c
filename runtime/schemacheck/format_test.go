package schemacheck_test

import (
	"testing"

	sc "github.com/ucpgen/ucpgen/runtime/schemacheck"
)

type formatCase struct {
	name string
	in   string
	ok   bool
}

func runFormat(t *testing.T, format string, cases []formatCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := sc.CheckFormat(format, tc.in)
			if got := err == nil; got != tc.ok {
				t.Errorf("CheckFormat(%q, %q) = %v, want ok=%v", format, tc.in, err, tc.ok)
			}
		})
	}
}

// TestDateTime follows RFC 3339 §5.6 (date-time = full-date "T" full-time,
// time-offset required, time-secfrac optional) and §5.7 (month and day
// ranges with leap years, time-second up to 60 for a leap second, which
// falls at 23:59:60 UTC), with §5.6's note that "T" and "Z" may be lower
// case.
func TestDateTime(t *testing.T) {
	runFormat(t, "date-time", []formatCase{
		{"UTC", "1985-04-12T23:20:50Z", true},
		{"fraction", "1985-04-12T23:20:50.52Z", true},
		{"nanoseconds", "2024-01-01T00:00:00.123456789Z", true},
		{"long fraction", "2024-01-01T00:00:00.12345678901234567890Z", true},
		{"negative offset", "1996-12-19T16:39:57-08:00", true},
		{"odd offset", "1937-01-01T12:00:27.87+00:20", true},
		{"largest offset", "2024-01-01T00:00:00+23:59", true},
		{"minus zero offset", "2024-01-01T00:00:00-00:00", true},
		{"lower case t and z", "1985-04-12t23:20:50z", true},
		{"leap second UTC", "1990-12-31T23:59:60Z", true},
		{"leap second with fraction", "1998-12-31T23:59:60.5Z", true},
		{"leap second west of UTC", "1990-12-31T15:59:60-08:00", true},
		{"leap second east of UTC", "1991-01-01T00:59:60+01:00", true},
		{"leap year", "2024-02-29T12:00:00Z", true},
		{"leap century", "2000-02-29T12:00:00Z", true},
		{"last day of a 30-day month", "2024-04-30T00:00:00Z", true},
		{"end of day", "2024-12-31T23:59:59.999Z", true},

		{"no offset", "2024-01-01T00:00:00", false},
		{"no offset with fraction", "2024-01-01T00:00:00.5", false},
		{"no seconds", "2024-01-01T00:00Z", false},
		{"date only", "2024-01-01", false},
		{"space separator", "2024-01-01 00:00:00Z", false},
		{"no separator", "2024-01-0100:00:00Z", false},
		{"basic format", "20240101T000000Z", false},
		{"ordinal date", "2024-350T01:01:01Z", false},
		{"comma fraction", "2024-01-01T00:00:00,5Z", false},
		{"empty fraction", "2024-01-01T00:00:00.Z", false},
		{"offset without colon", "2024-01-01T00:00:00+0100", false},
		{"offset hours only", "2024-01-01T00:00:00+01", false},
		{"Z and offset", "2024-01-01T00:00:00Z+01:00", false},
		{"offset hour 24", "2024-01-01T00:00:00+24:00", false},
		{"offset minute 60", "2024-01-01T00:00:00+01:60", false},
		{"named zone", "2024-01-01T00:00:00 UTC", false},
		{"trailing text", "2024-01-01T00:00:00Zx", false},
		{"leading space", " 2024-01-01T00:00:00Z", false},
		{"month 13", "2024-13-01T00:00:00Z", false},
		{"month 00", "2024-00-01T00:00:00Z", false},
		{"day 00", "2024-01-00T00:00:00Z", false},
		{"day 32", "2024-01-32T00:00:00Z", false},
		{"April 31", "2024-04-31T00:00:00Z", false},
		{"February 29 in a common year", "2023-02-29T00:00:00Z", false},
		{"February 29 in a common century", "1900-02-29T00:00:00Z", false},
		{"February 30", "2024-02-30T00:00:00Z", false},
		{"hour 24", "2024-01-01T24:00:00Z", false},
		{"minute 60", "2024-01-01T23:60:00Z", false},
		{"second 61", "1998-12-31T23:59:61Z", false},
		{"leap second at the wrong minute", "1998-12-31T23:58:60Z", false},
		{"leap second at the wrong hour", "1998-12-31T22:59:60Z", false},
		{"leap second that is 22:59:60 UTC", "1998-12-31T23:59:60+01:00", false},
		{"unpadded month", "2024-1-01T00:00:00Z", false},
		{"unpadded day", "2024-01-1T00:00:00Z", false},
		{"unpadded hour", "2024-01-01T1:00:00Z", false},
		{"two-digit year", "24-01-01T00:00:00Z", false},
		{"five-digit year", "12024-01-01T00:00:00Z", false},
		{"non-ASCII digit in the date", "2024-0১-01T00:00:00Z", false},
		{"non-ASCII digit in the time", "2024-01-01T0১:00:00Z", false},
		{"empty", "", false},
	})
}

// TestDate follows RFC 3339 §5.6 full-date with §5.7's day ranges.
func TestDate(t *testing.T) {
	runFormat(t, "date", []formatCase{
		{"plain", "2024-06-15", true},
		{"leap year", "2024-02-29", true},
		{"leap century", "2000-02-29", true},
		{"31 days", "2024-01-31", true},
		{"30 days", "2024-11-30", true},
		{"year zero", "0000-01-01", true},
		{"year 9999", "9999-12-31", true},

		{"common year", "2023-02-29", false},
		{"common century", "2100-02-29", false},
		{"April 31", "2024-04-31", false},
		{"month 13", "2024-13-01", false},
		{"month 0", "2024-00-10", false},
		{"day 0", "2024-01-00", false},
		{"unpadded", "2024-1-1", false},
		{"two-digit year", "24-01-01", false},
		{"slashes", "2024/01/01", false},
		{"with time", "2024-01-01T00:00:00Z", false},
		{"trailing space", "2024-01-01 ", false},
		{"trailing newline", "2024-01-01\n", false},
		{"non-ASCII digit", "২০২৪-01-01", false},
		{"empty", "", false},
	})
}

// TestURI follows RFC 3986 §3 (URI = scheme ":" hier-part [ "?" query ]
// [ "#" fragment ], scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )).
// CheckFormat documents that "uri" needs a scheme: a relative reference is
// refused.
func TestURI(t *testing.T) {
	runFormat(t, "uri", []formatCase{
		{"http", "https://example.com/path?q=1&r=%20#frag", true},
		{"upper case", "HTTP://EXAMPLE.COM/", true},
		{"port", "http://example.com:8080/", true},
		{"userinfo", "ftp://user:pw@example.com/", true},
		{"IPv4 host", "http://192.0.2.1/", true},
		{"IPv6 host", "http://[2001:db8::1]:8080/x", true},
		{"urn", "urn:isbn:0451450523", true},
		{"mailto", "mailto:someone@example.com", true},
		{"file", "file:///etc/hosts", true},
		{"scheme with + - .", "a+b.c-d:x", true},
		{"empty hier-part", "about:", true},
		{"empty path with query", "http://example.com?x", true},
		{"sub-delims in path", "http://example.com/a;b=c,d!$&'()*+", true},
		{"percent-encoded", "http://example.com/%E2%82%AC", true},

		{"empty", "", false},
		{"relative path", "a/b", false},
		{"absolute path", "/a/b", false},
		{"network-path reference", "//example.com/a", false},
		{"fragment only", "#frag", false},
		{"query only", "?q", false},
		{"scheme starting with a digit", "1a:x", false},
		{"space in host", "http://exa mple.com/", false},
		{"bad percent escape", "http://example.com/%zz", false},
		{"truncated percent escape", "http://example.com/%4", false},
		{"IPv6 without brackets", "http://::1/", false},
		{"bad IPv6 in brackets", "http://[::g]/", false},
		{"non-numeric port", "http://example.com:port/", false},
		{"control character", "http://example.com/\x7f", false},
		{"space after the authority marker", "http:// shouldfail.com", false},
		{"no scheme before ://", ":// should fail", false},
		{"comma in the scheme", "bar,baz:foo", false},
		{"lone percent sign", "http://example.com/%", false},
		{"backslash in the host", `http://example.com\a`, false},
	})
}

// TestURIReference follows RFC 3986 §4.1: a URI or a relative reference.
func TestURIReference(t *testing.T) {
	runFormat(t, "uri-reference", []formatCase{
		{"absolute", "https://example.com/a", true},
		{"relative path", "a/b", true},
		{"absolute path", "/a/b", true},
		{"network-path", "//example.com/a", true},
		{"fragment", "#f", true},
		{"empty", "", true},
		{"backslash", `\\host\share`, false},
		{"bad percent escape", "/a%zz", false},
	})
}

// TestUUID follows RFC 4122 §3 (RFC 9562 §4): 8-4-4-4-12 hexadecimal
// digits, case-insensitive on input. The format checks the text form only,
// so every version and variant is accepted.
func TestUUID(t *testing.T) {
	runFormat(t, "uuid", []formatCase{
		{"version 1", "123e4567-e89b-12d3-a456-426614174000", true},
		{"version 4", "f47ac10b-58cc-4372-a567-0e02b2c3d479", true},
		{"version 7", "01890a5d-ac96-774b-bcce-b302099a8057", true},
		{"upper case", "F47AC10B-58CC-4372-A567-0E02B2C3D479", true},
		{"mixed case", "f47AC10b-58cc-4372-A567-0e02b2c3d479", true},
		{"nil", "00000000-0000-0000-0000-000000000000", true},
		{"max", "ffffffff-ffff-ffff-ffff-ffffffffffff", true},
		{"unassigned version", "123e4567-e89b-f2d3-c456-426614174000", true},

		{"no hyphens", "123e4567e89b12d3a456426614174000", false},
		{"braces", "{123e4567-e89b-12d3-a456-426614174000}", false},
		{"urn prefix", "urn:uuid:123e4567-e89b-12d3-a456-426614174000", false},
		{"hyphen moved", "123e456-7e89b-12d3-a456-426614174000", false},
		{"group missing", "123e4567-e89b-12d3-426614174000", false},
		{"extra group", "123e4567-e89b-12d3-a456-4266-14174000", false},
		{"short last group", "123e4567-e89b-12d3-a456-42661417400", false},
		{"long last group", "123e4567-e89b-12d3-a456-4266141740000", false},
		{"non-hex letter", "123e4567-e89b-12d3-a456-42661417400g", false},
		{"trailing newline", "123e4567-e89b-12d3-a456-426614174000\n", false},
		{"leading space", " 123e4567-e89b-12d3-a456-426614174000", false},
		{"plus signs", "+23e4567-e89b-12d3-a456-426614174000", false},
		{"full-width digit", "１23e4567-e89b-12d3-a456-426614174000", false},
		{"empty", "", false},
	})
}

// TestUnknownFormat: JSON Schema 2020-12 validation §7.2 makes formats the
// implementation does not know annotations only.
func TestUnknownFormat(t *testing.T) {
	for _, f := range []string{"email", "hostname", "ipv4", "duration", "x-custom", ""} {
		if err := sc.CheckFormat(f, "\x00 not anything"); err != nil {
			t.Errorf("CheckFormat(%q) = %v, want nil for an unasserted format", f, err)
		}
	}
}
