package negotiation

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestCacheLifetime(t *testing.T) {
	now := time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
	const def = 5 * time.Minute
	tests := []struct {
		name      string
		headers   []string
		minTTL    time.Duration
		wantTTL   time.Duration
		wantStore bool
	}{
		{"no headers", nil, 0, def, true},
		{"max-age", []string{"Cache-Control", "max-age=120"}, 0, 2 * time.Minute, true},
		{"quoted max-age", []string{"Cache-Control", `max-age="120"`}, 0, 2 * time.Minute, true},
		{"case-insensitive directive", []string{"Cache-Control", "Max-Age=30"}, 0, 30 * time.Second, true},
		{"smallest of repeated max-age", []string{"Cache-Control", "max-age=300, max-age=60"}, 0, time.Minute, true},
		{"several header lines", []string{"Cache-Control", "public", "Cache-Control", "max-age=90"}, 0, 90 * time.Second, true},
		{"invalid max-age is stale", []string{"Cache-Control", "max-age=soon"}, 0, 0, true},
		{"negative max-age is stale", []string{"Cache-Control", "max-age=-5"}, 0, 0, true},
		{"max-age beats Expires", []string{"Cache-Control", "max-age=10", "Expires", "Tue, 01 Sep 2026 13:00:00 GMT"}, 0, 10 * time.Second, true},
		{"Expires without Date uses now", []string{"Expires", "Tue, 01 Sep 2026 12:01:00 GMT"}, 0, time.Minute, true},
		{"Expires in the past", []string{"Expires", "Tue, 01 Sep 2026 11:00:00 GMT"}, 0, 0, true},
		{"Age reduces max-age", []string{"Cache-Control", "max-age=100", "Age", "40"}, 0, time.Minute, true},
		{"Age beyond max-age", []string{"Cache-Control", "max-age=100", "Age", "400"}, 0, 0, true},
		{"no-store wins", []string{"Cache-Control", "max-age=100, no-store"}, time.Minute, 0, false},
		{"no-cache", []string{"Cache-Control", "no-cache, max-age=100"}, 0, 0, true},
		{"field-qualified no-cache", []string{"Cache-Control", `no-cache="Set-Cookie", max-age=100`}, 0, 0, true},
		{"s-maxage ignored", []string{"Cache-Control", "s-maxage=600"}, 0, def, true},
		{"MinTTL raises short lifetimes", []string{"Cache-Control", "max-age=5"}, time.Minute, time.Minute, true},
		{"MinTTL raises no-cache", []string{"Cache-Control", "no-cache"}, time.Minute, time.Minute, true},
		{"capped", []string{"Cache-Control", "max-age=999999999999999999999"}, 0, maxCacheLifetime, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for i := 0; i+1 < len(tt.headers); i += 2 {
				h.Add(tt.headers[i], tt.headers[i+1])
			}
			ttl, store := parseCacheControl(h, now).lifetime(def, tt.minTTL)
			if ttl != tt.wantTTL || store != tt.wantStore {
				t.Fatalf("lifetime = %s, %v; want %s, %v", ttl, store, tt.wantTTL, tt.wantStore)
			}
		})
	}
}

// FuzzParseCacheControl checks that arbitrary header values never panic and
// always give a lifetime inside [MinTTL, maxCacheLifetime].
func FuzzParseCacheControl(f *testing.F) {
	for _, s := range []string{"max-age=60", "no-store", "no-cache, max-age=0", `max-age="9"`, "max-age=99999999999999999999", ",,=,", ""} {
		f.Add(s, "Tue, 01 Sep 2026 12:01:00 GMT", "5")
	}
	now := time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, cc, expires, age string) {
		h := http.Header{}
		h.Set("Cache-Control", cc)
		h.Set("Expires", expires)
		h.Set("Age", age)
		d := parseCacheControl(h, now)
		ttl, store := d.lifetime(DefaultTTL, time.Second)
		if !store {
			if !strings.Contains(strings.ToLower(cc), "no-store") {
				t.Fatalf("not storable without no-store: %q", cc)
			}
			return
		}
		if ttl < time.Second || ttl > maxCacheLifetime {
			t.Fatalf("lifetime %s out of range for %q", ttl, cc)
		}
	})
}

// FuzzCheckURL checks that whatever the profile URL policy accepts is an
// absolute https URL without user information or a non-public literal host.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"https://platform.example.com/profile.json",
		"http://platform.example.com/",
		"https://user@platform.example.com/",
		"https://127.0.0.1/",
		"https://[::ffff:10.0.0.1]:8443/x",
		"HTTPS://Platform.Example.com/P#frag",
		"https:platform.example.com",
		"//platform.example.com/x",
	} {
		f.Add(s)
	}
	s, err := NewHTTPSource(HTTPOptions{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, derr := s.checkURL(raw)
		if derr != nil {
			if derr.Code == "" || derr.Content == "" {
				t.Fatalf("empty discovery error for %q", raw)
			}
			return
		}
		if u.Scheme != "https" || u.User != nil || u.Host == "" || u.Fragment != "" {
			t.Fatalf("accepted %q as %s", raw, u)
		}
		if _, err := http.NewRequestWithContext(context.Background(), http.MethodGet, u.String(), nil); err != nil {
			t.Fatalf("accepted %q but it cannot be requested: %v", raw, err)
		}
	})
}
