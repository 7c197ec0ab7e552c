// Package storegen generates the store-finder example's default dataset: a
// few thousand invented stores of a fictional multi-brand retailer spread
// over real metro areas in many time zones, including both sides of the
// antimeridian. The output is a pure function of the seed, so the committed
// dataset file can be regenerated and checked byte for byte.
//
// All arithmetic that shapes the output is integer arithmetic (coordinates
// are micro-degrees), so the bytes do not depend on the CPU's floating-point
// fusion or the math library; only math/rand/v2's PCG stream is used, through
// its Uint64 method, whose sequence is fixed by its algorithm.
package storegen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// DefaultSeed is the seed the store finder's committed sample
// (examples/storefinder/sample/stores.json) was made with.
const DefaultSeed uint64 = 20260825

// Generate returns the dataset file for seed: a JSON array with one compact
// record per line and a trailing newline. It checks its own output with the
// schedule rules of the Location capability, so a broken table edit fails
// here rather than in the server (the tests also parse it as a dataset).
func Generate(seed uint64) ([]byte, error) {
	g := &generator{
		rng:    rand.NewPCG(seed, seed^0x9e3779b97f4a7c15),
		ids:    map[string]bool{},
		names:  map[string]int{},
		legacy: map[string]int{},
	}
	var recs []outRecord
	for mi := range metros {
		recs = append(recs, g.metro(&metros[mi])...)
	}
	for i := range recs {
		if err := checkSchedule(&recs[i].Location); err != nil {
			return nil, fmt.Errorf("generated store %s: %w", recs[i].Location.ID, err)
		}
	}
	var buf bytes.Buffer
	buf.WriteString("[\n")
	for i := range recs {
		var line bytes.Buffer
		enc := json.NewEncoder(&line)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(&recs[i]); err != nil {
			return nil, fmt.Errorf("encode store %s: %w", recs[i].Location.ID, err)
		}
		buf.Write(bytes.TrimSuffix(line.Bytes(), []byte("\n")))
		if i < len(recs)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString("]\n")
	return buf.Bytes(), nil
}

// Output shapes. Field order here is the member order in the file.
type outRecord struct {
	Location    outLocation     `json:"location"`
	Aliases     []string        `json:"aliases,omitempty"`
	Items       []string        `json:"items,omitempty"`
	ServiceArea *outServiceArea `json:"service_area,omitempty"`
	Private     bool            `json:"private,omitempty"`
}

// outServiceArea is a record's service_area member, in the dataset file's
// member order.
type outServiceArea struct {
	Countries   []string `json:"countries,omitempty"`
	Regions     []string `json:"regions,omitempty"`
	PostalCodes []string `json:"postal_codes,omitempty"`
	RadiusM     *float64 `json:"radius_m,omitempty"`
}

type outLocation struct {
	ID             string                `json:"id"`
	Name           string                `json:"name"`
	Address        outAddress            `json:"address"`
	Geo            outGeo                `json:"geo"`
	Timezone       string                `json:"timezone,omitempty"`
	Hours          []outDailyHour        `json:"hours,omitempty"`
	ExceptionHours []outException        `json:"exception_hours,omitempty"`
	Amenities      map[string]outAmenity `json:"amenities,omitempty"`
}

type outAddress struct {
	StreetAddress   string `json:"street_address"`
	ExtendedAddress string `json:"extended_address,omitempty"`
	Locality        string `json:"address_locality"`
	Region          string `json:"address_region"`
	PostalCode      string `json:"postal_code,omitempty"`
	Country         string `json:"address_country"`
}

// outGeo writes micro-degree integers as exact decimal JSON numbers.
type outGeo struct {
	Latitude  json.Number `json:"latitude"`
	Longitude json.Number `json:"longitude"`
}

type outDailyHour struct {
	Day    string `json:"day"`
	Opens  string `json:"opens"`
	Closes string `json:"closes"`
}

type outException struct {
	Title        string `json:"title,omitempty"`
	ValidFrom    string `json:"valid_from"`
	ValidThrough string `json:"valid_through"`
	Opens        string `json:"opens,omitempty"`
	Closes       string `json:"closes,omitempty"`
}

type outAmenity struct {
	Description string `json:"description"`
}

type generator struct {
	rng     *rand.PCG
	ids     map[string]bool
	names   map[string]int
	legacy  map[string]int // next legacy serial per brand+metro
	storeNo int
}

// intn returns a value in [0, n); the tiny modulo bias is irrelevant here
// and keeps the stream independent of math/rand/v2's helper algorithms.
func (g *generator) intn(n int) int {
	if n <= 0 {
		return 0
	}
	return int(g.rng.Uint64() % uint64(n))
}

// between returns a value in [lo, hi].
func (g *generator) between(lo, hi int) int { return lo + g.intn(hi-lo+1) }

// chance reports true pct percent of the time.
func (g *generator) chance(pct int) bool { return g.intn(100) < pct }

func pick[T any](g *generator, xs []T) T { return xs[g.intn(len(xs))] }

// kind classifies a store's regular schedule.
type kind int

const (
	kindStandard kind = iota
	kindAroundTheClock
	kindOvernight
	kindSplit
	kindUnknown // no hours, no timezone: an opening-soon store
	kindPopUp   // no weekly hours, only a seasonal exception
)

func (g *generator) metro(m *metro) []outRecord {
	total := 0
	for _, l := range m.localities {
		total += l.weight
	}
	out := make([]outRecord, 0, m.stores)
	for n := 0; n < m.stores; n++ {
		w := g.intn(total)
		li := 0
		for w >= m.localities[li].weight {
			w -= m.localities[li].weight
			li++
		}
		out = append(out, g.store(m, &m.localities[li]))
	}
	return out
}

func (g *generator) pickBrand(m *metro) int {
	if m.remote {
		if g.chance(65) {
			return grocery
		}
		return convenience
	}
	r := g.intn(100)
	switch {
	case r < 38:
		return grocery
	case r < 58:
		return electronics
	case r < 75:
		return homeGoods
	default:
		return convenience
	}
}

func (g *generator) store(m *metro, l *locality) outRecord {
	g.storeNo++
	b := g.pickBrand(m)
	c := m.country
	private := !m.remote && (b == grocery || b == convenience) && g.chance(5)

	k := g.pickKind(m, b, private)
	lat, lon := g.scatter(l)
	street, streetName := g.street(c)
	loc := outLocation{
		ID:   g.newID(),
		Name: g.name(m, l, b, k, private, streetName),
		Address: outAddress{
			StreetAddress: street,
			Locality:      l.city,
			Region:        l.region,
			PostalCode:    g.postal(c, l),
			Country:       c.code,
		},
		Geo: outGeo{Latitude: microDegrees(lat), Longitude: microDegrees(lon)},
	}
	if c == countryAU && g.chance(25) {
		loc.Address.ExtendedAddress = fmt.Sprintf("Shop %d", g.between(1, 120))
	}
	if k != kindUnknown {
		loc.Timezone = m.tz
	}
	loc.Hours = g.weekly(m, b, k)
	loc.ExceptionHours = g.exceptions(m, b, k)
	if !private {
		loc.Amenities = g.amenities(c, b)
	}
	rec := outRecord{
		Location:    loc,
		Aliases:     g.aliases(m, b),
		Items:       g.items(b),
		ServiceArea: g.serviceArea(m, l, b, loc.Address.PostalCode),
		Private:     private,
	}
	return rec
}

func (g *generator) pickKind(m *metro, b int, private bool) kind {
	if private {
		return kindAroundTheClock
	}
	if m.remote {
		return kindSplit
	}
	r := g.intn(1000)
	if r < 6 {
		return kindUnknown
	}
	if r < 12 && b == homeGoods {
		return kindPopUp
	}
	switch b {
	case convenience:
		if m.country == countryJP || g.chance(40) {
			return kindAroundTheClock
		}
		if g.chance(60) {
			return kindOvernight
		}
	case grocery:
		if !m.country.sundayClosed && g.chance(8) {
			return kindAroundTheClock
		}
		if !m.country.sundayClosed && g.chance(12) {
			return kindOvernight
		}
		if g.chance(5) {
			return kindSplit
		}
	case homeGoods:
		if g.chance(15) {
			return kindSplit
		}
	}
	return kindStandard
}

var weekdays = [7]string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}

// weekly builds the regular hours for a store of brand b.
func (g *generator) weekly(m *metro, b int, k kind) []outDailyHour {
	c := m.country
	var h []outDailyHour
	add := func(day int, opens, closes string) {
		h = append(h, outDailyHour{Day: weekdays[day], Opens: opens, Closes: closes})
	}
	switch k {
	case kindUnknown, kindPopUp:
		return nil
	case kindAroundTheClock:
		for d := range weekdays {
			add(d, "00:00", "23:59")
		}
		return h
	case kindOvernight:
		opens := pick(g, []string{"05:00", "06:00", "07:00"})
		closes := pick(g, []string{"00:30", "01:00", "02:00", "03:00"})
		for d := range weekdays {
			add(d, opens, closes)
		}
		// Some close the night on Sunday at midnight exactly.
		if g.chance(30) {
			h[6].Closes = "00:00"
		}
		return h
	case kindSplit:
		morningClose := pick(g, []string{"12:00", "12:30", "13:00"})
		afternoonOpen := pick(g, []string{"13:30", "14:00", "15:00"})
		for d := 0; d < 5; d++ {
			add(d, pick(g, []string{"08:00", "08:30", "09:00"}), morningClose)
			add(d, afternoonOpen, pick(g, []string{"17:30", "18:00", "19:00"}))
		}
		add(5, "09:00", pick(g, []string{"12:00", "13:00"}))
		if !c.sundayClosed && g.chance(40) {
			add(6, "10:00", "12:00")
		}
		return h
	}
	// Standard hours by brand and country.
	switch b {
	case grocery:
		opens := pick(g, []string{"07:00", "07:30", "08:00"})
		closes := pick(g, []string{"21:00", "22:00", "23:00"})
		for d := 0; d < 6; d++ {
			add(d, opens, closes)
		}
		switch {
		case c.sundayClosed:
		case c == countryGB:
			add(6, "10:00", "16:00") // Sunday trading rules for large shops
		default:
			add(6, "08:00", pick(g, []string{"20:00", "21:00"}))
		}
	case electronics:
		closes := "20:00"
		if c == countryJP {
			closes = "21:00"
		}
		for d := 0; d < 6; d++ {
			if d == 3 && (c == countryAU || c == countryNZ) {
				add(d, "10:00", "21:00") // late-night shopping Thursday
				continue
			}
			add(d, "10:00", closes)
		}
		switch {
		case c.sundayClosed:
		case c == countryGB:
			add(6, "11:00", "17:00")
		default:
			add(6, "11:00", "18:00")
		}
	case homeGoods:
		for d := 0; d < 5; d++ {
			add(d, "09:00", pick(g, []string{"19:00", "20:00"}))
		}
		add(5, "09:00", "18:00")
		if !c.sundayClosed && c != countryFJ {
			add(6, "10:00", "16:00")
		}
	case convenience:
		opens := pick(g, []string{"06:00", "06:30", "07:00"})
		closes := pick(g, []string{"22:00", "23:00", "23:30"})
		days := 7
		if c.sundayClosed {
			days = 6
		}
		for d := 0; d < days; d++ {
			add(d, opens, closes)
		}
	}
	return h
}

// exceptions applies the country's holidays to the store and sometimes a
// store-specific closure or event.
func (g *generator) exceptions(m *metro, b int, k kind) []outException {
	var ex []outException
	switch k {
	case kindUnknown:
		return nil
	case kindPopUp:
		return []outException{
			{Title: "Holiday pop-up", ValidFrom: "2026-11-16", ValidThrough: "2026-12-23", Opens: "10:00", Closes: "14:00"},
			{Title: "Holiday pop-up", ValidFrom: "2026-11-16", ValidThrough: "2026-12-23", Opens: "15:00", Closes: "20:00"},
		}
	}
	for _, h := range holidays[m.country.code] {
		if !h.brands[b] || (k == kindAroundTheClock && !h.allDay24) {
			continue
		}
		// Not every store publishes every holiday.
		if !g.chance(90) {
			continue
		}
		first := outException{Title: h.title, ValidFrom: h.from, ValidThrough: h.through, Opens: h.opens, Closes: h.closes}
		if !fits(ex, first) {
			continue
		}
		ex = append(ex, first)
		if h.split[0] != "" {
			second := first
			second.Opens, second.Closes = h.split[0], h.split[1]
			ex = append(ex, second)
		}
	}
	switch r := g.intn(100); {
	case r < 3:
		ex = appendIfFits(ex, outException{Title: "Closed for refurbishment", ValidFrom: "2027-02-08", ValidThrough: "2027-02-21"})
	case r < 5:
		ex = appendIfFits(ex, outException{Title: "Stocktake", ValidFrom: "2027-01-11", ValidThrough: "2027-01-11", Opens: "12:00", Closes: "20:00"})
	case r < 7 && k != kindAroundTheClock:
		ex = appendIfFits(ex, outException{Title: "Late-night opening event", ValidFrom: "2026-11-06", ValidThrough: "2026-11-06", Opens: "18:00", Closes: "02:00"})
	}
	return ex
}

func appendIfFits(ex []outException, e outException) []outException {
	if fits(ex, e) {
		return append(ex, e)
	}
	return ex
}

// fits reports whether e can join ex without breaking the exception rules:
// ranges that intersect must be identical, and a full closure stands alone.
func fits(ex []outException, e outException) bool {
	for _, o := range ex {
		if o.ValidThrough < e.ValidFrom || e.ValidThrough < o.ValidFrom {
			continue
		}
		if o.ValidFrom != e.ValidFrom || o.ValidThrough != e.ValidThrough {
			return false
		}
		if o.Opens == "" || e.Opens == "" {
			return false
		}
	}
	return true
}

func (g *generator) amenities(c *country, b int) map[string]outAmenity {
	out := map[string]outAmenity{}
	for _, a := range amenityTable {
		if g.chance(a.pct[b]) {
			out[a.a.key] = outAmenity{Description: a.a.text[c.lang]}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func (g *generator) items(b int) []string {
	var out []string
	for _, it := range catalogue {
		if g.chance(it.pct[b]) {
			out = append(out, it.id)
		}
	}
	return out
}

// aliases gives every store its public store number and about half of them
// a legacy point-of-sale code.
func (g *generator) aliases(m *metro, b int) []string {
	out := []string{fmt.Sprintf("store-%04d", g.storeNo)}
	key := brands[b].code + "-" + m.code
	g.legacy[key]++
	if g.chance(50) {
		out = append(out, fmt.Sprintf("%s-%03d", key, g.legacy[key]))
	}
	return out
}

func (g *generator) serviceArea(m *metro, l *locality, b int, postal string) *outServiceArea {
	if b == homeGoods && g.chance(20) {
		return nil // in-store only
	}
	sa := &outServiceArea{Countries: []string{m.country.code}}
	switch b {
	case electronics:
		// Ships to every region of its metro area.
		seen := map[string]bool{}
		for _, o := range m.localities {
			if !seen[o.region] {
				seen[o.region] = true
				sa.Regions = append(sa.Regions, o.region)
			}
		}
		sort.Strings(sa.Regions)
		sa.RadiusM = meters(g.between(20, 60) * 1000)
	case grocery:
		if g.chance(60) {
			sa.Regions = []string{l.region}
		}
		sa.RadiusM = meters(g.between(6, 30) * 500)
	case homeGoods:
		sa.Regions = []string{l.region}
		sa.RadiusM = meters(g.between(10, 40) * 1000)
	case convenience:
		sa.RadiusM = meters(g.between(2, 6) * 500)
	}
	if m.remote {
		sa.RadiusM = meters(g.between(5, 25) * 1000)
	}
	if postal != "" && b != electronics && g.chance(50) {
		sa.PostalCodes = g.nearbyPostals(m.country, l, postal)
	}
	return sa
}

func meters(v int) *float64 {
	f := float64(v)
	return &f
}

// nearbyPostals returns the store's own postal code plus up to three other
// codes of its locality, sorted and distinct.
func (g *generator) nearbyPostals(c *country, l *locality, own string) []string {
	set := map[string]bool{own: true}
	for n := g.intn(4); n > 0; n-- {
		set[g.postal(c, l)] = true
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

const ukInwardLetters = "ABDEFGHJLNPQRSTUWXYZ"

func (g *generator) postal(c *country, l *locality) string {
	switch c {
	case countryFJ:
		return ""
	case countryGB:
		return fmt.Sprintf("%s %d%c%c", pick(g, l.outward), g.intn(10),
			ukInwardLetters[g.intn(len(ukInwardLetters))], ukInwardLetters[g.intn(len(ukInwardLetters))])
	case countryJP:
		return fmt.Sprintf("%03d-%04d", g.between(l.postLo, l.postHi), g.intn(10000))
	case countryUS, countryDE:
		return fmt.Sprintf("%05d", g.between(l.postLo, l.postHi))
	default:
		return fmt.Sprintf("%04d", g.between(l.postLo, l.postHi))
	}
}

// street returns a formatted street address and the bare street name.
func (g *generator) street(c *country) (string, string) {
	switch c.style {
	case japanBlock:
		return fmt.Sprintf("%d-%d-%d", g.between(1, 7), g.between(1, 30), g.between(1, 25)), ""
	case numberLast:
		s := pick(g, c.streets)
		n := strconv.Itoa(g.between(1, 180))
		if g.chance(10) {
			n += "a"
		}
		return s + " " + n, s
	case numberFirstL:
		s := pick(g, c.streets)
		return fmt.Sprintf("Lot %d %s", g.between(1, 90), s), s
	default:
		s := pick(g, c.streets)
		hi := 300
		if c == countryUS {
			hi = 4999
		}
		return fmt.Sprintf("%d %s", g.between(1, hi), s), s
	}
}

func (g *generator) name(m *metro, l *locality, b int, k kind, private bool, streetName string) string {
	place := l.district
	if place == "" {
		place = l.city
	}
	base := brands[b].name + " " + place
	switch {
	case private:
		base = brands[b].name + " Fulfilment Hub " + place
	case k == kindPopUp:
		base = brands[b].name + " Pop-up " + place
	}
	n := g.names[base]
	g.names[base] = n + 1
	if n == 0 {
		return base
	}
	if streetName != "" {
		full := base + " " + streetName
		if g.names[full] == 0 {
			g.names[full] = 1
			return full
		}
	}
	return fmt.Sprintf("%s %d", base, n+1)
}

func (g *generator) newID() string {
	for {
		id := fmt.Sprintf("loc_%012x", g.rng.Uint64()>>16)
		if !g.ids[id] {
			g.ids[id] = true
			return id
		}
	}
}

// scatter places a store near the locality centre: a bell-shaped offset in
// meters (mean of three uniform draws), converted to micro-degrees with
// integer arithmetic and wrapped across the antimeridian.
func (g *generator) scatter(l *locality) (lat, lon int64) {
	s := l.spreadM
	bell := func() int64 {
		var sum int64
		for range 3 {
			sum += int64(g.intn(int(2*s+1))) - s
		}
		return sum / 3
	}
	dy, dx := bell(), bell()
	lat0 := int64(math.Round(l.lat * 1e6))
	lon0 := int64(math.Round(l.lon * 1e6))
	// Meters per degree of longitude at the centre, rounded to whole meters
	// so that only this one rounding depends on the math library.
	mPerDegLon := int64(math.Round(111320 * math.Cos(l.lat*math.Pi/180)))
	lat = lat0 + dy*1_000_000/110_946
	lon = lon0 + dx*1_000_000/mPerDegLon
	if lon > 180_000_000 {
		lon -= 360_000_000
	} else if lon < -180_000_000 {
		lon += 360_000_000
	}
	return lat, lon
}

// microDegrees formats v millionths of a degree as a decimal JSON number.
func microDegrees(v int64) json.Number {
	sign := ""
	if v < 0 {
		sign = "-"
		v = -v
	}
	whole, frac := v/1_000_000, v%1_000_000
	if frac == 0 {
		return json.Number(sign + strconv.FormatInt(whole, 10))
	}
	f := strings.TrimRight(fmt.Sprintf("%06d", frac), "0")
	return json.Number(fmt.Sprintf("%s%d.%s", sign, whole, f))
}
