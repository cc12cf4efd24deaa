"""The map service's tables and fixed facts: cities, the address index, road links, places,
reviews, and each user's saved places and lists."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import ForeignKey, Index, UniqueConstraint, func, text
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import WEEKDAYS as FULL_WEEKDAYS
from servers.kit import Domain

maps = Domain(
    "maps",
    "Maps: geocoding, places with ratings and opening hours, routes, distance matrices, trip "
    "planning, time zones, saved places and lists.",
    # Monday 09:00 in Portland, where the persona lives (16:00 UTC); see __init__ for "open now"
    now="2026-06-01T09:00:00",
)

Mode = Literal["driving", "walking", "cycling"]
MODES: tuple[str, ...] = ("driving", "walking", "cycling")
Sort = Literal["relevance", "distance", "rating"]
# place categories: the world's restaurants and merchants, and the generated kinds of place
Category = Literal[
    "restaurant",
    "cafe",
    "bar",
    "grocery",
    "pharmacy",
    "hospital",
    "gas_station",
    "ev_charger",
    "parking",
    "hotel",
    "museum",
    "park",
    "gym",
    "bank",
    "tire_shop",
    "car_repair",
    "book_store",
    "clothing_store",
    "electronics_store",
    "transit_station",
    "utility_office",
]
CATEGORIES: tuple[str, ...] = Category.__args__
# the world's merchant categories -> the kind of place the shop is
MERCHANT_CATEGORY = {
    "coffee": "cafe",
    "restaurant": "restaurant",
    "grocery": "grocery",
    "fuel": "gas_station",
    "pharmacy": "pharmacy",
    "electronics": "electronics_store",
    "books": "book_store",
    "clothing": "clothing_store",
    "transit": "transit_station",
    "utilities": "utility_office",
}
# words people search for a category or cuisine by, beyond its own name
SEARCH_WORDS: dict[str, tuple[str, ...]] = {
    "cafe": ("coffee", "espresso", "cafe", "cafes"),
    "restaurant": ("food", "restaurant", "restaurants", "eat", "dinner", "lunch"),
    "bar": ("drinks", "bar", "bars", "pub", "beer"),
    "grocery": ("grocery", "groceries", "supermarket", "market"),
    "pharmacy": ("pharmacy", "drugstore", "medicine"),
    "hospital": ("hospital", "doctor", "emergency", "clinic"),
    "gas_station": ("gas", "fuel", "petrol", "station"),
    "ev_charger": ("ev", "charger", "chargers", "charging", "charge"),
    "parking": ("parking", "garage"),
    "hotel": ("hotel", "hotels", "lodging", "stay"),
    "museum": ("museum", "museums", "art", "gallery"),
    "park": ("park", "parks", "playground", "garden"),
    "gym": ("gym", "fitness", "workout"),
    "bank": ("bank", "atm"),
    "tire_shop": ("tire", "tires", "tyres"),
    "car_repair": ("mechanic", "repair", "garage", "auto"),
    "book_store": ("books", "bookstore", "book"),
    "clothing_store": ("clothes", "clothing", "apparel"),
    "electronics_store": ("electronics", "tech"),
    "transit_station": ("transit", "station", "rideshare"),
    "utility_office": ("utility", "utilities"),
    "italian": ("italian", "pizza", "pasta"),
    "mexican": ("mexican", "tacos", "taco", "burrito"),
    "chinese": ("chinese", "noodles", "dumplings"),
    "japanese": ("japanese", "sushi", "ramen"),
    "indian": ("indian", "curry"),
    "thai": ("thai", "noodles", "curry"),
    "mediterranean": ("mediterranean", "falafel", "mezze"),
    "breakfast": ("breakfast", "brunch", "pancakes", "bakery"),
    "american": ("american", "burger", "burgers", "diner"),
}
WEEKDAYS: tuple[str, ...] = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DAY_NAMES = FULL_WEEKDAYS  # the kit's: hours are shown by full day name
# The reference moment as every city's own wall clock shows it (the world's convention): Monday 09:00.
REF_WEEKDAY, REF_TIME = 0, "09:00"
# road networks: cities on one are linked by road, cities on different ones are not
NETWORKS = {"US": "North America", "CA": "North America", "GB": "Europe", "DE": "Europe", "JP": "Japan"}

MAX_RADIUS_M = 50_000
DEFAULT_RADIUS_M = 5_000
MAX_WALK_KM = 100.0
MAX_MATRIX_CELLS = 100
MAX_STOPS = 10
MAX_SAVED = 500
MAX_LIST_ITEMS = 200
NEAR_CITY_KM = 30.0  # a point farther than this from every city is off the map
UNIQUE_LABELS = ("home", "work")
LOCAL_ROAD_KMH = 40.0  # driving between cities on the roads beside the highway (avoid_highways)


class City(maps.Table, prefix="CTY"):
    __tablename__ = "cities"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(unique=True)
    region: Mapped[str]
    country: Mapped[str]
    lat: Mapped[float]
    lon: Mapped[float]
    timezone: Mapped[str]
    airport: Mapped[str]
    road_network: Mapped[str]


class Address(maps.Table, prefix="ADR"):
    """A street address of the geocoding index: a point on a city's grid (``servers.kit.geo``)."""

    __tablename__ = "addresses"
    id: Mapped[str] = mapped_column(primary_key=True)
    line: Mapped[str] = mapped_column(unique=True)  # "14 Elm St, Portland"
    number: Mapped[int]
    street: Mapped[str]
    city_id: Mapped[str] = mapped_column(ForeignKey("cities.id"), index=True)
    postal_code: Mapped[str]
    lat: Mapped[float]
    lon: Mapped[float]


class RoadLink(maps.Table, prefix="RDL", noun="road link"):
    """The road between two cities of one network: a highway (or a car ferry crossing), maybe
    tolled, maybe closed. Every road distance is still ``geo.route`` of the two points."""

    __tablename__ = "road_links"
    __table_args__ = (UniqueConstraint("from_city_id", "to_city_id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    from_city_id: Mapped[str] = mapped_column(ForeignKey("cities.id"))
    to_city_id: Mapped[str] = mapped_column(ForeignKey("cities.id"))
    name: Mapped[str]
    kind: Mapped[str]  # highway | ferry
    toll: Mapped[bool]
    closed: Mapped[bool]
    closure_note: Mapped[str | None]
    distance_km: Mapped[float]  # centre to centre, as geo.route says


class Place(maps.Table, prefix="PLC"):
    """A place of interest. Restaurants and merchants are the shared world's, with its names,
    addresses, ratings and hours; hours are local wall-clock ``"HH:MM-HH:MM"`` or ``closed``."""

    __tablename__ = "places"
    __table_args__ = (
        Index("ix_places_city_category", "city_id", "category"),
        # the sampler's "operational place" picks count and page these in id order
        Index("ix_places_status", "business_status", "id"),
        Index("ix_places_city_status", "city_id", "business_status", "id"),
        # a location named by a place's name, in any case (resolve): lower(name) read every place
        Index("ix_places_name_lower", func.lower(text("name"))),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(index=True)
    category: Mapped[str] = mapped_column(index=True)
    cuisine: Mapped[str | None]
    city_id: Mapped[str] = mapped_column(ForeignKey("cities.id"))
    address_id: Mapped[str] = mapped_column(ForeignKey("addresses.id"), index=True)
    address: Mapped[str]
    lat: Mapped[float]
    lon: Mapped[float]
    rating: Mapped[float]
    review_count: Mapped[int]
    prominence: Mapped[float]  # rating x log10(reviews + 10): search ranking
    price_level: Mapped[int | None]  # 1 ($) .. 4 ($$$$); none where prices do not apply
    hours_mon: Mapped[str]
    hours_tue: Mapped[str]
    hours_wed: Mapped[str]
    hours_thu: Mapped[str]
    hours_fri: Mapped[str]
    hours_sat: Mapped[str]
    hours_sun: Mapped[str]
    phone: Mapped[str]
    accessible: Mapped[bool]
    business_status: Mapped[str]  # operational | closed_temporarily | closed_permanently
    merchant_index: Mapped[int | None]  # the world merchant this place is, if any
    restaurant_index: Mapped[int | None]  # the world restaurant this place is, if any


class PlaceTerm(maps.Table, prefix="PTM", noun="search term", internal=True):
    """The search index: each word a place is found by (its name's words, its category and
    cuisine, and the words people use for them: "coffee" for a cafe, "tacos" for a taqueria)."""

    __tablename__ = "place_terms"
    # internal: the discovery tools do not list it
    __table_args__ = (
        Index("ix_place_terms_term", "term", "place_id"),
        # a place's own terms, term included: a search checks its other words on each candidate
        Index("ix_place_terms_place", "place_id", "term"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    term: Mapped[str]
    place_id: Mapped[str] = mapped_column(ForeignKey("places.id"))


class Review(maps.Table, prefix="REV", append_only=True, people={"name": "author"}):
    __tablename__ = "reviews"
    id: Mapped[str] = mapped_column(primary_key=True)
    place_id: Mapped[str] = mapped_column(ForeignKey("places.id"), index=True)
    author: Mapped[str]
    rating: Mapped[int]
    text: Mapped[str]
    at: Mapped[str]


class User(maps.Table, prefix="USR", people={"name": "name", "email": "email", "city": "home_city"}):
    """Someone signed in to the map app: a person of the shared world (USR-000001 is the persona)."""

    __tablename__ = "users"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)
    home_city: Mapped[str]


Session = maps.acting(User, "user_id")


class SavedPlace(maps.Table, prefix="SVP", noun="saved place"):
    """A place or address a user saved under a label (``home``, ``work`` or their own)."""

    __tablename__ = "saved_places"
    __table_args__ = (Index("ix_saved_places_user_label", "user_id", "label"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    label: Mapped[str]
    # Plain columns, not foreign keys: a place is not "the user's" because someone saved it (the
    # query generator reads foreign-key paths to users as ownership). The tools check both ids.
    place_id: Mapped[str | None] = mapped_column(index=True)
    address_id: Mapped[str | None]
    note: Mapped[str | None]
    created_at: Mapped[str]


class PlaceList(maps.Table, prefix="LST", noun="list"):
    __tablename__ = "lists"
    __table_args__ = (Index("ix_lists_user_name", "user_id", "name"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str]
    description: Mapped[str | None]
    created_at: Mapped[str]


class ListItem(maps.Table, prefix="LIT", noun="list item"):
    __tablename__ = "list_items"
    __table_args__ = (UniqueConstraint("list_id", "place_id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    list_id: Mapped[str] = mapped_column(ForeignKey("lists.id"))
    place_id: Mapped[str] = mapped_column(ForeignKey("places.id"), index=True)
    note: Mapped[str | None]
    added_at: Mapped[str]
