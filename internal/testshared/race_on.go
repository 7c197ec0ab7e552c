//go:build race

package testshared

// Race reports whether the test binary was built with the race detector.
// The race pass of .ci/run uses it to run a heavy test's concurrent path
// once, at one small size, instead of its whole matrix, which the plain
// pass already covers; a race needs the path to run, not every input.
const Race = true
