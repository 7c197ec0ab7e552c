// Package readme has no code of its own: its tests run the shell sessions
// of the repository's README.md against the real programs, so the commands
// users paste keep working in the shells they use.
package readme
