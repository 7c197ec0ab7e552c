package lookup

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// loc is a minimal Location: the tests only need an identity and a field the
// refinement can look at.
type loc struct {
	ID   string
	City string
}

// store is a fake resolution hook that records every identifier it is asked
// about, so tests can prove the unprocessed suffix is never evaluated.
type store struct {
	byID  map[string][]loc
	calls []string
	fail  map[string]error
}

func (s *store) resolve(_ context.Context, id string) ([]loc, error) {
	s.calls = append(s.calls, id)
	if err := s.fail[id]; err != nil {
		return nil, err
	}
	return s.byID[id], nil
}

func locKey(l loc) string { return l.ID }

var (
	downtown = loc{ID: "loc_downtown", City: "Springfield"}
	airport  = loc{ID: "loc_airport", City: "Springfield"}
	harbour  = loc{ID: "loc_harbour", City: "Shelbyville"}
)

// catalogue maps canonical ids and aliases to Locations; "brand_springfield"
// is an alias that reaches two Locations.
func catalogue() map[string][]loc {
	return map[string][]loc{
		"loc_downtown":      {downtown},
		"DT-001":            {downtown},
		"store-7":           {downtown},
		"loc_airport":       {airport},
		"loc_harbour":       {harbour},
		"brand_springfield": {downtown, airport},
		"twice":             {harbour, harbour},
	}
}

// manyIDs returns n distinct identifiers id_00, id_01, ... each resolving to
// its own Location in the returned map.
func manyIDs(n int) ([]string, map[string][]loc) {
	ids := make([]string, n)
	m := make(map[string][]loc, n)
	for i := range n {
		id := fmt.Sprintf("id_%02d", i)
		ids[i] = id
		m[id] = []loc{{ID: "loc_" + id}}
	}
	return ids, m
}

func onlyCity(city string) func(context.Context, loc) (bool, error) {
	return func(_ context.Context, l loc) (bool, error) { return l.City == city, nil }
}

func boolPtr(b bool) *bool { return &b }

type wantEntry struct {
	ID     string
	Inputs []string
}

func TestResolve(t *testing.T) {
	ids12, map12 := manyIDs(12)
	ids11, map11 := manyIDs(11)
	ids10, map10 := manyIDs(10)
	tests := []struct {
		name      string
		ids       []string
		byID      map[string][]loc
		opts      Options
		keep      func(context.Context, loc) (bool, error)
		entries   []wantEntry
		messages  []Message
		calls     []string
		processed []string
		cut       int
	}{
		{
			name:      "duplicates are processed once, first occurrence kept",
			ids:       []string{"loc_airport", "loc_downtown", "loc_airport", "loc_downtown"},
			entries:   []wantEntry{{"loc_airport", []string{"loc_airport"}}, {"loc_downtown", []string{"loc_downtown"}}},
			calls:     []string{"loc_airport", "loc_downtown"},
			processed: []string{"loc_airport", "loc_downtown"},
		},
		{
			name:      "ids differing only in case or blanks are distinct",
			ids:       []string{"loc_downtown", "LOC_DOWNTOWN", " loc_downtown"},
			entries:   []wantEntry{{"loc_downtown", []string{"loc_downtown"}}},
			messages:  []Message{notFound("LOC_DOWNTOWN"), {Type: "info", Code: CodeNotFound, Content: `Unable to find the location associated with " loc_downtown".`}},
			calls:     []string{"loc_downtown", "LOC_DOWNTOWN", " loc_downtown"},
			processed: []string{"loc_downtown", "LOC_DOWNTOWN", " loc_downtown"},
		},
		{
			name:      "aliases of one Location merge into one entry in request order",
			ids:       []string{"store-7", "loc_airport", "loc_downtown", "DT-001"},
			entries:   []wantEntry{{"loc_downtown", []string{"store-7", "loc_downtown", "DT-001"}}, {"loc_airport", []string{"loc_airport"}}},
			calls:     []string{"store-7", "loc_airport", "loc_downtown", "DT-001"},
			processed: []string{"store-7", "loc_airport", "loc_downtown", "DT-001"},
		},
		{
			name:      "one id reaching several Locations lists itself on each",
			ids:       []string{"brand_springfield"},
			entries:   []wantEntry{{"loc_downtown", []string{"brand_springfield"}}, {"loc_airport", []string{"brand_springfield"}}},
			calls:     []string{"brand_springfield"},
			processed: []string{"brand_springfield"},
		},
		{
			name:      "alias fan-out merges with a canonical id",
			ids:       []string{"loc_airport", "brand_springfield"},
			entries:   []wantEntry{{"loc_airport", []string{"loc_airport", "brand_springfield"}}, {"loc_downtown", []string{"brand_springfield"}}},
			calls:     []string{"loc_airport", "brand_springfield"},
			processed: []string{"loc_airport", "brand_springfield"},
		},
		{
			name:      "an id resolving to the same Location twice counts once",
			ids:       []string{"twice"},
			entries:   []wantEntry{{"loc_harbour", []string{"twice"}}},
			calls:     []string{"twice"},
			processed: []string{"twice"},
		},
		{
			name:      "unknown ids get not_found, known ones do not",
			ids:       []string{"loc_invalid_id", "loc_harbour", "nope"},
			entries:   []wantEntry{{"loc_harbour", []string{"loc_harbour"}}},
			messages:  []Message{notFound("loc_invalid_id"), notFound("nope")},
			calls:     []string{"loc_invalid_id", "loc_harbour", "nope"},
			processed: []string{"loc_invalid_id", "loc_harbour", "nope"},
		},
		{
			name:      "a duplicated unknown id gets one not_found",
			ids:       []string{"nope", "nope"},
			messages:  []Message{notFound("nope")},
			calls:     []string{"nope"},
			processed: []string{"nope"},
		},
		{
			name:      "Locations removed by refinement get no message",
			ids:       []string{"loc_harbour", "brand_springfield", "ghost"},
			keep:      onlyCity("Springfield"),
			entries:   []wantEntry{{"loc_downtown", []string{"brand_springfield"}}, {"loc_airport", []string{"brand_springfield"}}},
			messages:  []Message{notFound("ghost")},
			calls:     []string{"loc_harbour", "brand_springfield", "ghost"},
			processed: []string{"loc_harbour", "brand_springfield", "ghost"},
		},
		{
			name:      "refinement removing everything is an empty success",
			ids:       []string{"loc_downtown", "loc_airport"},
			keep:      onlyCity("Capital City"),
			calls:     []string{"loc_downtown", "loc_airport"},
			processed: []string{"loc_downtown", "loc_airport"},
		},
		{
			name:      "not_found messages can be switched off",
			ids:       []string{"nope", "loc_harbour"},
			opts:      Options{NotFoundMessages: boolPtr(false)},
			entries:   []wantEntry{{"loc_harbour", []string{"loc_harbour"}}},
			calls:     []string{"nope", "loc_harbour"},
			processed: []string{"nope", "loc_harbour"},
		},
		{
			name:      "not_found messages explicitly on",
			ids:       []string{"nope"},
			opts:      Options{NotFoundMessages: boolPtr(true)},
			messages:  []Message{notFound("nope")},
			calls:     []string{"nope"},
			processed: []string{"nope"},
		},
		{
			name:      "over the maximum: first N distinct processed, the rest never resolved",
			ids:       append(append([]string{}, ids12...), "id_00", "id_01"),
			byID:      map12,
			opts:      Options{BatchMax: 10},
			entries:   entriesFor(ids12[:10]),
			messages:  []Message{{Type: "info", Code: CodeBatchLimitApplied, Content: "The batch maximum is 10: processed the first 10 of 12 distinct identifiers; 2 identifiers were not processed."}},
			calls:     ids12[:10],
			processed: ids12[:10],
			cut:       2,
		},
		{
			name:      "one over the maximum uses the singular",
			ids:       ids11,
			byID:      map11,
			opts:      Options{BatchMax: 10},
			entries:   entriesFor(ids11[:10]),
			messages:  []Message{{Type: "info", Code: CodeBatchLimitApplied, Content: "The batch maximum is 10: processed the first 10 of 11 distinct identifiers; 1 identifier was not processed."}},
			calls:     ids11[:10],
			processed: ids11[:10],
			cut:       1,
		},
		{
			name:      "duplicates do not count against the maximum",
			ids:       append(append([]string{}, ids10...), ids10...),
			byID:      map10,
			opts:      Options{BatchMax: 10},
			entries:   entriesFor(ids10),
			calls:     ids10,
			processed: ids10,
		},
		{
			name:      "exactly at the maximum: no message",
			ids:       ids10,
			byID:      map10,
			opts:      Options{BatchMax: 10},
			entries:   entriesFor(ids10),
			calls:     ids10,
			processed: ids10,
		},
		{
			name:      "unprocessed unknown ids get no not_found",
			ids:       append(append([]string{}, ids10...), "nope"),
			byID:      map10,
			opts:      Options{BatchMax: 10},
			entries:   entriesFor(ids10),
			messages:  []Message{{Type: "info", Code: CodeBatchLimitApplied, Content: "The batch maximum is 10: processed the first 10 of 11 distinct identifiers; 1 identifier was not processed."}},
			calls:     ids10,
			processed: ids10,
			cut:       1,
		},
		{
			name: "batch message comes before not_found",
			ids:  append([]string{"nope"}, ids10...),
			byID: map10,
			opts: Options{BatchMax: 10},
			// id_09 is cut; "nope" is processed and unknown.
			entries: entriesFor(ids10[:9]),
			messages: []Message{
				{Type: "info", Code: CodeBatchLimitApplied, Content: "The batch maximum is 10: processed the first 10 of 11 distinct identifiers; 1 identifier was not processed."},
				notFound("nope"),
			},
			calls:     append([]string{"nope"}, ids10[:9]...),
			processed: append([]string{"nope"}, ids10[:9]...),
			cut:       1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			byID := tc.byID
			if byID == nil {
				byID = catalogue()
			}
			s := &store{byID: byID}
			var refined []string
			keep := tc.keep
			if keep != nil {
				inner := keep
				keep = func(ctx context.Context, l loc) (bool, error) {
					refined = append(refined, l.ID)
					return inner(ctx, l)
				}
			}
			res, err := Resolve(context.Background(), tc.ids, tc.opts, s.resolve, locKey, keep)
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			var got []wantEntry
			for _, e := range res.Entries {
				if e.Location.ID == "" {
					t.Errorf("entry with zero Location: %+v", e)
				}
				got = append(got, wantEntry{e.Location.ID, e.Inputs})
			}
			if !reflect.DeepEqual(got, tc.entries) {
				t.Errorf("entries:\n got %v\nwant %v", got, tc.entries)
			}
			if !reflect.DeepEqual(res.Messages, tc.messages) {
				t.Errorf("messages:\n got %q\nwant %q", res.Messages, tc.messages)
			}
			if !reflect.DeepEqual(s.calls, tc.calls) {
				t.Errorf("hook calls:\n got %v\nwant %v", s.calls, tc.calls)
			}
			if !reflect.DeepEqual(res.Processed, tc.processed) {
				t.Errorf("processed:\n got %v\nwant %v", res.Processed, tc.processed)
			}
			if res.Unprocessed != tc.cut {
				t.Errorf("unprocessed = %d, want %d", res.Unprocessed, tc.cut)
			}
			// Refinement runs once per distinct resolved Location.
			seen := map[string]bool{}
			for _, id := range refined {
				if seen[id] {
					t.Errorf("refinement called twice for %s (calls %v)", id, refined)
				}
				seen[id] = true
			}
			for _, e := range res.Entries {
				if len(e.Inputs) == 0 {
					t.Errorf("entry %s has no inputs", e.Location.ID)
				}
				if keep != nil && !seen[e.Location.ID] {
					t.Errorf("entry %s returned without refinement", e.Location.ID)
				}
			}

			// ResolveAll gives the same result with one resolve call (for
			// exactly the processed ids) and at most one refine call.
			var batches [][]string
			all := func(_ context.Context, ids []string) (map[string][]loc, error) {
				batches = append(batches, ids)
				out := map[string][]loc{}
				for _, id := range ids {
					if l := byID[id]; l != nil {
						out[id] = l
					}
				}
				return out, nil
			}
			var refine func(context.Context, []loc) ([]bool, error)
			refines := 0
			if tc.keep != nil {
				refine = func(ctx context.Context, ls []loc) ([]bool, error) {
					refines++
					ok := make([]bool, len(ls))
					for i, l := range ls {
						k, err := tc.keep(ctx, l)
						if err != nil {
							return nil, err
						}
						ok[i] = k
					}
					return ok, nil
				}
			}
			batched, err := ResolveAll(context.Background(), tc.ids, tc.opts, all, locKey, refine)
			if err != nil {
				t.Fatalf("ResolveAll: %v", err)
			}
			if !reflect.DeepEqual(batched, res) {
				t.Errorf("ResolveAll differs from Resolve:\n got %+v\nwant %+v", batched, res)
			}
			if len(batches) != 1 || !reflect.DeepEqual(batches[0], tc.processed) || refines > 1 {
				t.Errorf("ResolveAll: resolve batches %v (want one: %v), %d refine calls", batches, tc.processed, refines)
			}
		})
	}
}

func TestResolveAllErrors(t *testing.T) {
	resolveErr := errors.New("database unavailable")
	ok := func(context.Context, []string) (map[string][]loc, error) {
		return map[string][]loc{"a": {{ID: "a"}}}, nil
	}
	for _, tc := range []struct {
		name    string
		ids     []string
		resolve func(context.Context, []string) (map[string][]loc, error)
		refine  func(context.Context, []loc) ([]bool, error)
		want    string
	}{
		{"empty ids", nil, ok, nil, "/ids"},
		{"resolve fails", []string{"a"}, func(context.Context, []string) (map[string][]loc, error) { return nil, resolveErr }, nil, "database unavailable"},
		{"refine answers short", []string{"a"}, ok, func(context.Context, []loc) ([]bool, error) { return nil, nil }, "refine returned 0 answers for 1 locations"},
		{"empty key", []string{"a"}, func(context.Context, []string) (map[string][]loc, error) { return map[string][]loc{"a": {{}}}, nil }, nil, "empty key"},
		{"nil resolve", []string{"a"}, nil, nil, "resolve hook is nil"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ResolveAll(context.Background(), tc.ids, Options{}, tc.resolve, locKey, tc.refine)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func notFound(id string) Message {
	return Message{Type: "info", Code: CodeNotFound, Content: "Unable to find the location associated with " + id + "."}
}

func entriesFor(ids []string) []wantEntry {
	out := make([]wantEntry, len(ids))
	for i, id := range ids {
		out[i] = wantEntry{"loc_" + id, []string{id}}
	}
	return out
}

// TestResolveDefaultBatchMax proves the zero Options process 50 distinct ids
// and cut the 51st.
func TestResolveDefaultBatchMax(t *testing.T) {
	for _, n := range []int{DefaultBatchMax, DefaultBatchMax + 1} {
		ids := make([]string, n)
		for i := range ids {
			ids[i] = fmt.Sprintf("x%03d", i)
		}
		s := &store{}
		res, err := Resolve(context.Background(), ids, Options{}, s.resolve, locKey, nil)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if len(s.calls) != DefaultBatchMax {
			t.Errorf("n=%d: hook called %d times, want %d", n, len(s.calls), DefaultBatchMax)
		}
		wantCut := n - DefaultBatchMax
		if res.Unprocessed != wantCut {
			t.Errorf("n=%d: unprocessed %d, want %d", n, res.Unprocessed, wantCut)
		}
		batch := 0
		for _, m := range res.Messages {
			if m.Code == CodeBatchLimitApplied {
				batch++
				if !strings.Contains(m.Content, "50") {
					t.Errorf("batch message does not state the maximum: %q", m.Content)
				}
			}
		}
		if batch != wantCut {
			t.Errorf("n=%d: %d batch_limit_applied messages, want %d", n, batch, wantCut)
		}
	}
}

func TestResolveErrors(t *testing.T) {
	hookErr := errors.New("store unavailable")
	predErr := rpcerr.Invalid("/filters/amenities/0", "enum", "unsupported amenity %q", "helipad")
	tests := []struct {
		name    string
		ids     []string
		opts    Options
		fail    map[string]error
		key     func(loc) string
		keep    func(context.Context, loc) (bool, error)
		nilHook bool
		calls   []string
		check   func(t *testing.T, err error)
	}{
		{
			name: "empty ids is invalid params at /ids",
			ids:  nil,
			check: func(t *testing.T, err error) {
				ip, ok := rpcerr.AsInvalidParams(err)
				if !ok || len(ip.Violations) != 1 || ip.Violations[0].Pointer != IDsPointer {
					t.Fatalf("want InvalidParams at %s, got %v", IDsPointer, err)
				}
			},
		},
		{
			name:  "hook error is wrapped with the id and stops the lookup",
			ids:   []string{"loc_downtown", "boom", "loc_airport"},
			fail:  map[string]error{"boom": hookErr},
			calls: []string{"loc_downtown", "boom"},
			check: func(t *testing.T, err error) {
				if !errors.Is(err, hookErr) {
					t.Fatalf("want wrapped hook error, got %v", err)
				}
				if !strings.Contains(err.Error(), `resolve`) || !strings.Contains(err.Error(), `"boom"`) {
					t.Errorf("error does not name the id: %v", err)
				}
			},
		},
		{
			name:  "refinement InvalidParams stays reachable",
			ids:   []string{"loc_downtown"},
			keep:  func(context.Context, loc) (bool, error) { return false, predErr },
			calls: []string{"loc_downtown"},
			check: func(t *testing.T, err error) {
				ip, ok := rpcerr.AsInvalidParams(err)
				if !ok || ip != predErr {
					t.Fatalf("want the predicate engine's InvalidParams, got %v", err)
				}
			},
		},
		{
			name: "BatchMax below the floor is rejected naming the field",
			ids:  []string{"loc_downtown"},
			opts: Options{BatchMax: 9},
			check: func(t *testing.T, err error) {
				if err == nil || !strings.Contains(err.Error(), "BatchMax is 9") {
					t.Fatalf("want BatchMax error, got %v", err)
				}
			},
		},
		{
			name: "negative BatchMax is rejected",
			ids:  []string{"loc_downtown"},
			opts: Options{BatchMax: -1},
			check: func(t *testing.T, err error) {
				if err == nil || !strings.Contains(err.Error(), "BatchMax is -1") {
					t.Fatalf("want BatchMax error, got %v", err)
				}
			},
		},
		{
			name:  "empty Location key is a store bug, not a silent merge",
			ids:   []string{"loc_downtown"},
			key:   func(loc) string { return "" },
			calls: []string{"loc_downtown"},
			check: func(t *testing.T, err error) {
				if err == nil || !strings.Contains(err.Error(), "empty key") {
					t.Fatalf("want empty key error, got %v", err)
				}
			},
		},
		{
			name:    "nil hook is an error, not a panic",
			ids:     []string{"loc_downtown"},
			nilHook: true,
			check: func(t *testing.T, err error) {
				if err == nil {
					t.Fatal("want error")
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &store{byID: catalogue(), fail: tc.fail}
			hook := s.resolve
			if tc.nilHook {
				hook = nil
			}
			key := tc.key
			if key == nil {
				key = locKey
			}
			res, err := Resolve(context.Background(), tc.ids, tc.opts, hook, key, tc.keep)
			if err == nil {
				t.Fatalf("want error, got result %+v", res)
			}
			tc.check(t, err)
			if !reflect.DeepEqual(s.calls, tc.calls) {
				t.Errorf("hook calls: got %v, want %v", s.calls, tc.calls)
			}
		})
	}
}

func TestResolveCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := &store{byID: catalogue()}
	hook := func(ctx context.Context, id string) ([]loc, error) {
		cancel() // the caller gives up while the first id is being resolved
		return s.resolve(ctx, id)
	}
	_, err := Resolve(ctx, []string{"loc_downtown", "loc_airport"}, Options{}, hook, locKey, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	if len(s.calls) != 1 {
		t.Errorf("hook called %d times after cancellation, want 1", len(s.calls))
	}
}

func TestOptionsValidate(t *testing.T) {
	tests := []struct {
		max int
		ok  bool
	}{{0, true}, {10, true}, {500, true}, {9, false}, {1, false}, {-5, false}}
	for _, tc := range tests {
		err := Options{BatchMax: tc.max}.Validate()
		if (err == nil) != tc.ok {
			t.Errorf("BatchMax %d: err = %v, want ok=%v", tc.max, err, tc.ok)
		}
	}
}

func TestDisplayID(t *testing.T) {
	tests := []struct{ in, want string }{
		{"loc_invalid_id", "loc_invalid_id"},
		{"Zürich-1", "Zürich-1"},
		{"", `""`},
		{"a b", `"a b"`},
		{"x\ny", `"x\ny"`},
		{`say"hi`, `"say\"hi"`},
		{strings.Repeat("a", MaxEchoedID), strings.Repeat("a", MaxEchoedID)},
		{strings.Repeat("<", 12000), `"` + strings.Repeat("<", EchoedPrefix) + `…" (12000 bytes)`},
		// The cut never splits a rune: 39 bytes of "a", then "é" would
		// straddle byte 40.
		{strings.Repeat("a", 39) + strings.Repeat("é", 30), `"` + strings.Repeat("a", 39) + `…" (99 bytes)`},
	}
	for _, tc := range tests {
		if got := displayID(tc.in); got != tc.want {
			t.Errorf("displayID(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// FuzzResolve checks the bookkeeping invariants for arbitrary id lists against
// a small alias table: no Location twice, no entry without inputs, inputs in
// request order and drawn from the processed ids, every processed id either
// reaching a Location or reported not_found, and the hook never called for an
// id beyond the batch.
func FuzzResolve(f *testing.F) {
	f.Add("loc_downtown,DT-001,loc_downtown,nope", uint8(10))
	f.Add("brand_springfield,loc_airport,twice,store-7,,x", uint8(10))
	f.Add("a,b,c,d,e,f,g,h,i,j,k,l,m,a,b", uint8(11))
	f.Fuzz(func(t *testing.T, list string, max uint8) {
		ids := strings.Split(list, ",")
		opts := Options{BatchMax: MinBatchMax + int(max%8)}
		s := &store{byID: catalogue()}
		res, err := Resolve(context.Background(), ids, opts, s.resolve, locKey, nil)
		if err != nil {
			t.Fatalf("Resolve(%q): %v", ids, err)
		}
		distinct := dedupe(ids)
		if len(s.calls) > opts.BatchMax || len(s.calls)+res.Unprocessed != len(distinct) {
			t.Fatalf("calls %d, unprocessed %d, distinct %d, max %d", len(s.calls), res.Unprocessed, len(distinct), opts.BatchMax)
		}
		if !reflect.DeepEqual(s.calls, res.Processed) {
			t.Fatalf("hook saw %q, processed %q", s.calls, res.Processed)
		}
		pos := map[string]int{}
		for i, id := range res.Processed {
			pos[id] = i
		}
		reached := map[string]bool{}
		keys := map[string]bool{}
		for _, e := range res.Entries {
			if keys[e.Location.ID] {
				t.Fatalf("Location %s returned twice", e.Location.ID)
			}
			keys[e.Location.ID] = true
			if len(e.Inputs) == 0 {
				t.Fatalf("Location %s without inputs", e.Location.ID)
			}
			last := -1
			for _, in := range e.Inputs {
				p, ok := pos[in]
				if !ok || p <= last {
					t.Fatalf("inputs %q of %s not in processed request order %q", e.Inputs, e.Location.ID, res.Processed)
				}
				last = p
				reached[in] = true
			}
		}
		notFound := 0
		for _, m := range res.Messages {
			if m.Code == CodeNotFound {
				notFound++
			}
		}
		if len(reached)+notFound != len(res.Processed) {
			t.Fatalf("%d ids reached a Location and %d were not found, but %d were processed", len(reached), notFound, len(res.Processed))
		}
	})
}
