package schemacheck

import (
	"strings"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// Params splits the params of a JSON-RPC message sent by name (an object)
// into the source text of each param, in the order of names, nil where a
// param is absent, so that generated per-method decoders can decode each
// param with its own schema. Empty data and null mean no params. A member
// that names no param and a required param that is missing are refused,
// every one listed, with the pointer of the member.
func Params(data []byte, names []string, required []bool) ([][]byte, error) {
	out := make([][]byte, len(names))
	if s := strings.TrimSpace(string(data)); s == "" || s == "null" {
		data = []byte("{}")
	}
	doc := NewDocument()
	defer doc.Release()
	v, err := doc.Parse(data)
	if err != nil {
		return nil, SyntaxError(err)
	}
	if v.Kind != Object {
		return nil, rpcerr.Invalid("", "type", "params must be an object of named params (%s), got %s", strings.Join(names, ", "), v.Kind)
	}
	var bad []rpcerr.Violation
	for i := range v.Members {
		m := &v.Members[i]
		k := -1
		for j, n := range names {
			if n == m.Name {
				k = j
			}
		}
		if k < 0 {
			bad = append(bad, rpcerr.Violation{Pointer: "/" + rpcerr.EscapeToken(m.Name), Keyword: "params",
				Message: "is not a param of this method (its params: " + strings.Join(names, ", ") + ")"})
			continue
		}
		out[k] = []byte(m.Value.Raw)
	}
	for i, n := range names {
		if required[i] && out[i] == nil {
			bad = append(bad, rpcerr.Violation{Pointer: "", Keyword: "required", Message: "missing required param " + quote(n)})
		}
	}
	if len(bad) > 0 {
		return nil, &rpcerr.InvalidParams{Violations: bad}
	}
	return out, nil
}

// ParamErrors joins the decode errors of a method's params, each under the
// pointer of its param, so one error lists the violations of all of them.
// errs follow names; nil entries are params that decoded. An error that is
// not an *rpcerr.InvalidParams is returned as it is.
func ParamErrors(names []string, errs ...error) error {
	var all []rpcerr.Violation
	for i, err := range errs {
		if err == nil {
			continue
		}
		e, ok := rpcerr.AsInvalidParams(At(err, names[i]))
		if !ok {
			return err
		}
		all = append(all, e.Violations...)
	}
	if len(all) == 0 {
		return nil
	}
	return &rpcerr.InvalidParams{Violations: all}
}
