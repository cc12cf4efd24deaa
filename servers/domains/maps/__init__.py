"""Maps: geocoding, places, routes and time zones over the shared world's fifteen cities, plus the
signed-in user's saved places and lists (the shape of Google Maps Platform geocoding and places,
and OSRM's route / table / trip services).

Acting model: lookups need no identity. Saved places and lists belong to the user of the one-row
``sessions`` table, the persona (USR-000001, world person 0), who has saved home, work and ten
places of Portland, and keeps three lists. Those are the only things a tool changes.

Geography is the world's (``servers.kit.geo``): every address geocodes to the point
food delivery, vehicle navigation and travel use, and the road distance and duration of every
route are exactly ``geo.route`` for the two points and mode, as the vehicle's trip estimate is.
The world's restaurants (same names, addresses, ratings, price levels, weekday hours and phones
as food delivery) and its merchants (at ``Merchant.address``) are places; the map adds
pharmacies, hospitals, gas stations, chargers, parking, hotels, museums, parks, gyms, banks, tire
shops and garages at grid addresses. Step lists come from the grid: east-west streets and five
north-south cross streets (Front Ave, 2nd-5th Ave) at house numbers 0, 100, ... 400.

Reference moment: Monday 2026-06-01 09:00 on every city's own clock (16:00 UTC is 09:00 in
Portland, where the persona lives); "open now" is Monday 09:00 at the place's city, and
``get_timezone`` gives each zone's UTC offset on that date (zoneinfo). Saved rows are stamped
with the persona's local time.

Where a location is asked for (origin, destination, near, stops), the tools take a place id, a
street address ('14 Elm St, Portland'), one of the user's saved labels ('home'), a city name or
'lat,lon', and say what they resolved it as.

Rules the service enforces, each refused with an error naming the values involved:
- Coordinates: latitude -90..90, longitude -180..180; a pair whose first number is out of the
  latitude range but would fit as one reads as lon,lat (OSRM's order) and is refused with the
  swapped pair as a hint. Points more than 30 km from every city are off the map.
- Geocoding never guesses: nothing matching is ZERO_RESULTS; a street address without a city
  that exists in several cities is AMBIGUOUS with one candidate per city; a place name shared
  by several places lists them all.
- Search: radius at most 50,000 m (default 5,000 m around ``near``, and only with ``near``);
  ``sort=distance`` needs ``near`` and a query or category and ignores the radius (nearest
  first, anywhere within the 50 km search limit); permanently closed places are left out unless
  ``include_closed``. Query words match the start of a place's search terms (``place_terms``:
  its name's words, category, cuisine and common words for them, "coffee" for a cafe).
- Routing between cities follows the road link between them (``road_links``): cities on
  different road networks (North America, Europe, Japan) have none, a closed link (Denver-Chicago,
  Miami-Toronto) leaves no route, the London-Berlin link is a car ferry (driving only), a toll
  link refuses ``avoid_tolls`` when driving, and ``avoid_highways`` drives the local roads beside
  the highway (same distance, 40 km/h). Walking routes over 100 km are refused; a route from a
  point to itself is refused. Inside a city every pair of points has a route in every mode.
  Every other route's distance and duration are ``geo.route``'s.
- A distance matrix has at most 100 cells (a pair without a route is a NO_ROUTE cell); a trip
  has at most 10 stops and visits them in the order of least total time.
- Saved places: 'home' and 'work' one each, every label names one saved place, a place or
  address is saved once, at most 500. List names are unique per user, a place is on a list once,
  a list holds at most 200 places. You can only read and change your own saved places and lists.
"""

from servers.domains.maps import directions, lookup, places, saved, seed
from servers.domains.maps.model import maps

# the modules that declare the domain; its tools are shown to agents in this order
maps.include(seed, lookup, places, directions, saved)

__all__ = ["maps"]

# the words its users speak and its assistant answers with (read by the task generator)
from servers.domains.maps import language as _language  # noqa: E402,F401
