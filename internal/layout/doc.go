// Package layout has no code of its own: its test holds the repository to
// the import rule that keeps the library lean, so a Business that imports
// the generator, the runtime or the ready-made sources never compiles an
// example.
package layout
