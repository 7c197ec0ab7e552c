package capability_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/capability"
)

// The hook interfaces of a small generated package: two capabilities of one
// method each and one of two methods.
type (
	SearchHooks interface {
		Search(ctx context.Context, q string) (string, error)
	}
	LookupHooks interface {
		Lookup(ctx context.Context, id string) (string, error)
	}
	CartHooks interface {
		CreateCart(ctx context.Context, id string) (string, error)
		GetCart(ctx context.Context, id string) (string, error)
	}
)

// caps binds each capability to the names of its methods, so a test sees
// which value each item came from.
var caps = []capability.Capability[string]{
	{Name: "x.search", Schema: "s.json", Interface: reflect.TypeFor[SearchHooks](), Bind: func(h any) ([]string, bool) {
		_, ok := h.(SearchHooks)
		return []string{"search"}, ok
	}},
	{Name: "x.lookup", Interface: reflect.TypeFor[LookupHooks](), Bind: func(h any) ([]string, bool) {
		_, ok := h.(LookupHooks)
		return []string{"lookup"}, ok
	}},
	{Name: "x.cart", Interface: reflect.TypeFor[CartHooks](), Bind: func(h any) ([]string, bool) {
		_, ok := h.(CartHooks)
		return []string{"create_cart", "get_cart"}, ok
	}},
}

type searcher struct{}

func (searcher) Search(context.Context, string) (string, error) { return "", nil }

type finder struct{ searcher }

func (finder) Lookup(context.Context, string) (string, error) { return "", nil }

type halfCart struct{}

func (halfCart) CreateCart(context.Context, string) (string, error) { return "", nil }

type oldLookup struct{}

func (oldLookup) Lookup(context.Context, int) (string, error) { return "", nil }

type nothing struct{}

// restricted has every method but answers only what it says it serves.
type restricted struct {
	finder
	names []string
	err   error
}

func (r restricted) ServedCapabilities() ([]string, error) { return r.names, r.err }

func TestResolve(t *testing.T) {
	tests := []struct {
		name    string
		hooks   any
		want    []string // served capability names, in order
		wantErr []string // substrings of the error
	}{
		{"one capability", searcher{}, []string{"x.search"}, nil},
		{"two capabilities", finder{}, []string{"x.search", "x.lookup"}, nil},
		{"composed, in the package's order", capability.Compose(halfCartFull{}, finder{}), []string{"x.search", "x.lookup", "x.cart"}, nil},
		{"omitted", capability.Omit(finder{}, "x.lookup"), []string{"x.search"}, nil},
		{"omit inside compose", capability.Compose(capability.Omit(finder{}, "x.search"), searcher{}), []string{"x.search", "x.lookup"}, nil},
		{"restricted", restricted{names: []string{"x.lookup"}}, []string{"x.lookup"}, nil},
		{"restricted to nothing", restricted{names: nil}, nil, []string{"implement none of the capabilities"}},
		{"restricted with an error", restricted{err: errTest}, nil, []string{"test failure"}},
		{"nil", nil, nil, []string{"hooks are nil"}},
		{"no capability", nothing{}, nil, []string{"capability_test.nothing implement none of the capabilities", "SearchHooks (x.search)", "LookupHooks (x.lookup)", "CartHooks (x.cart)"}},
		{"a method missing", halfCart{}, nil, []string{"implement CartHooks (x.cart) only in part", "missing GetCart"}},
		{"a wrong signature", oldLookup{}, nil, []string{"LookupHooks (x.lookup) only in part", "Lookup is func(context.Context, int) (string, error), want func(context.Context, string) (string, error)"}},
		{"two parts, one capability", capability.Compose(finder{}, searcher{}), nil, []string{"parts 0 (type capability_test.finder) and 1 (type capability_test.searcher) both implement x.search"}},
		{"a part that serves nothing", capability.Compose(finder{}, nothing{}), nil, []string{"part 1 (type capability_test.nothing) implements none"}},
		{"omit of an unknown name", capability.Omit(finder{}, "x.ask"), nil, []string{`Omit names "x.ask", which is not a capability of this package (it has x.search, x.lookup, x.cart)`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			served, err := capability.Resolve(tc.hooks, caps)
			if tc.wantErr != nil {
				if err == nil {
					t.Fatalf("served %v, want an error", served)
				}
				for _, w := range tc.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not say %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range served {
				got = append(got, s.Name)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("served %v, want %v", got, tc.want)
			}
			if served[0].Name == "x.search" && (served[0].Schema != "s.json" || !slices.Equal(served[0].Items, []string{"search"})) {
				t.Errorf("x.search served as %+v", served[0])
			}
		})
	}
}

type halfCartFull struct{ halfCart }

func (halfCartFull) GetCart(context.Context, string) (string, error) { return "", nil }

var errTest = testError("test failure")

type testError string

func (e testError) Error() string { return string(e) }

func TestFind(t *testing.T) {
	f := finder{}
	tests := []struct {
		name  string
		hooks any
		cap   string
		want  bool
	}{
		{"direct", f, "x.lookup", true},
		{"not implemented", searcher{}, "x.lookup", false},
		{"in a composition", capability.Compose(searcher{}, f), "x.lookup", true},
		{"omitted", capability.Omit(f, "x.lookup"), "x.lookup", false},
		{"restricted away", restricted{finder: f, names: []string{"x.search"}}, "x.lookup", false},
		{"restricted in", restricted{finder: f, names: []string{"x.lookup"}}, "x.lookup", true},
		{"restricted with an error", restricted{finder: f, names: []string{"x.lookup"}, err: errTest}, "x.lookup", false},
		{"nil", nil, "x.lookup", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := capability.Find[LookupHooks](tc.hooks, tc.cap); ok != tc.want {
				t.Fatalf("found = %v, want %v", ok, tc.want)
			}
		})
	}
}
