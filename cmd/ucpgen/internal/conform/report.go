package conform

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"
)

// Status is the outcome of one check.
type Status string

// The outcomes: a failed MUST fails the run; a failed SHOULD only warns;
// skipped means the Business gave the check nothing to work on (said why);
// not run means the budget or deadline ended the run first.
const (
	Pass   Status = "pass"
	Fail   Status = "fail"
	Warn   Status = "warn"
	Skip   Status = "skip"
	NotRun Status = "not-run"
)

// maxDetails bounds the reasons one check keeps.
const maxDetails = 8

// Check is one rule checked at one version over one transport.
type Check struct {
	// ID names the rule, for example "distance.inclusive-geodesic".
	ID string `json:"id"`
	// Section is the LOCATION.md section that states the rule.
	Section string `json:"section"`
	// Title says the rule in words.
	Title string `json:"title"`
	// Level is MUST or SHOULD.
	Level     string `json:"level"`
	Version   string `json:"version,omitempty"`
	Transport string `json:"transport,omitempty"`
	Status    Status `json:"status"`
	// Details say why a check failed, warned or was skipped.
	Details []string `json:"details,omitempty"`
	// dropped counts details beyond maxDetails.
	dropped int
}

func (c *Check) failf(format string, args ...any) {
	if c.Level == "SHOULD" {
		c.Status = Warn
	} else {
		c.Status = Fail
	}
	if len(c.Details) < maxDetails {
		c.Details = append(c.Details, fmt.Sprintf(format, args...))
	} else {
		c.dropped++
	}
}

func (c *Check) skipf(format string, args ...any) {
	if c.Status == Pass {
		c.Status = Skip
	}
	c.Details = append(c.Details, fmt.Sprintf(format, args...))
}

// notef adds a remark that does not change the outcome.
func (c *Check) notef(format string, args ...any) {
	c.Details = append(c.Details, fmt.Sprintf(format, args...))
}

// failed reports a failed MUST.
func (c *Check) failed() bool { return c.Status == Fail }

// Report is the outcome of one run.
type Report struct {
	URL      string        `json:"url"`
	Checks   []*Check      `json:"checks"`
	Requests int           `json:"requests"`
	Duration time.Duration `json:"duration_ns"`
	// Incomplete says why some checks did not run ("" when all did).
	Incomplete string `json:"incomplete,omitempty"`
}

// check opens a check; it passes unless something fails it.
func (r *Report) check(id, section, level, version, transport, title string) *Check {
	c := &Check{ID: id, Section: section, Title: title, Level: level, Version: version, Transport: transport, Status: Pass}
	r.Checks = append(r.Checks, c)
	return c
}

// Failed reports whether any MUST failed.
func (r *Report) Failed() bool {
	for _, c := range r.Checks {
		if c.failed() {
			return true
		}
	}
	return false
}

// Find returns the checks with this id (one per version and transport).
func (r *Report) Find(id string) []*Check {
	var out []*Check
	for _, c := range r.Checks {
		if c.ID == id {
			out = append(out, c)
		}
	}
	return out
}

func (r *Report) counts() map[Status]int {
	n := map[Status]int{}
	for _, c := range r.Checks {
		n[c.Status]++
	}
	return n
}

// WriteText writes the report for a person: one line a check, reasons
// indented under it, a summary last.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "ucpgen conform %s\n", r.URL)
	for _, c := range r.Checks {
		where := strings.TrimSpace(c.Version + " " + c.Transport)
		if where != "" {
			where = " [" + where + "]"
		}
		fmt.Fprintf(&b, "%-7s %-8s %s%s: %s (%s)\n", strings.ToUpper(string(c.Status)), "§"+c.Section, c.ID, where, c.Title, c.Level)
		for _, d := range c.Details {
			fmt.Fprintf(&b, "        - %s\n", d)
		}
		if c.dropped > 0 {
			fmt.Fprintf(&b, "        - ... and %d more\n", c.dropped)
		}
	}
	n := r.counts()
	fmt.Fprintf(&b, "%d checks: %d passed, %d failed, %d warned, %d skipped, %d not run; %d requests in %s\n",
		len(r.Checks), n[Pass], n[Fail], n[Warn], n[Skip], n[NotRun], r.Requests, r.Duration.Round(time.Millisecond))
	if r.Incomplete != "" {
		fmt.Fprintf(&b, "incomplete: %s\n", r.Incomplete)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes the report as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	Output    string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML, one suite per version and
// transport, so CI systems show each failed MUST as a failed test.
func (r *Report) WriteJUnit(w io.Writer) error {
	out := junitSuites{Name: "ucpgen conform " + r.URL}
	index := map[string]int{}
	for _, c := range r.Checks {
		suite := strings.TrimSpace(c.Version + " " + c.Transport)
		if suite == "" {
			suite = "profile"
		}
		i, ok := index[suite]
		if !ok {
			i = len(out.Suites)
			index[suite] = i
			out.Suites = append(out.Suites, junitSuite{Name: suite})
		}
		tc := junitCase{Name: c.ID, Classname: "§" + c.Section + " " + c.Level}
		text := strings.Join(c.Details, "\n")
		switch c.Status {
		case Fail:
			tc.Failure = &junitMessage{Message: c.Title, Text: text}
			out.Suites[i].Failures++
			out.Failures++
		case Skip, NotRun:
			tc.Skipped = &junitMessage{Message: string(c.Status) + ": " + text}
			out.Suites[i].Skipped++
			out.Skipped++
		default:
			tc.Output = text
		}
		out.Suites[i].Tests++
		out.Tests++
		out.Suites[i].Cases = append(out.Suites[i].Cases, tc)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
