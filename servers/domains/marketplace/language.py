"""How the people of an online marketplace speak, and what its assistant tells them.

One signed-in account both buys and sells, so the same person talks as a buyer ("bid $150 on the
Nikon F3", "what happened to my offer on the Le Creuset?") and as the seller of a small shop on
the side ("accept the $880 offer from bwatkins", "I shipped order ORD-000412 with UPS"). They name
listings by their title, bids and offers by the item (and an offer by its amount and who made
it), orders by the item or by the order number the marketplace gave them, other members by
username, categories by name. They never know a listing's, bid's or offer's internal number. The
assistant answers with prices in dollars, time left the way the site shows it ("2d 5h"), counts
and a few titles, and the order number after a sale.
"""

from __future__ import annotations

from servers.domains.marketplace.model import (
    Bid,
    Category,
    Feedback,
    Listing,
    Offer,
    Order,
    User,
    marketplace,
)
from servers.kit import Language

say = Language(marketplace)

# -- naming things ------------------------------------------------------------------------------
say.names(User, "{username}", "the seller {username}")
say.names(Category, "{name}", "the {name} category", called="a category")
say.names(
    Listing,
    '"{title}"',
    'the "{title}" listing',
    called="a listing",
)
# a bid is the auction it is on: "my bid on the "Nikon F3 SLR body" auction"
say.names(Bid, 'the "{title}" auction', shown=("title",), called="an auction")
say.names(
    Offer,
    "the {amount:money} offer from {buyer}",  # a seller's view: who offered how much
    'the offer I made on "{title}"',  # a buyer's view: what they offered on
    'the {amount:money} offer I made on "{title}"',
    shown=("buyer", "title"),
    within="{row} on {owner}",  # "the $882 offer from bwatkins on the "Brompton ..." listing"
    called="an offer",
)
say.names(Order, 'the order for "{title}"', 'the "{title}" order', held="order {id}", called="an order")

say.state(User, "status", active="in good standing", suspended="suspended")
say.state(Listing, "status", active="still live", ended="ended", sold="sold", cancelled="cancelled")
say.state(Listing, "format", auction="auction", fixed_price="fixed-price")
say.state(Listing, "condition", new="new", used="used", refurbished="refurbished", for_parts="for parts")
say.state(
    Bid,
    "status",
    active="winning",
    winning="winning",
    outbid="outbid",
    retracted="retracted",
    won="won",
    lost="lost",
    cancelled="cancelled by the seller",
)
say.state(
    Offer,
    "status",
    pending="waiting for an answer",
    accepted="accepted",
    declined="declined",
    countered="countered",
    expired="expired",
    withdrawn="withdrawn",
)
say.state(
    Order,
    "status",
    awaiting_payment="waiting for payment",
    paid="paid, not shipped yet",
    shipped="shipped",
    delivered="delivered",
    cancelled="cancelled",
)
say.state(
    Order, "source", auction="won at auction", buy_it_now="bought with Buy It Now", offer="sold on an offer"
)
say.state(Order, "carrier", usps="USPS", ups="UPS", fedex="FedEx", dhl="DHL")
say.state(Feedback, "rating", positive="positive", neutral="neutral", negative="negative")

HOURS = {1: "hour", **{n: f"{n} hours" for n in range(2, 721)}}
DAYS = {1: "1 day", 3: "3 days", 5: "5 days", 7: "a week", 10: "10 days"}
SEARCHES = (
    "camera",
    "turntable",
    "LEGO",
    "Nintendo Switch",
    "cast iron",
    "tent",
    "Pokemon",
    "jacket",
    "iPhone",
    "bike",
    "poster",
    "lens",
)
NOTES = (
    "Would you take this? I can pay today.",
    "Is this the lowest you can go?",
    "Meet me in the middle?",
    "I can pay right away if that works.",
    "Cash is tight this month, hope this works for you.",
)

# -- looking around -----------------------------------------------------------------------------
say.tool(
    "get_current_time",
    asks=[
        "What time is it on the marketplace right now?",
        "What's the date and time today, for my auctions?",
        "What time does the site think it is?",
    ],
    tells=["It's {local:when} your time ({timezone}); the marketplace clock reads {utc:when} UTC."],
)
say.tool(
    "list_categories",
    asks=[
        "What categories can I browse?",
        "Which categories does the marketplace have?",
        "Show me the category list.",
    ],
    tells=["There are {categories:count(main category)}: {categories:list(name)}, each with subcategories."],
)
say.tool(
    "search_listings",
    asks=[
        "Search the marketplace for {query}.",
        "Any {query} listings up right now?",
        "Find me {query} under {max_price}.",
        "Show me {condition} {query} listings.",
        "I only want {format}: what {query} is up?",
        "Which {query} listings end in the next {ending_within_hours}?",
        "What's listed in {category}, {sort}?",
        "Anything in {category} under {max_price}? I'm on a budget.",
        "Show me {query} listings that end before {ending_before}.",
        "Look for {query} in {category}, {sort}.",
    ],
    tells=[
        'I found {listings:count(listing)} for "{query}": {listings:list(title, current_price:money)}.',
        "I found {listings:count(listing)}: {listings:list(title, current_price:money)}.",
        "Nothing listed right now matches that.",
    ],
    values={"query": SEARCHES},
    words={
        "format": {"auction": "auctions", "fixed_price": "Buy It Now listings"},
        "condition": {"new": "new", "used": "used", "refurbished": "refurb", "for_parts": "for-parts"},
        "ending_within_hours": HOURS,
        "sort": {
            "ending_soon": "ending soonest first",
            "price_low": "cheapest first",
            "price_high": "priciest first",
            "newest": "newest first",
        },
    },
)
say.tool(
    "get_listing",
    asks=[
        "What's the current price on {listing}?",
        "How much time is left on {listing}?",
        "Tell me about {listing}.",
        "Is {listing} still available, and what's it going for?",
        "Where's the price at on {listing}, and how long does it run?",
    ],
    tells=[
        '"{title}" is at {current_price:money} with {bid_count:count(bid)} and {time_left} left; the next bid '
        "has to be at least {next_minimum_bid:money}.",
        '"{title}" sells for {buy_now_price:money} ({quantity_available} available) with {time_left} left, and '
        "the seller takes offers.{buy_now_available:yes}{offers_allowed:yes}",
        '"{title}" sells for {buy_now_price:money} ({quantity_available} available) with {time_left} left.'
        "{buy_now_available:yes}",
        '"{title}" isn\'t live anymore ({status:state}); it last stood at {current_price:money}.',
    ],
)
say.tool(
    "get_user_profile",
    asks=[
        "How's {user}'s feedback?",
        "Is {user} a trustworthy seller?",
        "Show me {user}'s seller profile.",
        "Before I buy from {user}, what do other people say about them?",
        "What kind of rating does {user} have?",
    ],
    tells=[
        "{username} has a feedback score of {feedback_score}, {positive_pct}% positive, and "
        '{live_listings:count(live listing)}. The latest feedback says: "{recent_feedback.0.comment}"',
        "{username} has a feedback score of {feedback_score}, {positive_pct}% positive, and "
        "{live_listings:count(live listing)}.",
        "{username} has no ratings yet and {live_listings:count(live listing)}.",
    ],
)
say.tool(
    "watch_listing",
    asks=[
        "Watch {listing} for me.",
        "Add {listing} to my watch list, I might bid later.",
        "Keep an eye on {listing} for me.",
        "Put {listing} on my watch list.",
        "Could you look up {listing} and {watch}?",
        "About {listing}: please {watch}.",
    ],
    tells=[
        '"{title}" is on your watch list now; you\'re watching {watch_list_size:count(listing)}.'
        "{watching:yes}{changed:yes}",
        '"{title}" was already on your watch list.{watching:yes}',
        '"{title}" is off your watch list.{watching:no}{changed:yes}',
        '"{title}" wasn\'t on your watch list.{watching:no}',
    ],
    words={"watch": {True: "put it on my watch list", False: "take it off my watch list"}},
)
say.tool(
    "list_watched",
    asks=[
        "What am I watching?",
        "Show me my watch list.",
        "Which listings am I keeping an eye on, and how much time is left?",
        "Which {limit} things on my watch list end soonest?",
        "Show me the next {limit} listings I'm watching to end.",
    ],
    tells=[
        "You're watching {watching:count(listing)}, ending soonest first: "
        "{watching:list(title, current_price:money)}.",
        "Your watch list is empty.",
    ],
)

# -- buying ---------------------------------------------------------------------------------------
say.tool(
    "place_bid",
    asks=[
        "Bid {max_amount} on {listing}.",
        "Put in a maximum bid of {max_amount} on {listing}.",
        "I'll go as high as {max_amount} for {listing}.",
        "Place a bid on {listing}, my max is {max_amount}.",
        "I really want {listing}; bid up to {max_amount} for me.",
        "Can you bid {max_amount} on {listing} before it ends?",
    ],
    tells=[
        'You\'re the high bidder on "{title}" at {current_price:money}, and the reserve is met; your '
        "maximum of {max_amount:money} stays private.{winning:yes}{reserve_met:yes}",
        'Your maximum of {max_amount:money} on "{title}" went in, but another bidder is still ahead; the price '
        "is now {current_price:money} and the next bid has to be at least {next_minimum_bid:money}.{winning:no}",
        'Your bid on "{title}" is in, and {message}. The price is {current_price:money}; the site will bid '
        "for you up to {max_amount:money}.",
    ],
)
say.tool(
    "retract_bid",
    asks=[
        "Retract my bid on {bid}, {reason}.",
        "Please take back my bid on {bid}: {reason}.",
        "I need to withdraw my bid on {bid} because {reason}.",
        "Pull my bid on {bid}; {reason}.",
        "Can you retract what I bid on {bid}? It's because {reason}.",
    ],
    tells=[
        'Your bid on "{title}" is retracted; the price went from {price_before:money} to {current_price:money}.',
        'Your bid on "{title}" is retracted.',
    ],
    words={
        "reason": {
            "entered_wrong_amount": "I typed the wrong amount",
            "item_description_changed": "the seller changed the item description",
            "cannot_reach_seller": "I can't get hold of the seller",
        }
    },
)
say.tool(
    "buy_it_now",
    asks=[
        "Buy {listing} now.",
        "I'll take {listing} at the Buy It Now price.",
        "Buy {quantity} of {listing} for me.",
        "Grab {listing} before somebody else does.",
        "Purchase {quantity} of {listing} at the listed price, I need spares.",
    ],
    tells=[
        'You bought {quantity} of "{title}" for {total:money} with shipping: that\'s order {id}, waiting for '
        "your payment.{@quantity:yes}",
        'You bought "{title}" for {total:money} with shipping: that\'s order {id}, waiting for your payment.',
    ],
)
say.tool(
    "list_my_bids",
    asks=[
        "Which auctions am I bidding on?",
        "How are my bids doing?",
        "Show me the auctions {status}.",
        "List the auctions {status}.",
        "What are the auctions {status}? Just the last {limit}.",
    ],
    tells=[
        "That's {bids:count(auction)}: {bids:list(title, current_price:money)}.{status:yes}",
        "You've bid on {bids:count(auction)}, latest first: {bids:list(title, status)}.",
        "There are none right now.{status:yes}",
        "You haven't bid on anything yet.",
    ],
    words={
        "status": {
            "winning": "I'm winning",
            "outbid": "where I've been outbid",
            "won": "I've won",
            "lost": "I lost",
            "retracted": "I pulled my bid from",
            "cancelled": "where the seller cancelled my bid",
        }
    },
)

# -- best offers ----------------------------------------------------------------------------------
say.tool(
    "make_offer",
    asks=[
        "Offer {amount} for {listing}.",
        "Make the seller of {listing} an offer of {amount}.",
        "The price on {listing} is a bit steep; offer {amount} instead.",
        "Send an offer of {amount} on {listing} with the note: {message}",
        "I'd like to offer {amount} each for {quantity} of {listing}.",
        'Try {amount} on {listing} and tell the seller "{message}"',
    ],
    tells=[
        'The seller has a minimum, and {amount:money} is under it, so your offer on "{title}" was declined '
        "right away. You can make {offers_left:count(more offer)}.{responded_at:yes}",
        'Your offer of {amount:money} on "{title}" is sent; the seller has 48 hours to accept, counter or '
        "decline it.",
    ],
    values={"message": NOTES},
)
say.tool(
    "list_offers",
    asks=[
        "What offers have come in on {listing}?",
        "Has anyone made an offer on {listing}?",
        "Show me the {status} offers on {listing}.",
        "Any {status} offers on {listing}?",
        "Who's offered what for {listing}? I'm deciding whether to drop the price.",
    ],
    tells=[
        'I see {offers:count(offer)} like that on "{title}": {offers:list(buyer, amount:money)}.{status:yes}',
        '"{title}" has {offers:count(offer)}: {offers:list(buyer, amount:money)}; your Buy It Now price is '
        "{buy_now_price:money}.",
        'There are no offers like that on "{title}".',
    ],
    words={
        "status": {
            "pending": "open",
            "accepted": "accepted",
            "declined": "declined",
            "countered": "countered",
            "expired": "expired",
            "withdrawn": "withdrawn",
        }
    },
)
say.tool(
    "list_my_offers",
    asks=[
        "What happened to the offers I made?",
        "Show me the offers I've made.",
        "Which of my offers are {status}?",
        "Show me my offers that are {status}.",
        "Are any of my offers {status}? I'm waiting to hear back.",
    ],
    tells=[
        "That's {offers:count(offer)}: {offers:list(title, amount:money)}.{status:yes}",
        "You've made {offers:count(offer)}, newest first: {offers:list(title, status)}.",
        "None right now.{status:yes}",
        "You haven't made any offers.",
    ],
    words={
        "status": {
            "pending": "still waiting for an answer",
            "accepted": "accepted",
            "declined": "declined",
            "countered": "countered by the seller",
            "expired": "expired",
            "withdrawn": "withdrawn",
        }
    },
)
say.tool(
    "respond_to_offer",
    asks=[
        "Please {action} {offer}, I'm good with that.",
        "I've thought about {offer}: please {action} it.",
        "Please {action} {offer}.",
        "Let's {action} {offer} at {counter_amount}; I can't go lower.",
        "Please {action} {offer} at {counter_amount} and tell them: {message}",
        "Go ahead and {action} {offer}, I've made up my mind.",
    ],
    tells=[
        "You accepted {@offer}: it's order {order} for {order_total:money}, waiting for the buyer to pay.",
        "You countered {@offer} at {counter_amount:money}; the buyer has 48 hours to answer.",
        "You declined {@offer}.",
    ],
    words={"action": {"accept": "accept", "decline": "decline", "counter": "counter"}},
    values={
        "message": (
            "That's the lowest I can go.",
            "Meet me here and it ships tomorrow.",
            "It's in great shape, this is a fair price.",
        )
    },
)
say.tool(
    "respond_to_counter",
    asks=[
        "Please {action} {offer}.",
        "Could you {action} {offer} for me?",
        "I've decided: {action} {offer}.",
        "Can you {action} {offer}? I've made up my mind.",
        "About {offer}: {action} it, please.",
    ],
    tells=[
        'You accepted the counter-offer on "{title}": order {order} for {order_total:money} is waiting for '
        "your payment.",
        'You turned down the seller\'s counter of {counter_amount:money} on "{title}".',
        'Your offer of {amount:money} on "{title}" is withdrawn.',
    ],
    words={
        "action": {
            "accept": "accept the seller's counter on",
            "decline": "turn down the seller's counter on",
            "withdraw": "withdraw",
        }
    },
)

# -- selling --------------------------------------------------------------------------------------
TITLES = (
    "Canon AE-1 Program 35mm film camera with 50mm lens",
    "Vintage Pyrex mixing bowl set, 4 pieces",
    "Nintendo Switch OLED, white, boxed",
    "Trek FX 2 hybrid bike, medium frame",
    "LEGO Millennium Falcon 75257, complete",
    "Le Creuset 5.5qt Dutch oven, cherry red",
)
say.tool(
    "create_listing",
    asks=[
        'List "{title}" in {category} as {format}, {condition}, starting at {start_price}.',
        'Sell "{title}" for {buy_now_price} in {category}; it\'s {condition}, {format}.',
        'Put "{title}" up in {category} as {format} at {buy_now_price}, {condition}, {quantity} available, and '
        "{best_offer}.",
        'Start {format} for "{title}" in {category}, {condition}, opening bid {start_price} with a reserve of '
        "{reserve_price}, running {duration_days}.",
        'I\'m clearing out the garage: list "{title}" in {category} ({condition}) as {format} for '
        "{buy_now_price}, with {shipping_cost} shipping.",
    ],
    tells=[
        'Your auction for "{title}" is live with an opening bid of {start_price:money}; it ends in {time_left}.',
        'Your listing "{title}" is live at {buy_now_price:money} ({quantity_available} available); it ends in '
        "{time_left}.",
    ],
    words={
        "format": {"auction": "an auction", "fixed_price": "a fixed-price listing"},
        "condition": {
            "new": "new and unused",
            "used": "used",
            "refurbished": "restored to working order",
            "for_parts": "for parts or not working",
        },
        "best_offer": {True: "I'm open to offers", False: "no offers"},
        "duration_days": DAYS,
    },
    values={"title": TITLES},
)
say.tool(
    "revise_listing",
    asks=[
        "Lower the Buy It Now price on {listing} to {buy_now_price}; I'd like it gone this week.",
        "Drop the price of {listing} to {buy_now_price}, it isn't moving.",
        "Set the shipping on {listing} to {shipping_cost}.",
        'Update the description of {listing} to: "{description}"',
        "Make {listing} {buy_now_price} with {shipping_cost} shipping.",
    ],
    tells=[
        "Done: {@listing} now sells for {buy_now_price:money} plus {shipping_cost:money} shipping."
        "{@buy_now_price:yes}{@shipping_cost:yes}",
        "Done: {@listing} now sells for {buy_now_price:money}.{@buy_now_price:yes}",
        "Done: shipping on {@listing} is now {shipping_cost:money}.{@shipping_cost:yes}",
        "Done: the description of {@listing} is updated.",
    ],
    values={
        "description": (
            "Smoke-free home. Ships within one business day, well packed.",
            "Combined shipping on multiple items; message me with questions.",
            "Local pickup in Portland is fine too.",
        ),
    },
)
say.tool(
    "end_listing",
    asks=[
        "End {listing} early, {reason}.",
        "Please take down {listing}; {reason}.",
        "I need to end {listing} now because {reason}.",
        "End {listing} now and {outcome}; {reason}.",
        "Stop {listing} early and {outcome}, {reason}.",
    ],
    tells=[
        "{@listing} is ended and sold to the high bidder at {current_price:money}; that's order {order}.",
        "{@listing} is cancelled, along with its {bid_count:count(bid)}.{bid_count:yes}",
        "{@listing} has ended without a sale.",
    ],
    words={
        "reason": {
            "item_lost_or_broken": "the item got broken",
            "no_longer_available": "I don't have it anymore",
            "error_in_listing": "I made a mistake in the listing",
            "sold_elsewhere": "I sold it somewhere else",
        },
        "outcome": {
            "sell_to_high_bidder": "sell it to the high bidder",
            "cancel": "call it off without selling",
        },
    },
)
say.tool(
    "relist_item",
    asks=[
        "Relist {listing}.",
        "Put {listing} back up, it didn't sell.",
        "Relist {listing} for {duration_days}, starting at {start_price}.",
        "Relist {listing} with a Buy It Now price of {buy_now_price}.",
        "Give {listing} another go for {duration_days}.",
    ],
    tells=[
        'Relisted: "{title}" is live again with an opening bid of {start_price:money} and Buy It Now at '
        "{buy_now_price:money}, ending in {time_left}.{@buy_now_price:yes}",
        'Relisted: "{title}" is live again with an opening bid of {start_price:money}, ending in {time_left}.',
        'Relisted: "{title}" is live again at {buy_now_price:money}, ending in {time_left}.',
    ],
    words={"duration_days": DAYS},
)
say.tool(
    "list_my_listings",
    asks=[
        "Show me my listings.",
        "Which of my listings are {status}?",
        "What {format} do I have up?",
        "Find my listings with {query} in the title.",
        "Show me my {status} {format}.",
        "How are my {query} listings doing?",
    ],
    tells=[
        "That's {listings:count(listing)}: {listings:list(title, current_price:money)}.{status:yes}",
        "That's {listings:count(listing)}: {listings:list(title, current_price:money)}.{format:yes}",
        "That's {listings:count(listing)}: {listings:list(title, status)}.{query:yes}",
        "You have {listings:count(listing)}, live ones first: {listings:list(title, status)}.",
        "You have no listings like that.",
    ],
    words={
        "status": {"active": "live", "ended": "ended", "sold": "sold", "cancelled": "cancelled"},
        "format": {"auction": "auctions", "fixed_price": "fixed-price listings"},
    },
    values={"query": SEARCHES},
)

# -- after the sale -------------------------------------------------------------------------------
say.tool(
    "list_orders",
    asks=[
        "Show me my orders.",
        "Which of my orders are {status}?",
        "Show me everything {role} that's {status}.",
        "Show me what {role} recently.",
        'Find my orders with "{query}" in the title.',
        "What orders came in since {since}?",
        "Show me the things {role} since {since}.",
    ],
    tells=[
        "That's {orders:count(order)}: {orders:list(title, total:money)}.{status:yes}",
        "I found {orders:count(order)}, newest first: {orders:list(title, status)}.",
        "No orders match that.",
    ],
    words={
        "role": {"buyer": "I bought", "seller": "I sold"},
        "status": {
            "awaiting_payment": "waiting for payment",
            "paid": "paid but not shipped",
            "shipped": "shipped",
            "delivered": "delivered",
            "cancelled": "cancelled",
        },
    },
    values={"query": SEARCHES},
)
say.tool(
    "pay_order",
    asks=[
        "Pay for {order}.",
        "I'm ready to pay {order}.",
        "Please pay {order} with my card on file.",
        "Settle {order} so the seller can ship it.",
        "Pay {order} now, I don't want to lose it.",
    ],
    tells=["{@order} is paid: {total:money} went to the seller, who can ship it now."],
)
say.tool(
    "mark_shipped",
    asks=[
        "I shipped {order} with {carrier}; the tracking number is {tracking}.",
        "Mark {order} as shipped: {carrier}, tracking number {tracking}.",
        "The buyer's package for {order} went out today via {carrier}, tracking {tracking}.",
        "I dropped {order} off at {carrier}; the tracking number is {tracking}.",
        "Please mark {order} shipped with {carrier} tracking {tracking} so the buyer knows.",
    ],
    tells=[
        "{@order} is marked shipped with {carrier:state}, tracking number {tracking}; it's going to {ship_to}."
    ],
    values={
        "tracking": (
            "1Z999AA10123456784",
            "9400111899223817459382",
            "771234567890",
            "1Z4F29W80312345678",
            "9405511899562384710234",
            "4567891230",
        )
    },
    words={"carrier": {"usps": "USPS", "ups": "UPS", "fedex": "FedEx", "dhl": "DHL"}},
)
say.tool(
    "leave_feedback",
    asks=[
        "Leave {rating} feedback on {order}: {comment}",
        'Rate {order} {rating} and say "{comment}"',
        'For {order}, leave {rating} feedback saying "{comment}"',
        'I want to leave {rating} feedback for {order}: "{comment}"',
        'Please give {rating} feedback on {order}, with the comment "{comment}"',
    ],
    tells=[
        "Your {rating:state} feedback for {for_user} is posted; their score is now {their_feedback_score} "
        "({their_positive_pct}% positive).",
        "Your {rating:state} feedback for {for_user} is posted; their score is now {their_feedback_score}.",
    ],
    words={"rating": {"positive": "positive", "neutral": "neutral", "negative": "negative"}},
    values={
        "comment": (
            "Took a while, but it got sorted.",
            "Item as described, but slow to answer messages.",
            "Shipping was slow; the item itself is fine.",
            "Fair deal overall.",
        )
    },
)
