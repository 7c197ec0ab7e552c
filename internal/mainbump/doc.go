// Package mainbump has no code of its own: its test takes a copy of this
// module through a UCP bump the way a Business takes its own (the
// //go:generate line pointed at UCP main, go generate, go build) and holds
// the examples and a Business that implements the new capability to what
// main's schemas and OpenAPI document say.
package mainbump
