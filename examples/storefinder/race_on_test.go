//go:build race

package main

// raceEnabled reports whether this test binary has the race detector.
const raceEnabled = true
