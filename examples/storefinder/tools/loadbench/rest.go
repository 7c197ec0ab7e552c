package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// restAgent is the UCP-Agent header of every REST request: the same agent
// profile the MCP requests carry in meta, as an RFC 8941 dictionary.
const restAgent = `profile="https://platform.example/profile.json"`

// restRequests numbers the REST requests so that each gets its own UUID.
var restRequests atomic.Uint64

// throughputREST is httpCaller's load generator for the REST binding:
// each client posts the same search body to base+"/locations/search" over
// keep-alive connections. Every answer must be 200 with a body that parses
// as JSON, so a broken server cannot look fast; one in 64 (and each
// client's first) is decoded and must carry locations.
func throughputREST(base string, clients int, d time.Duration) (float64, error) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}}
	defer client.CloseIdleConnections()
	url := base + "/locations/search"
	return callLoop(clients, d, func(i, n int) error {
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(realisticLocation(n)))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("UCP-Agent", restAgent)
		req.Header.Set("Request-Id", fmt.Sprintf("8ef9b0c2-78d1-4e4b-91c2-%012x", restRequests.Add(1)))
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		raw, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK || !json.Valid(raw) {
			return fmt.Errorf("status %d, answer %.200q", resp.StatusCode, raw)
		}
		if n%64 == i%64 {
			var body struct {
				Locations []json.RawMessage `json:"locations"`
			}
			if err := json.Unmarshal(raw, &body); err != nil || len(body.Locations) == 0 {
				return fmt.Errorf("answer without locations (%v): %.200q", err, raw)
			}
		}
		return nil
	})
}
