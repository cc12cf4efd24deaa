"""The signed-in user's saved places and lists: the only things the map service lets you change."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.maps.model import (
    MAX_LIST_ITEMS,
    MAX_SAVED,
    UNIQUE_LABELS,
    Address,
    ListItem,
    Place,
    PlaceList,
    SavedPlace,
    maps,
)
from servers.domains.maps.rules import (
    ADDRESS_EXAMPLES,
    AnyPlace,
    ListedPlace,
    MyFilledList,
    MyList,
    MySaved,
    Savable,
    city_name,
    place_summary,
)
from servers.kit import Db, Offset, PageSize, ShortText, ToolError, geo, marks

Label = Annotated[
    ShortText,
    Field(
        description="What to call it: 'home', 'work' or your own label.",
        examples=[
            "climbing gym",
            "kids' school",
            "book club",
            "farmers market",
            "vet",
            "yoga studio",
            "Grandma's",
        ],
    ),
]
StreetAddress = Annotated[
    ShortText, Field(description="A street address, e.g. '14 Elm St, Portland'.", examples=ADDRESS_EXAMPLES)
]
Note = Annotated[
    ShortText,
    Field(
        examples=[
            "ask for the corner table",
            "parking behind the building",
            "open late",
            "try the cardamom bun",
            "cash only",
            "closed on holidays",
            "meet Dana here",
            "good for groups",
        ]
    ),
]
ListName = Annotated[
    ShortText,
    Field(
        examples=[
            "Rainy day ideas",
            "Best tacos",
            "Chicago trip",
            "Kid-friendly",
            "Late night eats",
            "Anniversary ideas",
            "Work lunches",
            "Denver weekend",
            "Sunday errands",
            "Hidden gems",
            "Parents' visit",
            "Cheap eats",
        ]
    ),
]
ListAbout = Annotated[
    ShortText,
    Field(examples=["our trip in July", "rainy weekends", "when my parents visit", "Friday lunches"]),
]
SAVED_SQL = (
    "SELECT s.id, s.label, s.place_id, p.name AS place_name, coalesce(p.address, a.line) AS address, s.note, "
    "s.created_at FROM saved_places s LEFT JOIN places p ON p.id = s.place_id "
    "LEFT JOIN addresses a ON a.id = s.address_id WHERE s.user_id = ?"
)


def _mine(db: Db, table: type, key: str) -> dict:
    row = db.get(table, key)
    if row["user_id"] != db.actor_id():
        raise ToolError(f"{marks(table).noun} {key} belongs to another user; you can only use your own")
    return row


@maps.tool(
    returns=SavedPlace,
    says=["show my saved places", "what places have I saved?"],
)
def list_saved_places(db: Db, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """Your saved places: home, work and your own labels, with the place or address each names."""
    return db.page(
        f"{SAVED_SQL} ORDER BY s.id", db.actor_id(), limit=limit, offset=offset, key="saved_places"
    )


def _address_row(db: Db, text: str) -> dict:
    """The index row of an address (added to the index if it is on the grid but not there yet)."""
    where = geo.geocode(text)
    if where is None:
        raise ToolError(
            f"cannot find the address {text!r}: addresses look like '14 Elm St, Portland' "
            f"(house numbers 1-{geo.HOUSES_PER_STREET} on {', '.join(geo.STREET_NAMES)})"
        )
    row = db.one("SELECT * FROM addresses WHERE line = ?", where.line)
    if row is not None:
        return row
    city = db.scalar("SELECT id FROM cities WHERE name = ?", where.city)
    return db.insert(
        Address,
        line=where.line,
        number=where.number,
        street=where.street,
        city_id=city,
        postal_code=where.postal_code,
        lat=where.lat,
        lon=where.lon,
    )


def _check_label(db: Db, user: str, label: str) -> None:
    taken = db.one(
        "SELECT s.id, coalesce(p.name, a.line) AS what FROM saved_places s LEFT JOIN places p ON p.id = s.place_id "
        "LEFT JOIN addresses a ON a.id = s.address_id WHERE s.user_id = ? AND lower(s.label) = lower(?)",
        user,
        label,
    )
    if taken is None:
        return
    if label.casefold() in UNIQUE_LABELS:
        raise ToolError(
            f"you already have a {label.casefold()} saved ({taken['id']}, {taken['what']}); you can have only one "
            f"{label.casefold()}: remove it with remove_saved_place first"
        )
    raise ToolError(
        f"the label {label!r} is already used by {taken['id']} ({taken['what']}); pick another label"
    )


@maps.tool(
    writes=[SavedPlace, Address],
    returns=SavedPlace,
    says=[
        "save {place} as '{label}'",
        "save {address} to my places as '{label}'",
        "bookmark {place} under '{label}' with the note '{note}'",
    ],
)
def save_place(
    db: Db,
    label: Label,
    place: Savable | None = None,
    address: StreetAddress | None = None,
    note: Note | None = None,
) -> dict:
    """Save a place or a street address under a label. 'home' and 'work' are one each, every label
    names one saved place, and a place or address is saved once; at most 500 saved places.

    Args:
        label: The label.
        place: The place to save (or give address).
        address: The street address to save (or give place).
        note: A note to keep with it.
    """
    user = db.actor_id()
    if (place is None) == (address is None):
        raise ToolError("give either place or address to save, not both and not neither")
    label = label.strip()
    count = db.scalar("SELECT count(*) FROM saved_places WHERE user_id = ?", user)
    if count >= MAX_SAVED:
        raise ToolError(f"you have {count} saved places, the limit is {MAX_SAVED}; remove some first")
    _check_label(db, user, label)
    if place is not None:
        p = db.get(Place, place)
        dup = db.one("SELECT id, label FROM saved_places WHERE user_id = ? AND place_id = ?", user, place)
        if dup:
            raise ToolError(f"{p['name']} ({place}) is already saved as {dup['label']!r} ({dup['id']})")
        row = db.insert(
            SavedPlace,
            user_id=user,
            label=label,
            place_id=place,
            address_id=None,
            note=note,
            created_at=db.stamp(),
        )
        return {**row, "place_name": p["name"], "address": p["address"]}
    a = _address_row(db, address)
    dup = db.one("SELECT id, label FROM saved_places WHERE user_id = ? AND address_id = ?", user, a["id"])
    if dup:
        raise ToolError(f"{a['line']} is already saved as {dup['label']!r} ({dup['id']})")
    row = db.insert(
        SavedPlace,
        user_id=user,
        label=label,
        place_id=None,
        address_id=a["id"],
        note=note,
        created_at=db.stamp(),
    )
    return {**row, "address": a["line"]}


@maps.tool(
    writes=[SavedPlace],
    destructive=True,
    idempotent=True,
    says=["remove {saved_place} from my saved places", "delete my saved place {saved_place}"],
)
def remove_saved_place(db: Db, saved_place: MySaved) -> dict:
    """Delete one of your saved places (the place itself stays on the map).

    Args:
        saved_place: The saved place.
    """
    row = _mine(db, SavedPlace, saved_place)
    db.delete(SavedPlace, saved_place)
    return {"removed": saved_place, "label": row["label"]}


@maps.tool(
    writes=[PlaceList],
    returns=PlaceList,
    says=["create a list called '{name}'", "start a new list named '{name}' for {description}"],
)
def create_list(db: Db, name: ListName, description: ListAbout | None = None) -> dict:
    """Start a new, empty list of places. List names are unique among your lists.

    Args:
        name: The list's name.
        description: What the list is for.
    """
    user = db.actor_id()
    name = name.strip()
    dup = db.one("SELECT id FROM lists WHERE user_id = ? AND lower(name) = lower(?)", user, name)
    if dup:
        raise ToolError(f"you already have a list called {name!r} ({dup['id']}); pick another name")
    return db.insert(PlaceList, user_id=user, name=name, description=description, created_at=db.stamp())


@maps.tool(returns=PlaceList, says=["what lists do I have?", "show my place lists"])
def list_lists(db: Db, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """Your lists of places, with how many places each holds."""
    return db.page(
        "SELECT l.id, l.name, l.description, l.created_at, "
        "(SELECT count(*) FROM list_items i WHERE i.list_id = l.id) AS places FROM lists l "
        "WHERE l.user_id = ? ORDER BY l.id",
        db.actor_id(),
        limit=limit,
        offset=offset,
        key="lists",
    )


@maps.tool(
    writes=[ListItem],
    returns=ListItem,
    says=["add {place} to {list}", "put {place} on my list {list} with the note '{note}'"],
)
def add_to_list(db: Db, list: MyList, place: AnyPlace, note: Note | None = None) -> dict:
    """Add a place to one of your lists; a place is on a list once, and a list holds at most 200.

    Args:
        list: The list.
        place: The place to add.
        note: Why it is on the list.
    """
    lst = _mine(db, PlaceList, list)
    p = db.get(Place, place)
    dup = db.one("SELECT id FROM list_items WHERE list_id = ? AND place_id = ?", list, place)
    if dup:
        raise ToolError(f"{p['name']} ({place}) is already on the list {lst['name']!r} ({dup['id']})")
    count = db.scalar("SELECT count(*) FROM list_items WHERE list_id = ?", list)
    if count >= MAX_LIST_ITEMS:
        raise ToolError(
            f"the list {lst['name']!r} already holds {count} places, the limit is {MAX_LIST_ITEMS}"
        )
    row = db.insert(ListItem, list_id=list, place_id=place, note=note, added_at=db.stamp())
    return {**row, "list_name": lst["name"], "place_name": p["name"]}


@maps.tool(
    writes=[ListItem],
    destructive=True,
    idempotent=True,
    says=["remove {place} from {list}", "take {place} off my list {list}"],
)
def remove_from_list(db: Db, list: MyFilledList, place: ListedPlace) -> dict:
    """Take a place off one of your lists.

    Args:
        list: The list.
        place: The place to remove.
    """
    lst = _mine(db, PlaceList, list)
    p = db.get(Place, place)
    item = db.one("SELECT id FROM list_items WHERE list_id = ? AND place_id = ?", list, place)
    if item is None:
        raise ToolError(f"{p['name']} ({place}) is not on the list {lst['name']!r} ({list})")
    db.delete(ListItem, item["id"])
    return {"removed": place, "place_name": p["name"], "list": list, "list_name": lst["name"]}


@maps.tool(
    returns=Place,
    says=["show me what's on {list}", "which places are on my list {list}?"],
)
def get_list(db: Db, list: MyList, limit: PageSize = 50, offset: Offset = 0) -> dict:
    """One of your lists with its places, in the order they were added.

    Args:
        list: The list.
        limit: How many places (1-100, default 50).
    """
    lst = _mine(db, PlaceList, list)
    page = db.page(
        "SELECT p.*, i.note AS list_note FROM list_items i JOIN places p ON p.id = i.place_id WHERE i.list_id = ? "
        "ORDER BY i.id",
        list,
        limit=limit,
        offset=offset,
        key="places",
    )
    page["places"] = [
        {**place_summary(p, city_name(db, p["city_id"])), "note": p["list_note"]} for p in page["places"]
    ]
    head = {"list_id": lst["id"], "name": lst["name"], "description": lst["description"]}
    return {**head, **page}
