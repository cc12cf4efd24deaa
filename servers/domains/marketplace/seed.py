"""The seeded marketplace: world people as users, the category tree, and listings in every state
(the persona's shop among them), with their bids, offers, orders, feedback and watches."""

from __future__ import annotations

from servers.domains.marketplace.model import (
    Bid,
    Category,
    Feedback,
    Listing,
    Offer,
    Order,
    Session,
    User,
    Watch,
    marketplace,
)
from servers.domains.marketplace.seed_market import Market
from servers.domains.marketplace.seed_text import CATALOG
from servers.kit import Seeder
from servers.kit.db import format_id

# The persona runs a small second-hand shop on the side, which is why one account has hundreds
# of listings and orders; counts are (small, medium, large).
PERSONA_SHOP = {
    "active_auction": (8, 70, 120),
    "active_fixed": (10, 100, 150),
    "ended": (8, 110, 150),
    "sold": (14, 200, 300),
    "cancelled": (2, 10, 20),
}
PERSONA_BIDS = (8, 60, 80)  # other sellers' live auctions the persona bids on
PERSONA_OFFERS = (6, 45, 60)  # other sellers' best-offer listings the persona made offers on
PERSONA_PURCHASES = (8, 60, 80)  # things the persona bought
SUSPENDED = "USR-000003"  # one fixed suspended account at every scale (plus ~1% more)


@marketplace.seed
def fill(s: Seeder) -> None:
    users = _seed_users(s)
    categories = _seed_categories(s)
    market = Market(s, users, categories)
    _persona_shop(s, market)
    _others(s, market)
    market.watches(s.count(small=150, medium=3000, large=20_000))
    market.finish_ratings()
    for table, rows in (
        (User, users),
        (Listing, market.listings),
        (Bid, market.bids),
        (Offer, market.offers),
        (Order, market.orders),
        (Feedback, market.feedback),
        (Watch, market.watch_rows),
    ):
        s.add(table, rows)
    s.add(Session, [{"id": "SES-000001", "user_id": users[0]["id"]}])


def _seed_users(s: Seeder) -> list[dict]:
    """The persona, then the people of their circle (colleagues first), as marketplace accounts."""
    n = s.count(small=60, medium=1500, large=20_000)
    persona = s.world.persona
    people = [persona, *s.world.circle(persona, n - 1)]
    out = []
    for i, p in enumerate(people):
        uid = format_id("USR", i + 1)
        seller = i == 0 or s.chance(0.3)
        out.append(
            dict(
                id=uid,
                display_name=p.name,
                username=p.username,
                email=p.email,
                city=p.city,
                timezone=p.timezone,
                ship_to=p.home.line,
                ratings_positive=s.rng.randint(5, 400) if seller else s.rng.randint(0, 60),
                ratings_neutral=0,
                ratings_negative=0,
                feedback_score=0,
                positive_pct=None,
                status="suspended" if uid == SUSPENDED or (i > 3 and s.chance(0.01)) else "active",
                is_seller=seller,
                member_since=s.day_offset(-3000, -30),
            )
        )
    for u in out:  # a little neutral and negative history next to the positive ratings
        u["ratings_neutral"] = int(u["ratings_positive"] * s.rng.uniform(0, 0.04))
        u["ratings_negative"] = int(u["ratings_positive"] * s.rng.uniform(0, 0.03))
    return out


def _seed_categories(s: Seeder) -> dict[str, list[tuple[str, float]]]:
    """The category tree; returns each leaf category id with its items."""
    rows, leaves = [], {}
    for top, subs in CATALOG.items():
        top_id = format_id("CAT", len(rows) + 1)
        rows.append(dict(id=top_id, name=top, parent_id=None))
        for sub, items in subs.items():
            sub_id = format_id("CAT", len(rows) + 1)
            rows.append(dict(id=sub_id, name=sub, parent_id=top_id))
            leaves[sub_id] = items
    s.add(Category, rows)
    return leaves


def _persona_shop(s: Seeder, m: Market) -> None:
    """The persona's own listings (first ids), and what the persona bids on, offers on and bought."""
    me = m.users[0]
    k = ("small", "medium", "large").index(s.scale)
    shop = {state: counts[k] for state, counts in PERSONA_SHOP.items()}
    for i in range(shop["active_auction"]):
        m.auction(me, "active", bids=i % 7 < 4, reserve=i % 3 == 0, met=i % 2 == 1)
    for i in range(shop["active_fixed"]):
        m.fixed(me, "active", best_offer=i % 4 != 3, offers=(2, 6) if i % 4 != 3 else None)
    for i in range(shop["ended"]):
        if i % 2:
            m.auction(me, "ended", bids=i % 4 == 1, reserve=True)
        else:
            m.fixed(me, "ended", best_offer=i % 3 == 0)
    for i in range(shop["sold"]):
        if i % 2:
            m.auction(me, "sold", bids=True, reserve=i % 5 == 0, recent=True)
        else:
            m.fixed(me, "sold", best_offer=i % 3 == 0, recent=True)
    for i in range(shop["cancelled"]):
        m.auction(me, "cancelled", bids=i % 2 == 0, reserve=False)
    m.persona_buys(PERSONA_BIDS[k], PERSONA_OFFERS[k], PERSONA_PURCHASES[k])


def _others(s: Seeder, m: Market) -> None:
    """Everyone else's listings: 55% live, 15% ended unsold, 25% sold, 5% cancelled."""
    n = s.count(small=400, medium=4500, large=60_000) - len(m.listings)
    for _ in range(n):
        seller = m.seller()
        state = s.rng.choices(("active", "ended", "sold", "cancelled"), (55, 15, 25, 5))[0]
        if s.chance(0.45 if state == "active" else 0.5):
            m.auction(seller, state, bids=state == "sold" or s.chance(0.6), reserve=s.chance(0.25))
        else:
            best = s.chance(0.4)
            m.fixed(seller, state, best_offer=best, offers=(1, 6) if best and state == "active" else None)
