package schemacheck

import (
	"fmt"
	"hash/maphash"
	"strings"
	"sync"
	"testing"
)

// uncachedURI is checkURI without its memo: the reference the memo must
// never differ from.
func uncachedURI(s string) bool {
	u, err := parseURI(s)
	return err == nil && u.IsAbs()
}

// TestURIMemoAgreesWithParsing checks many URIs (more than the memo has
// slots, so slots are shared and replaced), valid and not, each several
// times from several goroutines: every answer is the parse's, a valid one
// is remembered and an invalid one never is.
func TestURIMemoAgreesWithParsing(t *testing.T) {
	var in []string
	for i := range 3 * len(uriMemo) {
		in = append(in,
			fmt.Sprintf("https://platform%d.example/profile.json", i),
			fmt.Sprintf("relative/%d", i),
			fmt.Sprintf("https://[::1%%25eth%d]/", i),
		)
	}
	in = append(in, "https://"+strings.Repeat("a", memoURIMax)+".example/")
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 3 {
				for i := range in {
					s := in[(i*(g+1)+round)%len(in)]
					if got, want := checkURI(s) == nil, uncachedURI(s); got != want {
						t.Errorf("checkURI(%q) ok=%v, parsing says %v", s, got, want)
						return
					}
				}
			}
		}()
	}
	wg.Wait()

	valid := "https://platform.example/profile.json"
	if checkURI(valid) != nil {
		t.Fatalf("%s refused", valid)
	}
	if p := uriMemo[slotOf(valid)].Load(); p == nil || *p != valid {
		t.Errorf("an accepted URI is not remembered")
	}
	for _, bad := range []string{"relative/x", "https://[::1%25eth0]/", "https://a b.example/%zz"} {
		if checkURI(bad) == nil {
			t.Fatalf("%q accepted", bad)
		}
		if p := uriMemo[slotOf(bad)].Load(); p != nil && *p == bad {
			t.Errorf("a refused URI %q is remembered", bad)
		}
		if checkURI(bad) == nil {
			t.Errorf("%q accepted the second time", bad)
		}
	}
}

// slotOf is the uriMemo slot checkURI uses for s.
func slotOf(s string) uint64 { return maphash.String(uriSeed, s) % uint64(len(uriMemo)) }
