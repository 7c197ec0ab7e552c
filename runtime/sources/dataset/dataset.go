// Package dataset reads, streams and validates a JSON file of stores in the
// format both ready-made sources load (runtime/sources/memory and
// runtime/sources/postgis): Record, the strict Parse, ParseFile and OpenFile
// for whole files, Each for streaming one record at a time, and Store and
// Records for stores a Business holds as Go values.
//
// Stability: the file format below and the exported API are stable within a
// major version; a new optional member may be added to the format, never a
// new required one.
//
// A dataset file is a JSON array of records:
//
//	{"location": <UCP Location>, "aliases": [..], "items": [..],
//	 "service_area": {"countries": [..], "regions": [..], "postal_codes": [..], "radius_m": n},
//	 "private": bool}
//
// Only location is required. Parse checks the record-level rules (unknown
// members, types, distinct aliases, unique ids) and leaves the Location
// itself, apart from its id, to the server's generated UCP types.
package dataset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/sources/internal/keyorder"
)

// Record is one store of the dataset: the buyer-facing UCP Location plus the
// Business-side facts (aliases, stock, coverage, visibility) that the server
// needs to answer lookups, items filters and serves relations.
type Record struct {
	// Location is the UCP Location (2026-08-25 shape), kept raw so that the
	// server decodes and validates it with the generated UCP types. It may
	// share the parsed file's memory and must be treated as read-only.
	Location json.RawMessage `json:"location"`
	// ID is the Location's id, copied out by Parse so that callers can index
	// records without decoding the Location; it is not a member of the file.
	ID string `json:"-"`
	// Aliases are secondary identifiers that Lookup may resolve to this
	// store (store numbers, legacy codes); they never collide with any id or
	// other alias in the dataset.
	Aliases []string `json:"aliases,omitempty"`
	// Items are the catalogue item ids the store can currently provide, the
	// operand of the items filter.
	Items []string `json:"items,omitempty"`
	// ServiceArea describes what the store can serve; nil means it serves
	// no target at all.
	ServiceArea *ServiceArea `json:"service_area,omitempty"`
	// Private marks stores that are not buyer-accessible (dark stores,
	// hubs): the server must never return them.
	Private bool `json:"private,omitempty"`
	// Span, set by OpenFile when Location is nil, says where the Location's
	// text is in the file; it is not a member of the file.
	Span Span `json:"-"`
}

// ServiceArea is the store's authoritative coverage, which the server uses
// to decide serves.address (list membership) and serves.point (geodesic
// radius around the Location's geo) without revealing the geometry.
type ServiceArea struct {
	// Countries lists the countries the store delivers to; it also bounds
	// which postal systems the store can evaluate.
	Countries []string `json:"countries,omitempty"`
	// Regions lists first-level regions (states, provinces) the store serves.
	Regions []string `json:"regions,omitempty"`
	// PostalCodes lists postal codes the store serves.
	PostalCodes []string `json:"postal_codes,omitempty"`
	// RadiusM is the delivery radius in meters around the Location's geo;
	// nil means the store serves no point target.
	RadiusM *float64 `json:"radius_m,omitempty"`
}

// FieldError reports one rule a dataset breaks, addressed by record index and
// JSON Pointer into the file, so the author can find the exact value to fix.
type FieldError struct {
	// Index is the record's position in the top-level array, or -1 when the
	// problem is with the array itself.
	Index int
	// Pointer is the RFC 6901 JSON Pointer of the offending value from the
	// file root, e.g. "/12/service_area/radius_m".
	Pointer string
	// Reason says what is wrong in a sentence fragment.
	Reason string
	// Offset, when not 0, is the byte offset in the dataset file of the
	// record's Location, so a large file can be opened at the record.
	Offset int64
}

func (e *FieldError) Error() string {
	if e.Index < 0 {
		return fmt.Sprintf("dataset %s: %s", pointerOrRoot(e.Pointer), e.Reason)
	}
	if e.Offset > 0 {
		return fmt.Sprintf("dataset record %d at byte %d, %s: %s", e.Index, e.Offset, e.Pointer, e.Reason)
	}
	return fmt.Sprintf("dataset record %d at %s: %s", e.Index, e.Pointer, e.Reason)
}

func pointerOrRoot(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}

// Parse decodes a dataset file strictly: unknown or duplicate members, nulls,
// wrong types and broken record-level rules are errors (a *FieldError naming
// the record index and pointer), never silently dropped.
//
// The returned Locations may share data's memory, so data must not be
// modified afterwards, and records with the same service_area text may
// share one ServiceArea: treat records as read-only.
func Parse(data []byte) ([]Record, error) {
	recs, ok := parseFast(data)
	if !ok {
		return parseStrict(data)
	}
	if err := checkIdentifiers(recs); err != nil {
		return nil, err
	}
	return recs, nil
}

// parseStrict is the general path: encoding/json per element, every rule
// checked with a precise error.
func parseStrict(data []byte) ([]Record, error) {
	raws, err := splitArray(data)
	if err != nil {
		return nil, err
	}
	recs := make([]Record, len(raws))
	for i, raw := range raws {
		if err := decodeRecord(i, raw, &recs[i]); err != nil {
			return nil, err
		}
	}
	if err := checkIdentifiers(recs); err != nil {
		return nil, err
	}
	return recs, nil
}

// splitArray returns the raw elements of the top-level array, rejecting any
// other top-level value and trailing data.
func splitArray(data []byte) ([]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, &FieldError{Index: -1, Reason: fmt.Sprintf("not valid JSON: %v", err)}
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, &FieldError{Index: -1, Reason: fmt.Sprintf("top level must be a JSON array of records, got %s", describe(data))}
	}
	var out []json.RawMessage
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			i := len(out)
			return nil, &FieldError{Index: i, Pointer: "/" + strconv.Itoa(i), Reason: fmt.Sprintf("not valid JSON: %v", err)}
		}
		out = append(out, raw)
	}
	if _, err := dec.Token(); err != nil {
		return nil, &FieldError{Index: -1, Reason: fmt.Sprintf("not valid JSON: %v", err)}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &FieldError{Index: -1, Reason: "unexpected data after the top-level array"}
	}
	return out, nil
}

// describe names the JSON type of a raw value for error messages.
func describe(raw json.RawMessage) string {
	t := bytes.TrimLeft(raw, " \t\r\n")
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// member is one name/value pair of a JSON object, in document order.
type member struct {
	name  string
	value json.RawMessage
}

// objectMembers splits a raw JSON object into its members, rejecting
// duplicate names (which encoding/json would silently resolve to the last).
func objectMembers(raw json.RawMessage) ([]member, string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, "", err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, "", errNotObject
	}
	var out []member
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, "", err
		}
		name, _ := tok.(string)
		if seen[name] {
			return nil, name, errDuplicateMember
		}
		seen[name] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, "", err
		}
		out = append(out, member{name: name, value: v})
	}
	return out, "", nil
}

var (
	errNotObject       = errors.New("not an object")
	errDuplicateMember = errors.New("duplicate member")
)

// recordDecoder carries the record index and pointer prefix so every error
// it builds names both.
type recordDecoder struct {
	index int
	base  string
}

func (d recordDecoder) fail(rel, format string, args ...any) *FieldError {
	return &FieldError{Index: d.index, Pointer: d.base + rel, Reason: fmt.Sprintf(format, args...)}
}

func (d recordDecoder) members(rel string, raw json.RawMessage) ([]member, error) {
	ms, dup, err := objectMembers(raw)
	switch {
	case err == nil:
		return ms, nil
	case errors.Is(err, errNotObject):
		return nil, d.fail(rel, "must be an object, got %s", describe(raw))
	case errors.Is(err, errDuplicateMember):
		return nil, d.fail(rel+"/"+rpcerr.EscapeToken(dup), "duplicate member %q", dup)
	default:
		return nil, d.fail(rel, "not valid JSON: %v", err)
	}
}

func decodeRecord(index int, raw json.RawMessage, rec *Record) error {
	d := recordDecoder{index: index, base: "/" + strconv.Itoa(index)}
	ms, err := d.members("", raw)
	if err != nil {
		return err
	}
	hasLocation := false
	for _, m := range ms {
		rel := "/" + rpcerr.EscapeToken(m.name)
		switch m.name {
		case "location":
			hasLocation = true
			id, err := d.locationID(rel, m.value)
			if err != nil {
				return err
			}
			rec.Location = m.value
			rec.ID = id
		case "aliases":
			if rec.Aliases, err = d.stringList(rel, m.value, "alias"); err != nil {
				return err
			}
		case "items":
			if rec.Items, err = d.stringList(rel, m.value, "item id"); err != nil {
				return err
			}
		case "service_area":
			if rec.ServiceArea, err = d.serviceArea(rel, m.value); err != nil {
				return err
			}
		case "private":
			var b bool
			if describe(m.value) != "a boolean" || json.Unmarshal(m.value, &b) != nil {
				return d.fail(rel, "must be a boolean, got %s", describe(m.value))
			}
			rec.Private = b
		default:
			return d.fail(rel, "unknown record member %q (allowed: location, aliases, items, service_area, private)", m.name)
		}
	}
	if !hasLocation {
		return d.fail("/location", "required member is missing")
	}
	return nil
}

// locationID checks that location is an object whose id is a non-empty
// string; the rest of the Location is validated by the server.
func (d recordDecoder) locationID(rel string, raw json.RawMessage) (string, error) {
	ms, err := d.members(rel, raw)
	if err != nil {
		return "", err
	}
	for _, m := range ms {
		if m.name != "id" {
			continue
		}
		var id string
		if describe(m.value) != "a string" || json.Unmarshal(m.value, &id) != nil {
			return "", d.fail(rel+"/id", "must be a string, got %s", describe(m.value))
		}
		if id == "" {
			return "", d.fail(rel+"/id", "must not be empty")
		}
		return id, nil
	}
	return "", d.fail(rel+"/id", "required member is missing")
}

// stringList decodes an array of distinct non-empty strings; what names the
// element kind in messages.
func (d recordDecoder) stringList(rel string, raw json.RawMessage, what string) ([]string, error) {
	var elems []json.RawMessage
	if describe(raw) != "an array" || json.Unmarshal(raw, &elems) != nil {
		return nil, d.fail(rel, "must be an array of strings, got %s", describe(raw))
	}
	out := make([]string, 0, len(elems))
	first := make(map[string]int, len(elems))
	for j, e := range elems {
		p := rel + "/" + strconv.Itoa(j)
		var s string
		if describe(e) != "a string" || json.Unmarshal(e, &s) != nil {
			return nil, d.fail(p, "%s must be a string, got %s", what, describe(e))
		}
		if s == "" {
			return nil, d.fail(p, "%s must not be empty", what)
		}
		if k, dup := first[s]; dup {
			return nil, d.fail(p, "%s %q repeats element %d", what, s, k)
		}
		first[s] = j
		out = append(out, s)
	}
	return out, nil
}

func (d recordDecoder) serviceArea(rel string, raw json.RawMessage) (*ServiceArea, error) {
	ms, err := d.members(rel, raw)
	if err != nil {
		return nil, err
	}
	sa := &ServiceArea{}
	for _, m := range ms {
		p := rel + "/" + rpcerr.EscapeToken(m.name)
		switch m.name {
		case "countries":
			sa.Countries, err = d.stringList(p, m.value, "country")
		case "regions":
			sa.Regions, err = d.stringList(p, m.value, "region")
		case "postal_codes":
			sa.PostalCodes, err = d.stringList(p, m.value, "postal code")
		case "radius_m":
			sa.RadiusM, err = d.radius(p, m.value)
		default:
			err = d.fail(p, "unknown service_area member %q (allowed: countries, regions, postal_codes, radius_m)", m.name)
		}
		if err != nil {
			return nil, err
		}
	}
	return sa, nil
}

// radius parses radius_m itself so that numbers too large for float64 are
// reported as not finite rather than as a decoder type error.
func (d recordDecoder) radius(rel string, raw json.RawMessage) (*float64, error) {
	if describe(raw) != "a number" {
		return nil, d.fail(rel, "must be a number of meters, got %s", describe(raw))
	}
	v, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return nil, d.fail(rel, "must be a finite number of meters, got %s", bytes.TrimSpace(raw))
	}
	if v < 0 {
		return nil, d.fail(rel, "must be >= 0 meters, got %s", bytes.TrimSpace(raw))
	}
	return &v, nil
}

// checkIdentifiers enforces one namespace for ids and aliases across the
// dataset, so a Lookup id never resolves ambiguously by accident.
func checkIdentifiers(recs []Record) error {
	return checkSectionIdentifiers([][]Record{recs})
}

// checkSectionIdentifiers is checkIdentifiers over the records of secs one
// after the other (record numbers count across them), so sections parsed
// apart are checked while they are put together. A large dataset is checked
// on every core: each goroutine takes the identifiers of one hash shard
// (an identifier and every copy of it fall in the same one) and finds its
// shard's first conflict, and the first of those in reading order is the
// error a single pass would meet first.
func checkSectionIdentifiers[R any, P identified[R]](secs [][]R) error {
	_, err := orderIdentifiers[R, P](secs)
	return err
}

// orderIdentifiers is checkSectionIdentifiers that also returns the order
// the sort found when it cleared a large dataset (nil for a small one).
func orderIdentifiers[R any, P identified[R]](secs [][]R) (*IdentifierOrder, error) {
	n := 0
	for _, recs := range secs {
		n += len(recs)
	}
	shards := 1
	if n >= shardIdentifiersFrom {
		order, conflict := sortIdentifiers[R, P](secs, n)
		if !conflict {
			return order, nil
		}
		shards = min(runtime.GOMAXPROCS(0), maxIdentifierShards)
	}
	return nil, checkShards[R, P](secs, n, shards)
}

// IdentifierOrder is the records' identifiers in sorted order, as the
// identifier rules' check of a large file sorted them: a source that
// indexes ids and aliases takes it rather than sorting them again.
type IdentifierOrder struct {
	// ByID holds the record numbers (in file order) sorted by id.
	ByID []int32
	// Aliases holds every record's aliases, in file order, and ByAlias
	// their numbers there sorted by alias (equal aliases in that order).
	Aliases []string
	ByAlias []int32
	// Owner is the record number of each alias, by its number.
	Owner []int32
}

// sortIdentifiers sorts the identifiers of secs' n records and reports
// whether one is used twice in any way but one record naming the same
// alias twice, which the rules allow (conflict), returning the order when
// none is. Sorted, equal identifiers are neighbours, so two sorts (the
// ids and the aliases, side by side) and one merge clear a large dataset
// that breaks no rule (the usual case) at a fraction of a map insert per
// identifier; a dataset that may break one is then checked by the shards,
// which name its first conflict in reading order. Each step runs on two
// goroutines: the check is the one part of a large load that no section
// shares, so a core it leaves idle is time the whole start waits.
func sortIdentifiers[R any, P identified[R]](secs [][]R, n int) (order *IdentifierOrder, conflict bool) {
	var ids, aliases []string
	var owner []int32 // each alias's record
	var byID, byAlias []int32
	var idTwice, aliasTwice bool
	var wg sync.WaitGroup
	wg.Go(func() {
		ids = make([]string, 0, n)
		for _, recs := range secs {
			for k := range recs {
				id, _ := P(&recs[k]).identifiers()
				ids = append(ids, id)
			}
		}
		byID = keyorder.Of(len(ids), func(k int) string { return ids[k] })
		for k := 1; k < len(byID); k++ {
			if ids[byID[k-1]] == ids[byID[k]] {
				idTwice = true
				return
			}
		}
	})
	wg.Go(func() {
		total := 0
		for _, recs := range secs {
			for k := range recs {
				_, as := P(&recs[k]).identifiers()
				total += len(as)
			}
		}
		aliases, owner = make([]string, 0, total), make([]int32, 0, total)
		i := int32(0)
		for _, recs := range secs {
			for k := range recs {
				_, as := P(&recs[k]).identifiers()
				for _, a := range as {
					aliases, owner = append(aliases, a), append(owner, i)
				}
				i++
			}
		}
		byAlias = keyorder.Of(len(aliases), func(k int) string { return aliases[k] })
		for k := 1; k < len(byAlias); k++ {
			a, b := byAlias[k-1], byAlias[k]
			if aliases[a] == aliases[b] && owner[a] != owner[b] {
				aliasTwice = true // one record may name an alias twice, two may not
				return
			}
		}
	})
	wg.Wait()
	if idTwice || aliasTwice {
		return nil, true
	}
	// An alias that is also an id: a merge of the two sorted lists, in two
	// halves cut at the middle id and the first alias not before it (an
	// alias equal to an id of either half falls in the same half).
	idAt := func(k int) string { return ids[byID[k]] }
	aliasAt := func(k int) string { return aliases[byAlias[k]] }
	x := len(byID) / 2
	y := 0
	if x < len(byID) {
		y, _ = slices.BinarySearchFunc(byAlias, idAt(x), func(a int32, id string) int { return strings.Compare(aliases[a], id) })
	}
	var low bool
	wg.Go(func() { low = sharesKey(0, x, 0, y, idAt, aliasAt) })
	high := sharesKey(x, len(byID), y, len(byAlias), idAt, aliasAt)
	wg.Wait()
	if low || high {
		return nil, true
	}
	return &IdentifierOrder{ByID: byID, Aliases: aliases, ByAlias: byAlias, Owner: owner}, false
}

// sharesKey reports whether a key of a[x0:x1] equals one of b[y0:y1], both
// sorted (a merge).
func sharesKey(x, x1, y, y1 int, a, b func(int) string) bool {
	for x < x1 && y < y1 {
		switch c := strings.Compare(a(x), b(y)); {
		case c < 0:
			x++
		case c > 0:
			y++
		default:
			return true
		}
	}
	return false
}

// identified is a record as the identifier rules read it: a whole Record,
// or only its identity when Visitors keep the rest.
type identified[R any] interface {
	*R
	identifiers() (id string, aliases []string)
}

func (r *Record) identifiers() (string, []string) { return r.ID, r.Aliases }

// identity is what the identifier rules read of a record, kept instead of
// the whole record (a third of its size) when every Visitor keeps what it
// needs of it.
type identity struct {
	id      string
	aliases []string
}

func (r *identity) identifiers() (string, []string) { return r.id, r.aliases }

// checkShards is checkSectionIdentifiers over n records on shards
// goroutines.
func checkShards[R any, P identified[R]](secs [][]R, n, shards int) error {
	if shards <= 1 {
		return checkShard[R, P](identifierShard{}, secs, n).err()
	}
	seed := maphash.MakeSeed()
	found := make([]identifierConflict, shards)
	var wg sync.WaitGroup
	for w := range shards {
		wg.Go(func() {
			found[w] = checkShard[R, P](identifierShard{seed: seed, of: uint64(shards), is: uint64(w)}, secs, n/shards)
		})
	}
	wg.Wait()
	first := found[0]
	for _, c := range found[1:] {
		if c.before(first) {
			first = c
		}
	}
	return first.err()
}

// shardIdentifiersFrom is the fewest records whose identifiers are checked
// on more than one core.
const shardIdentifiersFrom = 1 << 16

// maxIdentifierShards bounds the goroutines of one check: each reads every
// record, so more shards than this would mostly repeat that reading.
const maxIdentifierShards = 8

// identifierShard is the share of the identifiers one goroutine checks:
// those whose hash is is modulo of (all of them when of is 0).
type identifierShard struct {
	seed   maphash.Seed
	of, is uint64
}

func (sh identifierShard) owns(id string) bool {
	return sh.of == 0 || maphash.String(sh.seed, id)%sh.of == sh.is
}

// identifierConflict is the first identifier rule a shard's records break,
// in reading order: every id before any alias, then by record and alias
// number. The zero value is no conflict.
type identifierConflict struct {
	kind     conflictKind
	rec, pos int    // record number, and alias number for an alias
	value    string // the identifier
	other    int    // the record that has it already
}

type conflictKind int

const (
	noConflict conflictKind = iota
	idTwice
	aliasIsOwnID
	aliasIsID
	aliasTwice
)

// before reports whether c is met before d by a single pass over all the
// records: the ids are all read before the first alias.
func (c identifierConflict) before(d identifierConflict) bool {
	if c.kind == noConflict || d.kind == noConflict {
		return d.kind == noConflict && c.kind != noConflict
	}
	if ci, di := c.kind == idTwice, d.kind == idTwice; ci != di {
		return ci
	}
	if c.rec != d.rec {
		return c.rec < d.rec
	}
	return c.pos < d.pos
}

func (c identifierConflict) err() error {
	switch c.kind {
	case idTwice:
		return &FieldError{Index: c.rec, Pointer: fmt.Sprintf("/%d/location/id", c.rec),
			Reason: fmt.Sprintf("location id %q is already used by record %d", c.value, c.other)}
	case aliasIsOwnID:
		return aliasError(c.rec, c.pos, "alias %q repeats the store's own location id", c.value)
	case aliasIsID:
		return aliasError(c.rec, c.pos, "alias %q equals the location id of record %d", c.value, c.other)
	case aliasTwice:
		return aliasError(c.rec, c.pos, "alias %q is also an alias of record %d", c.value, c.other)
	}
	return nil
}

// check reads the shard's ids, then its aliases, in record order and
// returns the first conflict; size is how many ids the shard expects.
func checkShard[R any, P identified[R]](sh identifierShard, secs [][]R, size int) identifierConflict {
	idAt := make(map[string]int, size)
	aliases := 0
	i := 0
	for _, recs := range secs {
		for k := range recs {
			id, as := P(&recs[k]).identifiers()
			aliases += len(as)
			if sh.owns(id) {
				if j, dup := idAt[id]; dup {
					return identifierConflict{kind: idTwice, rec: i, value: id, other: j}
				}
				idAt[id] = i
			}
			i++
		}
	}
	if aliases == 0 {
		return identifierConflict{}
	}
	aliasAt := make(map[string]int, aliases/max(1, int(sh.of)))
	i = 0
	for _, recs := range secs {
		for k := range recs {
			_, as := P(&recs[k]).identifiers()
			for j, a := range as {
				if !sh.owns(a) {
					continue
				}
				if k, clash := idAt[a]; clash {
					if k == i {
						return identifierConflict{kind: aliasIsOwnID, rec: i, pos: j, value: a}
					}
					return identifierConflict{kind: aliasIsID, rec: i, pos: j, value: a, other: k}
				}
				if k, clash := aliasAt[a]; clash && k != i {
					return identifierConflict{kind: aliasTwice, rec: i, pos: j, value: a, other: k}
				}
				aliasAt[a] = i
			}
			i++
		}
	}
	return identifierConflict{}
}

// aliasError is the FieldError of record i's alias j, its pointer made
// only when there is an error to report.
func aliasError(i, j int, format string, args ...any) *FieldError {
	return &FieldError{Index: i, Pointer: fmt.Sprintf("/%d/aliases/%d", i, j), Reason: fmt.Sprintf(format, args...)}
}
