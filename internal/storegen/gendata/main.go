// Command gendata writes the store-finder example's default dataset, so the
// committed sample/stores.json can be regenerated after a table change:
//
//	go run ./internal/storegen/gendata -o examples/storefinder/sample/stores.json
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/ucpgen/ucpgen/internal/storegen"
)

func main() {
	out := flag.String("o", "", "output file (default: standard output)")
	seed := flag.Uint64("seed", storegen.DefaultSeed, "generator seed; the committed file uses the default")
	flag.Parse()
	if err := run(*out, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "gendata:", err)
		os.Exit(1)
	}
}

func run(out string, seed uint64) error {
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q (use -o FILE)", flag.Args())
	}
	data, err := storegen.Generate(seed)
	if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	if out == "" {
		_, err = os.Stdout.Write(data)
		return err
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	return nil
}
