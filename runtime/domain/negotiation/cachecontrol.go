package negotiation

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// cacheDirectives are the parts of a response's caching headers that decide
// how long a fetched profile may be reused by this (private) client cache.
type cacheDirectives struct {
	noStore bool
	noCache bool
	// maxAge is set when max-age was present and valid.
	maxAge    time.Duration
	hasMaxAge bool
	// expires is the Expires header's lifetime relative to Date, used only
	// when max-age is absent.
	expires    time.Duration
	hasExpires bool
}

// maxCacheLifetime caps any lifetime a server asks for, so a mistaken
// max-age=31536000 cannot pin a Platform's old capabilities for a year.
const maxCacheLifetime = 24 * time.Hour

// parseCacheControl reads Cache-Control, Expires, Date and Age. Unknown
// directives are ignored; s-maxage, public and private concern shared caches
// and are not relevant to a client-side profile cache. now stands in for the
// Date header when the response has none.
func parseCacheControl(h http.Header, now time.Time) cacheDirectives {
	var d cacheDirectives
	for _, line := range h.Values("Cache-Control") {
		for _, part := range strings.Split(line, ",") {
			name, value, _ := strings.Cut(strings.TrimSpace(part), "=")
			switch strings.ToLower(strings.TrimSpace(name)) {
			case "no-store":
				d.noStore = true
			case "no-cache":
				// A field-qualified no-cache="Set-Cookie" only restricts those
				// fields; it still forbids reusing them without validation,
				// and the profile body is what we reuse, so treat it alike.
				d.noCache = true
			case "max-age":
				secs, ok := parseDeltaSeconds(value)
				if !ok {
					// RFC 9111: an invalid max-age makes the response stale.
					d.hasMaxAge, d.maxAge = true, 0
					continue
				}
				if !d.hasMaxAge || secs < d.maxAge {
					d.hasMaxAge, d.maxAge = true, secs
				}
			}
		}
	}
	if !d.hasMaxAge {
		if exp := h.Get("Expires"); exp != "" {
			d.hasExpires = true
			t, err := http.ParseTime(exp)
			if err == nil {
				base := now
				if date, err := http.ParseTime(h.Get("Date")); err == nil {
					base = date
				}
				d.expires = max(t.Sub(base), 0)
			}
			// An unparseable Expires ("0", "-1") means already expired.
		}
	}
	if age, ok := parseDeltaSeconds(h.Get("Age")); ok {
		if d.hasMaxAge {
			d.maxAge = max(d.maxAge-age, 0)
		}
		if d.hasExpires {
			d.expires = max(d.expires-age, 0)
		}
	}
	return d
}

// parseDeltaSeconds parses an RFC 9111 delta-seconds value (optionally
// quoted), saturating very large values instead of overflowing.
func parseDeltaSeconds(v string) (time.Duration, bool) {
	v = strings.Trim(strings.TrimSpace(v), `"`)
	if v == "" {
		return 0, false
	}
	for _, r := range v {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n > int64(maxCacheLifetime/time.Second) {
		return maxCacheLifetime, true
	}
	return time.Duration(n) * time.Second, true
}

// lifetime says whether the response may be stored and for how long it may be
// reused without revalidation; zero means "store, but revalidate every time".
func (d cacheDirectives) lifetime(defaultTTL, minTTL time.Duration) (time.Duration, bool) {
	if d.noStore {
		return 0, false
	}
	var ttl time.Duration
	switch {
	case d.noCache:
		ttl = 0
	case d.hasMaxAge:
		ttl = d.maxAge
	case d.hasExpires:
		ttl = d.expires
	default:
		ttl = defaultTTL
	}
	ttl = max(ttl, minTTL)
	return min(ttl, maxCacheLifetime), true
}
