// Package country reads the country of a UCP locality (address_country) in
// every form the schema allows, an ISO 3166-1 alpha-2 code, an alpha-3 code
// or the country's English name, and returns the one form a Business
// compares: the upper-case alpha-2 code. Without it "US", "us", "USA" and
// "United States" would name four different countries, and three of them
// would match nothing in silence.
//
// The table below lists the 249 officially assigned ISO 3166-1 entries with
// their English short names (common forms where the ISO name is a long
// form); a test checks its codes against CLDR. It is kept in the package
// instead of read from golang.org/x/text so generated services link no
// locale tables.
package country

import (
	"strings"
	"sync"
)

// Normalize returns the upper-case ISO 3166-1 alpha-2 code s names, and
// false when s is no country: not an assigned alpha-2 or alpha-3 code
// (case-insensitive) and not a country's English name (case-insensitive,
// surrounding blanks ignored). Numeric codes, regions such as "EU" and
// user-assigned codes such as "XA" are not countries. The exceptionally
// reserved "UK" reads as "GB".
func Normalize(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", false
	}
	code, ok := index().lookup[strings.ToLower(s)]
	return code, ok
}

// IsAlpha2 reports whether s is already a canonical code: two upper-case
// letters naming a country. Capabilities use it to refuse a lower-case or
// alpha-3 configuration that requests could never match.
func IsAlpha2(s string) bool {
	_, ok := index().alpha2[s]
	return ok
}

// Alpha3 returns the alpha-3 code of an alpha-2 code, for tests and for
// sources that store alpha-3.
func Alpha3(alpha2 string) (string, bool) {
	c, ok := index().alpha2[alpha2]
	return c.alpha3, ok
}

type entry struct{ alpha3, name string }

type tables struct {
	alpha2 map[string]entry  // "US" -> {USA, United States}
	lookup map[string]string // lower-case code or name -> alpha-2
}

var index = sync.OnceValue(func() tables {
	t := tables{alpha2: map[string]entry{}, lookup: map[string]string{}}
	for _, line := range strings.Split(iso3166, "\n") {
		a2, rest, _ := strings.Cut(line, " ")
		a3, name, _ := strings.Cut(rest, " ")
		t.alpha2[a2] = entry{alpha3: a3, name: name}
		for _, k := range []string{a2, a3, name} {
			t.lookup[strings.ToLower(k)] = a2
		}
	}
	for name, a2 := range aliases {
		t.lookup[name] = a2
	}
	return t
})

// aliases are other spellings Platforms commonly send, lower case.
var aliases = map[string]string{
	"uk":            "GB",
	"great britain": "GB",
	"united kingdom of great britain and northern ireland": "GB",
	"united states of america":                             "US",
	"russian federation":                                   "RU",
	"korea, republic of":                                   "KR",
	"republic of korea":                                    "KR",
	"korea, democratic people's republic of":               "KP",
	"czech republic":                                       "CZ",
	"turkey":                                               "TR",
	"turkiye":                                              "TR",
	"vietnam":                                              "VN",
	"iran, islamic republic of":                            "IR",
	"bolivia, plurinational state of":                      "BO",
	"venezuela, bolivarian republic of":                    "VE",
	"tanzania, united republic of":                         "TZ",
	"moldova, republic of":                                 "MD",
	"syrian arab republic":                                 "SY",
	"netherlands (kingdom of the)":                         "NL",
	"swaziland":                                            "SZ",
	"cape verde":                                           "CV",
	"ivory coast":                                          "CI",
	"cote d'ivoire":                                        "CI",
	"brunei":                                               "BN",
	"laos":                                                 "LA",
	"palestine":                                            "PS",
	"vatican city":                                         "VA",
	"taiwan, province of china":                            "TW",
	"east timor":                                           "TL",
	"democratic republic of the congo":                     "CD",
	"republic of the congo":                                "CG",
	"reunion":                                              "RE",
	"curacao":                                              "CW",
	"aland islands":                                        "AX",
	"saint barthelemy":                                     "BL",
	"micronesia":                                           "FM",
	"macau":                                                "MO",
	"falkland islands":                                     "FK",
	"macedonia":                                            "MK",
}

// iso3166 is "alpha-2 alpha-3 English short name", one country a line.
const iso3166 = `AD AND Andorra
AE ARE United Arab Emirates
AF AFG Afghanistan
AG ATG Antigua and Barbuda
AI AIA Anguilla
AL ALB Albania
AM ARM Armenia
AO AGO Angola
AQ ATA Antarctica
AR ARG Argentina
AS ASM American Samoa
AT AUT Austria
AU AUS Australia
AW ABW Aruba
AX ALA Åland Islands
AZ AZE Azerbaijan
BA BIH Bosnia and Herzegovina
BB BRB Barbados
BD BGD Bangladesh
BE BEL Belgium
BF BFA Burkina Faso
BG BGR Bulgaria
BH BHR Bahrain
BI BDI Burundi
BJ BEN Benin
BL BLM Saint Barthélemy
BM BMU Bermuda
BN BRN Brunei Darussalam
BO BOL Bolivia
BQ BES Bonaire, Sint Eustatius and Saba
BR BRA Brazil
BS BHS Bahamas
BT BTN Bhutan
BV BVT Bouvet Island
BW BWA Botswana
BY BLR Belarus
BZ BLZ Belize
CA CAN Canada
CC CCK Cocos (Keeling) Islands
CD COD Congo, Democratic Republic of the
CF CAF Central African Republic
CG COG Congo
CH CHE Switzerland
CI CIV Côte d'Ivoire
CK COK Cook Islands
CL CHL Chile
CM CMR Cameroon
CN CHN China
CO COL Colombia
CR CRI Costa Rica
CU CUB Cuba
CV CPV Cabo Verde
CW CUW Curaçao
CX CXR Christmas Island
CY CYP Cyprus
CZ CZE Czechia
DE DEU Germany
DJ DJI Djibouti
DK DNK Denmark
DM DMA Dominica
DO DOM Dominican Republic
DZ DZA Algeria
EC ECU Ecuador
EE EST Estonia
EG EGY Egypt
EH ESH Western Sahara
ER ERI Eritrea
ES ESP Spain
ET ETH Ethiopia
FI FIN Finland
FJ FJI Fiji
FK FLK Falkland Islands (Malvinas)
FM FSM Micronesia, Federated States of
FO FRO Faroe Islands
FR FRA France
GA GAB Gabon
GB GBR United Kingdom
GD GRD Grenada
GE GEO Georgia
GF GUF French Guiana
GG GGY Guernsey
GH GHA Ghana
GI GIB Gibraltar
GL GRL Greenland
GM GMB Gambia
GN GIN Guinea
GP GLP Guadeloupe
GQ GNQ Equatorial Guinea
GR GRC Greece
GS SGS South Georgia and the South Sandwich Islands
GT GTM Guatemala
GU GUM Guam
GW GNB Guinea-Bissau
GY GUY Guyana
HK HKG Hong Kong
HM HMD Heard Island and McDonald Islands
HN HND Honduras
HR HRV Croatia
HT HTI Haiti
HU HUN Hungary
ID IDN Indonesia
IE IRL Ireland
IL ISR Israel
IM IMN Isle of Man
IN IND India
IO IOT British Indian Ocean Territory
IQ IRQ Iraq
IR IRN Iran
IS ISL Iceland
IT ITA Italy
JE JEY Jersey
JM JAM Jamaica
JO JOR Jordan
JP JPN Japan
KE KEN Kenya
KG KGZ Kyrgyzstan
KH KHM Cambodia
KI KIR Kiribati
KM COM Comoros
KN KNA Saint Kitts and Nevis
KP PRK North Korea
KR KOR South Korea
KW KWT Kuwait
KY CYM Cayman Islands
KZ KAZ Kazakhstan
LA LAO Lao People's Democratic Republic
LB LBN Lebanon
LC LCA Saint Lucia
LI LIE Liechtenstein
LK LKA Sri Lanka
LR LBR Liberia
LS LSO Lesotho
LT LTU Lithuania
LU LUX Luxembourg
LV LVA Latvia
LY LBY Libya
MA MAR Morocco
MC MCO Monaco
MD MDA Moldova
ME MNE Montenegro
MF MAF Saint Martin (French part)
MG MDG Madagascar
MH MHL Marshall Islands
MK MKD North Macedonia
ML MLI Mali
MM MMR Myanmar
MN MNG Mongolia
MO MAC Macao
MP MNP Northern Mariana Islands
MQ MTQ Martinique
MR MRT Mauritania
MS MSR Montserrat
MT MLT Malta
MU MUS Mauritius
MV MDV Maldives
MW MWI Malawi
MX MEX Mexico
MY MYS Malaysia
MZ MOZ Mozambique
NA NAM Namibia
NC NCL New Caledonia
NE NER Niger
NF NFK Norfolk Island
NG NGA Nigeria
NI NIC Nicaragua
NL NLD Netherlands
NO NOR Norway
NP NPL Nepal
NR NRU Nauru
NU NIU Niue
NZ NZL New Zealand
OM OMN Oman
PA PAN Panama
PE PER Peru
PF PYF French Polynesia
PG PNG Papua New Guinea
PH PHL Philippines
PK PAK Pakistan
PL POL Poland
PM SPM Saint Pierre and Miquelon
PN PCN Pitcairn
PR PRI Puerto Rico
PS PSE Palestine, State of
PT PRT Portugal
PW PLW Palau
PY PRY Paraguay
QA QAT Qatar
RE REU Réunion
RO ROU Romania
RS SRB Serbia
RU RUS Russia
RW RWA Rwanda
SA SAU Saudi Arabia
SB SLB Solomon Islands
SC SYC Seychelles
SD SDN Sudan
SE SWE Sweden
SG SGP Singapore
SH SHN Saint Helena, Ascension and Tristan da Cunha
SI SVN Slovenia
SJ SJM Svalbard and Jan Mayen
SK SVK Slovakia
SL SLE Sierra Leone
SM SMR San Marino
SN SEN Senegal
SO SOM Somalia
SR SUR Suriname
SS SSD South Sudan
ST STP Sao Tome and Principe
SV SLV El Salvador
SX SXM Sint Maarten (Dutch part)
SY SYR Syria
SZ SWZ Eswatini
TC TCA Turks and Caicos Islands
TD TCD Chad
TF ATF French Southern Territories
TG TGO Togo
TH THA Thailand
TJ TJK Tajikistan
TK TKL Tokelau
TL TLS Timor-Leste
TM TKM Turkmenistan
TN TUN Tunisia
TO TON Tonga
TR TUR Türkiye
TT TTO Trinidad and Tobago
TV TUV Tuvalu
TW TWN Taiwan
TZ TZA Tanzania
UA UKR Ukraine
UG UGA Uganda
UM UMI United States Minor Outlying Islands
US USA United States
UY URY Uruguay
UZ UZB Uzbekistan
VA VAT Holy See
VC VCT Saint Vincent and the Grenadines
VE VEN Venezuela
VG VGB Virgin Islands (British)
VI VIR Virgin Islands (U.S.)
VN VNM Viet Nam
VU VUT Vanuatu
WF WLF Wallis and Futuna
WS WSM Samoa
YE YEM Yemen
YT MYT Mayotte
ZA ZAF South Africa
ZM ZMB Zambia
ZW ZWE Zimbabwe`
