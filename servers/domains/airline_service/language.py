"""How a Skyward Air traveller speaks to the service desk, and what a careful agent tells them.

A caller is a member of the loyalty programme. They say who they are the way people do on the
phone: their name and e-mail address, and their date of birth when the agent verifies them; they
never know their member number. They name what they hold: a booking by its confirmation code
("booking RES-000469") or by its route and day ("my Denver to Los Angeles trip"), a flight by its
number and day ("flight SW0471 on June 13"), an airport by its city or code, a traveller on a
booking by the name on the ticket, and a saved way to pay by what is printed on it ("my Visa ending
0257", "my gift card", "my travel certificate"). The agent answers with fares, refunds and
certificates in dollars, days in words, the flights and travellers by name and number, and the
confirmation code of a new booking, and nothing a caller did not ask for.
"""

from __future__ import annotations

from servers.domains.airline_service.model import (
    Airport,
    Flight,
    FlightDate,
    Passenger,
    PaymentMethod,
    Reservation,
    User,
    airline_service,
)
from servers.kit import Language

say = Language(airline_service, speaker=("user",))  # "my bookings": the member is whoever calls

# -- naming things ------------------------------------------------------------------------
say.names(User, "{name}")
say.names(Airport, "{city}", held="{id}", called="my home airport")
say.names(Flight, held="{id}", called="my flight")  # said as printed: "SW0142"
say.names(FlightDate, "flight {flight_number} on {date:day}", held="flight {flight_number} on {date:day}")
say.names(
    Reservation,
    "my {origin} to {destination} trip",
    "my {origin}-{destination} booking flying out {first_departure:day}",
    "my trip to {destination} on {first_departure:day}",
    "my {cabin:state} booking to {destination}",
    held="booking {id}",
    shown=("first_departure",),
    called="my booking",
)
say.names(
    Passenger,
    "{name}",
    "the passenger {name}",
    found_in={"get_reservation": ("passengers", "id", "reservation_id")},
    within="{row} on {owner}",
)
say.names(
    PaymentMethod,
    "my {label}",
    "my {kind:state}",
    found_in={"get_user": ("payment_methods", "id", "user_id")},
    called="my card",
)

say.state(User, "membership", regular="regular", silver="Silver", gold="Gold")
say.state(
    PaymentMethod, "kind", credit_card="credit card", gift_card="gift card", certificate="travel certificate"
)
say.state(PaymentMethod, "status", active="usable", used="used up")
say.state(Reservation, "status", active="active", cancelled="cancelled")
say.state(
    Reservation,
    "cabin",
    basic_economy="basic economy",
    economy="economy",
    business="business",
    mixed="mixed-cabin",
)
say.state(Reservation, "trip_type", one_way="one-way", round_trip="round trip")
say.state(
    FlightDate,
    "status",
    scheduled="on schedule",
    delayed="delayed",
    cancelled="cancelled",
    departed="in the air",
    landed="already on the ground",
)

CABIN = {"basic_economy": "basic economy", "economy": "economy", "business": "business class"}
REASON = {
    "change_of_plans": "my plans changed",
    "airline_cancelled": "you cancelled my flight",
    "health": "I'm sick and can't travel",
    "weather": "there's a big storm forecast",
    "other": "something came up",
}
INSURANCE = {True: "with travel insurance", False: "without travel insurance"}
BOOKINGS = {"active": "active", "cancelled": "cancelled"}

# -- who is calling ------------------------------------------------------------------------
say.tool(
    "find_user",
    asks=[
        "Can you pull up my profile? My email is {email}.",
        "I'm a member, my email address is {email}.",
        "Look me up please, I'm under {email}.",
        "My name's {name} and my email is {email}; can you find my account?",
        "Could you find my member profile? It's {name}, {email}.",
    ],
    tells=["I've found your profile, {name}: you're a {membership:state} member."],
)
say.tool(
    "verify_user",
    asks=[
        "Please verify me: my email is {email} and I was born {dob}.",
        "You can verify me with {email}, date of birth {dob}.",
        "Verify me with {email}, born {dob}.",
        "I'm {email}, born {dob}, if you need to check it's me.",
        "Here are my details to confirm who I am: {email}, born {dob}.",
    ],
    tells=["Thanks, {name}, you're verified."],
)
say.tool(
    "get_user",
    asks=[
        "What payment methods do I have saved?",
        "What's my membership tier?",
        "What do you have on file for me?",
        "Which cards and certificates do I have with you?",
    ],
    tells=[
        "You're a {membership:state} member, and you have {payment_methods:count(payment method)} on file: "
        "{payment_methods:list(label, balance:money)}.",
        "You're a {membership:state} member, with no payment method on file.",
    ],
    one_form="the member asks about themself; the speaker is left unsaid",
)
say.tool(
    "transfer_to_human",
    asks=[
        "I'd like to speak to a person: {summary}.",
        "Can you put me through to a human agent? {summary}.",
        "I need a real person: {summary}.",
        "Please transfer me to someone who can help: {summary}.",
        "Get me a supervisor, please. {summary}.",
    ],
    tells=["I've handed you over to a human agent with a note of what you need; they'll take it from here."],
    values={
        "summary": (
            "I want my money back for a basic economy ticket",
            "my flight already left and I need a new one",
            "I dispute a charge on my booking",
            "I want to complain about how my last trip went",
            "I need help with a group booking for eight people",
            "my bag never arrived",
        )
    },
)

# -- flights ---------------------------------------------------------------------------------
say.tool(
    "search_direct_flights",
    asks=[
        "Are there any nonstop flights from {origin} to {destination} on {date}?",
        "I need to fly from {origin} to {destination} on {date}, direct if possible. What do you have?",
        "What direct flights do you have from {origin} to {destination} on {date}?",
        "Show me nonstops from {origin} to {destination} for {date}.",
        "I'm visiting family: any direct flights from {origin} to {destination} on {date}?",
    ],
    tells=[
        "On {date:day} there are {flights:count(nonstop flight)} from {@origin} to {@destination}: "
        "{flights:list(flight_number, departs_at:when, price_economy:money)} (economy fares per person).",
        "There are no nonstop flights left from {@origin} to {@destination} on {date:day}.",
    ],
)
say.tool(
    "search_connecting_flights",
    asks=[
        "How can I get from {origin} to {destination} on {date}? One stop is fine.",
        "Any one-stop options from {origin} to {destination} on {date}?",
        "I don't mind a connection: from {origin} to {destination} on {date}, what's there?",
        "Find me connecting flights from {origin} to {destination} on {date}.",
        "There's no direct flight that works, so what connections do you have from {origin} to {destination} "
        "on {date}?",
    ],
    tells=[
        "On {date:day} I found {options:count(connecting option)} from {@origin} to {@destination}, "
        "connecting in {options:list(via, departs_at:when, price_economy:money)} (first departure, economy "
        "fare per person).",
        "There's no one-stop connection from {@origin} to {@destination} on {date:day}.",
    ],
)
say.tool(
    "get_flight_status",
    asks=[
        "What's the status of {flight_number} on {date}?",
        "Can you check on {flight_number} for {date}?",
        "Any news on {flight_number} on {date}? I heard it might be delayed.",
        "I'm picking someone up: how's {flight_number} on {date} looking?",
        "I need the status of {flight_number} on {date}, please.",
    ],
    tells=[
        "{@flight_number} from {origin} to {destination} on {date:day} is {status:state}, "
        "{delay_min:minutes} behind its scheduled departure at {departs_at:when}.{delay_min:yes}",
        "{@flight_number} from {origin} to {destination} on {date:day} is {status:state} (scheduled to depart "
        "{departs_at:when}).",
    ],
)

# -- bookings --------------------------------------------------------------------------------
say.tool(
    "get_reservation",
    asks=[
        "What's on {reservation}?",
        "Can you pull up {reservation}?",
        "Which flights and who's travelling on {reservation}?",
        "Remind me what's booked on {reservation}.",
        "I lost the email for {reservation}; what are the details?",
    ],
    tells=[
        "Booking {id} is {status:state}: a {trip_type:state} from {origin} to {destination} in "
        "{cabin:state}, on {flights:list(flight_number, departs_at:when)}, for {passengers:list(name)}; it's "
        "insured.{insurance:yes}",
        "Booking {id} is {status:state}: a {trip_type:state} from {origin} to {destination} in "
        "{cabin:state}, on {flights:list(flight_number, departs_at:when)}, for {passengers:list(name)}.",
    ],
)
say.tool(
    "list_user_reservations",
    asks=[
        "What bookings do I have?",
        "Which of my bookings are {status}?",
        "Show me my {status} reservations.",
        "Can you list my trips with you?",
        "Do I have any {status} bookings?",
        "Show me my last {limit} bookings.",
    ],
    tells=[
        "Your {status:state} bookings, by destination and first flight: {reservations:list(id, destination, "
        "first_departure:day)}.",
        "Your bookings, by destination and first flight: {reservations:list(id, destination, "
        "first_departure:day)}.",
        "You have no {status:state} bookings.",
        "You have no bookings with us.",
    ],
    words={"status": BOOKINGS},
)
say.tool(
    "book_reservation",
    confirms=[
        "book {@flight_number} on {date:day} in {@cabin} for {@passengers}, paid with {@payment_method}",
        "book {@flight_number} on {date:day} in {@cabin}, paid with {@payment_method}",
    ],
    asks=[
        "Book me on {flight_number} on {date} in {cabin}, paying with {payment_method}.",
        "I'd like a seat on {flight_number} on {date}, {cabin}; put it on {payment_method}.",
        "Please book {flight_number} on {date} in {cabin} for these travellers: {passengers}. "
        "Charge {payment_method}.",
        "Please book {flight_number} on {date} with the connection on {connecting_flight_number}, in {cabin}; "
        "{payment_method} pays.",
        "I need a round trip: {flight_number} on {date} and back on {return_flight_number} on {return_date}, "
        "{cabin}, on {payment_method}.",
        "Please book {flight_number} on {date} in {cabin} with {bags} checked bags (I know {paid_bags} of them will "
        "cost extra); use {payment_method}.",
        "Please book {flight_number} on {date} in {cabin} {insurance}, and charge {payment_method}.",
    ],
    tells=[
        "You're booked on {flights:list(flight_number, departs_at:when)} in {cabin:state}, for "
        "{passengers:list(name)}; {payments:sum(amount)} was charged to {@payment_method}. Your confirmation "
        "code is {id}.",
    ],
    words={"cabin": CABIN, "insurance": INSURANCE},
    values={
        "passengers": (
            "Ana Lopez 1990-04-12; Ben Lopez 2015-09-30",
            "Mia Chen 1984-02-11; Leo Chen 1983-07-19; Ivy Chen 2012-05-02",
            "Sam Reed 1979-03-03; Kim Reed 1981-08-14; Al Reed 2008-01-20; Jo Reed 2010-06-06; Bo Reed 2013-09-09",
            "Tom Hale 1975-01-05; Eva Hale 1977-02-06; Max Hale 2001-03-07; Zoe Hale 2003-04-08; "
            "Ian Hale 2005-05-09; Amy Hale 2007-06-10",
        )
    },
)
say.tool(
    "cancel_reservation",
    confirms=[
        "cancel {@reservation}",
    ],
    asks=[
        "Please cancel {reservation}; {reason}.",
        "I need to cancel {reservation} because {reason}.",
        "Cancel {reservation} for me, {reason}.",
        "{reason}, so I won't be taking {reservation}. Please cancel it.",
        "Can you cancel {reservation}? It's because {reason}.",
    ],
    tells=[
        "{@reservation} is cancelled; what you paid goes back to the card or balance it came from.",
    ],
    words={"reason": REASON},
)
say.tool(
    "change_reservation_flights",
    confirms=[
        "change {@reservation} from {@flight_number} to {@new_flight_number} on {new_date:day}, settling any fare difference on {@payment_method}",
        "move {@flight_number} on {@reservation} to {new_date:day}, settling any fare difference on {@payment_method}",
    ],
    asks=[
        "Please move {flight_number} on {reservation} to {new_date}; put any difference on {payment_method}.",
        "My meeting moved, so I need {flight_number} on {reservation} on {new_date} instead. Use "
        "{payment_method} for the fare difference.",
        "Can you change {flight_number} on {reservation} to {new_date}? Settle it on {payment_method}.",
        "On {reservation}, swap {flight_number} for {new_flight_number} on {new_date}; {payment_method} covers "
        "the difference.",
        "I'd rather take {new_flight_number} on {new_date} than {flight_number} on {reservation}; charge or "
        "refund {payment_method}.",
    ],
    tells=[
        "Done: booking {id} now flies {flights:list(flight_number, departs_at:when)}; the fare difference "
        "was settled on {@payment_method}.",
    ],
)
say.tool(
    "change_reservation_cabin",
    confirms=[
        "move {@reservation} to {@cabin}, settling any difference on {@payment_method}",
    ],
    asks=[
        "I'd like to fly {cabin} on {reservation} instead; put the difference on {payment_method}.",
        "Can you change {reservation} to {cabin}? Use {payment_method}.",
        "Please switch {reservation} to {cabin}, paying with {payment_method}.",
        "Put {flight_number} on {reservation} in {cabin}; {payment_method} for the difference.",
        "I want {cabin} on {reservation}, charge or refund {payment_method}.",
    ],
    tells=[
        "{@reservation} is in {@cabin} now; the fare difference was settled on {@payment_method}.",
    ],
    words={"cabin": CABIN},
)
say.tool(
    "update_reservation_passengers",
    confirms=[
        "change {@passenger} to {first_name} {last_name}",
    ],
    asks=[
        "{passenger} can't come after all; please put {first_name} {last_name} on {reservation} instead.",
        "Please change {passenger} on {reservation} to {first_name} {last_name}.",
        "On {reservation}, {first_name} {last_name} is travelling in place of {passenger}; can you update it?",
        "On {reservation}, replace {passenger} with {first_name} {last_name}, born {dob}.",
        "The ticket for {passenger} on {reservation} should be in the name of {first_name} {last_name}.",
    ],
    tells=["Done: that ticket now reads {name}."],
    values={
        "first_name": ("Katherine", "Jon", "Stephen", "Ann", "Marc", "Sara"),
        "last_name": ("Clark", "Meyers", "Smyth", "Lopez", "Nguyen"),
    },
)
say.tool(
    "add_reservation_bags",
    confirms=[
        "add {bags:count(checked bag)} to {@reservation}, {paid_bags} of them paid with {@payment_method}",
        "add {bags:count(checked bag)} to {@reservation}; {paid_bags} of them are over your free allowance, "
        "at $50 each on the card you paid the booking with",
        "add {bags:count(checked bag)} to {@reservation}",
    ],
    asks=[
        "Please add checked bags to {reservation}: {bags} more.",
        "We're bringing more luggage on {reservation}; add {bags} to the checked bags.",
        "Add {bags} to the checked bags on {reservation}, {paid_bags} of them paid, on {payment_method}.",
        "I need to add {bags} to my checked bags on {reservation}; {paid_bags} will be over my allowance, so "
        "charge {payment_method}.",
        "Can you raise the checked bags on {reservation} by {bags}? I packed more than I planned.",
    ],
    tells=[
        "{@reservation} now has {total_bags:count(checked bag)} in all, {paid_bags} of them paid.{paid_bags:yes}",
        "{@reservation} now has {total_bags:count(checked bag)} in all.",
    ],
)
say.tool(
    "add_reservation_insurance",
    confirms=[
        "add travel insurance to {@reservation}, paid with {@payment_method}",
    ],
    asks=[
        "Add travel insurance to {reservation} and charge {payment_method}.",
        "I'd feel better with insurance on {reservation}; put it on {payment_method}.",
        "Can I still insure {reservation}? Use {payment_method}.",
        "Please add insurance to {reservation}, paid with {payment_method}.",
        "Insure {reservation} for me; charge {payment_method}.",
    ],
    tells=[
        "{@reservation} is insured now, for {passenger_count:count(passenger)} at $30 each, charged to "
        "{@payment_method}.",
    ],
)
say.tool(
    "issue_compensation_certificate",
    confirms=[
        "issue you a {amount:money} travel certificate for {@flight_number} on {@reservation}",
    ],
    asks=[
        "{flight_number} on {reservation} was a mess and I missed my meeting. I'd like a {amount} certificate.",
        "What happened to {flight_number} on {reservation} ruined my day; can I get {amount} in compensation?",
        "Could you give me a {amount} travel certificate for {flight_number} on {reservation}?",
        "After what happened with {flight_number} on {reservation}, I think {amount} in credit is fair.",
        "I'd like compensation for {flight_number} on {reservation}: a certificate for {amount}.",
    ],
    values={"amount": (50, 100, 150, 200, 300)},
    tells=[
        "I've issued you a travel certificate worth {amount:money} for {@flight_number}; it's saved with your "
        "payment methods for your next booking.",
    ],
)

# -- the written policy ----------------------------------------------------------------------
airline_service.tools  # noqa: B018  (sealing the domain adds get_policy, declared next)
say.tool(
    "get_policy",
    asks=[
        "What are your rules for changing or cancelling a booking?",
        "Before I ask for anything: what's your policy?",
        "Can you walk me through the airline's service policy?",
    ],
    tells=[
        "Our policy has {rules:count(rule)}. In short: I verify who you are before changing anything; a "
        "booking holds at most 5 passengers, all in one cabin; basic economy can't be changed; a booking is "
        "refunded on cancellation only within 24 hours of booking, after we cancel a flight, in business, or "
        "with insurance for health or weather; insurance is sold only with a new booking; and I confirm "
        "every change with you before making it.",
    ],
)
