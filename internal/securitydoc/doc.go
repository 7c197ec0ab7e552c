// Package securitydoc has no code of its own: its test holds
// docs/security.md to the tests it cites, so every promise there names a
// test that exists in the package it says, and so runs in `go test ./...`.
package securitydoc
