package memory_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/memory"
)

// ExampleFromStores serves stores a Business holds as Go values: the Source
// indexes them, and the generated NewService answers UCP searches over it.
func ExampleFromStores() {
	geo := func(lat, lon float64) opt.Value[location.Geo] {
		return opt.Some(location.Geo{Latitude: lat, Longitude: lon})
	}
	src, err := memory.FromStores([]dataset.Store{
		{Location: location.Location{ID: "s1", Name: "Harbour Books", Geo: geo(51.5080, -0.0760)}},
		{Location: location.Location{ID: "s2", Name: "Canal Books", Geo: geo(51.5362, -0.1033)}, Aliases: []string{"store-2"}},
		{Location: location.Location{ID: "s3", Name: "Back Office", Geo: geo(51.5194, -0.1270)}, Private: true},
	}, memory.Options{})
	if err != nil {
		log.Fatal(err)
	}
	svc, err := location.NewService(src, location.ServiceOptions{})
	if err != nil {
		log.Fatal(err)
	}
	req, err := location.DecodeSearchRequest([]byte(`{"distance":{"center":{"latitude":51.51,"longitude":-0.09},"max":5000}}`))
	if err != nil {
		log.Fatal(err)
	}
	resp, err := svc.SearchLocations(context.Background(), nil, req)
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range resp.Locations {
		fmt.Println(l.ID, l.Name)
	}
	// Output:
	// s1 Harbour Books
	// s2 Canal Books
}

// ExampleOpenFile serves a dataset file, the format of runtime/sources/dataset,
// keeping the Locations in the file rather than in memory.
func ExampleOpenFile() {
	path := filepath.Join(os.TempDir(), "memory-example-stores.json")
	data := `[
{"location":{"id":"s1","name":"Harbour Books","geo":{"latitude":51.508,"longitude":-0.076}},"aliases":["harbour"]},
{"location":{"id":"s2","name":"Canal Books"},"private":true}
]`
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		log.Fatal(err)
	}
	defer os.Remove(path)

	src, err := memory.OpenFile(path, memory.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer src.Close()
	found, err := src.Resolve(context.Background(), []string{"harbour", "s2"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(src.Records(), "records;", len(found["harbour"]), "store for harbour,", len(found["s2"]), "for the private s2")
	// Output: 2 records; 1 store for harbour, 0 for the private s2
}
