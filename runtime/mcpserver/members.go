package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
)

// errNotObject is eachMember's answer for JSON that is not an object.
var errNotObject = errors.New("not a JSON object")

// memberSyntaxError is an object that does not parse. When inValue is set
// the value of member key is what failed.
type memberSyntaxError struct {
	key     string
	inValue bool
	err     error
}

func (e *memberSyntaxError) Error() string { return e.err.Error() }
func (e *memberSyntaxError) Unwrap() error { return e.err }

// eachMember calls f with every member of the JSON object obj, in order and
// repeated names included, and returns f's first error. JSON that is not an
// object gives errNotObject; an object that does not parse, a
// *memberSyntaxError.
func eachMember(obj []byte, f func(key string, value json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(obj))
	tok, err := dec.Token()
	if err != nil {
		return &memberSyntaxError{err: err}
	}
	if tok != json.Delim('{') {
		return errNotObject
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return &memberSyntaxError{err: err}
		}
		key, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return &memberSyntaxError{key: key, inValue: true, err: err}
		}
		if err := f(key, value); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return &memberSyntaxError{err: err}
	}
	return nil
}
