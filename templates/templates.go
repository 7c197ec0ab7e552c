// Package templates holds the prose ucpgen writes into generated files (the
// DO NOT EDIT header and the package comment), kept as text templates so the
// wording can change without touching the emitters.
package templates

import (
	"bytes"
	"embed"
	"fmt"
	"strings"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

var parsed = template.Must(template.ParseFS(files, "*.tmpl"))

// Data is what the templates may refer to.
type Data struct {
	Package string
	Source  string
	Title   string
	// Generator is the ucpgen version: a module version, or "(devel)" for a
	// build from a checkout so committed output does not churn per commit.
	Generator string
	// UCPVersion is the OpenRPC document's info.version; empty if unstated.
	UCPVersion string
}

// Render executes the named template (e.g. "header.tmpl") and trims the
// trailing newline, ready for jennifer's comment helpers.
func Render(name string, d Data) (string, error) {
	var b bytes.Buffer
	if err := parsed.ExecuteTemplate(&b, name, d); err != nil {
		return "", fmt.Errorf("render %s: %w", name, err)
	}
	return strings.TrimRight(b.String(), "\n"), nil
}
