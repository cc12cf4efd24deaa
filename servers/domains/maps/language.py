"""How a map app's user speaks, and what its assistant tells them.

A person names a place by its name ("Blue Door Bakery"), by its name and street address when two
share a name ("Greenway Suites at 31 Oak Ave, Seattle"), or, right after a search showed it, by
what it is and where ("the pharmacy at 291 Cedar Ln, Portland"). Their own saved places go by
the label they gave them ("home", "work", "gym"), their lists by name ("my "Brunch spots" list").
Where they are searching from is home, work, a street address or a city. Nobody knows a place's
internal number. The assistant answers with what was asked: distances in miles with kilometres
beside them, times in minutes, a place's name and address, today's hours, and nothing else.
"""

from __future__ import annotations

from servers.domains.maps.model import City, Place, PlaceList, SavedPlace, maps
from servers.kit import Language

say = Language(maps)

# -- naming things ------------------------------------------------------------------------
# A place is looked up by searching its name, so the forms a lookup can use start with the name;
# "the pharmacy at ..." names a place among the ones a search just showed the user.
say.names(
    Place,
    "{name}",
    "{name} at {address}",
    "{name} in {city}",
    "the {category:state} at {address}",
    shown=("city",),
    called="a place",
)
say.names(SavedPlace, 'my saved place "{label}"', 'the place I saved as "{label}"', called="a saved place")
say.names(PlaceList, 'my "{name}" list', 'my list "{name}"', 'the "{name}" list', called="one of my lists")

CATEGORY = {
    "restaurant": "restaurant",
    "cafe": "cafe",
    "bar": "bar",
    "grocery": "grocery store",
    "pharmacy": "pharmacy",
    "hospital": "hospital",
    "gas_station": "gas station",
    "ev_charger": "EV charger",
    "parking": "parking garage",
    "hotel": "hotel",
    "museum": "museum",
    "park": "park",
    "gym": "gym",
    "bank": "bank",
    "tire_shop": "tire shop",
    "car_repair": "auto repair shop",
    "book_store": "bookstore",
    "clothing_store": "clothing store",
    "electronics_store": "electronics store",
    "transit_station": "transit station",
    "utility_office": "utility office",
}
# what a person asks for: "is there a pharmacy near home?", "find an EV charger on the way"
A_CATEGORY = {k: ("an " if v[0] in "aeioE" else "a ") + v for k, v in CATEGORY.items()}  # "a utility office"
say.state(Place, "category", **CATEGORY)
say.state(
    Place,
    "business_status",
    operational="open for business",
    closed_temporarily="temporarily closed",
    closed_permanently="closed for good",
)
say.state(
    City,
    "timezone",
    **{
        "America/Los_Angeles": "Pacific Time",
        "America/Denver": "Mountain Time",
        "America/Chicago": "Central Time",
        "America/New_York": "Eastern Time",
        "America/Toronto": "Eastern Time",
        "Europe/London": "UK time",
        "Europe/Berlin": "Central European Time",
        "Asia/Tokyo": "Japan Standard Time",
    },
)

MODE = {"driving": "by car", "walking": "on foot", "cycling": "by bike"}
RADIUS = {500: "500 meters", 1000: "a kilometer", 2000: "2 km", 3000: "3 km", 5000: "5 km", 10000: "10 km"}
DETOUR = {500: "half a kilometer", 1000: "a kilometer", 2000: "2 km", 3000: "3 km", 5000: "5 km"}
# where a person searches from: their saved home or work, a street address, a city
NEAR = (
    "home",
    "work",
    "home",
    "14 Elm St, Portland",
    "120 Oak Ave, Portland",
    "250 Maple Dr, Portland",
    "310 Grant St, Portland",
    "77 Pine St, Seattle",
    "230 Oak Ave, Denver",
)

# -- where things are ------------------------------------------------------------------------
# what people jot beside a place they keep (a saved place or a list entry)
NOTES = (
    "ask for the corner table",
    "parking behind the building",
    "open late",
    "try the cardamom bun",
    "cash only",
    "good for groups",
)
say.tool(
    "geocode",
    asks=[
        "What are the coordinates of {query}?",
        "Where exactly is {query}? I need the lat and long.",
        "Can you look up {query} on the map?",
        "I'm setting up a delivery drop-off; what's the exact location of {query}?",
        "Find {query} on the map for me.",
        "Find {query} in {city} on the map.",
        "Where is {query} in {city}? Give me the coordinates.",
    ],
    tells=[
        "There's a {@query} in {results:count(city)}: {results:list(city)}. Which city do you mean?{hint:yes}",
        "{results.0.name} is at {results.0.address}, {results.0.city}: latitude {results.0.lat}, "
        "longitude {results.0.lon}.",
        "{results.0.address} is at latitude {results.0.lat}, longitude {results.0.lon}; its postal code "
        "is {results.0.postal_code}.",
        "{results.0.address} is at latitude {results.0.lat}, longitude {results.0.lon}.",
    ],
    values={"city": ("Portland", "Seattle", "Denver", "Chicago", "Boston")},
)
say.tool(
    "reverse_geocode",
    asks=[
        "What address is at {location}?",
        "I dropped a pin at {location}; what's the street address there?",
        "Which street is {location} on?",
        "My friend sent me the coordinates {location}. What address is that?",
        "What's the nearest address to {location}?",
    ],
    tells=[
        "The nearest address is {address} (its postal code is {postal_code}); {places_here:list(name)} is right there.",
        "The nearest address is {address}; its postal code is {postal_code}.",
    ],
)
say.tool(
    "get_timezone",
    asks=[
        "What time zone is {location} in?",
        "What's the local time at {location}?",
        "I need to call {location}; what time is it there?",
        "Which time zone is {location} on?",
        "Is {location} on a different time zone? What time is it there now?",
    ],
    tells=[
        "{@location} is on {timezone:state} (UTC{utc_offset}); it's {local_time:when} there.",
        "It's {local_time:when} there, UTC{utc_offset}.",
    ],
)

# -- finding places ---------------------------------------------------------------------------
say.tool(
    "search_places",
    asks=[
        "Is there {category} near {near}?",
        "Find me {category} around {near}.",
        "I need {category} within {radius_m} of {near}.",
        "Is there {category} {open_now} within {radius_m} of {near}?",
        "Show me {query} near {near}, {sort}.",
        "Search for {query} near {near}.",
        "I'm craving {query}; what's around {near}?",
        "Show me {query} places in {city}, {sort}.",
        "Any {query} spots in {city} rated at least {min_rating}?",
        "Find {category} in {city} that's {open_now}.",
        "I want {query} near {near}, nothing pricier than {max_price_level}.",
        "Look for {category} near {near} rated {min_rating} or better.",
    ],
    tells=[
        "I found {places:count(place)}: {places:list(name, address)}.",
        "I couldn't find anything like that near {@near}.",
        "I couldn't find anything like that in {@city}.",
        "I couldn't find anything matching that.",
    ],
    words={
        "category": A_CATEGORY,
        "open_now": {True: "open now", False: "whether it's open or not"},
        "include_closed": {True: "including places that closed for good", False: "only places still open"},
        "radius_m": RADIUS,
        "max_price_level": {1: "$", 2: "$$", 3: "$$$", 4: "$$$$"},
        "sort": {"distance": "closest first", "rating": "best rated first", "relevance": "best match first"},
    },
    values={
        "query": ("coffee", "sushi", "pizza", "ramen", "tacos", "Thai", "burgers", "curry", "pancakes"),
        "near": NEAR,
        "city": ("Portland", "Seattle", "Denver", "Chicago", "Austin", "Boston"),
        "radius_m": tuple(RADIUS),
        "open_now": (True,),
        "min_rating": (4.0, 4.2, 4.5),
        "max_price_level": (1, 2, 3),
    },
)
say.tool(
    "get_place",
    asks=[
        "Is {place} open right now?",
        "What are {place}'s hours today?",
        "Tell me about {place}.",
        "Can I get the phone number for {place}? I want to call ahead.",
        "I'm thinking of heading to {place}; are they open, and how's it rated?",
    ],
    tells=[
        "Right now {name} ({address}) is {status_now:clock} (today's hours: {hours.monday:clock}). It's rated "
        "{rating} from {review_count} reviews, and the number is {phone}.",
        "Right now {name} ({address}) is {status_now:clock}. The number is {phone}.",
    ],
)
say.tool(
    "get_place_reviews",
    asks=[
        "What do people say about {place}?",
        "Show me the latest {limit} reviews of {place}.",
        "Are the reviews for {place} any good?",
        "I'm deciding on {place}; what are the recent reviews like?",
        "Read me a few reviews of {place}.",
    ],
    tells=[
        "{name} is rated {rating} from {review_count} reviews. The latest, from {reviews.0.author} "
        '({reviews.0.rating} stars): "{reviews.0.text}"',
        "{name} is rated {rating}, but nobody has written a review yet.",
    ],
    values={"limit": (3, 5)},
)

# -- getting there ---------------------------------------------------------------------------
_ROUTE = "From {@origin} to {@destination} it's {distance_mi:about} miles ({distance_km:about} km), about {duration_min:minutes}"
say.tool(
    "get_route",
    asks=[
        "How long does it take to drive from {origin} to {destination}?",
        "Give me directions from {origin} to {destination} {mode}.",
        "How far is {destination} from {origin} {mode}?",
        "I'm meeting a friend at {destination}; how do I get there from {origin} {mode}?",
        "Route me from {origin} to {destination} {avoid_tolls}.",
        "Get me from {origin} to {destination} {avoid_highways}, please.",
        "How do I get from {origin} to {destination}?",
    ],
    tells=[
        _ROUTE + " {@mode}, taking the {via} car ferry. Directions: {steps:list(instruction)}.{ferry:yes}",
        _ROUTE + " {@mode} on {via}, which is a toll road. Directions: {steps:list(instruction)}.{toll:yes}",
        _ROUTE + " {@mode} on {via}. Directions: {steps:list(instruction)}.",
        _ROUTE + " {@mode}. Directions: {steps:list(instruction)}.",
        _ROUTE + " by car, taking the {via} car ferry. Directions: {steps:list(instruction)}.{ferry:yes}",
        _ROUTE + " by car on {via}, which is a toll road. Directions: {steps:list(instruction)}.{toll:yes}",
        _ROUTE + " by car on {via}. Directions: {steps:list(instruction)}.",
        _ROUTE + " by car. Directions: {steps:list(instruction)}.",
    ],
    words={
        "mode": MODE,
        "avoid_tolls": {True: "avoiding toll roads", False: "toll roads are fine"},
        "avoid_highways": {True: "staying off the highway", False: "highways are fine"},
    },
    values={"avoid_tolls": (True,), "avoid_highways": (True,)},
)


def _order(n: int) -> str:
    """The visiting order of exactly ``n`` stops (the ``:no`` guard fails when there are more)."""
    stops = "; ".join(f"{k + 1}) {{stops.{k}.name}}" for k in range(n))
    return f"The quickest order is {stops}.{{stops.{n}.name:no}}"


_TOTAL = " That's {total_distance_km:about} km in all, about {total_duration_min:minutes}"
_ORDERS = [
    *(
        t
        for n in range(2, 11)
        for t in (
            _order(n) + _TOTAL + " including the way back.{return_to_origin:yes}",
            _order(n) + _TOTAL + ".",
        )
    ),
    "With one stop there's nothing to reorder: {first_stop} is {total_distance_km:about} km, about "
    "{total_duration_min:minutes}, there and back.{return_to_origin:yes}",
    "With one stop there's nothing to reorder: {first_stop} is {total_distance_km:about} km, about "
    "{total_duration_min:minutes} away.",
]
say.tool(
    "optimize_trip",
    asks=[
        "I have errands at {stops}. Starting from {origin}, what order is quickest?",
        "What's the best order to visit {stops} starting from {origin}?",
        "Plan a trip from {origin} through {stops} and back, {return_to_origin}.",
        "Starting at {origin}, I need to hit {stops} {mode}. What order should I go in?",
        "Figure out the fastest way to stop at {stops}, leaving from {origin}.",
    ],
    tells=[*_ORDERS],
    words={
        "mode": MODE,
        "return_to_origin": {True: "ending where I started", False: "no need to come back"},
    },
    values={"return_to_origin": (True,)},
)
_CELL = "{{cells.{k}.origin}} to {{cells.{k}.destination}}: {{cells.{k}.duration_min:minutes}} ({{cells.{k}.distance_km:about}} km)"


def _cells(n: int) -> str:
    """Every cell of a matrix of exactly ``n`` cells (the ``:no`` guard fails when there are more)."""
    return "; ".join(_CELL.format(k=k) for k in range(n)) + f".{{cells.{n}.origin:no}}"


say.tool(
    "distance_matrix",
    asks=[
        "How long does it take to get from {origins} to {destinations} {mode}?",
        "Compare the travel times from {origins} to {destinations}.",
        "How long would it take to get from {origins} to {destinations}, and how far is it?",
        "I'm picking a spot to meet; how far is it from {origins} to {destinations} {mode}?",
        "Work out the drive times from {origins} to {destinations}.",
    ],
    tells=[
        "It's {cells.0.duration_min:minutes} ({cells.0.distance_km:about} km) from {cells.0.origin} to "
        "{cells.0.destination}.{cells.1.origin:no}",
        *("Travel times: " + _cells(n) for n in range(2, 13)),
        "Not every pair has a route: {cells:list(reason)}.",
    ],
    words={"mode": MODE},
)
say.tool(
    "find_along_route",
    asks=[
        "Is there {category} on my way from {origin} to {destination}?",
        "Find {category} along the way from {origin} to {destination}.",
        "I'm driving from {origin} to {destination} and need {category}; anything on the route?",
        "Is there {category} within {max_detour_m} of my route from {origin} to {destination}?",
        "On the way from {origin} to {destination}, I need {category} that's {open_now}.",
        "Going from {origin} to {destination} {mode}: is there {category} along the way?",
    ],
    tells=[
        "I found {places:count(place)} on the way; the one closest to your route is {places.0.name} at "
        "{places.0.address}, {places.0.from_origin_km:about} km from where you start.",
        "There's nothing like that within {@max_detour_m} of your route from {@origin} to {@destination}.",
        "There's nothing like that close to your route from {@origin} to {@destination}.",
    ],
    words={
        "category": A_CATEGORY,
        "max_detour_m": DETOUR,
        "mode": MODE,
        "open_now": {True: "open now", False: "open or not"},
    },
    values={"max_detour_m": tuple(DETOUR), "open_now": (True,)},
)

# -- saved places and lists ------------------------------------------------------------------
say.tool(
    "list_saved_places",
    asks=[
        "What places have I saved?",
        "Show me my saved places.",
        "Which places do I have saved?",
        "I can't remember what I saved on the map; what's there?",
        "Can you pull up my saved places?",
    ],
    tells=[
        "You have {saved_places:count(saved place)}: {saved_places:list(label, place_name)}.",
        "You haven't saved any places yet.",
    ],
)
say.tool(
    "save_place",
    asks=[
        'Save {place} as "{label}".',
        'Please save {place} to my places under "{label}".',
        'I go to {place} all the time, save it as "{label}".',
        'Save {address} to my places as "{label}".',
        "Bookmark {address} as \"{label}\", it's where I'll be every week.",
        'Save {place} as "{label}" with the note "{note}".',
    ],
    tells=[
        'Saved {place_name} ({address}) as "{label}", with your note "{note}".',
        'Saved {place_name} ({address}) as "{label}".',
        'Saved {address} as "{label}".',
    ],
    values={
        "label": (
            "usual spot",
            "meeting point",
            "Saturday errands",
            "go-to",
            "try soon",
            "Dana's pick",
            "regular stop",
        ),
        "note": NOTES,
    },
)
say.tool(
    "remove_saved_place",
    asks=[
        "Remove {saved_place} from my saved places.",
        "I don't go there anymore, delete {saved_place}.",
        "Please take {saved_place} off my saved places.",
        "Get rid of {saved_place}.",
        "Unsave {saved_place}, I moved.",
    ],
    tells=['"{label}" is no longer one of your saved places; the place itself is still on the map.'],
)
say.tool(
    "create_list",
    asks=[
        'Make a new list called "{name}".',
        'Start a list named "{name}".',
        'Create a list "{name}" for {description}.',
        'I want to keep track of places for {description}; start a list called "{name}".',
        'Can you make me a list called "{name}"?',
    ],
    tells=[
        'Your new list "{name}" for {@description} is ready; it\'s empty for now.',
        'Your new list "{name}" is ready; it\'s empty for now.',
    ],
    values={
        "name": (
            "Rainy day ideas",
            "Best tacos",
            "Chicago trip",
            "Kid-friendly",
            "Anniversary ideas",
            "Hidden gems",
            "Cheap eats",
        ),
        # what a list is for, said so that it fits any of the names above
        "description": ("sharing with Dana", "when friends visit", "weekend plans", "planning ahead"),
    },
)
say.tool(
    "list_lists",
    asks=[
        "What lists do I have?",
        "Show me my lists.",
        "Which place lists have I made?",
        "I made a few lists of places a while back; which ones are there?",
        "Can you pull up my saved lists?",
    ],
    tells=["You have {lists:count(list)}: {lists:list(name)}.", "You don't have any lists yet."],
)
say.tool(
    "add_to_list",
    asks=[
        "Add {place} to {list}.",
        "Put {place} on {list}.",
        "I want to try {place} sometime, add it to {list}.",
        'Add {place} to {list} with the note "{note}".',
        "Can you save {place} to {list}?",
    ],
    tells=[
        'Added {place_name} to your "{list_name}" list, with the note "{note}".',
        'Added {place_name} to your "{list_name}" list.',
    ],
    values={"note": NOTES},
)
say.tool(
    "remove_from_list",
    asks=[
        "Take {place} off {list}.",
        "Remove {place} from {list}.",
        "We already went to {place}, remove it from {list}.",
        "Please drop {place} from {list}.",
        "{place} wasn't great; take it off {list}.",
    ],
    tells=['{place_name} is off your "{list_name}" list.'],
)
say.tool(
    "get_list",
    asks=[
        "What's on {list}?",
        "Show me {list}.",
        "Which places did I put on {list}?",
        "I'm planning the weekend; remind me what's on {list}.",
        "List the places in {list}.",
    ],
    tells=[
        'Your "{name}" list has {places:count(place)}: {places:list(name)}.',
        'Your "{name}" list is empty.',
    ],
)
