//go:build !race

package openapicheck

// Usable reports whether Load may be called in this binary; see race_on.go
// for why a race-detector build may not.
const Usable = true
