package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/ucpgen/ucpgen/cmd/ucpgen/internal/conform"
)

// exitNonConforming is conform's exit code for a Business that failed a
// MUST; it shares 1 with --check's "stale", both meaning "the thing
// checked is wrong", while 2 stays "ucpgen could not do its work".
const exitNonConforming = 1

func newConform(stdout io.Writer) *cobra.Command {
	o := conform.Options{}
	var asJSON bool
	var junit string
	var timeout time.Duration
	var at string
	cmd := &cobra.Command{
		Use:   "conform URL",
		Short: "Check a UCP Business's Location capability from the outside, as a Platform",
		Long: `conform reads the Business profile at URL/.well-known/ucp and checks every
version and transport it advertises (MCP and REST) against the rules of the
Location capability that a Platform can observe: discovery, framing, the
error model, distance, filters, serves, pagination, lookup and parity between
the transports. It sends read-only searches and lookups only, at a bounded
rate, within --max-requests and --timeout.

Exit codes: 0 every MUST holds; 1 the Business failed a MUST (the report
names the rule and its LOCATION.md section); 2 conform could not do its work
(bad flags, the profile unreachable, the run cut short by --max-requests or
--timeout).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.URL = args[0]
			if at != "" {
				t, err := time.Parse(time.RFC3339, at)
				if err != nil {
					return fmt.Errorf("--at %q: want an RFC 3339 instant such as 2026-12-24T15:00:00Z", at)
				}
				o.At = t
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			r, err := conform.Run(ctx, o)
			if err != nil {
				return err
			}
			if asJSON {
				err = r.WriteJSON(stdout)
			} else {
				err = r.WriteText(stdout)
			}
			if err != nil {
				return err
			}
			if junit != "" {
				if err := writeJUnit(junit, r); err != nil {
					return err
				}
			}
			switch {
			case r.Failed():
				return exitError{exitNonConforming, fmt.Errorf("%s does not conform: %d MUST checks failed", o.URL, countFailed(r))}
			case r.Incomplete != "":
				return exitError{exitBadInput, errors.New("the run is incomplete: " + r.Incomplete)}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.AgentProfile, "agent-profile", "https://platform.example/.well-known/ucp", "Platform profile URI sent as meta.ucp-agent.profile and in the UCP-Agent header")
	f.Float64Var(&o.Rate, "rate", 20, "most requests per second")
	f.IntVar(&o.MaxRequests, "max-requests", 1500, "most requests in the whole run; the run is incomplete (exit 2) when they run out")
	f.DurationVar(&timeout, "timeout", 2*time.Minute, "deadline for the whole run")
	f.StringArrayVar(&o.Items, "item", nil, "a catalogue item id of the Business, for the items filter checks (repeat for more; two or more check AND)")
	f.StringSliceVar(&o.Versions, "ucp-version", nil, "check only these protocol versions (default: every version the profile lists)")
	f.StringSliceVar(&o.Transports, "transport", nil, "check only these transports: mcp, rest (default: both)")
	f.StringVar(&at, "at", "", "RFC 3339 instant the hours checks start from, for a repeatable run (default: now)")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	f.StringVar(&junit, "junit", "", "also write the report as JUnit XML to this file")
	return cmd
}

func countFailed(r *conform.Report) int {
	n := 0
	for _, c := range r.Checks {
		if c.Status == conform.Fail {
			n++
		}
	}
	return n
}

func writeJUnit(path string, r *conform.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--junit: %w", err)
	}
	if err := r.WriteJUnit(f); err != nil {
		f.Close()
		return fmt.Errorf("--junit %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--junit %s: %w", path, err)
	}
	return nil
}
