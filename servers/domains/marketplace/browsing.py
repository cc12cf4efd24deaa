"""Looking around: the clock, categories, search, one listing, a member's profile, watching."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from servers.domains.marketplace.model import (
    Category,
    Condition,
    Format,
    Listing,
    User,
    Watch,
    marketplace,
)
from servers.domains.marketplace.rules import (
    LIVE_SQL,
    WATCHABLE,
    _hours_to_go,
    _listing,
    _live,
    _local,
    _not_mine,
    _page,
    _public,
    _to_utc,
)
from servers.kit import Db, Moment, Money, Offset, PageSize, Ref, ToolError

SearchText = Annotated[
    str,
    Field(
        min_length=1,
        max_length=100,
        description="Words the title must contain, e.g. 'canon film camera'.",
        examples=["camera", "Nintendo Switch", "LEGO", "turntable", "tent", "Pokemon", "cast iron"],
    ),
]
Sort = Literal["ending_soon", "price_low", "price_high", "newest"]
ORDER_BY = {
    "ending_soon": "l.ends_at",  # the (status, ends_at) index gives this order, ties by row
    "price_low": "l.current_price, l.id",
    "price_high": "l.current_price DESC, l.id",
    "newest": "l.starts_at DESC, l.id",
}
SUMMARY = (
    "l.id, l.title, l.format, l.condition, l.current_price, l.buy_now_price, l.bid_count, l.quantity, "
    "l.quantity_sold, l.shipping_cost, l.best_offer, l.ends_at, l.location_city, l.status, l.seller_id, "
    "l.category_id"
)
FROM = "FROM listings l"


def _summaries(db: Db, page: dict) -> dict:
    """Seller, category and time left for the listings of one page (joined after paging, so a
    count over thousands of live listings reads only the listings index)."""
    cats = {c["id"]: c["name"] for c in db.all("SELECT id, name FROM categories")}
    ids = sorted({row["seller_id"] for row in page["listings"]})
    marks = ", ".join("?" for _ in ids)
    names = {
        u["id"]: u["username"] for u in db.all(f"SELECT id, username FROM users WHERE id IN ({marks})", *ids)
    }
    for row in page["listings"]:
        row["seller"] = names[row.pop("seller_id")]
        row["category"] = cats[row.pop("category_id")]
        row["hours_left"] = _hours_to_go(db, row)
    return page


@marketplace.tool(
    says=["what time is it on the marketplace?", "what's the current date and time for my auctions?"],
    idempotent=True,
)
def get_current_time(db: Db) -> dict:
    """The marketplace clock: the time now in UTC and on your own clock, with your time zone.
    Listing end times are stored in UTC; tools also show them on your clock."""
    me = db.actor()
    return {
        "utc": db.stamp(),
        "local": _local(db, db.stamp()),
        "weekday": db.now.strftime("%A"),
        "timezone": me["timezone"],
    }


@marketplace.tool(
    returns=Category,
    says=["what categories are there?", "show me the category tree"],
)
def list_categories(db: Db) -> dict:
    """The category tree: top-level categories with their subcategories and how many live listings
    each has. New listings go into a subcategory."""
    cats = db.all("SELECT id, name, parent_id FROM categories ORDER BY id")
    live = {
        r["category_id"]: r["n"]
        for r in db.all(
            f"SELECT category_id, count(*) AS n FROM listings WHERE {LIVE_SQL} GROUP BY category_id"
        )
    }
    tops = [dict(id=c["id"], name=c["name"], subcategories=[]) for c in cats if c["parent_id"] is None]
    by_id = {t["id"]: t for t in tops}
    for c in cats:
        if c["parent_id"] is not None:
            by_id[c["parent_id"]]["subcategories"].append(
                dict(id=c["id"], name=c["name"], live_listings=live.get(c["id"], 0))
            )
    return {"categories": tops}


@marketplace.tool(
    returns=Listing,
    says=[
        "search the marketplace for {query}",
        "find {format} listings for {query} under {max_price}",
        "show me {condition} {query} listings ending within {ending_within_hours} hours",
        "look for {query} in {category}, sorted by {sort}",
        "which {query} auctions end before {ending_before}?",
    ],
)
def search_listings(
    db: Db,
    query: SearchText | None = None,
    category: Ref[Category] | None = None,
    format: Format | None = None,
    condition: Condition | None = None,
    max_price: Money | None = None,
    ending_within_hours: Annotated[int, Field(ge=1, le=720)] | None = None,
    ending_before: Moment | None = None,
    sort: Sort = "ending_soon",
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Search live listings (active and not yet ended). Prices are current prices: the bidding so
    far for auctions, the Buy It Now price for fixed-price listings.

    Args:
        query: Words that must all appear in the title.
        category: A category; a top-level one includes its subcategories.
        format: auction or fixed_price.
        condition: new, used, refurbished or for_parts.
        max_price: Highest current price.
        ending_within_hours: Only listings ending within this many hours from now.
        ending_before: Only listings ending before this time (your local time unless an offset is given).
        sort: ending_soon, price_low, price_high or newest.
    """
    where = ["l.status = 'active'", "l.ends_at > ?"]
    params = [db.stamp()]
    for word in (query or "").split():
        pattern = "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        where.append("l.title LIKE ? ESCAPE '\\'")
        params.append(pattern)
    if category is not None:
        cat = db.get(Category, category)
        where.append("l.category_id IN (SELECT id FROM categories WHERE id = ? OR parent_id = ?)")
        params += [cat["id"], cat["id"]]
    for column, value in (("format", format), ("condition", condition)):
        if value is not None:
            where.append(f"l.{column} = ?")
            params.append(value)
    if max_price is not None:
        where.append("l.current_price <= ?")
        params.append(max_price)
    if ending_within_hours is not None:
        where.append("l.ends_at <= strftime('%Y-%m-%dT%H:%M:%S', ?, ?)")
        params += [db.stamp(), f"+{ending_within_hours} hours"]
    if ending_before is not None:
        before = _to_utc(db, ending_before)
        if before <= db.stamp():
            raise ToolError(
                f"ending_before {ending_before} is not in the future; it is now {_local(db, db.stamp())}"
            )
        where.append("l.ends_at < ?")
        params.append(before)
    body = f"{FROM} WHERE {' AND '.join(where)}"
    page = _page(db, SUMMARY, body, params, ORDER_BY[sort], limit=limit, offset=offset, key="listings")
    return _summaries(db, page)


@marketplace.tool(
    returns=Listing,
    says=["show me listing {listing}", "what's the current price and time left on {listing}?"],
)
def get_listing(db: Db, listing: Ref[Listing]) -> dict:
    """One listing in full: current price, bid count, whether a reserve exists and is met (never
    its amount, unless the listing is yours), the next minimum bid, time left, Buy It Now and
    whether offers are taken, the seller and how many people watch it."""
    me = db.actor()
    row = _listing(db, listing)
    out = _public(db, row, me["id"])
    seller = db.get(User, row["seller_id"])
    out["seller"] = {
        "id": seller["id"],
        "username": seller["username"],
        "feedback_score": seller["feedback_score"],
        "positive_pct": seller["positive_pct"],
    }
    out["category"] = db.get(Category, row["category_id"])["name"]
    out["watchers"] = db.scalar("SELECT count(*) FROM watches WHERE listing_id = ?", listing)
    out["watching"] = bool(
        db.scalar("SELECT count(*) FROM watches WHERE listing_id = ? AND user_id = ?", listing, me["id"])
    )
    lead = db.one("SELECT bidder_id FROM bids WHERE listing_id = ? AND status IN ('active', 'won')", listing)
    out["you_are_high_bidder"] = bool(lead and lead["bidder_id"] == me["id"])
    return out


@marketplace.tool(
    returns=User,
    says=["how good is the feedback of {user}?", "show me the seller profile of {user}"],
)
def get_user_profile(db: Db, user: Ref[User, "is_seller = 1"]) -> dict:
    """A member's public profile: username, city, member since, feedback score and positive
    percentage, their live listings and the latest feedback they received."""
    u = db.get(User, user)
    recent = db.all(
        "SELECT f.rating, f.comment, f.role, f.at, a.username AS from_user FROM feedback f "
        "JOIN users a ON a.id = f.from_id WHERE f.to_id = ? ORDER BY f.at DESC, f.id DESC LIMIT 5",
        user,
    )
    return {
        "id": u["id"],
        "username": u["username"],
        "display_name": u["display_name"],
        "city": u["city"],
        "member_since": u["member_since"],
        "status": u["status"],
        "feedback_score": u["feedback_score"],
        "positive_pct": u["positive_pct"],
        "ratings": {k: u[f"ratings_{k}"] for k in ("positive", "neutral", "negative")},
        "live_listings": db.scalar(f"SELECT count(*) FROM listings WHERE seller_id = ? AND {LIVE_SQL}", user),
        "recent_feedback": recent,
    }


@marketplace.tool(
    writes=[Watch],
    returns=Watch,
    idempotent=True,
    says=["add {listing} to my watch list", "watch {listing} for me"],
)
def watch_listing(db: Db, listing: Ref[Listing, WATCHABLE], watch: bool = True) -> dict:
    """Put a live listing on your watch list, or take it off with watch=false. Watching twice or
    unwatching a listing you do not watch changes nothing.

    Args:
        listing: The listing.
        watch: true to watch, false to stop watching.
    """
    me = db.actor()
    row = _listing(db, listing)
    existing = db.one("SELECT * FROM watches WHERE user_id = ? AND listing_id = ?", me["id"], listing)
    if not watch:
        if existing is not None:
            db.delete(Watch, existing["id"])
        return {"listing": listing, "title": row["title"], "watching": False, "changed": existing is not None}
    _not_mine(me, row, "watch")
    _live(db, row, "watch it")
    if existing is None:
        db.add(Watch, user_id=me["id"], listing_id=listing, created_at=db.stamp())
    count = db.scalar("SELECT count(*) FROM watches WHERE user_id = ?", me["id"])
    return {
        "listing": listing,
        "title": row["title"],
        "watching": True,
        "changed": existing is None,
        "watch_list_size": count,
        "ends_local": _local(db, row["ends_at"]),
    }


@marketplace.tool(
    returns=Watch,
    says=["show my watch list", "which listings am I watching?"],
)
def list_watched(db: Db, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """Your watch list, ending soonest first: each watched listing with its current price and time left."""
    me = db.actor()
    columns = (
        "w.id, w.listing_id, w.created_at AS watched_since, l.title, l.format, l.current_price, l.buy_now_price, "
        "l.bid_count, l.ends_at, l.status"
    )
    body = "FROM watches w JOIN listings l ON l.id = w.listing_id WHERE w.user_id = ?"
    page = _page(db, columns, body, [me["id"]], "l.ends_at, w.id", limit=limit, offset=offset, key="watching")
    for row in page["watching"]:
        row["hours_left"] = _hours_to_go(db, row)
    return page
