package schemacheck

import (
	"errors"
	"fmt"
	"hash/maphash"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
)

// CheckFormat asserts one of the formats the UCP schemas use. Unknown
// formats are annotations only (Draft 2020-12) and always pass. "uri" is
// read as Go's net/url reads it, as the reference validator does: more
// lenient than RFC 3986 about characters such as spaces, '<' or '{', so
// that ucpgen never refuses a payload other UCP services accept (held to the
// reference by generator/conformance's TestFormatsMatchReference).
func CheckFormat(format, s string) error {
	switch format {
	case "date-time":
		return checkDateTime(s)
	case "date":
		return checkDate(s)
	case "uri":
		return checkURI(s)
	case "uri-reference":
		if strings.Contains(s, `\`) {
			return errors.New(`backslash is not allowed`)
		}
		_, err := parseURI(s)
		return err
	case "uuid":
		return checkUUID(s)
	}
	return nil
}

// uriMemo holds absolute URIs checkURI accepted, one per slot chosen by a
// hash of the text: every call from one Platform carries the same profile
// URL, and parsing it again was a tenth of reading a search's meta.
var uriMemo [64]atomic.Pointer[string]

// uriSeed hashes URIs to their uriMemo slot.
var uriSeed = maphash.MakeSeed()

// memoURIMax is the longest URI uriMemo keeps.
const memoURIMax = 512

// checkURI is CheckFormat's "uri": a URI net/url parses, with a scheme.
func checkURI(s string) error {
	var slot *atomic.Pointer[string]
	if len(s) <= memoURIMax {
		slot = &uriMemo[maphash.String(uriSeed, s)%uint64(len(uriMemo))]
		if p := slot.Load(); p != nil && *p == s {
			return nil
		}
	}
	u, err := parseURI(s)
	if err != nil {
		return err
	}
	if !u.IsAbs() {
		return errors.New("a scheme is required")
	}
	if slot != nil {
		// A copy: s may be part of a larger text the memo must not keep.
		c := strings.Clone(s)
		slot.Store(&c)
	}
	return nil
}

func parseURI(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			return nil, ue.Err
		}
		return nil, err
	}
	if h := u.Hostname(); strings.Contains(h, ":") {
		if !strings.Contains(u.Host, "[") || !strings.Contains(u.Host, "]") {
			return nil, errors.New("an IPv6 host must be enclosed in brackets")
		}
		a, err := netip.ParseAddr(h)
		if err != nil || a.Zone() != "" {
			return nil, fmt.Errorf("invalid IPv6 host %q", h)
		}
	}
	return u, nil
}

func checkUUID(s string) error {
	groups := [...]int{8, 4, 4, 4, 12}
	parts := strings.Split(s, "-")
	if len(parts) != len(groups) {
		return fmt.Errorf("want %d hyphen-separated groups, got %d", len(groups), len(parts))
	}
	for i, p := range parts {
		if len(p) != groups[i] {
			return fmt.Errorf("group %d must have %d hex digits", i+1, groups[i])
		}
		for _, c := range []byte(p) {
			if !isHex(c) {
				return fmt.Errorf("group %d has a non-hex character %q", i+1, c)
			}
		}
	}
	return nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// checkDate accepts RFC 3339 full-date: four-digit year, real month and day.
var errDate = errors.New("want YYYY-MM-DD with a real calendar day")

func checkDate(s string) error {
	bad := errDate
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return bad
	}
	hi, ok1 := twoDigits(s[0:])
	lo, ok2 := twoDigits(s[2:])
	month, ok3 := twoDigits(s[5:])
	day, ok4 := twoDigits(s[8:])
	if !ok1 || !ok2 || !ok3 || !ok4 || month < 1 || month > 12 || day < 1 {
		return bad
	}
	year := hi*100 + lo
	days := [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[month]
	if month == 2 && year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		days = 29
	}
	if day > days {
		return bad
	}
	return nil
}

// checkDateTime accepts RFC 3339 date-time: 'T' or 't' separator, seconds
// 00-60 (60 only when the UTC time is 23:59), optional fraction, and a
// required offset 'Z', 'z' or ±hh:mm.
func checkDateTime(s string) error {
	if len(s) < 20 {
		return errors.New("too short for YYYY-MM-DDThh:mm:ssZ")
	}
	if s[10] != 'T' && s[10] != 't' {
		return errors.New("date and time must be separated by 'T'")
	}
	if err := checkDate(s[:10]); err != nil {
		return err
	}
	return checkTime(s[11:])
}

func twoDigits(s string) (int, bool) {
	if len(s) < 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return 0, false
	}
	return int(s[0]-'0')*10 + int(s[1]-'0'), true
}

func checkTime(s string) error {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return errors.New("time must be hh:mm:ss followed by an offset")
	}
	h, ok1 := twoDigits(s[0:])
	m, ok2 := twoDigits(s[3:])
	sec, ok3 := twoDigits(s[6:])
	if !ok1 || !ok2 || !ok3 {
		return errors.New("hour, minute and second must be two digits each")
	}
	if h > 23 || m > 59 || sec > 60 {
		return errors.New("hour, minute or second out of range")
	}
	rest := s[8:]
	if frac, ok := strings.CutPrefix(rest, "."); ok {
		n := 0
		for n < len(frac) && frac[n] >= '0' && frac[n] <= '9' {
			n++
		}
		if n == 0 {
			return errors.New("a decimal point must be followed by digits")
		}
		rest = frac[n:]
	}
	if rest != "Z" && rest != "z" {
		if len(rest) != 6 || (rest[0] != '+' && rest[0] != '-') || rest[3] != ':' {
			return errors.New("offset must be Z or ±hh:mm")
		}
		oh, ok1 := twoDigits(rest[1:])
		om, ok2 := twoDigits(rest[4:])
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return errors.New("offset hour or minute out of range")
		}
		// shift to UTC to judge a leap second
		d := oh*60 + om
		if rest[0] == '+' {
			d = -d
		}
		hm := h*60 + m + d
		if hm < 0 {
			hm += 24 * 60
		}
		h, m = hm/60, hm%60
	}
	if sec == 60 && (h != 23 || m != 59) {
		return errors.New("a leap second is only valid at 23:59:60 UTC")
	}
	return nil
}
