"""The marketplace's tables and fixed facts: users, categories, listings, bids, offers, orders."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import ForeignKey, Index, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain

marketplace = Domain(
    "marketplace",
    "Online marketplace: search listings, bid in auctions, buy it now, make and answer offers, "
    "sell and ship items, pay orders and leave feedback.",
    now="2026-06-01T16:00:00",  # UTC: Monday 09:00 in Portland, where the persona lives
)

Condition = Literal["new", "used", "refurbished", "for_parts"]
Format = Literal["auction", "fixed_price"]
ListingStatus = Literal["active", "ended", "sold", "cancelled"]
Rating = Literal["positive", "neutral", "negative"]
Carrier = Literal["usps", "ups", "fedex", "dhl"]
Duration = Literal[1, 3, 5, 7, 10]
RetractReason = Literal["entered_wrong_amount", "item_description_changed", "cannot_reach_seller"]
EndReason = Literal["item_lost_or_broken", "no_longer_available", "error_in_listing", "sold_elsewhere"]
BID_STATUSES = ("active", "outbid", "retracted", "won", "lost", "cancelled")
OFFER_STATUSES = ("pending", "accepted", "declined", "countered", "expired", "withdrawn")
ORDER_STATUSES = ("awaiting_payment", "paid", "shipped", "delivered", "cancelled")

OFFER_HOURS = 48  # an offer or a counter-offer expires 48 hours after it was made
MAX_OFFERS = 3  # offers one buyer may make on one listing
RETRACT_MIN_HOURS = 12  # a bid can be retracted only while more than 12 hours remain
FEEDBACK_DAYS = 60  # feedback within 60 days of the order
BUY_NOW_MARKUP = 1.3  # an auction's Buy It Now price is at least 30% above its starting price
# (lower bound of the current price, increment): eBay's public bid-increment table
INCREMENTS: tuple[tuple[float, float], ...] = (
    (5000.0, 100.0),
    (2500.0, 50.0),
    (1000.0, 25.0),
    (500.0, 10.0),
    (250.0, 5.0),
    (100.0, 2.5),
    (25.0, 1.0),
    (5.0, 0.5),
    (1.0, 0.25),
    (0.0, 0.05),
)


def increment(price: float) -> float:
    """The bid increment at this current price."""
    return next(step for low, step in INCREMENTS if price >= low)


def rank_bids(bids: list[dict]) -> list[dict]:
    """Each bidder's highest bid among ``bids`` (rows in placing order), best first; between equal
    maxima the earlier bid wins."""
    best: dict[str, dict] = {}
    for b in bids:
        if b["bidder_id"] not in best or b["max_amount"] > best[b["bidder_id"]]["max_amount"]:
            best[b["bidder_id"]] = b
    return sorted(best.values(), key=lambda b: (-b["max_amount"], b["placed_at"], b["id"]))


def proxy_price(ranking: list[dict], start: float, reserve: float | None) -> float:
    """The price proxy bidding shows: the lower of the top maximum and the runner-up's maximum plus
    one increment (the starting price for a single bidder), raised to the reserve once the top
    maximum meets it."""
    price = start
    if len(ranking) > 1:
        second = ranking[1]["max_amount"]
        price = min(ranking[0]["max_amount"], round(second + increment(second), 2))
    if ranking and reserve is not None and ranking[0]["max_amount"] >= reserve and price < reserve:
        price = reserve
    return round(max(price, start), 2)


# -- people -----------------------------------------------------------------------------------


class User(
    marketplace.Table,
    prefix="USR",
    people={"name": "display_name", "email": "email", "username": "username", "city": "city"},
):
    """A marketplace account of a person of the shared world (USR-000001 is the persona)."""

    __tablename__ = "users"
    id: Mapped[str] = mapped_column(primary_key=True)
    display_name: Mapped[str]
    username: Mapped[str] = mapped_column(unique=True)
    email: Mapped[str] = mapped_column(unique=True)
    city: Mapped[str]
    timezone: Mapped[str]
    ship_to: Mapped[str]  # the home address items are shipped to
    ratings_positive: Mapped[int]
    ratings_neutral: Mapped[int]
    ratings_negative: Mapped[int]
    feedback_score: Mapped[int]  # positive minus negative ratings received
    positive_pct: Mapped[float | None]  # share of positive ratings among positive + negative
    status: Mapped[str]  # active / suspended
    is_seller: Mapped[bool]
    member_since: Mapped[str]


# Who is using the marketplace in this episode (one account is both buyer and seller).
Session = marketplace.acting(User, "user_id")


# -- catalogue --------------------------------------------------------------------------------


class Category(marketplace.Table, prefix="CAT", noun="category"):
    """A category of the tree (top-level ones have no parent)."""

    __tablename__ = "categories"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(unique=True)
    parent_id: Mapped[str | None] = mapped_column(ForeignKey("categories.id"))


class Listing(marketplace.Table, prefix="LST", hidden=("reserve_price", "auto_decline_below")):
    """An item for sale, as an auction or at a fixed price. Times are UTC.

    The reserve price and the automatic-decline floor are the seller's secrets: discovery never
    shows them and buyers only learn whether the reserve is met."""

    __tablename__ = "listings"
    # covers the live-listing conditions (search, the sampler's biddable/buyable/offerable rows)
    __table_args__ = (
        Index(
            "ix_listings_live",
            "status",
            "ends_at",
            "seller_id",
            "format",
            "bid_count",
            "best_offer",
            "buy_now_price",
            "quantity",
            "quantity_sold",
            "title",
            "category_id",
            "id",
        ),
        Index("ix_listings_status", "status", "id"),  # discovery: one status, in id order
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    seller_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    category_id: Mapped[str] = mapped_column(ForeignKey("categories.id"), index=True)
    title: Mapped[str] = mapped_column(index=True)
    description: Mapped[str]
    condition: Mapped[str]
    format: Mapped[str]
    start_price: Mapped[float | None]  # auctions: the opening bid
    current_price: Mapped[float]  # auctions: the price the bidding has reached; fixed: buy_now_price
    reserve_price: Mapped[float | None]
    buy_now_price: Mapped[float | None]
    quantity: Mapped[int]
    quantity_sold: Mapped[int]
    bid_count: Mapped[int]  # bids that still count (not retracted or cancelled)
    status: Mapped[str]
    starts_at: Mapped[str]
    ends_at: Mapped[str]
    ended_at: Mapped[str | None]
    end_reason: Mapped[str | None]
    best_offer: Mapped[bool]
    auto_decline_below: Mapped[float | None]
    shipping_cost: Mapped[float]
    location_city: Mapped[str]
    # indexed: whether a listing was relisted already is asked of every ended listing a pick considers
    relisted_from: Mapped[str | None] = mapped_column(ForeignKey("listings.id"), index=True)


class Bid(
    marketplace.Table,
    prefix="BD",
    hidden=("max_amount",),
    append_only=True,
    mutable=("status", "retract_reason"),
):
    """A proxy bid: the most the bidder will pay. Append-only; only its status changes later.

    Maxima are private to the bidder: discovery never shows them."""

    __tablename__ = "bids"
    # prefix: not "BID": "bid BID-000001" reads as a doubled word
    id: Mapped[str] = mapped_column(primary_key=True)
    listing_id: Mapped[str] = mapped_column(ForeignKey("listings.id"), index=True)
    bidder_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    max_amount: Mapped[float]
    status: Mapped[str]
    retract_reason: Mapped[str | None]
    placed_at: Mapped[str]


class Offer(marketplace.Table, prefix="OFR"):
    """A buyer's best offer on a fixed-price listing, and the seller's counter-offer if any."""

    __tablename__ = "offers"
    id: Mapped[str] = mapped_column(primary_key=True)
    listing_id: Mapped[str] = mapped_column(ForeignKey("listings.id"), index=True)
    buyer_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    amount: Mapped[float]  # per unit
    quantity: Mapped[int]
    message: Mapped[str | None]
    status: Mapped[str]
    counter_amount: Mapped[float | None]
    counter_message: Mapped[str | None]
    expires_at: Mapped[str]
    created_at: Mapped[str]
    responded_at: Mapped[str | None]


class Order(marketplace.Table, prefix="ORD"):
    """A sale: from a won auction, a Buy It Now purchase or an accepted offer."""

    __tablename__ = "orders"
    id: Mapped[str] = mapped_column(primary_key=True)
    listing_id: Mapped[str] = mapped_column(ForeignKey("listings.id"), index=True)
    buyer_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    seller_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    title: Mapped[str]  # the listing's title when it sold
    source: Mapped[str]  # auction / buy_it_now / offer
    unit_price: Mapped[float]
    quantity: Mapped[int]
    shipping_cost: Mapped[float]
    total: Mapped[float]
    status: Mapped[str]
    ship_to: Mapped[str]
    carrier: Mapped[str | None]
    tracking: Mapped[str | None] = mapped_column(unique=True)
    created_at: Mapped[str]
    paid_at: Mapped[str | None]
    shipped_at: Mapped[str | None]


class Watch(marketplace.Table, prefix="WCH", noun="watch"):
    """A listing on a user's watch list."""

    __tablename__ = "watches"
    __table_args__ = (UniqueConstraint("user_id", "listing_id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    listing_id: Mapped[str] = mapped_column(ForeignKey("listings.id"), index=True)
    created_at: Mapped[str]


class Feedback(marketplace.Table, prefix="FBK", noun="feedback", append_only=True):
    """A rating one party of an order left for the other. Append-only."""

    __tablename__ = "feedback"
    id: Mapped[str] = mapped_column(primary_key=True)
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), index=True)
    from_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    to_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    role: Mapped[str]  # what the author was in the order: buyer / seller
    rating: Mapped[str]
    comment: Mapped[str]
    at: Mapped[str]
