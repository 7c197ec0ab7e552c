package schemacheck

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// Path is one reference token of the instance location, linked to its
// parent. Generated checks pass a *Path down as they descend (each step lives
// on the caller's stack) and render it as a JSON Pointer only when something
// fails, so a valid document costs no pointer strings at all. A nil *Path is
// the document root.
type Path struct {
	parent *Path
	name   string
	index  int
	isItem bool
}

// Member is the location of an object member below p.
func (p *Path) Member(name string) Path { return Path{parent: p, name: name} }

// Item is the location of an array item below p.
func (p *Path) Item(i int) Path { return Path{parent: p, index: i, isItem: true} }

// Pointer renders the location as an RFC 6901 JSON Pointer ("" for the root).
// It measures first and then fills one buffer from the end, holding on to
// nothing of the chain: that is what lets the compiler keep every Path on
// the stack.
func (p *Path) Pointer() string {
	n := 0
	var digits [20]byte
	for q := p; q != nil; q = q.parent {
		if q.isItem {
			n += 1 + len(strconv.AppendInt(digits[:0], int64(q.index), 10))
			continue
		}
		n += 1 + len(q.name) + strings.Count(q.name, "~") + strings.Count(q.name, "/")
	}
	b := make([]byte, n)
	end := n
	for q := p; q != nil; q = q.parent {
		if q.isItem {
			d := strconv.AppendInt(digits[:0], int64(q.index), 10)
			end -= len(d)
			copy(b[end:], d)
		} else {
			for i := len(q.name) - 1; i >= 0; i-- {
				switch c := q.name[i]; c {
				case '~':
					end -= 2
					b[end], b[end+1] = '~', '0'
				case '/':
					end -= 2
					b[end], b[end+1] = '~', '1'
				default:
					end--
					b[end] = c
				}
			}
		}
		end--
		b[end] = '/'
	}
	return string(b)
}

// Checker collects the violations of one validation run. In quiet mode (used
// for anyOf, oneOf, not and if branches) it records only that something
// failed, and generated code stops at the first failure.
type Checker struct {
	quiet  bool
	failed bool
	out    []rpcerr.Violation
}

// Failed reports whether any check failed.
func (c *Checker) Failed() bool { return c.failed }

// Stop tells generated code to return early: a quiet run needs no more
// than its first failure.
func (c *Checker) Stop() bool { return c.quiet && c.failed }

// Violations returns what was found, in check order, without repeats (an
// allOf of two schemas that share a $ref would otherwise report twice).
func (c *Checker) Violations() []rpcerr.Violation { return dedupe(c.out) }

// Err wraps the violations into the typed request error, or returns nil.
func (c *Checker) Err() error {
	if !c.failed {
		return nil
	}
	vs := c.Violations()
	if len(vs) == 0 {
		vs = []rpcerr.Violation{{Keyword: "schema", Message: "does not match the schema"}}
	}
	return &rpcerr.InvalidParams{Violations: vs}
}

// fail marks the run failed and reports whether a message is wanted.
func (c *Checker) fail() bool {
	c.failed = true
	return !c.quiet
}

func (c *Checker) add(at *Path, keyword, msg string) {
	c.out = append(c.out, rpcerr.Violation{Pointer: at.Pointer(), Keyword: keyword, Message: msg})
}

// Quiet returns a checker for a branch (anyOf, oneOf, not, if,
// propertyNames): it only records that something failed.
func Quiet() Checker { return Checker{quiet: true} }

// Fail marks the run failed and reports whether a message is wanted; generated
// code calls it before building an expensive message.
func (c *Checker) Fail() bool { return c.fail() }

// Add records a violation at at; generated code calls it after Fail.
func (c *Checker) Add(at *Path, keyword, msg string) { c.add(at, keyword, msg) }

// First is the first violation found, as "pointer: message", or "".
func (c *Checker) First() string {
	if len(c.out) == 0 {
		return ""
	}
	return c.out[0].String()
}

func dedupe(vs []rpcerr.Violation) []rpcerr.Violation {
	if len(vs) < 2 {
		return vs
	}
	seen := make(map[rpcerr.Violation]bool, len(vs))
	out := vs[:0]
	for _, v := range vs {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// The report methods below are called by generated code only after a
// keyword has failed. Each marks the run failed, adds a message naming the
// rule in plain words unless the run is quiet, and returns Stop().

// Never reports the boolean schema false.
func (c *Checker) Never(at *Path) bool {
	if c.fail() {
		c.add(at, "false", "no value is allowed here")
	}
	return c.Stop()
}

// Type reports a value of the wrong JSON type; want is the schema's type list
// in words ("object", "string or null").
func (c *Checker) Type(at *Path, v *Value, want string) bool {
	if c.fail() {
		c.add(at, "type", "must be "+want+", got "+describeKind(v))
	}
	return c.Stop()
}

// Const reports a value other than the schema's constant (want is its JSON).
func (c *Checker) Const(at *Path, v *Value, want string) bool {
	if c.fail() {
		c.add(at, "const", "must be "+want+", got "+short(v))
	}
	return c.Stop()
}

// Enum reports a value outside the schema's enum (list is its JSON values,
// sorted, in brackets).
func (c *Checker) Enum(at *Path, v *Value, list string) bool {
	if c.fail() {
		c.add(at, "enum", "must be one of "+list+", got "+short(v))
	}
	return c.Stop()
}

// MinProperties reports an object with too few members.
func (c *Checker) MinProperties(at *Path, v *Value, min int) bool {
	if c.fail() {
		c.add(at, "minProperties", "must have at least "+count(min, "member")+", got "+itoa(len(v.Members)))
	}
	return c.Stop()
}

// MaxProperties reports an object with too many members.
func (c *Checker) MaxProperties(at *Path, v *Value, max int) bool {
	if c.fail() {
		c.add(at, "maxProperties", "must have at most "+count(max, "member")+", got "+itoa(len(v.Members)))
	}
	return c.Stop()
}

// Required reports a missing required member, at the member's own pointer.
func (c *Checker) Required(at *Path, name string) bool {
	if c.fail() {
		mp := at.Member(name)
		c.add(&mp, "required", fmt.Sprintf("required member %q is missing", name))
	}
	return c.Stop()
}

// Require reports each of names that the object v lacks, as Required does;
// it returns true when a quiet run should stop.
func (c *Checker) Require(at *Path, v *Value, names ...string) bool {
	for _, name := range names {
		if v.Get(name) == nil && c.Required(at, name) {
			return true
		}
	}
	return false
}

// DependentRequired reports a member that must accompany another.
func (c *Checker) DependentRequired(at *Path, name, because string) bool {
	if c.fail() {
		mp := at.Member(name)
		c.add(&mp, "dependentRequired", fmt.Sprintf("member %q is required when %q is present", name, because))
	}
	return c.Stop()
}

// Additional reports a member a closed object does not list; at is the
// member's location.
func (c *Checker) Additional(at *Path, name string) bool {
	if c.fail() {
		c.add(at, "additionalProperties", fmt.Sprintf("member %q is not allowed here", name))
	}
	return c.Stop()
}

// NameValue is a member name as a string value, for propertyNames checks.
func NameValue(name string) Value { return Value{Kind: String, Str: name} }

// PropertyNameMessage explains a member name that fails propertyNames;
// reason is the name schema's first violation ("pointer: message").
func PropertyNameMessage(name, reason string) string {
	reason = strings.TrimPrefix(reason, "(root): ")
	if reason == "" {
		return fmt.Sprintf("member name %q is not allowed", name)
	}
	return fmt.Sprintf("member name %q is not allowed: %s", name, reason)
}

// MinItems reports an array with too few items.
func (c *Checker) MinItems(at *Path, v *Value, min int) bool {
	if c.fail() {
		c.add(at, "minItems", "must have at least "+count(min, "item")+", got "+itoa(len(v.Items)))
	}
	return c.Stop()
}

// MaxItems reports an array with too many items.
func (c *Checker) MaxItems(at *Path, v *Value, max int) bool {
	if c.fail() {
		c.add(at, "maxItems", "must have at most "+count(max, "item")+", got "+itoa(len(v.Items)))
	}
	return c.Stop()
}

// Contains reports an array whose count of items matching the contains
// schema is below min or above max (max < 0: no upper bound). The keyword
// named is the bound that failed, minContains only when the schema states it.
func (c *Checker) Contains(at *Path, matched, min, max int, minStated bool) bool {
	switch {
	case matched < min:
		kw := "contains"
		if minStated {
			kw = "minContains"
		}
		if c.fail() {
			c.add(at, kw, "must contain at least "+count(min, "item")+" matching the contains schema, got "+itoa(matched))
		}
	case max >= 0 && matched > max:
		if c.fail() {
			c.add(at, "maxContains", "must contain at most "+count(max, "item")+" matching the contains schema, got "+itoa(matched))
		}
	default:
		return false
	}
	return c.Stop()
}

// Unique checks uniqueItems and reports the first repeated item. It hashes
// each item's canonical value (numbers by their exact decimal value, so 1
// and 1.0 collide as JSON Schema requires; objects independent of member
// order) and compares with Equal only within a hash bucket, so an array of n
// items costs O(n) instead of the O(n²) of pairwise comparison. The hash is
// seeded per process, so a caller cannot precompute colliding items.
func (c *Checker) Unique(at *Path, v *Value) bool {
	if len(v.Items) < 2 {
		return false
	}
	// first[h] is the lowest index with hash h; more holds later indexes
	// whose hash collided with an unequal earlier item (rare).
	first := make(map[uint64]int, len(v.Items))
	var more map[uint64][]int
	for i := range v.Items {
		h := hashValue(&v.Items[i])
		j, seen := first[h]
		if !seen {
			first[h] = i
			continue
		}
		dup := -1
		if uniqueEqual(&v.Items[i], &v.Items[j]) {
			dup = j
		} else {
			for _, k := range more[h] {
				if uniqueEqual(&v.Items[i], &v.Items[k]) {
					dup = k
					break
				}
			}
		}
		if dup < 0 {
			if more == nil {
				more = map[uint64][]int{}
			}
			more[h] = append(more[h], i)
			continue
		}
		if c.fail() {
			ip := at.Item(i)
			c.add(&ip, "uniqueItems", fmt.Sprintf("items must be unique, item %d equals item %d", i, dup))
		}
		return c.Stop()
	}
	return false
}

// uniqueEqual is Equal; a test counts the comparisons Unique makes through
// it to pin the algorithm's complexity without timing anything.
var uniqueEqual = Equal

// uniqueSeed keys hashValue; random per process so collisions cannot be
// planned from outside.
var uniqueSeed = maphash.MakeSeed()

// hashValue hashes v so that Equal values hash alike: numbers by their
// canonical decimal, objects by an order-independent sum over members.
func hashValue(v *Value) uint64 {
	var h maphash.Hash
	h.SetSeed(uniqueSeed)
	h.WriteByte(byte(v.Kind))
	switch v.Kind {
	case Bool:
		if v.Bool {
			h.WriteByte(1)
		}
	case String:
		h.WriteString(v.Str)
	case Number:
		d := canonical(v.Str)
		if d.neg {
			h.WriteByte('-')
		}
		h.WriteString(d.digits)
		h.WriteByte('e')
		if d.bigExp != "" {
			h.WriteString(d.bigExp)
		} else {
			var b [20]byte
			h.Write(strconv.AppendInt(b[:0], d.exp, 10))
		}
	case Array:
		var b [8]byte
		for i := range v.Items {
			binary.LittleEndian.PutUint64(b[:], hashValue(&v.Items[i]))
			h.Write(b[:])
		}
	case Object:
		// Member names are unique (Parse refuses duplicates), so a sum of
		// per-member hashes identifies the set whatever the order.
		var sum uint64
		var b [8]byte
		for i := range v.Members {
			var m maphash.Hash
			m.SetSeed(uniqueSeed)
			m.WriteString(v.Members[i].Name)
			binary.LittleEndian.PutUint64(b[:], hashValue(&v.Members[i].Value))
			m.Write(b[:])
			sum += m.Sum64()
		}
		binary.LittleEndian.PutUint64(b[:], sum)
		h.Write(b[:])
	}
	return h.Sum64()
}

// Length checks minLength and maxLength (max < 0: none), counting code
// points as JSON Schema does.
func (c *Checker) Length(at *Path, v *Value, min, max int) bool {
	n := utf8.RuneCountInString(v.Str)
	if n < min && c.fail() {
		c.add(at, "minLength", "must be at least "+count(min, "character")+" long, got "+itoa(n))
	}
	if max >= 0 && n > max && c.fail() {
		c.add(at, "maxLength", "must be at most "+count(max, "character")+" long, got "+itoa(n))
	}
	return c.Stop()
}

// Pattern reports a string that does not match the schema's pattern (src is
// the pattern as the schema wrote it).
func (c *Checker) Pattern(at *Path, v *Value, src string) bool {
	if c.fail() {
		c.add(at, "pattern", "must match the pattern "+src+", got "+short(v))
	}
	return c.Stop()
}

// Format checks a format assertion.
func (c *Checker) Format(at *Path, v *Value, format string) bool {
	err := CheckFormat(format, v.Str)
	if err == nil {
		return false
	}
	if c.fail() {
		c.add(at, "format", fmt.Sprintf("must be a valid %s: %v", format, err))
	}
	return c.Stop()
}

// Bound checks one numeric limit; keyword is minimum, maximum,
// exclusiveMinimum or exclusiveMaximum.
func (c *Checker) Bound(at *Path, v *Value, keyword string, b *Bound) bool {
	cmp := compareBound(v, b)
	var ok bool
	var rel string
	switch keyword {
	case "minimum":
		ok, rel = cmp >= 0, ">="
	case "maximum":
		ok, rel = cmp <= 0, "<="
	case "exclusiveMinimum":
		ok, rel = cmp > 0, ">"
	default:
		ok, rel = cmp < 0, "<"
	}
	if ok {
		return false
	}
	if c.fail() {
		c.add(at, keyword, "must be "+rel+" "+b.Text+", got "+v.Str)
	}
	return c.Stop()
}

// Not reports a value that matches a not schema.
func (c *Checker) Not(at *Path) bool {
	if c.fail() {
		c.add(at, "not", "must not match the excluded schema")
	}
	return c.Stop()
}

// AnyOfMessage explains a value that matches none of an anyOf's branches;
// reasons are each branch's first violation.
func AnyOfMessage(reasons ...string) string {
	return fmt.Sprintf("must match at least one of %d alternatives", len(reasons)) + joinReasons(reasons)
}

// OneOfMessage explains a value that matches none or several of a oneOf's
// branches; matched says which branches matched.
func OneOfMessage(matched []bool, reasons ...string) string {
	var hits []int
	for i, m := range matched {
		if m {
			hits = append(hits, i+1)
		}
	}
	if len(hits) == 0 {
		return fmt.Sprintf("must match exactly one of %d alternatives, matches none", len(matched)) + joinReasons(reasons)
	}
	return fmt.Sprintf("must match exactly one of %d alternatives, matches alternatives %v", len(matched), hits)
}

// CountTrue counts the branches that matched.
func CountTrue(matched []bool) int {
	n := 0
	for _, m := range matched {
		if m {
			n++
		}
	}
	return n
}

func joinReasons(reasons []string) string {
	var rs []string
	for i, r := range reasons {
		if r != "" {
			rs = append(rs, fmt.Sprintf("alternative %d: %s", i+1, r))
		}
	}
	if len(rs) == 0 {
		return ""
	}
	return " (" + strings.Join(rs, "; ") + ")"
}

// SyntaxError turns a Parse failure into the typed request error, addressed
// to the value being read.
func SyntaxError(err error) error {
	pe, ok := err.(*ParseError)
	if !ok {
		return rpcerr.Invalid("", "json", "invalid JSON: %v", err)
	}
	return &rpcerr.InvalidParams{Violations: []rpcerr.Violation{{Pointer: pe.Pointer, Keyword: "json", Message: fmt.Sprintf("invalid JSON at byte %d: %s", pe.Offset, pe.Reason)}}}
}

// count is "1 item", "2 items".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return itoa(n) + " " + noun + "s"
}

// HasType reports whether v is one of the JSON types in t.
func HasType(v *Value, t Types) bool { return kindTypes(v)&t != 0 }

// IsInteger reports whether v is a number with no fractional part.
func IsInteger(v *Value) bool { return v.Kind == Number && isIntegral(v.Str) }

// InEnum reports whether v equals one of the values (JSON equality).
func InEnum(v *Value, values []Value) bool {
	for i := range values {
		if Equal(&values[i], v) {
			return true
		}
	}
	return false
}

// EnumText renders enum values the way messages show them: their JSON,
// sorted, in brackets; the generator bakes it into each enum check.
func EnumText(values []Value) string {
	parts := make([]string, len(values))
	for i := range values {
		parts[i] = values[i].Raw
	}
	sort.Strings(parts)
	return "[" + strings.Join(parts, ", ") + "]"
}
