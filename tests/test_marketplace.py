"""Marketplace rules: proxy bidding and increments, hidden reserves, retraction, Buy It Now, offers
and counter-offers, seller operations, orders and feedback. Each refused call names its values and
changes nothing; each success changes exactly its rows."""

from __future__ import annotations

import pytest

from servers.domains.marketplace import rules
from servers.kit import geo, world
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "marketplace"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
ME = "USR-000001"


@pytest.fixture
def mkt(make_env):
    env = make_env(DOMAIN)
    return env, env.open()


def pick(ep, table: str, where: str, order: str = "id") -> dict:
    return one(ep, f"SELECT * FROM {table} WHERE {where} ORDER BY {order}")


def tables(ep) -> set[str]:
    return {c["table"] for c in ep.diff()}


def write(ep, sql: str, *params) -> None:
    """Set up a state the seed does not hold (an expired offer, a suspended persona)."""
    with ep.fork(DOMAIN).writing() as conn:
        conn.execute(sql, params)


def leader(ep, listing: str) -> dict:
    return one(ep, "SELECT * FROM bids WHERE listing_id = ? AND status = 'active'", listing)


# -- catalogue, seed and the persona -------------------------------------------------------------


def test_enough_tools_each_with_two_ways_to_ask():
    domain = get_domain(DOMAIN)
    own = [t for name, t in domain.tools.items() if name not in DISCOVERY]
    assert len(own) >= 20
    assert all(len(t.says) >= 2 for t in own), [t.name for t in own if len(t.says) < 2]
    assert domain.append_only() == {
        "bids": frozenset({"status", "retract_reason"}),
        "feedback": frozenset(),
    }
    assert domain.tools["end_listing"].annotations()["destructiveHint"]
    assert domain.tools["watch_listing"].annotations()["idempotentHint"]
    assert not domain.tools["place_bid"].annotations()["destructiveHint"]
    ending = domain.tools["search_listings"].input_schema()["properties"]["ending_before"]
    assert "pattern" in ending and "T" in ending["pattern"]


def test_sampler_pools_at_medium(medium):
    def count(table: str, where: str) -> int:
        return medium.execute(f"SELECT count(*) FROM {table} WHERE {where}").fetchone()[0]

    assert count("listings", rules.BIDDABLE) >= 1000
    assert count("listings", rules.OFFERABLE) >= 400
    pending = count("offers", rules.OFFER_TO_ANSWER) + count(
        "offers", f"{rules.MY_OPEN_OFFER} AND status = 'pending'"
    )
    assert pending >= 250
    assert count("orders", rules.SHIPPABLE) >= 150
    assert count("listings", rules.RELISTABLE) >= 100
    assert count("bids", rules.RETRACTABLE) >= 30
    assert count("orders", rules.PAYABLE) >= 15
    assert count("orders", rules.RATEABLE) >= 150
    assert count("users", "1") >= 1500 and count("categories", "parent_id IS NOT NULL") >= 19
    assert count("bids", "1") >= 6000 and count("offers", "1") >= 1500
    assert count("users", "status = 'suspended'") > 0
    assert count("offers", "status = 'pending' AND expires_at < '2026-06-02T16:00:00'") > 0


def test_persona_is_the_world_persona_and_others_are_world_people(mkt):
    env, ep = mkt
    w = world(0, "small")
    me = one(ep, "SELECT * FROM users WHERE id = (SELECT user_id FROM sessions)")
    p = w.persona
    assert (me["id"], me["display_name"], me["email"], me["username"], me["city"]) == (
        ME,
        p.name,
        p.email,
        p.username,
        p.city,
    )
    assert me["ship_to"] == p.home.line and geo.geocode(me["ship_to"]) is not None
    circle = [q.email for q in w.circle(p, 5)]
    assert [
        r["email"] for r in rows(ep, "SELECT email FROM users WHERE id > ? ORDER BY id LIMIT 5", ME)
    ] == circle
    clock = call(env, ep, "get_current_time")
    assert clock["utc"] == "2026-06-01T16:00:00" and clock["local"] == "Mon 2026-06-01 09:00 PDT"


def test_discovery_hides_reserves_floors_and_bid_maxima(mkt):
    env, ep = mkt
    shown = call(env, ep, "list_records", table="listings", limit=100)["rows"]
    assert shown and not {"reserve_price", "auto_decline_below"} & set(shown[0])
    assert "max_amount" not in call(env, ep, "list_records", table="bids", limit=5)["rows"][0]


def test_a_buyer_sees_whether_the_reserve_is_met_never_its_amount(mkt):
    env, ep = mkt
    other = pick(ep, "listings", f"{rules.BIDDABLE} AND reserve_price IS NOT NULL")
    got = call(env, ep, "get_listing", listing=other["id"])
    assert "reserve_price" not in got and got["has_reserve"] is True
    assert got["reserve_met"] == (other["bid_count"] > 0 and other["current_price"] >= other["reserve_price"])
    mine = pick(ep, "listings", f"{rules.MY_LIVE} AND reserve_price IS NOT NULL")
    assert call(env, ep, "get_listing", listing=mine["id"])["reserve_price"] == mine["reserve_price"]


# -- bidding -----------------------------------------------------------------------------------


def biddable(ep, extra: str = "1") -> dict:
    """A live auction of another seller where the persona is not bidding."""
    return pick(
        ep,
        "listings",
        f"{rules.BIDDABLE} AND {extra} AND id NOT IN (SELECT listing_id FROM bids WHERE bidder_id = '{ME}')",
    )


def test_a_bid_below_the_minimum_is_refused_naming_the_minimum(mkt):
    env, ep = mkt
    row = biddable(ep, "bid_count > 0 AND current_price BETWEEN 25 AND 99")
    minimum = row["current_price"] + 1.0  # the 25-100 band steps by 1.00
    err = fails(env, ep, "place_bid", "too low", listing=row["id"], max_amount=round(minimum - 0.5, 2))
    assert f"the minimum bid is {minimum:,.2f}" in err and f"{row['current_price']:,.2f}" in err
    fresh = biddable(ep, "bid_count = 0")
    err = fails(
        env,
        ep,
        "place_bid",
        "starting price",
        listing=fresh["id"],
        max_amount=round(fresh["start_price"] - 0.5, 2),
    )
    assert f"{fresh['start_price']:,.2f}" in err


def test_bids_refused_on_own_fixed_price_ended_listings_and_when_suspended(mkt):
    env, ep = mkt
    own = pick(ep, "listings", f"{rules.MY_LIVE} AND format = 'auction'")
    fails(env, ep, "place_bid", "your own listing", listing=own["id"], max_amount=5000.0)
    fixed = pick(ep, "listings", f"{rules.LIVE_SQL} AND format = 'fixed_price' AND seller_id != '{ME}'")
    fails(env, ep, "place_bid", "fixed-price listing, not an auction", listing=fixed["id"], max_amount=5000.0)
    ended = pick(ep, "listings", f"status = 'ended' AND format = 'auction' AND seller_id != '{ME}'")
    fails(env, ep, "place_bid", "is ended", listing=ended["id"], max_amount=5000.0)
    write(ep, "UPDATE users SET status = 'suspended' WHERE id = ?", ME)
    fails(
        env,
        ep,
        "place_bid",
        "suspended: it can browse but cannot bid",
        listing=biddable(ep)["id"],
        max_amount=5000.0,
    )


def test_a_winning_proxy_bid_pays_one_increment_over_the_runner_up(mkt):
    env, ep = mkt
    row = biddable(ep, "bid_count > 0 AND current_price BETWEEN 25 AND 90")
    before = leader(ep, row["id"])
    out = call(env, ep, "place_bid", listing=row["id"], max_amount=500.0)
    assert out["winning"] and out["status"] == "active"
    assert out["current_price"] == min(500.0, before["max_amount"] + 1.0)  # the 25-100 band: 1.00
    c = changes(ep)
    assert c[("bids", before["id"], "status")]["new"] == "outbid"
    assert c[("listings", row["id"], "current_price")]["new"] == out["current_price"]
    assert c[("listings", row["id"], "bid_count")]["new"] == row["bid_count"] + 1
    assert {k[0] for k in c} == {"bids", "listings"}
    assert one(ep, "SELECT * FROM bids WHERE id = ?", out["id"])["bidder_id"] == ME


def test_a_bid_under_the_leaders_maximum_is_accepted_and_outbid_at_once(mkt):
    env, ep = mkt
    row = biddable(ep, "bid_count > 0 AND current_price BETWEEN 30 AND 80")
    top = leader(ep, row["id"])
    if top["max_amount"] - row["current_price"] < 3:
        pytest.skip("the leader's maximum is too close to the price in this seed")
    mine = round(row["current_price"] + 1.0, 2)
    out = call(env, ep, "place_bid", listing=row["id"], max_amount=mine)
    assert out["status"] == "outbid" and not out["winning"] and "outbid at once" in out["message"]
    assert out["current_price"] == min(top["max_amount"], mine + 1.0)
    assert leader(ep, row["id"])["id"] == top["id"]


def test_equal_maxima_go_to_the_earlier_bid_and_the_leader_only_raises(mkt):
    env, ep = mkt
    row = biddable(ep, "bid_count > 0 AND current_price BETWEEN 30 AND 80")
    top = leader(ep, row["id"])
    if top["max_amount"] < row["current_price"] + 1.0:
        pytest.skip("no room above the price in this seed")
    out = call(env, ep, "place_bid", listing=row["id"], max_amount=top["max_amount"])
    assert out["status"] == "outbid" and "earlier bid with the same maximum" in out["message"]
    assert out["current_price"] == top["max_amount"]
    mine = biddable(ep, "bid_count > 0 AND current_price BETWEEN 30 AND 80")
    won = call(env, ep, "place_bid", listing=mine["id"], max_amount=900.0)
    err = fails(env, ep, "place_bid", "already the high bidder", listing=mine["id"], max_amount=850.0)
    assert "900.00" in err
    raised = call(env, ep, "place_bid", listing=mine["id"], max_amount=950.0)
    assert raised["winning"] and raised["current_price"] == won["current_price"]


def test_the_reserve_lifts_the_price_once_a_maximum_meets_it(mkt):
    env, ep = mkt
    row = biddable(ep, "bid_count = 0 AND reserve_price IS NOT NULL AND reserve_price < 900")
    low = call(env, ep, "place_bid", listing=row["id"], max_amount=row["start_price"])
    assert low["reserve_met"] is False and "reserve price is not met" in low["message"]
    high = call(env, ep, "place_bid", listing=row["id"], max_amount=row["reserve_price"] + 50)
    assert high["reserve_met"] is True and high["current_price"] == row["reserve_price"]


# -- retracting ---------------------------------------------------------------------------------


def test_retracting_withdraws_all_my_bids_and_reprices(mkt):
    env, ep = mkt
    bid = pick(ep, "bids", rules.RETRACTABLE)
    mine = rows(
        ep,
        "SELECT id FROM bids WHERE listing_id = ? AND bidder_id = ? AND status IN ('active', 'outbid')",
        bid["listing_id"],
        ME,
    )
    out = call(env, ep, "retract_bid", bid=bid["id"], reason="entered_wrong_amount")
    assert sorted(out["retracted"]) == sorted(r["id"] for r in mine)
    c = changes(ep)
    for r in mine:
        assert c[("bids", r["id"], "status")]["new"] == "retracted"
        assert c[("bids", r["id"], "retract_reason")]["new"] == "entered_wrong_amount"
    assert tables(ep) <= {"bids", "listings"}
    fails(
        env,
        ep,
        "retract_bid",
        "retracted; only bids that still count",
        bid=bid["id"],
        reason="cannot_reach_seller",
    )


def test_retraction_needs_my_latest_bid_and_more_than_12_hours(mkt):
    env, ep = mkt
    row = biddable(ep, "bid_count > 0 AND current_price < 80 AND ends_at > '2026-06-02T12:00:00'")
    first = call(env, ep, "place_bid", listing=row["id"], max_amount=800.0)
    second = call(env, ep, "place_bid", listing=row["id"], max_amount=850.0)
    err = fails(env, ep, "retract_bid", "not your latest bid", bid=first["id"], reason="entered_wrong_amount")
    assert second["id"] in err
    soon = biddable(ep, "bid_count > 0 AND current_price < 80 AND ends_at < '2026-06-02T03:00:00'")
    late = call(env, ep, "place_bid", listing=soon["id"], max_amount=800.0)
    err = fails(
        env, ep, "retract_bid", "more than 12 hours remain", bid=late["id"], reason="entered_wrong_amount"
    )
    assert soon["id"] in err
    other = pick(ep, "bids", f"bidder_id != '{ME}' AND status = 'active'")
    fails(env, ep, "retract_bid", "not yours", bid=other["id"], reason="entered_wrong_amount")


# -- Buy It Now --------------------------------------------------------------------------------


def test_buy_it_now_disappears_once_an_auction_has_bids_and_is_limited_by_quantity(mkt):
    env, ep = mkt
    bid_on = pick(ep, "listings", f"{rules.BIDDABLE} AND bid_count > 0")
    fails(env, ep, "buy_it_now", "no Buy It Now price|no longer available", listing=bid_on["id"])
    fixed = pick(
        ep, "listings", f"{rules.BUYABLE} AND format = 'fixed_price' AND quantity - quantity_sold >= 2"
    )
    left = fixed["quantity"] - fixed["quantity_sold"]
    err = fails(env, ep, "buy_it_now", f"only {left} of", listing=fixed["id"], quantity=left + 1)
    assert f"cannot buy {left + 1}" in err
    own = pick(ep, "listings", f"{rules.MY_LIVE} AND format = 'fixed_price'")
    fails(env, ep, "buy_it_now", "your own listing", listing=own["id"])


def test_buying_the_last_items_sells_out_and_declines_open_offers(mkt):
    env, ep = mkt
    row = pick(
        ep,
        "listings",
        f"{rules.BUYABLE} AND format = 'fixed_price' AND id IN (SELECT listing_id FROM offers WHERE status = 'pending')",
    )
    left = row["quantity"] - row["quantity_sold"]
    pending = rows(
        ep, "SELECT id FROM offers WHERE listing_id = ? AND status IN ('pending', 'countered')", row["id"]
    )
    order = call(env, ep, "buy_it_now", listing=row["id"], quantity=left)
    assert order["status"] == "awaiting_payment" and order["buyer_id"] == ME
    assert order["total"] == round(row["buy_now_price"] * left + row["shipping_cost"], 2)
    assert order["ship_to"] == one(ep, "SELECT ship_to FROM users WHERE id = ?", ME)["ship_to"]
    c = changes(ep)
    assert c[("listings", row["id"], "status")]["new"] == "sold"
    assert c[("listings", row["id"], "quantity_sold")]["new"] == row["quantity"]
    assert all(c[("offers", o["id"], "status")]["new"] == "declined" for o in pending)
    assert tables(ep) == {"orders", "listings", "offers"}


# -- offers ------------------------------------------------------------------------------------


def test_offer_rules(mkt):
    env, ep = mkt
    auction = pick(ep, "listings", rules.BIDDABLE)
    fails(env, ep, "make_offer", "auctions take bids, not offers", listing=auction["id"], amount=1.0)
    no_offers = pick(ep, "listings", f"{rules.BUYABLE} AND format = 'fixed_price' AND best_offer = 0")
    fails(env, ep, "make_offer", "does not accept offers", listing=no_offers["id"], amount=1.0)
    row = pick(
        ep,
        "listings",
        f"{rules.OFFERABLE} AND auto_decline_below IS NULL AND id NOT IN "
        f"(SELECT listing_id FROM offers WHERE buyer_id = '{ME}')",
    )
    err = fails(
        env, ep, "make_offer", "below the Buy It Now price", listing=row["id"], amount=row["buy_now_price"]
    )
    assert f"{row['buy_now_price']:,.2f}" in err
    first = call(env, ep, "make_offer", listing=row["id"], amount=round(row["buy_now_price"] * 0.9, 2))
    assert first["status"] == "pending" and first["expires_at"] == "2026-06-03T16:00:00"
    err = fails(env, ep, "make_offer", "answer or withdraw it", listing=row["id"], amount=1.0)
    assert first["id"] in err
    for _ in range(2):
        call(
            env,
            ep,
            "respond_to_counter",
            offer=rows(
                ep,
                "SELECT id FROM offers WHERE listing_id = ? AND buyer_id = ? AND status = 'pending'",
                row["id"],
                ME,
            )[0]["id"],
            action="withdraw",
        )
        call(env, ep, "make_offer", listing=row["id"], amount=round(row["buy_now_price"] * 0.8, 2))
    last = one(
        ep,
        "SELECT id FROM offers WHERE listing_id = ? AND buyer_id = ? AND status = 'pending'",
        row["id"],
        ME,
    )
    call(env, ep, "respond_to_counter", offer=last["id"], action="withdraw")
    fails(env, ep, "make_offer", "made 3 offers", listing=row["id"], amount=1.0)


def test_an_offer_under_the_hidden_floor_is_declined_at_once(mkt):
    env, ep = mkt
    row = pick(ep, "listings", f"{rules.OFFERABLE} AND auto_decline_below > 2")
    out = call(env, ep, "make_offer", listing=row["id"], amount=round(row["auto_decline_below"] - 1, 2))
    assert out["status"] == "declined" and "automatically" in out["message_to_you"]
    assert str(row["auto_decline_below"]) not in str(out)
    assert tables(ep) == {"offers"}


def test_seller_counters_once_and_accepts_into_an_order(mkt):
    env, ep = mkt
    offer = pick(ep, "offers", rules.OFFER_TO_ANSWER)
    row = one(ep, "SELECT * FROM listings WHERE id = ?", offer["listing_id"])
    err = fails(
        env,
        ep,
        "respond_to_offer",
        "above the offer",
        offer=offer["id"],
        action="counter",
        counter_amount=row["buy_now_price"],
    )
    assert f"{offer['amount']:,.2f}" in err and f"{row['buy_now_price']:,.2f}" in err
    fails(env, ep, "respond_to_offer", "needs a counter_amount", offer=offer["id"], action="counter")
    price = round((offer["amount"] + row["buy_now_price"]) / 2, 2)
    out = call(env, ep, "respond_to_offer", offer=offer["id"], action="counter", counter_amount=price)
    assert out["status"] == "countered" and out["expires_at"] == "2026-06-03T16:00:00"
    fails(
        env,
        ep,
        "respond_to_offer",
        "countered, not pending",
        offer=offer["id"],
        action="counter",
        counter_amount=price,
    )
    other = pick(ep, "offers", f"{rules.OFFER_TO_ANSWER} AND id != '{offer['id']}'")
    got = call(env, ep, "respond_to_offer", offer=other["id"], action="accept")
    order = one(ep, "SELECT * FROM orders WHERE id = ?", got["order"])
    assert (order["buyer_id"], order["seller_id"], order["unit_price"], order["source"]) == (
        other["buyer_id"],
        ME,
        other["amount"],
        "offer",
    )
    theirs = pick(
        ep,
        "offers",
        f"status = 'pending' AND listing_id IN (SELECT id FROM listings WHERE seller_id != '{ME}')",
    )
    fails(env, ep, "respond_to_offer", "belongs to another seller", offer=theirs["id"], action="decline")


def test_expired_offers_cannot_be_answered(mkt):
    env, ep = mkt
    offer = pick(ep, "offers", rules.OFFER_TO_ANSWER)
    write(ep, "UPDATE offers SET expires_at = '2026-06-01T10:00:00' WHERE id = ?", offer["id"])
    err = fails(
        env, ep, "respond_to_offer", "expired at 2026-06-01T10:00:00 UTC", offer=offer["id"], action="accept"
    )
    assert "03:00 PDT" in err


def test_buyer_accepts_a_counter_or_withdraws_a_pending_offer(mkt):
    env, ep = mkt
    countered = pick(ep, "offers", f"{rules.MY_OPEN_OFFER} AND status = 'countered'")
    got = call(env, ep, "respond_to_counter", offer=countered["id"], action="accept")
    order = one(ep, "SELECT * FROM orders WHERE id = ?", got["order"])
    assert order["unit_price"] == countered["counter_amount"] and order["buyer_id"] == ME
    pending = pick(ep, "offers", f"{rules.MY_OPEN_OFFER} AND status = 'pending'")
    err = fails(
        env, ep, "respond_to_counter", "no counter-offer to accept", offer=pending["id"], action="accept"
    )
    assert "withdraw" in err
    assert (
        call(env, ep, "respond_to_counter", offer=pending["id"], action="withdraw")["status"] == "withdrawn"
    )
    c = changes(ep)
    assert c[("offers", pending["id"], "status")]["new"] == "withdrawn"


# -- selling -----------------------------------------------------------------------------------

LISTING = {"title": "Leica M6 rangefinder body", "category": "CAT-000002", "condition": "used"}


def test_listing_rules(mkt):
    env, ep = mkt
    fails(env, ep, "create_listing", "needs a start_price", **LISTING, format="auction")
    fails(
        env,
        ep,
        "create_listing",
        "reserve price 40.00 must be above the starting price 50.00",
        **LISTING,
        format="auction",
        start_price=50.0,
        reserve_price=40.0,
    )
    err = fails(
        env,
        ep,
        "create_listing",
        "at least 30% above",
        **LISTING,
        format="auction",
        start_price=100.0,
        buy_now_price=120.0,
    )
    assert "130.00" in err
    fails(
        env,
        ep,
        "create_listing",
        "only for fixed-price listings",
        **LISTING,
        format="auction",
        start_price=10.0,
        best_offer=True,
    )
    fails(
        env,
        ep,
        "create_listing",
        "sells exactly one item",
        **LISTING,
        format="auction",
        start_price=10.0,
        quantity=2,
    )
    fails(
        env,
        ep,
        "create_listing",
        "start_price and reserve_price are for auctions",
        **LISTING,
        format="fixed_price",
        buy_now_price=10.0,
        start_price=5.0,
    )
    fails(
        env,
        ep,
        "create_listing",
        "must be below the Buy It Now price",
        **LISTING,
        format="fixed_price",
        buy_now_price=10.0,
        best_offer=True,
        auto_decline_below=12.0,
    )
    top = {**LISTING, "category": "CAT-000001"}
    err = fails(
        env,
        ep,
        "create_listing",
        "Electronics is a top-level category",
        **top,
        format="fixed_price",
        buy_now_price=10.0,
    )
    assert "Cameras & Photo" in err
    out = call(
        env,
        ep,
        "create_listing",
        **LISTING,
        format="auction",
        start_price=400.0,
        reserve_price=700.0,
        duration_days=5,
    )
    assert (
        out["status"] == "active"
        and out["ends_at"] == "2026-06-06T16:00:00"
        and out["reserve_price"] == 700.0
    )
    assert out["current_price"] == 400.0 and out["location_city"] == world(0, "small").persona.city
    assert tables(ep) == {"listings"}


def test_revise_rules(mkt):
    env, ep = mkt
    bid_on = pick(ep, "listings", f"{rules.MY_LIVE} AND format = 'auction' AND bid_count > 0")
    err = fails(
        env, ep, "revise_listing", "cannot change the price", listing=bid_on["id"], buy_now_price=9999.0
    )
    assert f"{bid_on['bid_count']} bid(s)" in err
    fails(env, ep, "revise_listing", "nothing to change", listing=bid_on["id"], title=bid_on["title"])
    out = call(
        env,
        ep,
        "revise_listing",
        listing=bid_on["id"],
        title="Renamed item, still great",
        shipping_cost=0.0 if bid_on["shipping_cost"] else 5.0,
    )
    assert out["title"] == "Renamed item, still great"
    assert {k[2] for k in changes(ep)} == {"title", "shipping_cost"}
    theirs = pick(ep, "listings", rules.BIDDABLE)
    fails(env, ep, "revise_listing", "belongs to another seller", listing=theirs["id"], title="Mine now")


def test_ending_early_with_bids_needs_an_outcome_and_a_met_reserve(mkt):
    env, ep = mkt
    unmet = pick(ep, "listings", f"{rules.MY_LIVE} AND bid_count > 0 AND reserve_price > current_price")
    fails(
        env,
        ep,
        "end_listing",
        "say outcome sell_to_high_bidder or cancel",
        listing=unmet["id"],
        reason="sold_elsewhere",
    )
    err = fails(
        env,
        ep,
        "end_listing",
        "below your reserve price",
        listing=unmet["id"],
        reason="sold_elsewhere",
        outcome="sell_to_high_bidder",
    )
    assert f"{unmet['reserve_price']:,.2f}" in err
    counting = rows(
        ep, "SELECT id FROM bids WHERE listing_id = ? AND status IN ('active', 'outbid')", unmet["id"]
    )
    out = call(env, ep, "end_listing", listing=unmet["id"], reason="error_in_listing", outcome="cancel")
    assert out["status"] == "cancelled"
    c = changes(ep)
    assert all(c[("bids", b["id"], "status")]["new"] == "cancelled" for b in counting)


def test_selling_to_the_high_bidder_creates_their_order(mkt):
    env, ep = mkt
    row = pick(
        ep,
        "listings",
        f"{rules.MY_LIVE} AND bid_count > 0 AND (reserve_price IS NULL OR reserve_price <= current_price)",
    )
    top = leader(ep, row["id"])
    out = call(
        env, ep, "end_listing", listing=row["id"], reason="sold_elsewhere", outcome="sell_to_high_bidder"
    )
    assert out["status"] == "sold"
    order = one(ep, "SELECT * FROM orders WHERE id = ?", out["order"])
    assert (order["buyer_id"], order["unit_price"], order["source"]) == (
        top["bidder_id"],
        row["current_price"],
        "auction",
    )
    assert changes(ep)[("bids", top["id"], "status")]["new"] == "won"
    lost = rows(ep, "SELECT status FROM bids WHERE listing_id = ? AND id != ?", row["id"], top["id"])
    assert {r["status"] for r in lost} <= {"lost", "retracted"}


def test_ending_without_bids_just_ends(mkt):
    env, ep = mkt
    row = pick(ep, "listings", f"{rules.MY_LIVE} AND bid_count = 0 AND format = 'auction'")
    fails(
        env,
        ep,
        "end_listing",
        "no bids",
        listing=row["id"],
        reason="no_longer_available",
        outcome="sell_to_high_bidder",
    )
    out = call(env, ep, "end_listing", listing=row["id"], reason="no_longer_available")
    assert out["status"] == "ended" and out["end_reason"] == "no_longer_available"


def test_relisting_once_from_an_unsold_listing(mkt):
    env, ep = mkt
    row = pick(ep, "listings", rules.RELISTABLE)
    out = call(env, ep, "relist_item", listing=row["id"], duration_days=3)
    assert out["relisted_from"] == row["id"] and out["status"] == "active" and out["title"] == row["title"]
    assert (
        out["quantity"] == row["quantity"] - row["quantity_sold"] and out["ends_at"] == "2026-06-04T16:00:00"
    )
    err = fails(env, ep, "relist_item", "already relisted", listing=row["id"])
    assert out["id"] in err
    live = pick(ep, "listings", rules.MY_LIVE)
    fails(env, ep, "relist_item", "only ended or cancelled listings", listing=live["id"])


# -- orders and feedback -------------------------------------------------------------------------


def test_paying_and_shipping_orders(mkt):
    env, ep = mkt
    accepted = call(
        env, ep, "respond_to_offer", offer=pick(ep, "offers", rules.OFFER_TO_ANSWER)["id"], action="accept"
    )
    sale = one(ep, "SELECT * FROM orders WHERE id = ?", accepted["order"])
    assert sale["status"] == "awaiting_payment"
    fails(env, ep, "pay_order", "the buyer pays it", order=sale["id"])
    fails(
        env,
        ep,
        "mark_shipped",
        "ship it only after the buyer has paid",
        order=sale["id"],
        carrier="ups",
        tracking="1Z999AA10123456784",
    )
    mine = pick(ep, "orders", rules.PAYABLE)
    assert call(env, ep, "pay_order", order=mine["id"])["status"] == "paid"
    fails(env, ep, "pay_order", "only orders awaiting payment", order=mine["id"])
    fails(
        env,
        ep,
        "mark_shipped",
        "only its seller marks it shipped",
        order=mine["id"],
        carrier="ups",
        tracking="1Z999AA10123456784",
    )
    paid = pick(ep, "orders", rules.SHIPPABLE)
    used = pick(ep, "orders", "tracking IS NOT NULL")
    err = fails(
        env,
        ep,
        "mark_shipped",
        "already on order",
        order=paid["id"],
        carrier="usps",
        tracking=used["tracking"],
    )
    assert used["id"] in err
    out = call(env, ep, "mark_shipped", order=paid["id"], carrier="fedex", tracking="771234567890")
    assert (out["status"], out["carrier"], out["tracking"]) == ("shipped", "fedex", "771234567890")
    shipped = {k[2] for k in changes(ep) if k[:2] == ("orders", paid["id"])}
    assert shipped == {"status", "carrier", "tracking", "shipped_at"}


def test_feedback_once_per_side_after_payment_and_positive_from_sellers(mkt):
    env, ep = mkt
    sold = pick(ep, "orders", f"{rules.RATEABLE} AND seller_id = '{ME}'")
    fails(
        env,
        ep,
        "leave_feedback",
        "sellers can only leave positive feedback",
        order=sold["id"],
        rating="negative",
        comment="Slow",
    )
    bought = pick(ep, "orders", f"{rules.RATEABLE} AND buyer_id = '{ME}'")
    seller = one(ep, "SELECT * FROM users WHERE id = ?", bought["seller_id"])
    out = call(env, ep, "leave_feedback", order=bought["id"], rating="negative", comment="Arrived broken")
    assert out["to_id"] == seller["id"] and out["role"] == "buyer"
    assert out["their_feedback_score"] == seller["feedback_score"] - 1
    assert changes(ep)[("users", seller["id"], "ratings_negative")]["new"] == seller["ratings_negative"] + 1
    err = fails(
        env,
        ep,
        "leave_feedback",
        "already left negative feedback",
        order=bought["id"],
        rating="positive",
        comment="x",
    )
    assert bought["id"] in err
    unpaid = pick(ep, "orders", f"buyer_id = '{ME}' AND status = 'awaiting_payment'")
    fails(
        env,
        ep,
        "leave_feedback",
        "opens once an order is paid",
        order=unpaid["id"],
        rating="positive",
        comment="x",
    )
    old = pick(ep, "orders", f"buyer_id != '{ME}' AND seller_id != '{ME}'")
    fails(env, ep, "leave_feedback", "not one of yours", order=old["id"], rating="positive", comment="x")


def test_feedback_window_is_60_days(mkt):
    env, ep = mkt
    order = pick(ep, "orders", f"{rules.RATEABLE} AND buyer_id = '{ME}'")
    write(ep, "UPDATE orders SET created_at = '2026-03-20T10:00:00' WHERE id = ?", order["id"])
    fails(
        env,
        ep,
        "leave_feedback",
        "placed on 2026-03-20; feedback is only possible within 60 days",
        order=order["id"],
        rating="positive",
        comment="x",
    )


# -- browsing ----------------------------------------------------------------------------------


def test_search_reads_ending_before_on_the_users_clock(mkt):
    env, ep = mkt
    got = call(env, ep, "search_listings", ending_before="2026-06-02T09:00", limit=100)
    assert (
        got["total"]
        == one(
            ep,
            "SELECT count(*) AS n FROM listings WHERE status = 'active' AND ends_at > '2026-06-01T16:00:00' AND ends_at < '2026-06-02T16:00:00'",
        )["n"]
    )
    assert all(r["ends_at"] < "2026-06-02T16:00:00" for r in got["listings"])
    fails(env, ep, "search_listings", "not in the future", ending_before="2026-06-01T08:00")
    cams = call(env, ep, "search_listings", query="camera", category="CAT-000001", sort="price_low")
    prices = [r["current_price"] for r in cams["listings"]]
    assert prices == sorted(prices) and all("camera" in r["title"].lower() for r in cams["listings"])


def test_watching_is_idempotent(mkt):
    env, ep = mkt
    row = pick(
        ep,
        "listings",
        f"{rules.WATCHABLE} AND id NOT IN (SELECT listing_id FROM watches WHERE user_id = '{ME}')",
    )
    assert call(env, ep, "watch_listing", listing=row["id"])["changed"] is True
    again = call(env, ep, "watch_listing", listing=row["id"])
    assert again["changed"] is False and again["watching"] is True
    assert [w["listing_id"] for w in call(env, ep, "list_watched", limit=100)["watching"]].count(
        row["id"]
    ) == 1
    assert call(env, ep, "watch_listing", listing=row["id"], watch=False)["changed"] is True
    assert ep.diff() == []
