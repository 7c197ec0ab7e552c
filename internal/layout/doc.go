// Package layout has no code of its own: its tests hold the repository to
// the import rules that keep the library lean, so a Business that imports
// the generator, the runtime or the ready-made sources never compiles an
// example, and a package that reads OpenAPI keeps its library to itself;
// and the packages the race pass of .ci/run leaves out to the rules that
// make that safe.
package layout
