"""Fixed facts of the travel service: airports, nearby towns, airlines, hotel words, currencies.

Airport codes, cities, time zones and coordinates are real (approximate); the fifteen cities of
the shared world (``servers.kit.geo``) come first, with the codes the world uses for them.
Airlines and hotels are invented.
"""

from __future__ import annotations

# code, name, city, country, IANA time zone, lat, lon
AIRPORTS: tuple[tuple[str, str, str, str, str, float, float], ...] = (
    ("PDX", "Portland International", "Portland", "US", "America/Los_Angeles", 45.589, -122.593),
    ("SEA", "Seattle-Tacoma International", "Seattle", "US", "America/Los_Angeles", 47.450, -122.309),
    ("SFO", "San Francisco International", "San Francisco", "US", "America/Los_Angeles", 37.621, -122.379),
    ("LAX", "Los Angeles International", "Los Angeles", "US", "America/Los_Angeles", 33.942, -118.408),
    ("DEN", "Denver International", "Denver", "US", "America/Denver", 39.856, -104.674),
    ("AUS", "Austin-Bergstrom International", "Austin", "US", "America/Chicago", 30.197, -97.666),
    ("ORD", "O'Hare International", "Chicago", "US", "America/Chicago", 41.974, -87.907),
    ("ATL", "Hartsfield-Jackson Atlanta International", "Atlanta", "US", "America/New_York", 33.641, -84.428),
    ("BOS", "Logan International", "Boston", "US", "America/New_York", 42.366, -71.010),
    ("JFK", "John F. Kennedy International", "New York", "US", "America/New_York", 40.641, -73.778),
    ("MIA", "Miami International", "Miami", "US", "America/New_York", 25.795, -80.287),
    ("YYZ", "Toronto Pearson International", "Toronto", "CA", "America/Toronto", 43.678, -79.625),
    ("LHR", "Heathrow", "London", "GB", "Europe/London", 51.470, -0.454),
    ("BER", "Berlin Brandenburg", "Berlin", "DE", "Europe/Berlin", 52.366, 13.503),
    ("HND", "Haneda", "Tokyo", "JP", "Asia/Tokyo", 35.549, 139.780),
    ("LGA", "LaGuardia", "New York", "US", "America/New_York", 40.777, -73.872),
    ("EWR", "Newark Liberty International", "Newark", "US", "America/New_York", 40.690, -74.174),
    ("MDW", "Midway International", "Chicago", "US", "America/Chicago", 41.786, -87.752),
    ("SAN", "San Diego International", "San Diego", "US", "America/Los_Angeles", 32.734, -117.190),
    ("SJC", "San Jose Mineta International", "San Jose", "US", "America/Los_Angeles", 37.363, -121.929),
    ("OAK", "Oakland International", "Oakland", "US", "America/Los_Angeles", 37.712, -122.220),
    ("SMF", "Sacramento International", "Sacramento", "US", "America/Los_Angeles", 38.695, -121.591),
    ("LAS", "Harry Reid International", "Las Vegas", "US", "America/Los_Angeles", 36.084, -115.154),
    ("PHX", "Phoenix Sky Harbor International", "Phoenix", "US", "America/Phoenix", 33.437, -112.008),
    ("SLC", "Salt Lake City International", "Salt Lake City", "US", "America/Denver", 40.790, -111.979),
    ("MSP", "Minneapolis-Saint Paul International", "Minneapolis", "US", "America/Chicago", 44.885, -93.222),
    ("DFW", "Dallas/Fort Worth International", "Dallas", "US", "America/Chicago", 32.900, -97.040),
    ("IAH", "George Bush Intercontinental", "Houston", "US", "America/Chicago", 29.990, -95.337),
    (
        "MSY",
        "Louis Armstrong New Orleans International",
        "New Orleans",
        "US",
        "America/Chicago",
        29.993,
        -90.258,
    ),
    ("MCI", "Kansas City International", "Kansas City", "US", "America/Chicago", 39.298, -94.714),
    ("BNA", "Nashville International", "Nashville", "US", "America/Chicago", 36.124, -86.678),
    ("DTW", "Detroit Metropolitan Wayne County", "Detroit", "US", "America/Detroit", 42.216, -83.355),
    ("PHL", "Philadelphia International", "Philadelphia", "US", "America/New_York", 39.874, -75.243),
    ("IAD", "Washington Dulles International", "Washington", "US", "America/New_York", 38.953, -77.456),
    ("DCA", "Ronald Reagan Washington National", "Washington", "US", "America/New_York", 38.851, -77.040),
    ("BWI", "Baltimore/Washington International", "Baltimore", "US", "America/New_York", 39.177, -76.668),
    ("CLT", "Charlotte Douglas International", "Charlotte", "US", "America/New_York", 35.214, -80.943),
    ("RDU", "Raleigh-Durham International", "Raleigh", "US", "America/New_York", 35.878, -78.787),
    ("MCO", "Orlando International", "Orlando", "US", "America/New_York", 28.431, -81.308),
    ("TPA", "Tampa International", "Tampa", "US", "America/New_York", 27.976, -82.533),
    ("HNL", "Daniel K. Inouye International", "Honolulu", "US", "Pacific/Honolulu", 21.319, -157.922),
    ("ANC", "Ted Stevens Anchorage International", "Anchorage", "US", "America/Anchorage", 61.174, -149.998),
    ("YVR", "Vancouver International", "Vancouver", "CA", "America/Vancouver", 49.195, -123.177),
    ("YUL", "Montreal-Trudeau International", "Montreal", "CA", "America/Toronto", 45.470, -73.741),
    ("MEX", "Mexico City International", "Mexico City", "MX", "America/Mexico_City", 19.436, -99.072),
    ("CUN", "Cancun International", "Cancun", "MX", "America/Cancun", 21.037, -86.877),
    ("LGW", "Gatwick", "London", "GB", "Europe/London", 51.153, -0.182),
    ("CDG", "Paris Charles de Gaulle", "Paris", "FR", "Europe/Paris", 49.010, 2.548),
    ("AMS", "Amsterdam Schiphol", "Amsterdam", "NL", "Europe/Amsterdam", 52.310, 4.768),
    ("FRA", "Frankfurt", "Frankfurt", "DE", "Europe/Berlin", 50.038, 8.562),
    ("MAD", "Adolfo Suarez Madrid-Barajas", "Madrid", "ES", "Europe/Madrid", 40.498, -3.567),
    ("LIS", "Humberto Delgado", "Lisbon", "PT", "Europe/Lisbon", 38.774, -9.134),
    ("DUB", "Dublin", "Dublin", "IE", "Europe/Dublin", 53.421, -6.270),
    ("FCO", "Rome Fiumicino", "Rome", "IT", "Europe/Rome", 41.800, 12.239),
    ("ZRH", "Zurich", "Zurich", "CH", "Europe/Zurich", 47.458, 8.555),
    ("NRT", "Narita International", "Tokyo", "JP", "Asia/Tokyo", 35.772, 140.393),
    ("ICN", "Incheon International", "Seoul", "KR", "Asia/Seoul", 37.460, 126.441),
    ("SIN", "Singapore Changi", "Singapore", "SG", "Asia/Singapore", 1.364, 103.991),
    ("SYD", "Sydney Kingsford Smith", "Sydney", "AU", "Australia/Sydney", -33.940, 151.175),
    ("HKG", "Hong Kong International", "Hong Kong", "HK", "Asia/Hong_Kong", 22.308, 113.918),
)
HUBS = 15  # the first airports (the world's cities) get most routes

# Towns without an airport of their own: find_nearest_airport answers for them, hotels stand in some.
TOWNS: tuple[tuple[str, str, float, float], ...] = (
    ("Boulder", "US", 40.015, -105.270),
    ("Santa Monica", "US", 34.019, -118.491),
    ("Palo Alto", "US", 37.442, -122.143),
    ("Cambridge", "US", 42.373, -71.110),
    ("Brooklyn", "US", 40.678, -73.944),
    ("Tacoma", "US", 47.253, -122.444),
    ("Fort Lauderdale", "US", 26.122, -80.137),
    ("Napa", "US", 38.297, -122.287),
    ("Evanston", "US", 42.045, -87.688),
    ("Round Rock", "US", 30.508, -97.679),
    ("Beaverton", "US", 45.487, -122.804),
    ("Oxford", "GB", 51.752, -1.258),
    ("Potsdam", "DE", 52.391, 13.065),
    ("Yokohama", "JP", 35.444, 139.638),
    ("Mississauga", "CA", 43.589, -79.644),
)
TOWN_EXAMPLES = [t[0] for t in TOWNS] + ["Portland", "Denver", "Lisbon", "Tokyo"]

AIRLINES: tuple[tuple[str, str], ...] = (
    ("CV", "Corvid Air"),
    ("NX", "Nimbus Express"),
    ("PJ", "Pacific Jet"),
    ("TW", "Tidewater Airlines"),
    ("HZ", "Horizon Crest"),
    ("MR", "Meridian Air"),
    ("LV", "Lumen Air"),
    ("GR", "Granite Airways"),
)

HOTEL_WORDS = (
    "Harborview",
    "Grand Meridian",
    "Cedar & Stone",
    "Lumen",
    "Northstar",
    "The Alder",
    "Canopy Row",
    "Bluebird",
    "Copperleaf",
    "Maple House",
    "Juniper",
    "Tidewater",
    "Granite Peak",
    "Solstice",
    "The Wren",
    "Riverside",
    "Old Mill",
    "Parkside",
    "Silver Birch",
    "Lantern",
)
HOTEL_KINDS = ("Hotel", "Inn", "Suites", "Lodge", "House")
# name, capacity, price factor
ROOM_TYPES: tuple[tuple[str, int, float], ...] = (
    ("Single Room", 1, 0.7),
    ("Standard Queen", 2, 1.0),
    ("Standard King", 2, 1.1),
    ("Deluxe King", 2, 1.35),
    ("Double Queen", 4, 1.3),
    ("Junior Suite", 3, 1.8),
    ("Family Suite", 5, 2.2),
)

# ISO code, name, units per US dollar (approximate mid-2026 levels; fixed for the episode)
CURRENCIES: tuple[tuple[str, str, float], ...] = (
    ("USD", "US dollar", 1.0),
    ("EUR", "Euro", 0.92),
    ("GBP", "Pound sterling", 0.79),
    ("CAD", "Canadian dollar", 1.37),
    ("JPY", "Japanese yen", 156.0),
    ("MXN", "Mexican peso", 17.1),
    ("AUD", "Australian dollar", 1.51),
    ("CHF", "Swiss franc", 0.9),
    ("KRW", "South Korean won", 1370.0),
    ("SGD", "Singapore dollar", 1.35),
    ("HKD", "Hong Kong dollar", 7.82),
    ("SEK", "Swedish krona", 10.6),
)
