package schemacheck

import (
	"math/big"
	"strconv"
	"strings"
)

// isIntegral decides "integer" from a JSON number's text, exactly: 1.0 and
// 1e3 are integers, 1.5 and 1e-1 are not, however many digits they carry.
func isIntegral(text string) bool {
	if !strings.ContainsAny(text, ".eE") {
		return true
	}
	mant, exp := splitNumber(text)
	intPart, frac, _ := strings.Cut(mant, ".")
	_ = intPart
	frac = strings.TrimRight(frac, "0")
	if frac == "" {
		if exp >= 0 {
			return true
		}
		// a negative exponent moves integer digits into the fraction
		digits := strings.TrimLeft(intPart, "0")
		if digits == "" {
			return true
		}
		trailingZeros := len(digits) - len(strings.TrimRight(digits, "0"))
		return int64(trailingZeros) >= -exp
	}
	return exp >= int64(len(frac))
}

// splitNumber returns the mantissa without sign and the exponent; exponents
// beyond int64 saturate, which still decides integrality correctly.
func splitNumber(text string) (string, int64) {
	text = strings.TrimPrefix(text, "-")
	mant, e, ok := strings.Cut(strings.ToLower(text), "e")
	if !ok {
		return mant, 0
	}
	n, err := strconv.ParseInt(e, 10, 64)
	if err != nil {
		if strings.HasPrefix(e, "-") {
			return mant, -1 << 62
		}
		return mant, 1 << 62
	}
	return mant, n
}

// compareBound compares a number with a schema bound: the float64 answer is
// exact whenever the two floats differ (rounding is monotonic), so big.Rat is
// used only when the value rounds onto the bound.
func compareBound(v *Value, b *Bound) int {
	switch {
	case v.Num < b.F:
		return -1
	case v.Num > b.F:
		return 1
	}
	return compareExact(v.Str, b.Text)
}

func compareExact(a, b string) int {
	ca, cb := canonical(a), canonical(b)
	if ca == cb {
		return 0
	}
	if ca.huge() || cb.huge() {
		// Only reached when both round to the same float64, i.e. both are
		// zero-ish or both overflow: order by sign, then by magnitude class.
		return ca.cmpCoarse(cb)
	}
	x, ok1 := new(big.Rat).SetString(a)
	y, ok2 := new(big.Rat).SetString(b)
	if !ok1 || !ok2 {
		return 0
	}
	return x.Cmp(y)
}

// decimal is a number's canonical form: sign, significant digits without
// leading or trailing zeros, and the exponent of the last digit. An exponent
// beyond ±2^62 is kept exactly as decimal text in bigExp (exp is then 0), so
// two canonical forms are equal exactly when the numbers are.
type decimal struct {
	neg    bool
	digits string
	exp    int64
	bigExp string
}

func canonical(text string) decimal {
	neg := strings.HasPrefix(text, "-")
	mant, exp := splitNumber(text)
	ip, fp, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(ip+fp, "0")
	t := strings.TrimRight(digits, "0")
	if t == "" {
		return decimal{}
	}
	shift := int64(len(digits)-len(t)) - int64(len(fp))
	if exp <= -1<<62 || exp >= 1<<62 {
		// The exponent text did not fit: redo the arithmetic exactly.
		e, _ := new(big.Int).SetString(exponentText(text), 10)
		e.Add(e, big.NewInt(shift))
		return decimal{neg: neg, digits: t, bigExp: e.String()}
	}
	return decimal{neg: neg, digits: t, exp: exp + shift}
}

// exponentText is the signed exponent of a number's text ("" becomes "0").
func exponentText(text string) string {
	i := strings.IndexAny(text, "eE")
	if i < 0 {
		return "0"
	}
	return strings.TrimPrefix(text[i+1:], "+")
}

func (d decimal) huge() bool { return d.bigExp != "" || d.exp > 4000 || d.exp < -4000 }

func (d decimal) sign() int {
	switch {
	case d.digits == "":
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// magnitude is the exponent of the digit just above the leading one, exact.
func (d decimal) magnitude() *big.Int {
	m := big.NewInt(d.exp)
	if d.bigExp != "" {
		m.SetString(d.bigExp, 10)
	}
	return m.Add(m, big.NewInt(int64(len(d.digits))))
}

// cmpCoarse orders two decimals by sign and then by the position of their
// leading digit, enough for values whose float64 images are equal.
func (d decimal) cmpCoarse(o decimal) int {
	if s1, s2 := d.sign(), o.sign(); s1 != s2 || s1 == 0 {
		if s1 < s2 {
			return -1
		} else if s1 > s2 {
			return 1
		}
		return 0
	}
	r := d.magnitude().Cmp(o.magnitude())
	if r == 0 {
		r = strings.Compare(d.digits, o.digits)
	}
	if d.neg {
		r = -r
	}
	return r
}

// int64Of converts an integral number's text to int64 exactly, or reports
// that it does not fit.
func int64Of(text string) (int64, bool) {
	if !strings.ContainsAny(text, ".eE") {
		n, err := strconv.ParseInt(text, 10, 64)
		return n, err == nil
	}
	d := canonical(text)
	if d.digits == "" {
		return 0, true
	}
	if d.bigExp != "" || d.exp < 0 || d.exp+int64(len(d.digits)) > 19 {
		return 0, false
	}
	sign := ""
	if d.neg {
		sign = "-"
	}
	n, err := strconv.ParseInt(sign+d.digits+strings.Repeat("0", int(d.exp)), 10, 64)
	return n, err == nil
}

// Equal is JSON equality as JSON Schema defines it: numbers by value (1 and
// 1.0 are equal), objects regardless of member order, arrays item by item.
func Equal(a, b *Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Null:
		return true
	case Bool:
		return a.Bool == b.Bool
	case String:
		return a.Str == b.Str
	case Number:
		if a.Num != b.Num {
			return false
		}
		return a.Str == b.Str || canonical(a.Str) == canonical(b.Str)
	case Array:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !Equal(&a.Items[i], &b.Items[i]) {
				return false
			}
		}
		return true
	case Object:
		if len(a.Members) != len(b.Members) {
			return false
		}
		for i := range a.Members {
			o := b.Get(a.Members[i].Name)
			if o == nil || !Equal(&a.Members[i].Value, o) {
				return false
			}
		}
		return true
	}
	return false
}

func itoa(i int) string { return strconv.Itoa(i) }

func quote(s string) string { return strconv.Quote(s) }

// MustValue parses a JSON literal from generated code; the generator has
// already parsed it, so a failure is a generator bug.
func MustValue(text string) Value {
	v, err := Parse([]byte(text))
	if err != nil {
		panic("schemacheck: generated JSON literal does not parse: " + err.Error())
	}
	return v
}

// Literal is MustValue returning a pointer, for const keywords.
func Literal(text string) *Value {
	v := MustValue(text)
	return &v
}
