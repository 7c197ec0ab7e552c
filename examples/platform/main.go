// Command platform walks a UCP Business's search pages and looks up what it found.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"slices"

	ucploc "github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/ucpclient"
	"github.com/ucpgen/ucpgen/runtime/ucpclient/discovery"
)

func main() { // UCP_TRANSPORT=mcp|rest platform BUSINESS-ORIGIN (without it: REST when offered)
	ctx, profile := context.Background(), ucpclient.Options{Profile: "https://platform.example/profile.json"}
	conn, err := discovery.Discover(ctx, os.Args[1], ucploc.ClientService(), &discovery.Options{Options: profile, Transport: os.Getenv("UCP_TRANSPORT"), HTTP: discovery.LocalDevelopment()})
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	c, _ := ucploc.NewClient(conn) // conn was made for ClientService
	near := ucploc.LocationDistance{Center: ucploc.Geo{Latitude: 40.7128, Longitude: -74.006}, Max: 5000}
	var ids []string // electronics stores within 5 km of lower Manhattan, two per page
	for l, err := range c.SearchLocationsAll(ctx, &ucploc.SearchRequest{Query: opt.Some("electronics"), Distance: opt.Some(near), Pagination: opt.Some(ucploc.PaginationRequest{Limit: opt.Some[int64](2)})}) {
		if err != nil {
			log.Fatal(err)
		}
		ids = append(ids, l.ID)
	}
	for batch := range slices.Chunk(ids, 10) {
		resp, err := c.LookupLocations(ctx, &ucploc.LookupRequest{IDs: batch})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(conn.Version(), conn.Transport(), "looked up", len(resp.Locations), "of", batch)
	}
}
