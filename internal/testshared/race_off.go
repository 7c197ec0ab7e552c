//go:build !race

package testshared

// Race reports whether the test binary was built with the race detector
// (see race_on.go).
const Race = false
