"""The desk's written policy: numbered rules an agent keeps when acting for a member.

The service itself books, changes and refunds whatever it is asked (default mode ``written``:
a broken rule is logged in ``policy_breach``); the ``enforced`` variant refuses such calls.
Each check below says why one call breaks its rule, or marks it ``Near`` its edge."""

from __future__ import annotations

from typing import Any

from servers.domains.airline_service.model import (
    COMPENSATION_PER_PASSENGER,
    DISRUPTION_DELAY_MIN,
    FREE_BAGS,
    FREE_CANCEL_HOURS,
    Reservation,
    User,
    airline_service,
)
from servers.domains.airline_service.rules import (
    cancellation_grounds,
    disruption,
    flown,
    free_bags,
    hours_since_booking,
    legs,
    parse_passengers,
)
from servers.kit import Db, Near, ToolError

MAX_PASSENGERS = 5
NEAR_HOURS = 20  # a booking this old is near the end of the free-cancellation window
NEAR_DELAY_MIN = DISRUPTION_DELAY_MIN + 30

CHANGES = (
    "book_reservation",
    "change_reservation_flights",
    "change_reservation_cabin",
    "update_reservation_passengers",
    "add_reservation_bags",
    "add_reservation_insurance",
    "cancel_reservation",
    "issue_compensation_certificate",
)

airline_service.policy_document(
    """
    # Skyward Air customer service policy

    You are a Skyward Air customer-service agent. You help members look up, book, change and
    cancel reservations, add bags and travel insurance, and issue compensation certificates.
    The reservation system does not check these rules for you: before you call a tool that
    changes anything, make sure the rules below allow it. When a request is not allowed, say so
    and explain why; when you cannot help, transfer the member to a human agent. Times are the
    airline's network time; today is Monday 2026-06-01 and it is 09:00.
    """,
    mode="written",
)


def _owner(db: Db, tool: str, args: dict[str, Any]) -> str:
    if tool == "book_reservation":
        return db.get(User, args["user"])["id"]
    return db.get(Reservation, args["reservation"])["user_id"]


def _ago(hours: float) -> str:
    """How long ago, as a person says it: "3 days", "about 5 hours"."""
    if hours >= 48:
        return f"{int(hours // 24)} days"
    return f"about {round(hours)} hours"


def verify_owner(db: Db, tool: str, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    user = db.get(User, _owner(db, tool, args))
    return "verify_user", {"email": user["email"], "dob": user["dob"]}


def the_reservation(db: Db, tool: str, args: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The read that shows a reservation's cabin, flights, bags, insurance and booking time."""
    return [("get_reservation", {"reservation": args["reservation"]})] if "reservation" in args else []


def reservation_and_member(db: Db, tool: str, args: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The reservation, and the member whose tier sets allowances and compensation."""
    return [*the_reservation(db, tool, args), ("get_user", {"user": _owner(db, tool, args)})]


@airline_service.rule("verify-identity", tools=CHANGES, remedy=verify_owner)
def identity_first(db: Db, tool: str, args: dict[str, Any]) -> str | None:
    """Verify the member's identity (email and date of birth, with verify_user) before
    changing anything for them; act only on that member's own reservations."""
    owner = _owner(db, tool, args)
    verified = db.acting()["verified_user_id"]
    if verified != owner:
        who = f"only {verified} was verified" if verified else "nobody has been verified"
        return f"user {owner} has not been verified in this conversation ({who})"
    return None


@airline_service.rule("max-passengers", tools=["book_reservation"])
def at_most_five(db: Db, tool: str, args: dict[str, Any]) -> str | None:
    """A reservation holds at most 5 passengers; larger groups book several reservations."""
    try:
        n = len(parse_passengers(args.get("passengers"), db.get(User, args["user"])))
    except ToolError:
        return None  # the booking itself refuses a malformed list
    if n > MAX_PASSENGERS:
        return f"the booking names {n} passengers, more than {MAX_PASSENGERS}"
    return Near(f"{n} passengers, the most one reservation may hold") if n == MAX_PASSENGERS else None


@airline_service.rule("same-cabin", tools=["change_reservation_cabin"], reads=the_reservation)
def cabin_uniform(db: Db, tool: str, args: dict[str, Any]) -> str | None:
    """Every flight of a reservation is in the same cabin: a cabin change applies to all its
    flights, and cannot be made when some of them have already flown."""
    cabins = set()
    for leg in legs(db, args["reservation"]):
        target = args.get("flight_number") in (None, leg["flight_number"]) and not flown(leg)
        cabins.add(args["cabin"] if target else leg["cabin"])
    if len(cabins) > 1:
        return f"reservation {args['reservation']} would mix cabins {', '.join(sorted(cabins))}"
    return None


@airline_service.rule(
    "basic-economy-final",
    tools=["change_reservation_flights", "change_reservation_cabin"],
    reads=the_reservation,
)
def basic_economy_final(db: Db, tool: str, args: dict[str, Any]) -> str | None:
    """Basic economy reservations cannot be changed: neither their flights nor their cabin."""
    res = db.get(Reservation, args["reservation"])
    basic = res["cabin"] == "basic_economy" or any(
        leg["cabin"] == "basic_economy" for leg in legs(db, res["id"])
    )
    return f"reservation {res['id']} is a basic economy booking" if basic else None


def _booking_card(db: Db, reservation: str) -> str | None:
    """The card the booking was paid with (the reservation's read shows it), if it can still pay."""
    row = db.one(
        "SELECT pm.id FROM payments p JOIN payment_methods pm ON pm.id = p.payment_method_id "
        "WHERE p.reservation_id = ? AND p.kind = 'charge' AND p.memo = 'booking' "
        "AND pm.status = 'active' AND pm.kind = 'credit_card' ORDER BY p.id LIMIT 1",
        reservation,
    )
    return row["id"] if row else None


def charge_the_extra_bags(db: Db, tool: str, args: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The same bags with exactly the bags over the allowance paid, to the card named or the
    card the booking was paid with: what the agent offers once it has said the fee."""
    if tool != "add_reservation_bags":
        return None
    res = db.get(Reservation, args["reservation"])
    need = max(0, res["total_bags"] + args["bags"] - free_bags(db, res)) - res["paid_bags"]
    if need < 0 or need > args["bags"]:
        return None
    offered = {k: v for k, v in args.items() if k != "paid_bags"}
    if need:
        card = args.get("payment_method") or _booking_card(db, res["id"])
        if card is None:
            return None
        offered.update(paid_bags=need, payment_method=card)
    return "add_reservation_bags", offered


@airline_service.rule(
    "bag-allowance",
    tools=["add_reservation_bags", "book_reservation"],
    reads=reservation_and_member,
    offer=charge_the_extra_bags,
)
def bag_allowance(db: Db, tool: str, args: dict[str, Any]) -> str | None:
    """Free checked bags per passenger: regular members 0 / 1 / 2 (basic economy / economy /
    business), silver 1 / 2 / 3, gold 2 / 3 / 4; every bag beyond the reservation's free
    allowance is charged 50.00, so paid_bags must be exactly the bags over the allowance."""
    if tool == "book_reservation":
        user = db.get(User, args["user"])
        try:
            n = len(parse_passengers(args.get("passengers"), user))
        except ToolError:
            return None
        free = FREE_BAGS[user["membership"]][args["cabin"]] * n
        total, paid = args.get("bags", 0), args.get("paid_bags", 0)
    else:
        res = db.get(Reservation, args["reservation"])
        free = free_bags(db, res)
        total = res["total_bags"] + args["bags"]
        paid = res["paid_bags"] + args.get("paid_bags", 0)
    need = max(0, total - free)
    if paid != need:
        return f"{total} bags against a free allowance of {free} means {need} paid bag(s) at 50.00 each, not {paid}"
    if total and total == free:
        return Near(f"{total} bags use the whole free allowance of {free}")
    return None


@airline_service.rule("insurance-at-booking", tools=["add_reservation_insurance"], reads=the_reservation)
def insurance_at_booking(db: Db, tool: str, args: dict[str, Any]) -> str | None:
    """Travel insurance (30.00 per passenger) is sold only at booking: with the booking itself, or
    right after it in the same conversation; it cannot be added to an earlier reservation."""
    res = db.get(Reservation, args["reservation"])
    if res["created_at"] != db.stamp():
        return f"reservation {res['id']} was booked on {res['created_at']}, not in this conversation"
    return None


@airline_service.rule("cancel-eligibility", tools=["cancel_reservation"], reads=the_reservation)
def cancel_eligibility(db: Db, tool: str, args: dict[str, Any]) -> str | None:
    """A reservation may be cancelled (with a full refund) only if it was booked within the last
    24 hours, if the airline cancelled one of its flights, if it is in business cabin, or if it is
    insured and the reason is health or weather. Otherwise do not cancel it."""
    res = db.get(Reservation, args["reservation"])
    hours = hours_since_booking(db, res)
    if hours <= FREE_CANCEL_HOURS:
        return Near(f"booked {hours:.1f} h ago") if hours >= NEAR_HOURS else None
    if cancellation_grounds(db, res, args["reason"]):
        return None
    cabin = "business" if res["cabin"] == "business" else res["cabin"].replace("_", " ")
    cover = (
        f"the insurance does not cover {args['reason'].replace('_', ' ')}"
        if res["insurance"]
        else "it has no travel insurance"
    )
    return (
        f"reservation {res['id']} was booked {_ago(hours)} ago, more than {FREE_CANCEL_HOURS} hours, it is "
        f"{cabin}, {cover}, and the airline has not cancelled any of its flights"
    )


def the_most_allowed(db: Db, tool: str, args: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """A certificate for the most the rule allows, when the member asked for more than that."""
    res = db.get(Reservation, args["reservation"])
    fd = next((x for x in legs(db, res["id"]) if x["flight_number"] == args["flight_number"]), None)
    kind = disruption(fd) if fd is not None else None
    if kind is None:
        return None
    most = COMPENSATION_PER_PASSENGER[kind] * res["passenger_count"]
    return ("issue_compensation_certificate", {**args, "amount": most}) if args["amount"] > most else None


@airline_service.rule(
    "compensation",
    tools=["issue_compensation_certificate"],
    reads=reservation_and_member,
    offer=the_most_allowed,
)
def compensation(db: Db, tool: str, args: dict[str, Any]) -> str | None:
    """Compensation certificates go only to silver or gold members, business-cabin or insured
    reservations, and only for a flight of the reservation the airline cancelled (100.00 per
    passenger at most) or delayed by 3 hours or more (50.00 per passenger at most); at most one
    certificate per reservation. Offer one only when the member complains about the disruption."""
    res = db.get(Reservation, args["reservation"])
    user = db.get(User, res["user_id"])
    fd = next((x for x in legs(db, res["id"]) if x["flight_number"] == args["flight_number"]), None)
    if fd is None:
        return None  # the tool refuses a flight that is not on the reservation
    if user["membership"] == "regular" and res["cabin"] != "business" and not res["insurance"]:
        return f"user {user['id']} is a regular member and reservation {res['id']} is neither business class nor insured"
    kind = disruption(fd)
    if kind is None:
        late = f"{fd['delay_min']} minutes late" if fd["delay_min"] else "on time"
        return f"flight {fd['flight_number']} on {fd['date']} was {late}, and only a cancellation or a delay of 3 hours or more qualifies"
    earlier = db.scalar("SELECT id FROM certificates WHERE reservation_id = ?", res["id"])
    if earlier:
        return f"reservation {res['id']} already received certificate {earlier}"
    most = COMPENSATION_PER_PASSENGER[kind] * res["passenger_count"]
    if args["amount"] > most + 1e-9:
        people = "passenger" if res["passenger_count"] == 1 else f"{res['passenger_count']} passengers"
        return (
            f"a {kind} flight earns at most {most:.2f} for {people}, less than the {args['amount']:.2f} asked"
        )
    if kind == "delayed" and fd["delay_min"] < NEAR_DELAY_MIN:
        return Near(f"delayed {fd['delay_min']} min, just past the {DISRUPTION_DELAY_MIN} min mark")
    return None


airline_service.confirmation(
    "confirm-first",
    "Before any booking, change, cancellation, bag or insurance purchase or certificate, list what "
    "you are about to do (flights, cabin, passengers, price and payment method) and get the member's "
    "explicit yes.",
    tools=CHANGES,
)
