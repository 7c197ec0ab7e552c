package storegen

// This file holds the fixed inputs of the generator: brands, places, street
// names, holidays, amenity vocabulary and the item catalogue. Coordinates
// are approximate centres of real districts; everything about the stores
// themselves (brands, ids, addresses, stock) is invented.

// brand is one banner of the fictional retailer.
type brand struct {
	name   string // buyer-facing banner name, the start of every store name
	code   string // three-letter code used in legacy aliases
	domain string // reverse-domain namespace of brand-specific amenity keys
}

// The four banners of the fictional Meridian Retail Group. The order is
// the index used by brand masks below.
const (
	grocery = iota
	electronics
	homeGoods
	convenience
	brandCount
)

var brands = [brandCount]brand{
	grocery:     {name: "Harvest Lane Market", code: "HLM", domain: "com.example-harvestlane"},
	electronics: {name: "Voltbay Electronics", code: "VBE", domain: "com.example-voltbay"},
	homeGoods:   {name: "Nestwell Home", code: "NWH", domain: "com.example-nestwell"},
	convenience: {name: "Nightjar Express", code: "NJX", domain: "com.example-nightjar"},
}

// retailerDomain namespaces amenity keys shared by every banner.
const retailerDomain = "com.example-meridian"

// lang selects the language of buyer-facing amenity descriptions, chosen
// by the store's country as a Business localising its data would.
type lang int

const (
	enUS lang = iota
	enGB
	de
	nb
	ja
	langCount
)

// country holds per-country formatting and legal facts.
type country struct {
	code    string // ISO 3166-1 alpha-2, the address_country value
	lang    lang
	style   addressStyle
	streets []string
	// sundayClosed reflects Sunday trading laws that close most shops.
	sundayClosed bool
}

type addressStyle int

const (
	numberFirst  addressStyle = iota // "12 High Street"
	numberLast                       // "Hauptstraße 12"
	japanBlock                       // "2-14-5 Shinjuku"
	numberFirstL                     // "Lot 12 Victoria Parade" (no postal codes)
)

var (
	usStreets = []string{"Main Street", "Broadway", "Maple Avenue", "Oak Street", "Park Avenue", "Washington Street", "Elm Street", "Lincoln Avenue", "Market Street", "Jefferson Boulevard", "Cedar Lane", "Lake Street", "Hill Road", "River Road", "Central Avenue", "Franklin Street", "Madison Avenue", "Highland Avenue", "Pine Street", "Mission Street", "Grand Avenue", "Spring Street", "Union Street", "Harbor Drive"}
	gbStreets = []string{"High Street", "Station Road", "Church Street", "London Road", "Victoria Road", "King Street", "Queen Street", "Park Road", "Mill Lane", "The Parade", "Market Place", "Bridge Street", "Green Lane", "Manor Road", "Albert Road", "Castle Street", "Chapel Street", "North Road"}
	deStreets = []string{"Hauptstraße", "Bahnhofstraße", "Schillerstraße", "Goethestraße", "Lindenstraße", "Königstraße", "Friedrichstraße", "Gartenstraße", "Marktplatz", "Kirchweg", "Am Weiher", "Rosenstraße", "Mühlenweg", "Schloßallee", "Breite Straße", "Müllerstraße"}
	noStreets = []string{"Storgata", "Kirkegata", "Strandveien", "Parkveien", "Skolegata", "Torggata", "Bjørnstjerne Bjørnsons gate", "Fjordveien", "Løkkeveien", "Åsveien", "Kongens gate", "Sjøgata"}
	auStreets = []string{"George Street", "King Street", "Queen Street", "Victoria Road", "Pacific Highway", "Church Street", "High Street", "Albert Street", "Elizabeth Street", "Beach Road", "Station Street", "Great North Road", "Collins Street", "Bridge Road", "Smith Street", "Military Road"}
	fjStreets = []string{"Victoria Parade", "Queen Elizabeth Drive", "Ratu Sukuna Road", "Nasekula Road", "Main Street", "Vitogo Parade", "Waimanu Road", "Naviti Street"}
)

var (
	countryUS = &country{code: "US", lang: enUS, style: numberFirst, streets: usStreets}
	countryGB = &country{code: "GB", lang: enGB, style: numberFirst, streets: gbStreets}
	countryDE = &country{code: "DE", lang: de, style: numberLast, streets: deStreets, sundayClosed: true}
	countryNO = &country{code: "NO", lang: nb, style: numberLast, streets: noStreets, sundayClosed: true}
	countryJP = &country{code: "JP", lang: ja, style: japanBlock}
	countryAU = &country{code: "AU", lang: enGB, style: numberFirst, streets: auStreets}
	countryNZ = &country{code: "NZ", lang: enGB, style: numberFirst, streets: auStreets}
	countryFJ = &country{code: "FJ", lang: enGB, style: numberFirstL, streets: fjStreets}
)

// locality is one town or district stores cluster around.
type locality struct {
	city     string  // address_locality
	district string  // used in store names when set, else city
	region   string  // address_region
	lat, lon float64 // approximate centre, decimal degrees
	spreadM  int64   // half-width of the scatter box in meters
	weight   int     // relative share of the metro's stores
	postLo   int     // numeric postal code range (inclusive), 0 when none
	postHi   int
	outward  []string // UK outward codes, used instead of the numeric range
}

// metro is a group of localities sharing a time zone and a legacy code.
type metro struct {
	code    string // legacy metro code, e.g. "NYC"
	tz      string // IANA zone
	country *country
	stores  int
	// remote metros only get grocery and convenience stores, short split
	// hours and no dark stores.
	remote     bool
	localities []locality
}

var metros = []metro{
	{code: "NYC", tz: "America/New_York", country: countryUS, stores: 250, localities: []locality{
		{city: "New York", district: "Manhattan", region: "NY", lat: 40.7831, lon: -73.9712, spreadM: 3500, weight: 6, postLo: 10001, postHi: 10040},
		{city: "Brooklyn", region: "NY", lat: 40.6782, lon: -73.9442, spreadM: 5000, weight: 5, postLo: 11201, postHi: 11239},
		{city: "Flushing", region: "NY", lat: 40.7675, lon: -73.8331, spreadM: 2500, weight: 2, postLo: 11354, postHi: 11367},
		{city: "Jamaica", region: "NY", lat: 40.7027, lon: -73.7890, spreadM: 2500, weight: 2, postLo: 11432, postHi: 11436},
		{city: "Astoria", region: "NY", lat: 40.7644, lon: -73.9235, spreadM: 2000, weight: 1, postLo: 11101, postHi: 11106},
		{city: "Bronx", region: "NY", lat: 40.8448, lon: -73.8648, spreadM: 4000, weight: 3, postLo: 10451, postHi: 10475},
		{city: "Staten Island", region: "NY", lat: 40.5795, lon: -74.1502, spreadM: 5000, weight: 1, postLo: 10301, postHi: 10314},
		{city: "Yonkers", region: "NY", lat: 40.9312, lon: -73.8988, spreadM: 3000, weight: 1, postLo: 10701, postHi: 10710},
		{city: "Jersey City", region: "NJ", lat: 40.7178, lon: -74.0431, spreadM: 3000, weight: 2, postLo: 7302, postHi: 7311},
		{city: "Newark", region: "NJ", lat: 40.7357, lon: -74.1724, spreadM: 3500, weight: 2, postLo: 7102, postHi: 7114},
	}},
	{code: "BOS", tz: "America/New_York", country: countryUS, stores: 90, localities: []locality{
		{city: "Boston", region: "MA", lat: 42.3601, lon: -71.0589, spreadM: 3500, weight: 4, postLo: 2108, postHi: 2137},
		{city: "Cambridge", region: "MA", lat: 42.3736, lon: -71.1097, spreadM: 2000, weight: 2, postLo: 2138, postHi: 2142},
		{city: "Somerville", region: "MA", lat: 42.3876, lon: -71.0995, spreadM: 1500, weight: 1, postLo: 2143, postHi: 2145},
		{city: "Quincy", region: "MA", lat: 42.2529, lon: -71.0023, spreadM: 3000, weight: 1, postLo: 2169, postHi: 2171},
		{city: "Newton", region: "MA", lat: 42.3370, lon: -71.2092, spreadM: 3000, weight: 1, postLo: 2458, postHi: 2468},
		{city: "Brookline", region: "MA", lat: 42.3318, lon: -71.1212, spreadM: 1500, weight: 1, postLo: 2445, postHi: 2447},
	}},
	{code: "MIA", tz: "America/New_York", country: countryUS, stores: 90, localities: []locality{
		{city: "Miami", region: "FL", lat: 25.7617, lon: -80.1918, spreadM: 5000, weight: 4, postLo: 33125, postHi: 33199},
		{city: "Miami Beach", region: "FL", lat: 25.7907, lon: -80.1300, spreadM: 2000, weight: 1, postLo: 33139, postHi: 33141},
		{city: "Coral Gables", region: "FL", lat: 25.7215, lon: -80.2684, spreadM: 2500, weight: 1, postLo: 33134, postHi: 33146},
		{city: "Hialeah", region: "FL", lat: 25.8576, lon: -80.2781, spreadM: 3000, weight: 2, postLo: 33010, postHi: 33018},
		{city: "Fort Lauderdale", region: "FL", lat: 26.1224, lon: -80.1373, spreadM: 4000, weight: 2, postLo: 33301, postHi: 33316},
	}},
	{code: "CHI", tz: "America/Chicago", country: countryUS, stores: 150, localities: []locality{
		{city: "Chicago", region: "IL", lat: 41.8781, lon: -87.6298, spreadM: 7000, weight: 7, postLo: 60601, postHi: 60661},
		{city: "Evanston", region: "IL", lat: 42.0451, lon: -87.6877, spreadM: 2500, weight: 1, postLo: 60201, postHi: 60208},
		{city: "Oak Park", region: "IL", lat: 41.8850, lon: -87.7845, spreadM: 2000, weight: 1, postLo: 60301, postHi: 60304},
		{city: "Naperville", region: "IL", lat: 41.7508, lon: -88.1535, spreadM: 4000, weight: 1, postLo: 60540, postHi: 60567},
		{city: "Schaumburg", region: "IL", lat: 42.0334, lon: -88.0834, spreadM: 3000, weight: 1, postLo: 60168, postHi: 60196},
		{city: "Gary", region: "IN", lat: 41.5934, lon: -87.3464, spreadM: 3000, weight: 1, postLo: 46401, postHi: 46411},
	}},
	{code: "LAX", tz: "America/Los_Angeles", country: countryUS, stores: 200, localities: []locality{
		{city: "Los Angeles", region: "CA", lat: 34.0522, lon: -118.2437, spreadM: 9000, weight: 6, postLo: 90001, postHi: 90089},
		{city: "Santa Monica", region: "CA", lat: 34.0195, lon: -118.4912, spreadM: 2500, weight: 1, postLo: 90401, postHi: 90405},
		{city: "Pasadena", region: "CA", lat: 34.1478, lon: -118.1445, spreadM: 3000, weight: 1, postLo: 91101, postHi: 91107},
		{city: "Long Beach", region: "CA", lat: 33.7701, lon: -118.1937, spreadM: 4000, weight: 2, postLo: 90802, postHi: 90815},
		{city: "Glendale", region: "CA", lat: 34.1425, lon: -118.2551, spreadM: 2500, weight: 1, postLo: 91201, postHi: 91210},
		{city: "Anaheim", region: "CA", lat: 33.8366, lon: -117.9143, spreadM: 4000, weight: 2, postLo: 92801, postHi: 92817},
		{city: "Burbank", region: "CA", lat: 34.1808, lon: -118.3090, spreadM: 2500, weight: 1, postLo: 91501, postHi: 91506},
	}},
	{code: "SFO", tz: "America/Los_Angeles", country: countryUS, stores: 110, localities: []locality{
		{city: "San Francisco", region: "CA", lat: 37.7749, lon: -122.4194, spreadM: 3500, weight: 4, postLo: 94102, postHi: 94134},
		{city: "Oakland", region: "CA", lat: 37.8044, lon: -122.2712, spreadM: 4000, weight: 2, postLo: 94601, postHi: 94621},
		{city: "Berkeley", region: "CA", lat: 37.8715, lon: -122.2730, spreadM: 2000, weight: 1, postLo: 94702, postHi: 94710},
		{city: "San Jose", region: "CA", lat: 37.3382, lon: -121.8863, spreadM: 6000, weight: 3, postLo: 95110, postHi: 95139},
		{city: "Palo Alto", region: "CA", lat: 37.4419, lon: -122.1430, spreadM: 2500, weight: 1, postLo: 94301, postHi: 94306},
		{city: "Daly City", region: "CA", lat: 37.6879, lon: -122.4702, spreadM: 2000, weight: 1, postLo: 94014, postHi: 94015},
	}},
	{code: "SEA", tz: "America/Los_Angeles", country: countryUS, stores: 90, localities: []locality{
		{city: "Seattle", region: "WA", lat: 47.6062, lon: -122.3321, spreadM: 6000, weight: 4, postLo: 98101, postHi: 98199},
		{city: "Bellevue", region: "WA", lat: 47.6101, lon: -122.2015, spreadM: 3000, weight: 2, postLo: 98004, postHi: 98008},
		{city: "Tacoma", region: "WA", lat: 47.2529, lon: -122.4443, spreadM: 4000, weight: 2, postLo: 98402, postHi: 98422},
		{city: "Redmond", region: "WA", lat: 47.6740, lon: -122.1215, spreadM: 2500, weight: 1, postLo: 98052, postHi: 98053},
		{city: "Everett", region: "WA", lat: 47.9790, lon: -122.2021, spreadM: 3000, weight: 1, postLo: 98201, postHi: 98208},
	}},
	{code: "ANC", tz: "America/Anchorage", country: countryUS, stores: 25, localities: []locality{
		{city: "Anchorage", region: "AK", lat: 61.2181, lon: -149.9003, spreadM: 6000, weight: 5, postLo: 99501, postHi: 99518},
		{city: "Eagle River", region: "AK", lat: 61.3214, lon: -149.5679, spreadM: 2000, weight: 1, postLo: 99577, postHi: 99577},
		{city: "Wasilla", region: "AK", lat: 61.5814, lon: -149.4394, spreadM: 3000, weight: 1, postLo: 99654, postHi: 99654},
	}},
	// The Aleutians sit on both sides of the antimeridian in one zone.
	{code: "ADK", tz: "America/Adak", country: countryUS, stores: 7, remote: true, localities: []locality{
		{city: "Adak", region: "AK", lat: 51.8800, lon: -176.6581, spreadM: 1500, weight: 3, postLo: 99546, postHi: 99546},
		{city: "Atka", region: "AK", lat: 52.1961, lon: -174.2006, spreadM: 800, weight: 1, postLo: 99547, postHi: 99547},
		{city: "Amchitka", region: "AK", lat: 51.4800, lon: 179.1500, spreadM: 4000, weight: 2, postLo: 99546, postHi: 99546},
		{city: "Tanaga", region: "AK", lat: 51.7600, lon: -177.9500, spreadM: 2000, weight: 1, postLo: 99546, postHi: 99546},
	}},
	{code: "HNL", tz: "Pacific/Honolulu", country: countryUS, stores: 30, localities: []locality{
		{city: "Honolulu", region: "HI", lat: 21.3069, lon: -157.8583, spreadM: 5000, weight: 4, postLo: 96813, postHi: 96826},
		{city: "Kailua", region: "HI", lat: 21.4022, lon: -157.7394, spreadM: 2000, weight: 1, postLo: 96734, postHi: 96734},
		{city: "Pearl City", region: "HI", lat: 21.3972, lon: -157.9752, spreadM: 2000, weight: 1, postLo: 96782, postHi: 96782},
		{city: "Kapolei", region: "HI", lat: 21.3354, lon: -158.0580, spreadM: 2500, weight: 1, postLo: 96707, postHi: 96707},
	}},
	{code: "LON", tz: "Europe/London", country: countryGB, stores: 220, localities: []locality{
		{city: "London", district: "Westminster", region: "England", lat: 51.4975, lon: -0.1357, spreadM: 2000, weight: 3, outward: []string{"SW1A", "SW1P", "SW1V", "W1D", "W1F"}},
		{city: "London", district: "Camden", region: "England", lat: 51.5290, lon: -0.1255, spreadM: 2000, weight: 2, outward: []string{"NW1", "NW5", "N7"}},
		{city: "London", district: "Hackney", region: "England", lat: 51.5450, lon: -0.0553, spreadM: 2000, weight: 2, outward: []string{"E8", "E9", "N16"}},
		{city: "London", district: "Greenwich", region: "England", lat: 51.4826, lon: 0.0077, spreadM: 2500, weight: 2, outward: []string{"SE10", "SE3"}},
		{city: "Croydon", region: "England", lat: 51.3762, lon: -0.0982, spreadM: 3000, weight: 2, outward: []string{"CR0", "CR2"}},
		{city: "London", district: "Wimbledon", region: "England", lat: 51.4214, lon: -0.2064, spreadM: 2000, weight: 1, outward: []string{"SW19"}},
		{city: "London", district: "Stratford", region: "England", lat: 51.5416, lon: -0.0034, spreadM: 2000, weight: 2, outward: []string{"E15", "E20"}},
		{city: "London", district: "Ealing", region: "England", lat: 51.5130, lon: -0.3089, spreadM: 2500, weight: 1, outward: []string{"W5", "W13"}},
	}},
	{code: "MAN", tz: "Europe/London", country: countryGB, stores: 70, localities: []locality{
		{city: "Manchester", region: "England", lat: 53.4808, lon: -2.2426, spreadM: 3500, weight: 3, outward: []string{"M1", "M2", "M4", "M14"}},
		{city: "Salford", region: "England", lat: 53.4875, lon: -2.2901, spreadM: 2500, weight: 1, outward: []string{"M3", "M5", "M6"}},
		{city: "Stockport", region: "England", lat: 53.4106, lon: -2.1575, spreadM: 3000, weight: 1, outward: []string{"SK1", "SK2", "SK4"}},
		{city: "Bolton", region: "England", lat: 53.5769, lon: -2.4282, spreadM: 3000, weight: 1, outward: []string{"BL1", "BL3"}},
	}},
	{code: "EDI", tz: "Europe/London", country: countryGB, stores: 45, localities: []locality{
		{city: "Edinburgh", region: "Scotland", lat: 55.9533, lon: -3.1883, spreadM: 3500, weight: 4, outward: []string{"EH1", "EH2", "EH3", "EH7", "EH10"}},
		{city: "Leith", region: "Scotland", lat: 55.9756, lon: -3.1706, spreadM: 1500, weight: 1, outward: []string{"EH6"}},
		{city: "Musselburgh", region: "Scotland", lat: 55.9419, lon: -3.0545, spreadM: 1500, weight: 1, outward: []string{"EH21"}},
	}},
	{code: "GLA", tz: "Europe/London", country: countryGB, stores: 40, localities: []locality{
		{city: "Glasgow", region: "Scotland", lat: 55.8642, lon: -4.2518, spreadM: 5000, weight: 1, outward: []string{"G1", "G2", "G3", "G12", "G41"}},
	}},
	{code: "BER", tz: "Europe/Berlin", country: countryDE, stores: 140, localities: []locality{
		{city: "Berlin", district: "Berlin-Mitte", region: "Berlin", lat: 52.5200, lon: 13.4050, spreadM: 2000, weight: 3, postLo: 10115, postHi: 10179},
		{city: "Berlin", district: "Berlin-Kreuzberg", region: "Berlin", lat: 52.4986, lon: 13.4030, spreadM: 1800, weight: 2, postLo: 10961, postHi: 10999},
		{city: "Berlin", district: "Berlin-Prenzlauer Berg", region: "Berlin", lat: 52.5390, lon: 13.4240, spreadM: 1500, weight: 2, postLo: 10405, postHi: 10439},
		{city: "Berlin", district: "Berlin-Charlottenburg", region: "Berlin", lat: 52.5166, lon: 13.3041, spreadM: 2000, weight: 2, postLo: 10585, postHi: 10629},
		{city: "Berlin", district: "Berlin-Neukölln", region: "Berlin", lat: 52.4811, lon: 13.4354, spreadM: 2000, weight: 2, postLo: 12043, postHi: 12059},
		{city: "Berlin", district: "Berlin-Spandau", region: "Berlin", lat: 52.5351, lon: 13.1976, spreadM: 2500, weight: 1, postLo: 13581, postHi: 13599},
		{city: "Potsdam", region: "Brandenburg", lat: 52.3906, lon: 13.0645, spreadM: 3000, weight: 1, postLo: 14467, postHi: 14482},
	}},
	{code: "MUC", tz: "Europe/Berlin", country: countryDE, stores: 100, localities: []locality{
		{city: "München", district: "München-Altstadt", region: "Bayern", lat: 48.1374, lon: 11.5755, spreadM: 1500, weight: 2, postLo: 80331, postHi: 80339},
		{city: "München", district: "München-Schwabing", region: "Bayern", lat: 48.1650, lon: 11.5850, spreadM: 2000, weight: 2, postLo: 80796, postHi: 80805},
		{city: "München", district: "München-Sendling", region: "Bayern", lat: 48.1180, lon: 11.5400, spreadM: 1500, weight: 1, postLo: 81369, postHi: 81379},
		{city: "München", district: "München-Bogenhausen", region: "Bayern", lat: 48.1520, lon: 11.6200, spreadM: 2000, weight: 1, postLo: 81675, postHi: 81679},
		{city: "München", district: "München-Pasing", region: "Bayern", lat: 48.1500, lon: 11.4620, spreadM: 2000, weight: 1, postLo: 81241, postHi: 81249},
	}},
	{code: "HAM", tz: "Europe/Berlin", country: countryDE, stores: 80, localities: []locality{
		{city: "Hamburg", district: "Hamburg-Altona", region: "Hamburg", lat: 53.5503, lon: 9.9355, spreadM: 2000, weight: 2, postLo: 22765, postHi: 22769},
		{city: "Hamburg", district: "Hamburg-Eimsbüttel", region: "Hamburg", lat: 53.5740, lon: 9.9570, spreadM: 1800, weight: 2, postLo: 20253, postHi: 20259},
		{city: "Hamburg", district: "Hamburg-St. Georg", region: "Hamburg", lat: 53.5550, lon: 10.0110, spreadM: 1200, weight: 1, postLo: 20097, postHi: 20099},
		{city: "Hamburg", district: "Hamburg-Harburg", region: "Hamburg", lat: 53.4610, lon: 9.9830, spreadM: 2500, weight: 1, postLo: 21073, postHi: 21079},
		{city: "Hamburg", district: "Hamburg-Wandsbek", region: "Hamburg", lat: 53.5810, lon: 10.0820, spreadM: 2500, weight: 1, postLo: 22041, postHi: 22049},
	}},
	{code: "OSL", tz: "Europe/Oslo", country: countryNO, stores: 40, localities: []locality{
		{city: "Oslo", district: "Oslo sentrum", region: "Oslo", lat: 59.9139, lon: 10.7522, spreadM: 1500, weight: 3, postLo: 150, postHi: 191},
		{city: "Oslo", district: "Grünerløkka", region: "Oslo", lat: 59.9230, lon: 10.7590, spreadM: 1200, weight: 2, postLo: 550, postHi: 559},
		{city: "Oslo", district: "Majorstuen", region: "Oslo", lat: 59.9290, lon: 10.7170, spreadM: 1200, weight: 1, postLo: 350, postHi: 369},
		{city: "Oslo", district: "Frogner", region: "Oslo", lat: 59.9170, lon: 10.7060, spreadM: 1200, weight: 1, postLo: 250, postHi: 268},
		{city: "Sandvika", region: "Akershus", lat: 59.8910, lon: 10.5220, spreadM: 2500, weight: 1, postLo: 1300, postHi: 1339},
	}},
	{code: "TOS", tz: "Europe/Oslo", country: countryNO, stores: 14, remote: true, localities: []locality{
		{city: "Tromsø", region: "Troms", lat: 69.6492, lon: 18.9553, spreadM: 3000, weight: 3, postLo: 9008, postHi: 9020},
		{city: "Alta", region: "Finnmark", lat: 69.9689, lon: 23.2716, spreadM: 2500, weight: 1, postLo: 9510, postHi: 9517},
		{city: "Hammerfest", region: "Finnmark", lat: 70.6634, lon: 23.6821, spreadM: 1500, weight: 1, postLo: 9600, postHi: 9616},
	}},
	{code: "TYO", tz: "Asia/Tokyo", country: countryJP, stores: 220, localities: []locality{
		{city: "Shinjuku-ku", district: "Shinjuku", region: "Tokyo", lat: 35.6938, lon: 139.7034, spreadM: 1800, weight: 3, postLo: 160, postHi: 169},
		{city: "Shibuya-ku", district: "Shibuya", region: "Tokyo", lat: 35.6580, lon: 139.7016, spreadM: 1500, weight: 2, postLo: 150, postHi: 151},
		{city: "Toshima-ku", district: "Ikebukuro", region: "Tokyo", lat: 35.7295, lon: 139.7109, spreadM: 1500, weight: 2, postLo: 170, postHi: 171},
		{city: "Chuo-ku", district: "Ginza", region: "Tokyo", lat: 35.6717, lon: 139.7650, spreadM: 1000, weight: 1, postLo: 104, postHi: 104},
		{city: "Taito-ku", district: "Ueno", region: "Tokyo", lat: 35.7138, lon: 139.7773, spreadM: 1200, weight: 1, postLo: 110, postHi: 110},
		{city: "Musashino-shi", district: "Kichijoji", region: "Tokyo", lat: 35.7033, lon: 139.5797, spreadM: 1500, weight: 1, postLo: 180, postHi: 180},
		{city: "Shinagawa-ku", district: "Shinagawa", region: "Tokyo", lat: 35.6285, lon: 139.7387, spreadM: 1800, weight: 2, postLo: 140, postHi: 142},
		{city: "Yokohama-shi", district: "Yokohama", region: "Kanagawa", lat: 35.4437, lon: 139.6380, spreadM: 5000, weight: 3, postLo: 220, postHi: 236},
		{city: "Kawasaki-shi", district: "Kawasaki", region: "Kanagawa", lat: 35.5308, lon: 139.7029, spreadM: 3000, weight: 2, postLo: 210, postHi: 216},
		{city: "Saitama-shi", district: "Saitama", region: "Saitama", lat: 35.8617, lon: 139.6455, spreadM: 4000, weight: 2, postLo: 330, postHi: 338},
	}},
	{code: "OSA", tz: "Asia/Tokyo", country: countryJP, stores: 100, localities: []locality{
		{city: "Osaka-shi Kita-ku", district: "Umeda", region: "Osaka", lat: 34.7025, lon: 135.4959, spreadM: 1500, weight: 2, postLo: 530, postHi: 531},
		{city: "Osaka-shi Chuo-ku", district: "Namba", region: "Osaka", lat: 34.6661, lon: 135.5013, spreadM: 1500, weight: 2, postLo: 542, postHi: 542},
		{city: "Osaka-shi Tennoji-ku", district: "Tennoji", region: "Osaka", lat: 34.6466, lon: 135.5133, spreadM: 1500, weight: 1, postLo: 543, postHi: 545},
		{city: "Sakai-shi", district: "Sakai", region: "Osaka", lat: 34.5733, lon: 135.4830, spreadM: 3500, weight: 1, postLo: 590, postHi: 599},
		{city: "Kobe-shi", district: "Kobe", region: "Hyogo", lat: 34.6901, lon: 135.1955, spreadM: 3500, weight: 2, postLo: 650, postHi: 658},
		{city: "Kyoto-shi", district: "Kyoto", region: "Kyoto", lat: 35.0116, lon: 135.7681, spreadM: 3500, weight: 2, postLo: 600, postHi: 616},
	}},
	{code: "SPK", tz: "Asia/Tokyo", country: countryJP, stores: 40, localities: []locality{
		{city: "Sapporo-shi Chuo-ku", district: "Sapporo", region: "Hokkaido", lat: 43.0555, lon: 141.3405, spreadM: 2500, weight: 3, postLo: 60, postHi: 64},
		{city: "Sapporo-shi Kita-ku", district: "Sapporo Kita", region: "Hokkaido", lat: 43.0910, lon: 141.3410, spreadM: 2500, weight: 1, postLo: 1, postHi: 2},
		{city: "Sapporo-shi Toyohira-ku", district: "Toyohira", region: "Hokkaido", lat: 43.0310, lon: 141.3800, spreadM: 2000, weight: 1, postLo: 62, postHi: 62},
		{city: "Otaru-shi", district: "Otaru", region: "Hokkaido", lat: 43.1907, lon: 140.9947, spreadM: 2000, weight: 1, postLo: 47, postHi: 47},
	}},
	{code: "SYD", tz: "Australia/Sydney", country: countryAU, stores: 150, localities: []locality{
		{city: "Sydney", region: "NSW", lat: -33.8688, lon: 151.2093, spreadM: 2500, weight: 3, postLo: 2000, postHi: 2011},
		{city: "Parramatta", region: "NSW", lat: -33.8150, lon: 151.0011, spreadM: 3000, weight: 2, postLo: 2150, postHi: 2151},
		{city: "Bondi", region: "NSW", lat: -33.8915, lon: 151.2767, spreadM: 1500, weight: 1, postLo: 2026, postHi: 2026},
		{city: "Chatswood", region: "NSW", lat: -33.7969, lon: 151.1803, spreadM: 1500, weight: 1, postLo: 2067, postHi: 2067},
		{city: "Liverpool", region: "NSW", lat: -33.9200, lon: 150.9238, spreadM: 3000, weight: 1, postLo: 2170, postHi: 2170},
		{city: "Penrith", region: "NSW", lat: -33.7507, lon: 150.6877, spreadM: 3000, weight: 1, postLo: 2750, postHi: 2750},
		{city: "Newcastle", region: "NSW", lat: -32.9283, lon: 151.7817, spreadM: 4000, weight: 2, postLo: 2300, postHi: 2305},
		{city: "Wollongong", region: "NSW", lat: -34.4278, lon: 150.8931, spreadM: 3500, weight: 1, postLo: 2500, postHi: 2500},
	}},
	{code: "MEL", tz: "Australia/Melbourne", country: countryAU, stores: 130, localities: []locality{
		{city: "Melbourne", region: "VIC", lat: -37.8136, lon: 144.9631, spreadM: 2500, weight: 3, postLo: 3000, postHi: 3008},
		{city: "St Kilda", region: "VIC", lat: -37.8676, lon: 144.9809, spreadM: 1500, weight: 1, postLo: 3182, postHi: 3182},
		{city: "Fitzroy", region: "VIC", lat: -37.7984, lon: 144.9783, spreadM: 1200, weight: 1, postLo: 3065, postHi: 3065},
		{city: "Box Hill", region: "VIC", lat: -37.8189, lon: 145.1250, spreadM: 2500, weight: 1, postLo: 3128, postHi: 3128},
		{city: "Frankston", region: "VIC", lat: -38.1440, lon: 145.1230, spreadM: 3000, weight: 1, postLo: 3199, postHi: 3199},
		{city: "Geelong", region: "VIC", lat: -38.1499, lon: 144.3617, spreadM: 4000, weight: 2, postLo: 3220, postHi: 3220},
		{city: "Footscray", region: "VIC", lat: -37.8000, lon: 144.9000, spreadM: 2000, weight: 1, postLo: 3011, postHi: 3011},
	}},
	{code: "BNE", tz: "Australia/Brisbane", country: countryAU, stores: 60, localities: []locality{
		{city: "Brisbane", region: "QLD", lat: -27.4698, lon: 153.0251, spreadM: 3000, weight: 3, postLo: 4000, postHi: 4006},
		{city: "Chermside", region: "QLD", lat: -27.3860, lon: 153.0310, spreadM: 2000, weight: 1, postLo: 4032, postHi: 4032},
		{city: "Ipswich", region: "QLD", lat: -27.6144, lon: 152.7608, spreadM: 3000, weight: 1, postLo: 4305, postHi: 4305},
		{city: "Southport", region: "QLD", lat: -27.9670, lon: 153.4000, spreadM: 3000, weight: 2, postLo: 4215, postHi: 4215},
	}},
	{code: "LDH", tz: "Australia/Lord_Howe", country: countryAU, stores: 3, remote: true, localities: []locality{
		{city: "Lord Howe Island", region: "NSW", lat: -31.5553, lon: 159.0821, spreadM: 1500, weight: 1, postLo: 2898, postHi: 2898},
	}},
	{code: "AKL", tz: "Pacific/Auckland", country: countryNZ, stores: 60, localities: []locality{
		{city: "Auckland", district: "Auckland Central", region: "Auckland", lat: -36.8485, lon: 174.7633, spreadM: 1500, weight: 3, postLo: 1010, postHi: 1011},
		{city: "Auckland", district: "Ponsonby", region: "Auckland", lat: -36.8570, lon: 174.7440, spreadM: 1000, weight: 1, postLo: 1011, postHi: 1011},
		{city: "Auckland", district: "Newmarket", region: "Auckland", lat: -36.8700, lon: 174.7780, spreadM: 1000, weight: 1, postLo: 1023, postHi: 1023},
		{city: "Manukau", region: "Auckland", lat: -36.9928, lon: 174.8799, spreadM: 3000, weight: 2, postLo: 2104, postHi: 2104},
		{city: "Takapuna", region: "Auckland", lat: -36.7876, lon: 174.7725, spreadM: 2000, weight: 1, postLo: 622, postHi: 622},
		{city: "Henderson", region: "Auckland", lat: -36.8790, lon: 174.6310, spreadM: 2500, weight: 1, postLo: 610, postHi: 612},
	}},
	{code: "WLG", tz: "Pacific/Auckland", country: countryNZ, stores: 25, localities: []locality{
		{city: "Wellington", region: "Wellington", lat: -41.2865, lon: 174.7762, spreadM: 2500, weight: 3, postLo: 6011, postHi: 6022},
		{city: "Lower Hutt", region: "Wellington", lat: -41.2092, lon: 174.9080, spreadM: 2500, weight: 1, postLo: 5010, postHi: 5011},
		{city: "Porirua", region: "Wellington", lat: -41.1330, lon: 174.8400, spreadM: 2000, weight: 1, postLo: 5022, postHi: 5022},
	}},
	{code: "CHC", tz: "Pacific/Auckland", country: countryNZ, stores: 20, localities: []locality{
		{city: "Christchurch", region: "Canterbury", lat: -43.5321, lon: 172.6362, spreadM: 4000, weight: 3, postLo: 8011, postHi: 8053},
		{city: "Riccarton", region: "Canterbury", lat: -43.5300, lon: 172.5970, spreadM: 1500, weight: 1, postLo: 8041, postHi: 8041},
	}},
	{code: "CHT", tz: "Pacific/Chatham", country: countryNZ, stores: 2, remote: true, localities: []locality{
		{city: "Waitangi", region: "Chatham Islands", lat: -43.9535, lon: -176.5597, spreadM: 2000, weight: 1, postLo: 8942, postHi: 8942},
	}},
	// Fiji has no postal codes; Taveuni and Rabi straddle the antimeridian.
	{code: "FJI", tz: "Pacific/Fiji", country: countryFJ, stores: 34, localities: []locality{
		{city: "Suva", region: "Central", lat: -18.1416, lon: 178.4419, spreadM: 3000, weight: 8},
		{city: "Nausori", region: "Central", lat: -18.0315, lon: 178.5593, spreadM: 1500, weight: 2},
		{city: "Nadi", region: "Western", lat: -17.7765, lon: 177.4356, spreadM: 2500, weight: 5},
		{city: "Lautoka", region: "Western", lat: -17.6242, lon: 177.4528, spreadM: 2000, weight: 4},
		{city: "Ba", region: "Western", lat: -17.5349, lon: 177.6713, spreadM: 1000, weight: 1},
		{city: "Labasa", region: "Northern", lat: -16.4332, lon: 179.3645, spreadM: 1500, weight: 3},
		{city: "Savusavu", region: "Northern", lat: -16.7798, lon: 179.3328, spreadM: 1200, weight: 3},
		{city: "Taveuni", region: "Northern", lat: -16.8000, lon: 179.9900, spreadM: 9000, weight: 5},
		{city: "Rabi", region: "Northern", lat: -16.4700, lon: -179.9700, spreadM: 3000, weight: 2},
		{city: "Lakeba", region: "Eastern", lat: -18.2330, lon: -178.8030, spreadM: 1500, weight: 1},
	}},
}

// amenity is one entry of the amenity vocabulary with its description in
// each language.
type amenity struct {
	key  string
	text [langCount]string
}

// Amenity vocabulary: UCP well-known keys first, then retailer-wide and
// brand-specific keys in the retailer's own namespaces.
var (
	amParking = amenity{"dev.ucp.amenity.parking", [langCount]string{"Free customer parking", "Free customer car park", "Kostenlose Parkplätze", "Gratis parkering", "無料駐車場"}}
	amWiFi    = amenity{"dev.ucp.amenity.wi_fi", [langCount]string{"Free Wi-Fi", "Free Wi-Fi", "Kostenloses WLAN", "Gratis Wi-Fi", "無料Wi-Fi"}}
	amCurb    = amenity{"dev.ucp.amenity.shopping.curbside_pickup", [langCount]string{"Curbside pickup", "Kerbside collection", "Abholung am Fahrzeug", "Henting ved bilen", "駐車場での受け取り"}}
	amPickup  = amenity{"dev.ucp.amenity.shopping.in_store_pickup", [langCount]string{"In-store pickup", "Click and collect", "Abholung im Markt", "Henting i butikk", "店舗受け取り"}}
	amEV      = amenity{retailerDomain + ".amenity.ev_charging", [langCount]string{"EV charging stations", "EV charging bays", "Ladesäulen für Elektroautos", "Lading for elbil", "EV充電スタンド"}}
	amToilets = amenity{retailerDomain + ".amenity.restrooms", [langCount]string{"Customer restrooms", "Customer toilets", "Kundentoiletten", "Kundetoalett", "お客様用トイレ"}}
	amATM     = amenity{retailerDomain + ".amenity.atm", [langCount]string{"ATM", "Cash machine", "Geldautomat", "Minibank", "ATM"}}
	amBakery  = amenity{brands[grocery].domain + ".amenity.bakery", [langCount]string{"In-store bakery", "In-store bakery", "Backshop mit frischen Brötchen", "Ferskt brød fra eget bakeri", "店内焼きたてベーカリー"}}
	amPharma  = amenity{brands[grocery].domain + ".amenity.pharmacy", [langCount]string{"Pharmacy counter", "Pharmacy counter", "Apotheke im Markt", "Apotek", "調剤薬局"}}
	amRepair  = amenity{brands[electronics].domain + ".amenity.repair_bar", [langCount]string{"Device repair bar", "Device repair bar", "Reparaturtheke", "Reparasjonsdisk", "修理カウンター"}}
	amTradeIn = amenity{brands[electronics].domain + ".amenity.trade_in", [langCount]string{"Trade-in for old devices", "Trade-in for old devices", "Ankauf von Altgeräten", "Innbytte av gamle enheter", "下取りサービス"}}
	amDesign  = amenity{brands[homeGoods].domain + ".amenity.design_service", [langCount]string{"Free room design consultations", "Free room design consultations", "Kostenlose Einrichtungsberatung", "Gratis interiørrådgivning", "インテリア無料相談"}}
	amKeys    = amenity{brands[homeGoods].domain + ".amenity.key_cutting", [langCount]string{"Key cutting", "Key cutting", "Schlüsseldienst", "Nøkkelsliping", "合鍵作成"}}
	amHotFood = amenity{brands[convenience].domain + ".amenity.hot_food", [langCount]string{"Hot food to go", "Hot food to go", "Heiße Snacks zum Mitnehmen", "Varm mat å ta med", "ホットスナック"}}
	amLockers = amenity{brands[convenience].domain + ".amenity.parcel_lockers", [langCount]string{"Parcel lockers", "Parcel lockers", "Paketstation", "Pakkeautomat", "宅配ロッカー"}}
)

// amenityOdds gives, per brand, the percentage chance that a store offers
// each amenity.
type amenityOdds struct {
	a   amenity
	pct [brandCount]int
}

var amenityTable = []amenityOdds{
	{amParking, [brandCount]int{75, 70, 85, 40}},
	{amWiFi, [brandCount]int{50, 90, 60, 35}},
	{amCurb, [brandCount]int{50, 40, 45, 0}},
	{amPickup, [brandCount]int{60, 90, 80, 10}},
	{amEV, [brandCount]int{20, 25, 20, 10}},
	{amToilets, [brandCount]int{60, 40, 70, 15}},
	{amATM, [brandCount]int{35, 0, 0, 45}},
	{amBakery, [brandCount]int{65, 0, 0, 0}},
	{amPharma, [brandCount]int{20, 0, 0, 0}},
	{amRepair, [brandCount]int{0, 55, 0, 0}},
	{amTradeIn, [brandCount]int{0, 40, 0, 0}},
	{amDesign, [brandCount]int{0, 0, 45, 0}},
	{amKeys, [brandCount]int{0, 0, 30, 0}},
	{amHotFood, [brandCount]int{0, 0, 0, 60}},
	{amLockers, [brandCount]int{10, 15, 0, 30}},
}

// catalogue lists the ~50 item ids of the product catalogue with the
// percentage chance, per brand, that a store currently has each in stock.
var catalogue = []struct {
	id  string
	pct [brandCount]int
}{
	{"sku-milk-1l", [brandCount]int{95, 0, 0, 85}},
	{"sku-oat-milk-1l", [brandCount]int{80, 0, 0, 40}},
	{"sku-eggs-12", [brandCount]int{92, 0, 0, 60}},
	{"sku-bread-sourdough", [brandCount]int{85, 0, 0, 30}},
	{"sku-bananas-1kg", [brandCount]int{90, 0, 0, 50}},
	{"sku-apples-1kg", [brandCount]int{90, 0, 0, 20}},
	{"sku-tomatoes-1kg", [brandCount]int{85, 0, 0, 0}},
	{"sku-rice-2kg", [brandCount]int{88, 0, 0, 15}},
	{"sku-pasta-500g", [brandCount]int{93, 0, 0, 45}},
	{"sku-olive-oil-750ml", [brandCount]int{80, 0, 0, 0}},
	{"sku-coffee-beans-500g", [brandCount]int{75, 0, 0, 10}},
	{"sku-cheddar-400g", [brandCount]int{82, 0, 0, 25}},
	{"sku-yogurt-500g", [brandCount]int{88, 0, 0, 40}},
	{"sku-chicken-breast-1kg", [brandCount]int{78, 0, 0, 0}},
	{"sku-orange-juice-1l", [brandCount]int{86, 0, 0, 70}},
	{"sku-water-500ml", [brandCount]int{90, 0, 0, 98}},
	{"sku-sandwich-club", [brandCount]int{40, 0, 0, 80}},
	{"sku-energy-drink-250ml", [brandCount]int{60, 0, 0, 90}},
	{"sku-hot-coffee-regular", [brandCount]int{15, 0, 0, 85}},
	{"sku-ice-bag-2kg", [brandCount]int{35, 0, 0, 55}},
	{"sku-umbrella-compact", [brandCount]int{20, 0, 10, 50}},
	{"sku-aa-batteries-8", [brandCount]int{70, 85, 40, 75}},
	{"sku-phone-charger-usbc", [brandCount]int{30, 90, 0, 60}},
	{"sku-led-bulb-e27", [brandCount]int{45, 20, 85, 15}},
	{"sku-usbc-cable-1m", [brandCount]int{0, 95, 0, 35}},
	{"sku-hdmi-cable-2m", [brandCount]int{0, 88, 0, 0}},
	{"sku-headphones-anc", [brandCount]int{0, 70, 0, 0}},
	{"sku-earbuds-wireless", [brandCount]int{0, 80, 0, 10}},
	{"sku-laptop-14", [brandCount]int{0, 60, 0, 0}},
	{"sku-tablet-11", [brandCount]int{0, 65, 0, 0}},
	{"sku-phone-case", [brandCount]int{0, 85, 0, 20}},
	{"sku-power-bank-20k", [brandCount]int{0, 82, 0, 40}},
	{"sku-smart-speaker", [brandCount]int{0, 70, 15, 0}},
	{"sku-tv-55", [brandCount]int{0, 45, 0, 0}},
	{"sku-keyboard-wireless", [brandCount]int{0, 75, 0, 0}},
	{"sku-mouse-wireless", [brandCount]int{0, 80, 0, 0}},
	{"sku-sd-card-128gb", [brandCount]int{0, 78, 0, 15}},
	{"sku-bath-towel", [brandCount]int{0, 0, 90, 0}},
	{"sku-bedsheet-queen", [brandCount]int{0, 0, 80, 0}},
	{"sku-frying-pan-28cm", [brandCount]int{10, 0, 85, 0}},
	{"sku-knife-set", [brandCount]int{0, 0, 70, 0}},
	{"sku-storage-box-40l", [brandCount]int{0, 0, 88, 0}},
	{"sku-desk-lamp", [brandCount]int{0, 20, 75, 0}},
	{"sku-cushion-45cm", [brandCount]int{0, 0, 82, 0}},
	{"sku-curtain-blackout", [brandCount]int{0, 0, 65, 0}},
	{"sku-drill-cordless", [brandCount]int{0, 15, 55, 0}},
	{"sku-paint-white-2l", [brandCount]int{0, 0, 60, 0}},
	{"sku-plant-pot-25cm", [brandCount]int{15, 0, 70, 0}},
	{"sku-candle-scented", [brandCount]int{20, 0, 75, 10}},
	{"sku-gift-card-50", [brandCount]int{60, 80, 80, 50}},
}

// holiday is one exception the Business publishes for every store of a
// country whose banner is in brands. opens/closes empty means a full
// closure; split adds a second, identical-range interval (a split shift).
type holiday struct {
	title         string
	from, through string
	opens, closes string
	split         [2]string // second interval opens/closes, or empty
	brands        [brandCount]bool
	// allDay24 also applies the exception to stores open around the clock;
	// otherwise they keep their regular schedule.
	allDay24 bool
}

var (
	allBrands   = [brandCount]bool{true, true, true, true}
	shopsOnly   = [brandCount]bool{true, true, true, false}
	groceryOnly = [brandCount]bool{true, false, false, false}
	nonFood     = [brandCount]bool{false, true, true, false}
)

var holidays = map[string][]holiday{
	"US": {
		{title: "Thanksgiving Day", from: "2026-11-26", through: "2026-11-26", brands: nonFood},
		{title: "Thanksgiving Day", from: "2026-11-26", through: "2026-11-26", opens: "07:00", closes: "14:00", brands: groceryOnly},
		{title: "Black Friday", from: "2026-11-27", through: "2026-11-27", opens: "06:00", closes: "23:00", brands: nonFood},
		{title: "Holiday late opening", from: "2026-12-17", through: "2026-12-23", opens: "07:00", closes: "23:00", brands: groceryOnly},
		{title: "Christmas Eve", from: "2026-12-24", through: "2026-12-24", opens: "08:00", closes: "12:00", split: [2]string{"13:00", "18:00"}, brands: groceryOnly},
		{title: "Christmas Eve", from: "2026-12-24", through: "2026-12-24", opens: "09:00", closes: "17:00", brands: nonFood},
		{title: "Christmas Day", from: "2026-12-25", through: "2026-12-25", brands: shopsOnly},
		{title: "New Year's Day", from: "2027-01-01", through: "2027-01-01", opens: "10:00", closes: "18:00", brands: shopsOnly},
		{title: "Independence Day", from: "2027-07-04", through: "2027-07-04", opens: "09:00", closes: "17:00", brands: shopsOnly},
		{title: "Thanksgiving Day", from: "2027-11-25", through: "2027-11-25", brands: shopsOnly},
		{title: "Christmas Day", from: "2027-12-25", through: "2027-12-25", brands: shopsOnly},
	},
	"GB": {
		{title: "Christmas late opening", from: "2026-12-18", through: "2026-12-23", opens: "07:00", closes: "22:00", brands: groceryOnly},
		{title: "Christmas Eve", from: "2026-12-24", through: "2026-12-24", opens: "07:00", closes: "18:00", brands: shopsOnly},
		{title: "Christmas Day", from: "2026-12-25", through: "2026-12-25", brands: allBrands, allDay24: true},
		{title: "Boxing Day sale", from: "2026-12-26", through: "2026-12-26", opens: "08:00", closes: "20:00", brands: nonFood},
		{title: "New Year's Day", from: "2027-01-01", through: "2027-01-01", opens: "10:00", closes: "17:00", brands: shopsOnly},
		{title: "Easter Sunday", from: "2027-03-28", through: "2027-03-28", brands: shopsOnly},
		{title: "Christmas Day", from: "2027-12-25", through: "2027-12-25", brands: allBrands, allDay24: true},
	},
	"DE": {
		{title: "Tag der Deutschen Einheit", from: "2026-10-03", through: "2026-10-03", brands: allBrands, allDay24: true},
		{title: "Heiligabend", from: "2026-12-24", through: "2026-12-24", opens: "08:00", closes: "14:00", brands: groceryOnly},
		{title: "Heiligabend", from: "2026-12-24", through: "2026-12-24", opens: "09:00", closes: "11:30", split: [2]string{"12:00", "14:00"}, brands: nonFood},
		{title: "Weihnachtsfeiertage", from: "2026-12-25", through: "2026-12-26", brands: allBrands, allDay24: true},
		{title: "Silvester", from: "2026-12-31", through: "2026-12-31", opens: "08:00", closes: "16:00", brands: shopsOnly},
		{title: "Neujahr", from: "2027-01-01", through: "2027-01-01", brands: allBrands, allDay24: true},
		{title: "Karfreitag", from: "2027-03-26", through: "2027-03-26", brands: allBrands, allDay24: true},
		{title: "Ostermontag", from: "2027-03-29", through: "2027-03-29", brands: allBrands, allDay24: true},
		{title: "Tag der Arbeit", from: "2027-05-01", through: "2027-05-01", brands: allBrands, allDay24: true},
	},
	"NO": {
		{title: "Julaften", from: "2026-12-24", through: "2026-12-24", opens: "08:00", closes: "14:00", brands: shopsOnly},
		{title: "Juledag og andre juledag", from: "2026-12-25", through: "2026-12-26", brands: allBrands, allDay24: true},
		{title: "Nyttårsaften", from: "2026-12-31", through: "2026-12-31", opens: "08:00", closes: "15:00", brands: shopsOnly},
		{title: "Første nyttårsdag", from: "2027-01-01", through: "2027-01-01", brands: allBrands, allDay24: true},
		{title: "Skjærtorsdag og langfredag", from: "2027-03-25", through: "2027-03-26", brands: shopsOnly},
		{title: "Påskeaften", from: "2027-03-27", through: "2027-03-27", opens: "09:00", closes: "15:00", brands: shopsOnly},
		{title: "Påskedag og andre påskedag", from: "2027-03-28", through: "2027-03-29", brands: shopsOnly},
		{title: "Grunnlovsdagen", from: "2027-05-17", through: "2027-05-17", brands: shopsOnly},
	},
	"JP": {
		{title: "大晦日 (New Year's Eve)", from: "2026-12-31", through: "2026-12-31", opens: "10:00", closes: "18:00", brands: shopsOnly},
		{title: "元日 (New Year's Day)", from: "2027-01-01", through: "2027-01-01", brands: shopsOnly},
		{title: "初売り (New Year sale)", from: "2027-01-02", through: "2027-01-03", opens: "09:00", closes: "20:00", brands: nonFood},
	},
	"AU": {
		{title: "Christmas Eve", from: "2026-12-24", through: "2026-12-24", opens: "07:00", closes: "18:00", brands: shopsOnly},
		{title: "Christmas Day", from: "2026-12-25", through: "2026-12-25", brands: shopsOnly},
		{title: "Boxing Day", from: "2026-12-26", through: "2026-12-26", opens: "09:00", closes: "18:00", brands: shopsOnly},
		{title: "Good Friday", from: "2027-03-26", through: "2027-03-26", brands: shopsOnly},
		{title: "Anzac Day", from: "2027-04-25", through: "2027-04-25", opens: "13:00", closes: "21:00", brands: shopsOnly},
		{title: "Christmas Day", from: "2027-12-25", through: "2027-12-25", brands: shopsOnly},
	},
	"NZ": {
		{title: "Christmas Day", from: "2026-12-25", through: "2026-12-25", brands: shopsOnly},
		{title: "Waitangi Day", from: "2027-02-06", through: "2027-02-06", brands: nonFood},
		{title: "Good Friday", from: "2027-03-26", through: "2027-03-26", brands: shopsOnly},
		{title: "Easter Sunday", from: "2027-03-28", through: "2027-03-28", brands: shopsOnly},
		{title: "Anzac Day", from: "2027-04-25", through: "2027-04-25", opens: "13:00", closes: "21:00", brands: shopsOnly},
	},
	"FJ": {
		{title: "Fiji Day", from: "2026-10-10", through: "2026-10-10", opens: "09:00", closes: "13:00", brands: shopsOnly},
		{title: "Christmas Day", from: "2026-12-25", through: "2026-12-25", brands: shopsOnly},
		{title: "New Year's Day", from: "2027-01-01", through: "2027-01-01", brands: shopsOnly},
		{title: "Good Friday", from: "2027-03-26", through: "2027-03-26", brands: shopsOnly},
	},
}
