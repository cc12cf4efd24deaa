"""How a traveler speaks to the travel service, and what its assistant tells them.

A traveler names what is on their ticket or in their inbox: airports by code or city ("PDX",
"Denver"), a flight by its number ("flight CV212"), a booking by its confirmation code ("booking
H7FVZC") or its trip ("my Portland to Denver trip"), a passenger's ticket by the name on it or its
13-digit e-ticket number, a saved card by what the site shows ("my Visa ending 4668"), hotels and
rooms by name. They never know an internal number (an itinerary's ITN-..., a flight date's FDT-...)
and never recite an access token: the assistant signs them in with their email and password and
passes the token it gets back itself. The assistant answers with fares and refunds in dollars,
days in words, and the confirmation code of a new booking, nothing else.
"""

from __future__ import annotations

from servers.domains.travel_booking.model import (
    AccessToken,
    Airport,
    Currency,
    Flight,
    FlightDate,
    Hotel,
    Itinerary,
    Passenger,
    PaymentMethod,
    RoomType,
    Segment,
    Stay,
    SupportTicket,
    Traveler,
    travel_booking,
)
from servers.kit import Language

say = Language(travel_booking, passed=("access_token",))  # the token from signing in, carried by the agent

# -- naming things ------------------------------------------------------------------------
say.names(Traveler, "{name}")
# the token is the assistant's business: a person says "my sign-in", never the token itself
say.names(AccessToken, "my current sign-in")
say.names(Airport, "{city}", "{name}", held="{id}")
say.names(Flight, held="flight {id}")
# a traveller holds a flight by its number and day, never the internal flight-date id
say.names(FlightDate, "flight {flight_id} on {day:day}", held="flight {flight_id} on {day:day}")
say.names(Currency, "{name}", held="{id}")
say.names(Hotel, "the {name}", "{name} in {city}")
say.names(
    RoomType,
    "a {name} room",
    "the {name}",
    found_in={"get_hotel": ("room_types", "id", "hotel_id")},
    within="{row} at {owner}",
)
say.names(PaymentMethod, "my {nickname}", "the card ending {last4}")
say.names(Itinerary, "booking {code}", "my trip {title}", "my {title} trip")
say.names(
    Segment,
    "my {flight} flight on {day:day}",
    "my flight {label}",
    shown=("flight", "day"),
    found_in={"get_itinerary": ("segments", "id", "itinerary_id")},
    within="{row} on {owner}",
    called="my flight",
)
say.names(
    Passenger,
    "ticket {code}",
    "{first_name} {last_name}'s ticket",
    "the ticket for {first_name} {last_name}",
    found_in={"get_itinerary": ("passengers", "id", "itinerary_id")},
    within="{row} on {owner}",
)
say.names(
    Stay,
    "my stay at the {hotel}",
    "my {room} at the {hotel}",
    "my stay from {check_in:day} to {check_out:day}",
    "my hotel stay checking in {check_in:day}",
    shown=("hotel", "room"),
    found_in={"get_itinerary": ("stays", "id", "itinerary_id")},
    within="{row} on {owner}",
)
say.names(SupportTicket, held="ticket {id}")

say.state(Itinerary, "status", active="upcoming", completed="already flown", cancelled="cancelled")
say.state(Itinerary, "cabin", basic_economy="basic economy", economy="economy", business="business")
say.state(
    Itinerary,
    "trip_type",
    one_way="one-way",
    round_trip="round trip",
    multi_city="multi-city",
    hotel_only="hotel-only",
)
say.state(Segment, "cabin", basic_economy="basic economy", economy="economy", business="business")
say.state(Segment, "status", booked="booked", flown="flown", cancelled="cancelled")
say.state(
    FlightDate,
    "status",
    scheduled="on schedule",
    delayed="delayed",
    cancelled="cancelled",
    departed="in the air",
    landed="on the ground (it has landed)",
)
say.state(Stay, "status", booked="booked", cancelled="cancelled", completed="over")
say.state(
    PaymentMethod,
    "kind",
    credit_card="credit card",
    gift_card="gift card",
    travel_certificate="travel certificate",
)
say.state(PaymentMethod, "status", active="active", expired="expired")
say.state(Traveler, "membership", regular="regular", silver="Silver", gold="Gold")
say.state(SupportTicket, "status", open="still open", closed="closed")

CABIN = {"basic_economy": "basic economy", "economy": "economy", "business": "business class"}
SCOPE = {"read": "just to look", "read_write": "so I can make changes"}
REASON = {
    "change_of_plans": "my plans changed",
    "health": "I'm ill and can't travel",
    "weather": "a storm is coming in",
    "airline_cancelled": "the airline cancelled my flight",
    "personal": "something personal came up",
}
INSURANCE = {True: "with travel insurance", False: "without insurance"}
NO_REFUND = {True: "even if I get nothing back", False: "only if I get a refund"}
TRIP_STATUS = {"active": "upcoming", "completed": "past", "cancelled": "cancelled"}

# -- signing in ---------------------------------------------------------------------------
say.tool(
    "authenticate",
    asks=[
        "Log me in: {email}, password {password}.",
        "Sign me in to my travel account, {email} with password {password}.",
        "My login is {email} and the password is {password}; please sign me in.",
        "Please sign in as {email}, password {password}, {scope}.",
        "I need to sign in again: {email} / {password}.",
        "Sign me in with {email} and {password}, {scope}.",
    ],
    tells=["You're signed in as {name}, {@scope}.", "You're signed in as {name}."],
    words={"scope": SCOPE},
)
say.tool(
    "get_login_status",
    asks=[
        "Am I still logged in to the travel site?",
        "Am I still signed in?",
        "Who am I signed in as right now?",
    ],
    tells=[
        "You're not signed in any more: {reason}.",
        "You're signed in as {name} ({email}).",
    ],
)

# -- cards, budget, support -----------------------------------------------------------------
say.tool(
    "list_payment_methods",
    asks=[
        "Which cards do I have saved?",
        "What cards are on my account and how much is left on each?",
        "Show me my saved cards.",
        "How much can I still spend on my cards?",
        "List my payment cards.",
    ],
    tells=[
        "You have {payment_methods:count(card)} saved; what you can still spend on each: "
        "{payment_methods:list(nickname, available:money)}.",
        "You have no cards saved.",
    ],
)
say.tool(
    "add_payment_method",
    asks=[
        "Save my card {card_number}, expiring {expiry}, security code {cvv}.",
        "Add a new card to my account: {card_number}, exp {expiry}, CVV {cvv}.",
        'Please add card {card_number} (expires {expiry}, code {cvv}) and call it "{nickname}".',
        "I got a new card: {card_number}, valid to {expiry}, code {cvv}, name on it {holder_name}. Save it.",
        "Put card number {card_number} on file, expiry {expiry}, security code {cvv}.",
    ],
    tells=[
        'The card ending {last4} is saved as "{@nickname}".',
        "The card ending {last4} is saved to your account.",
    ],
    values={
        "nickname": ("Work card", "Travel Visa", "Backup card", "Vacation card", "Joint card"),
        "holder_name": ("Shawn Gould", "Maya Ortiz", "Sam Reyes", "Jordan Lee"),
    },
)
say.tool(
    "set_budget_limit",
    asks=[
        "Set my per-trip budget to {budget}.",
        "Don't let any one trip cost me more than {budget}.",
        "Cap my trips at {budget} each, I'm trying to save.",
        "Change my trip budget limit to {budget}.",
        "I want a budget of {budget} per trip; set it.",
    ],
    tells=[
        "Done: no single trip can cost more than {trip_limit:money} now (it was {previous_limit:money}).",
        "Done: no single trip can cost more than {trip_limit:money} now.",
    ],
)
say.tool(
    "contact_support",
    asks=[
        "Tell support this: {message}",
        "Please open a support ticket about {itinerary}: {message}",
        'Send a message to support, subject "{subject}": {message}',
        "I need a human on this: {message}",
        "Can you pass this on to support about {itinerary}? {message}",
    ],
    tells=[
        "I've passed it to the support team as ticket {ticket}; they'll reply within {reply_within}.",
    ],
    values={
        "message": (
            "My connection was missed because the first flight was late; please rebook me.",
            "I was charged twice for my bags.",
            "I need a wheelchair at the airport.",
            "Please send an itemised invoice to my email.",
            "We'd like to sit together on this trip.",
        ),
        "subject": ("Missed connection", "Double charge", "Special assistance", "Invoice copy"),
    },
)
say.tool(
    "list_support_tickets",
    asks=[
        "Which support requests do I have?",
        "Show me my support tickets.",
        "Did support answer me yet? List my tickets.",
        "What have I asked support about?",
        "List my support tickets.",
    ],
    tells=[
        "You have {tickets:count(support ticket)}: {tickets:list(subject, status)}.",
        "You have no support tickets.",
    ],
)

# -- airports, flights, hotels, money ---------------------------------------------------------
say.tool(
    "list_airports",
    asks=[
        "Which airports are there in {city}?",
        "What airports do you fly to in {city}?",
        "Show me the airports in {country}.",
        "Which airports can I fly into in {country}?",
        "List your airports in {country}.",
        "List the airports you serve.",
    ],
    tells=[
        "In {city} we fly to {airports:count(airport)}: {airports:list(name, id)}.",
        "In {country} we fly to {airports:count(airport)}: {airports:list(name, id)}.",
        "We fly to {airports:count(airport)} in all, among them {airports:list(name, id)}.",
        "I found no airports there.",
    ],
    values={
        "city": ("Chicago", "New York", "London", "Denver", "Houston", "Seattle", "Boston", "Tokyo"),
        "country": ("US", "CA", "GB", "DE", "JP"),
    },
)
say.tool(
    "find_nearest_airport",
    asks=[
        "What's the nearest airport to {city}?",
        "Which airport should I fly into for {city}?",
        "I'm visiting {city}; which airport is closest?",
        "Where's the closest airport to {city}?",
        "What airport is near {city}?",
    ],
    tells=["The airports nearest {city}, closest first: {airports:list(name, id)}."],
)
say.tool(
    "search_flights",
    asks=[
        "Find me flights from {origin} to {destination} on {day}.",
        "What flights are there from {origin} to {destination} on {day}?",
        "I need to get from {origin} to {destination} on {day}; what's available in {cabin}?",
        "Search {origin} to {destination} on {day} for {passengers} people.",
        "Any flights {origin} to {destination} on {day}, one stop is fine ({max_stops})?",
        "Show me the {limit} cheapest flights from {origin} to {destination} on {day}.",
    ],
    tells=[
        "From {origin} to {destination} on {day:day} I found {options:count(option)}, cheapest first: "
        "{options:list(flights, departs_at:when)}.",
        "There are no flights from {origin} to {destination} on {day:day} that fit.",
    ],
    words={"cabin": CABIN},
)
say.tool(
    "get_flight_status",
    asks=[
        "What's the status of {flight_number} on {day}?",
        "Is {flight_number} on time on {day}?",
        "I'm picking someone up: how is {flight_number} doing on {day}?",
        "Has {flight_number} left yet on {day}?",
        "Check {flight_number} for {day}, please.",
    ],
    tells=[
        "{flight_number} from {origin} to {destination} on {day:day} is {status:state}; it leaves "
        "{departs_at:when} and lands {arrives_at:when} local time.",
    ],
)
say.tool(
    "search_hotels",
    asks=[
        "Find me a hotel in {city} from {check_in} for {nights} nights.",
        "I need a room in {city} checking in {check_in}, {nights} nights, {guests} guests.",
        "Any hotels in {city} from {check_in} under {max_price} a night?",
        "Show me {min_stars}-star hotels in {city} from {check_in} for {nights} nights.",
        "Where can I stay in {city} on {check_in}?",
        "Hotels in {city} checking in {check_in} for {nights} nights, {guests} guests, under {max_price} a night.",
    ],
    tells=[
        "In {city} I found {hotels:count(hotel)}, cheapest first: {hotels:list(name, nightly_price:money)}.",
        "I found no hotel in {city} with a room free for those nights.",
    ],
    values={"city": ("Denver", "Seattle", "London", "Austin", "Boston", "Chicago", "San Francisco")},
)
say.tool(
    "get_hotel",
    asks=[
        "Tell me about {hotel}.",
        "What rooms does {hotel} have?",
        "What rooms does {hotel} have free from {check_in} for {nights} nights?",
        "Is there a room at {hotel} on {check_in}?",
        "How much is a night at {hotel}?",
    ],
    tells=[
        "{name} in {city} ({stars} stars, rated {rating}) has {room_types:count(room type)}: "
        "{room_types:list(name, nightly_price:money)}.",
    ],
)
say.tool(
    "convert_currency",
    asks=[
        "How much is {amount} {from_currency} in {to_currency}?",
        "Convert {amount} {from_currency} to {to_currency}.",
        "What's {amount} {from_currency} worth in {to_currency} today?",
        "I have {amount} {from_currency}; what is that in {to_currency}?",
        "Change {amount} from {from_currency} into {to_currency} for me, roughly.",
    ],
    tells=["{amount} {from} is {converted} {to} at today's rate ({rate})."],
)

# -- booking ------------------------------------------------------------------------------
say.tool(
    "book_flight",
    asks=[
        "Book {flight_dates} in {cabin} and pay with {payment_method}.",
        "Please book {cabin} seats on {flight_dates} for {passengers}; charge {payment_method}.",
        "Reserve {flight_dates} in {cabin} with {bags} checked bags, {insurance}, on {payment_method}.",
        "Book me on {flight_dates}, {cabin}, paid with {payment_method}.",
        "Go ahead and book {flight_dates} in {cabin} {insurance}; put it on {payment_method}.",
    ],
    tells=[
        "You're booked on {title}, {cabin:state}; {total_charged:money} was charged to {@payment_method}. "
        "Your confirmation code is {code}.",
    ],
    words={"cabin": CABIN, "insurance": INSURANCE},
    lists={"flight_dates": "the {flights} flight leaving {departs_at:when}"},
)
say.tool(
    "book_hotel",
    asks=[
        "Book {room_type} from {check_in} for {nights} nights on {payment_method}.",
        "Reserve {room_type} for {guests} guests from {check_in}, {nights} nights, as part of {itinerary}; pay with {payment_method}.",
        "Please book {room_type}, checking in {check_in} for {nights} nights, and charge {payment_method}.",
        "I'll take {room_type} from {check_in}, {nights} nights, {guests} guests; put it on {payment_method}.",
        "Add {room_type} to {itinerary}: check in {check_in}, {nights} nights, paid with {payment_method}.",
    ],
    tells=[
        "You're booked at {hotel} ({room}) from {check_in:day} to {check_out:day}; {total_charged:money} was "
        "charged. Your confirmation code is {code}.",
    ],
)
say.tool(
    "purchase_insurance",
    asks=[
        "Add travel insurance to {itinerary} and charge {payment_method}.",
        "Please insure {itinerary}, paying with {payment_method}.",
        "I'd feel better with insurance on {itinerary}; put it on {payment_method}.",
        "Can I still add insurance to {itinerary}? Charge {payment_method}.",
        "Buy travel insurance for {itinerary} with {payment_method}.",
    ],
    tells=["{@itinerary} is insured now; {charged:money} was charged to {@payment_method}."],
)
say.tool(
    "add_bags",
    asks=[
        "Add {bags} checked bags to {itinerary} and charge {payment_method}.",
        "I need {bags} more bags on {itinerary}; pay with {payment_method}.",
        "We're bringing {bags} extra suitcases on {itinerary}; put them on {payment_method}.",
        "Add {bags} bags to {itinerary}, charged to {payment_method}.",
        "Please check {bags} more bags on {itinerary} with {payment_method}.",
    ],
    tells=[
        "{@itinerary} now has {bags} checked bags (your fare includes {free} free); the added bags cost "
        "{charged:money}.",
    ],
)

# -- trips after booking ------------------------------------------------------------------
say.tool(
    "get_itinerary",
    asks=[
        "What's booked on {itinerary}?",
        "Show me {itinerary}.",
        "Can you pull up {itinerary}?",
        "What flights are on {itinerary}?",
        "Remind me what's in {itinerary}.",
    ],
    tells=[
        "{title} ({code}) is {status:state}: {segments:list(flight, day:day)}, for "
        "{passengers:count(passenger)}; {total_paid:money} paid.",
        "{title} ({code}) is {status:state}: a stay at {stays:list(hotel, check_in:day)}; {total_paid:money} paid.",
    ],
)
say.tool(
    "list_itineraries",
    asks=[
        "What trips do I have?",
        "Show me my {status} trips.",
        "Which of my bookings are {status}?",
        "List my trips.",
        "Show me my last {limit} bookings.",
        "Do I have any {status} trips? Check.",
    ],
    tells=[
        "You have {itineraries:count(trip)} {status}: {itineraries:list(title, code)}.",
        "You have {itineraries:count(trip)}: {itineraries:list(title, code)}.",
        "You have no {status} trips.",
        "You have no trips booked.",
    ],
    words={"status": TRIP_STATUS},
)
say.tool(
    "get_invoice",
    asks=[
        "What did I pay for {itinerary}?",
        "Send me the invoice for {itinerary}.",
        "I need the invoice for {itinerary} for my expenses.",
        "How much was charged and refunded on {itinerary}?",
        "Can I see the charges for {itinerary}?",
    ],
    tells=[
        "For {@itinerary} you were charged {charged:money} and refunded {refunded:money}, "
        "{net:money} in all.",
    ],
)
say.tool(
    "change_flight",
    asks=[
        "Move {segment} to {day} and settle the difference on {payment_method}.",
        "Change {segment} to {flight_number} on {day}; pay with {payment_method}.",
        "My meeting moved, can you put {segment} on {day} instead? Charge {payment_method}.",
        "Switch {segment} to {flight_number} on {day}, paid with {payment_method}.",
        "Please rebook {segment} for {day} with {payment_method}.",
    ],
    tells=[
        "Done: you're now on {flight}, leaving {departs_at:when}; with the fare difference and any change "
        "fee, that's {charged:money} charged and {refunded:money} refunded.",
    ],
)
say.tool(
    "change_cabin",
    asks=[
        "Move {itinerary} to {cabin} and charge {payment_method}.",
        "Switch every flight on {itinerary} to {cabin}, settling on {payment_method}.",
        "I'd like to fly {cabin} on {itinerary}; put the difference on {payment_method}.",
        "Change the cabin on {itinerary} to {cabin}, paid with {payment_method}.",
        "Put {itinerary} in {cabin} instead, paying with {payment_method}.",
    ],
    tells=[
        "{@itinerary} is in {cabin:state} now; the fare difference comes to {fare_difference:money}.",
    ],
    words={"cabin": CABIN},
)
say.tool(
    "update_passenger",
    asks=[
        "Fix the last name on {passenger} to {last_name}.",
        "The first name on {passenger} should be {first_name}; please correct it.",
        "The date of birth on {passenger} is wrong, it should be {dob}; fix it.",
        "Please correct {passenger}: last name {last_name}.",
        "There's a typo on {passenger}, the first name is {first_name}.",
    ],
    tells=["Corrected: the ticket now reads {first_name} {last_name}, born {dob:day}."],
    values={
        "first_name": ("Katherine", "Jon", "Stephen", "Ann", "Marc"),
        "last_name": ("Clark", "Meyers", "Smyth"),
    },
)
say.tool(
    "cancel_itinerary",
    asks=[
        "Cancel {itinerary}, {reason}.",
        "Please cancel {itinerary}: {reason}.",
        "I have to cancel {itinerary} because {reason}.",
        "Cancel {itinerary} {accept_no_refund}, {reason}.",
        "{reason}, so please cancel {itinerary}, {accept_no_refund}.",
    ],
    tells=[
        "{@itinerary} is cancelled; {refund:money} goes back to the card you paid with.",
    ],
    words={"reason": REASON, "accept_no_refund": NO_REFUND},
)
say.tool(
    "cancel_stay",
    asks=[
        "Cancel {stay}.",
        "I no longer need the room, please cancel {stay}.",
        "Please cancel {stay}; my plans changed.",
        "Drop {stay}, I found somewhere else.",
        "I won't need {stay} after all; cancel it.",
    ],
    tells=[
        "{@stay} is cancelled; {refund:money} comes back to your card.",
        "{@stay} is cancelled; that room was non-refundable, so nothing comes back.",
    ],
)

# -- documents ----------------------------------------------------------------------------
say.tool(
    "verify_traveler",
    asks=[
        "Check the documents of {name} for {itinerary}: born {dob}, passport {passport_number} from "
        "{passport_country}, valid to {passport_expiry}.",
        "Is passport {passport_number} ({passport_country}, expires {passport_expiry}) good enough for "
        "{name}, born {dob}?",
        "Can {name} travel on {itinerary}? Born {dob}, passport {passport_number}, {passport_country}, "
        "expiring {passport_expiry}.",
        "Please check {name}'s papers: date of birth {dob}, passport {passport_number} issued in "
        "{passport_country}, expires {passport_expiry}.",
        "Will {name}'s passport {passport_number} ({passport_country}, valid until {passport_expiry}) do? "
        "Born {dob}.",
    ],
    tells=["I checked {traveler}'s documents, passport {passport}; everything in order: {verified}."],
)
