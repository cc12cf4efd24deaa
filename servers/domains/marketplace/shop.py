"""The seller's view of their shop: every listing with its bids, offers and watchers."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from servers.domains.marketplace.model import Format, Listing, marketplace
from servers.domains.marketplace.rules import _page
from servers.kit import Db, Offset, PageSize


@marketplace.tool(
    returns=Listing,
    says=[
        "show my {status} listings",
        "list the {format} listings I'm selling",
        "find my listings matching {query}",
    ],
)
def list_my_listings(
    db: Db,
    status: Literal["active", "ended", "sold", "cancelled"] | None = None,
    format: Format | None = None,
    query: Annotated[str, Field(min_length=1, max_length=100, examples=["camera", "LEGO", "jacket"])]
    | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Your listings as a seller, live ones first (ending soonest), then the rest (latest first):
    price, bids, high bidder, whether the reserve is met, open offers and watchers.

    Args:
        status: active, ended, sold or cancelled.
        format: auction or fixed_price.
        query: Words the title must contain.
    """
    me = db.actor()
    where, params = ["l.seller_id = ?"], [me["id"]]
    for column, value in (("status", status), ("format", format)):
        if value is not None:
            where.append(f"l.{column} = ?")
            params.append(value)
    for word in (query or "").split():
        where.append("l.title LIKE ? ESCAPE '\\'")
        params.append("%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%")
    columns = (
        "l.id, l.title, l.format, l.status, l.current_price, l.buy_now_price, l.reserve_price, l.bid_count, "
        "l.quantity, l.quantity_sold, l.ends_at"
    )
    order = "l.status != 'active', CASE WHEN l.status = 'active' THEN l.ends_at END, l.ends_at DESC, l.id"
    body = f"FROM listings l WHERE {' AND '.join(where)}"
    page = _page(db, columns, body, params, order, limit=limit, offset=offset, key="listings")
    ids = [r["id"] for r in page["listings"]]
    marks = ", ".join("?" for _ in ids)

    def per_listing(sql: str) -> dict:
        return {r["k"]: r["v"] for r in db.all(sql.format(marks=marks), *ids)}

    leaders = per_listing(
        "SELECT b.listing_id AS k, u.username AS v FROM bids b JOIN users u ON u.id = b.bidder_id "
        "WHERE b.listing_id IN ({marks}) AND b.status IN ('active', 'won')"
    )
    pending = per_listing(
        "SELECT listing_id AS k, count(*) AS v FROM offers WHERE listing_id IN ({marks}) AND status = 'pending' "
        "GROUP BY listing_id"
    )
    watchers = per_listing(
        "SELECT listing_id AS k, count(*) AS v FROM watches WHERE listing_id IN ({marks}) GROUP BY listing_id"
    )
    for r in page["listings"]:
        lid = r["id"]
        r["high_bidder"] = leaders.get(lid)
        r["pending_offers"] = pending.get(lid, 0)
        r["watchers"] = watchers.get(lid, 0)
        reserve = r["reserve_price"]
        r["reserve_met"] = None if reserve is None else r["bid_count"] > 0 and r["current_price"] >= reserve
    return page
