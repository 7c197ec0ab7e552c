//go:build !race

package main

// raceEnabled reports whether this test binary has the race detector.
const raceEnabled = false

// openAPIChecked reports whether REST exchanges are held to the published
// OpenAPI document; see race_on_test.go for why only without -race.
func openAPIChecked() bool { return true }
