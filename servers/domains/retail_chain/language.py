"""How a retail chain's store staff speak, and what their operations assistant tells them.

The people at the console are store staff: managers and associates who count shelves, write off
damaged stock, move units between stores, check in supplier deliveries and hold items for
customers who call in. They name stores by name ("Seattle Riverside", "the Portland Flagship") or
by what they are in a city ("the outlet in Boston", "the distribution center in Denver"), products
by their catalogue name, colleagues and suppliers by name, and pickup holds by the customer they
are for. They do keep the paperwork numbers: a transfer's number and a purchase order's number
are on the packing slip. Store, product, employee and hold ids are internal and never said.

The assistant answers with the counts, prices and days asked about, as people say them, and the
one number worth keeping after a transfer or a purchase order is made.
"""

from __future__ import annotations

from servers.domains.retail_chain.model import (
    Adjustment,
    Employee,
    Pickup,
    Product,
    Reorder,
    Store,
    Supplier,
    Transfer,
    retail_chain,
)
from servers.kit import Language

say = Language(retail_chain)

# -- naming things ------------------------------------------------------------------------
say.names(
    Store,
    "{name}",
    "the {name} store",
)
say.names(Product, "the {name}", within="{row} at {owner}")
say.names(Employee, "{name}", within="{row} at {owner}", called="someone on the team")
say.names(Supplier, "{name}", "our supplier {name}")
say.names(
    Transfer,
    "the {quantity}-unit transfer requested on {created_at:day}",
    held="transfer {id}",
    within="{row} at {owner}",
    called="a transfer",
)
say.names(
    Pickup,
    "{customer_name}'s pickup",
    "the hold for {customer_name}",
    "{customer_name}'s hold from {created_at:day}",
    within="{row} at {owner}",
    called="a customer's pickup hold",
)
say.names(
    Reorder,
    "the {quantity}-unit order due {expected_day:day}",
    "the {quantity}-unit order placed on {created_at:day}",
    held="purchase order {id}",
    within="{row} for {owner}",
    called="a purchase order",
)

say.state(
    Store, "kind", flagship="flagship", standard="store", outlet="outlet", warehouse="distribution center"
)
# said of a store that is not open right now: "it's outside its opening hours", "it's closed for good"
say.state(
    Store,
    "status",
    open="outside its opening hours",
    temporarily_closed="temporarily closed",
    closed="closed for good",
)
say.state(
    Employee, "role", associate="associate", manager="store manager", regional_manager="regional manager"
)
say.state(Supplier, "status", active="active", suspended="suspended")
say.state(
    Transfer,
    "status",
    requested="waiting to ship",
    in_transit="in transit",
    received="received",
    cancelled="cancelled",
)
say.state(Pickup, "status", active="waiting", picked_up="collected", cancelled="cancelled", expired="expired")
say.state(Reorder, "status", ordered="open", received="received", cancelled="cancelled")
say.state(
    Adjustment,
    "reason",
    received="delivery received",
    damaged="damaged",
    theft="theft",
    count_correction="count correction",
    customer_return="customer return",
    transfer_out="transfer out",
    transfer_in="transfer in",
    picked_up="pickup collected",
)


def _units(n: int) -> str:
    return "1 unit" if abs(n) == 1 else f"{abs(n)} units"


# a stock change as staff say it: "remove 3 units", "add 4 units" (the sign is the verb)
DELTA = {d: ("remove " if d < 0 else "add ") + _units(d) for d in range(-500, 501) if d}
REASONS = {
    "damaged": "they were damaged",
    "theft": "they were stolen",
    "count_correction": "it's a count correction",
    "customer_return": "a customer brought them back",
    "received": "a delivery came in",
}
LEDGER_REASONS = {
    "received": "deliveries received",
    "damaged": "damage write-offs",
    "theft": "theft write-offs",
    "count_correction": "count corrections",
    "customer_return": "customer returns",
    "transfer_out": "transfers out",
    "transfer_in": "transfers in",
    "picked_up": "collected pickups",
}
CUSTOMERS = ("Maria Lopez", "James Okafor", "Priya Raman", "Tom Becker", "Aiko Tanaka", "Grace Mwangi")
PHONES = ("+1-503-555-0142", "+1-206-555-0199", "+1-415-555-0123", "+1-312-555-0187", "+1-617-555-0164")

# -- stores and people ----------------------------------------------------------------------
say.tool(
    "list_stores",
    asks=[
        "Which of our stores are in {city}?",
        "What stores do we have in {city}?",
        "List the stores in the {region} region.",
        "Show me our {kind} in the {region} region.",
        "Which stores are {status} right now?",
        "List our stores in {city}, {open_now_only}.",
        "List our {kind}.",
        "Which {status} stores do we have in the {region} region?",
    ],
    tells=[
        "In {city}, these are open right now: {stores:list(name)}.{open_now_only:yes}",
        "In {city}, these are {@status}: {stores:list(name)}.",
        "In {city} we have {stores:count(store)}: {stores:list(name)}.",
        "In the {region} region, these are {@status}: {stores:list(name)}.",
        "In the {region} region we have {stores:count(store)}: {stores:list(name)}.",
        "These stores are {@status}: {stores:list(name)}.",
        "These are open right now: {stores:list(name)}.{open_now_only:yes}",
        "We have {stores:count(store)} that fit: {stores:list(name)}.",
        "No store of ours fits that.",
    ],
    words={
        "kind": {
            "flagship": "flagship stores",
            "standard": "regular stores",
            "outlet": "outlets",
            "warehouse": "distribution centers",
        },
        "status": {"open": "open", "temporarily_closed": "temporarily closed", "closed": "closed for good"},
        "open_now_only": {True: "only the ones open right now", False: "open or not"},
    },
)
say.tool(
    "get_store",
    asks=[
        "What are the hours of {store}?",
        "Is {store} open right now, and who manages it?",
        "Give me the address and phone number of {store}.",
        "I need to call {store}; what's their number and who's the manager?",
        "When does {store} open and close?",
    ],
    tells=[
        "{name} is open right now: hours are {opens:clock} to {closes:clock} local time. It's at {address} "
        "({phone}), managed by {managers:list(name)}.{open_now:yes}",
        "{name} isn't open right now: it's {status:state}. Its hours are {opens:clock} to {closes:clock} local time; "
        "it's at {address} ({phone}), managed by {managers:list(name)}.{open_now:no}",
        "{name} is open right now: hours are {opens:clock} to {closes:clock} local time. It's at {address} ({phone}).{open_now:yes}",
        "{name} isn't open right now: it's {status:state}. Its hours are {opens:clock} to {closes:clock} local time; "
        "it's at {address} ({phone}).",
    ],
)
say.tool(
    "list_staff",
    asks=[
        "Who works at {store}?",
        "Who are the {role} at {store}?",
        "List the staff of {store}.",
        "I need to reach someone at {store}; who's on the team there?",
        "Show me everyone at {store}, {include_inactive}.",
        "Which {role} does {store} have?",
    ],
    tells=[
        "The {@role} at {@store}: {employees:list(name)}.",
        "{@store} has {employees:count(staff member)}: {employees:list(name, role)}.",
        "{@store} has no {@role}.",
        "Nobody is listed at {@store}.",
    ],
    words={
        "role": {
            "associate": "associates",
            "manager": "store managers",
            "regional_manager": "regional managers",
        },
        "include_inactive": {True: "including people who have left", False: "only current staff"},
    },
)
say.tool(
    "get_current_time",
    asks=[
        "What time is it at {store} right now?",
        "Is it still business hours at {store}? What time is it there?",
        "What's the local time at {store}?",
        "What time and day is it at head office?",
        "I'm about to call {store}; what time is it over there?",
    ],
    tells=[
        "It's {store_local_time:when} at {@store}, and the store is open.{open_now:yes}",
        "It's {store_local_time:when} at {@store}; the store is closed right now.{open_now:no}",
        "It's {now:when} at head office in Portland.",
    ],
)

# -- the catalogue and stock ----------------------------------------------------------------
say.tool(
    "find_product",
    asks=[
        "Look up {query} in the catalogue.",
        "Find {query} for me.",
        "What do we carry under {query}?",
        "Search the catalogue for {query}, {category} only.",
        "Look up {query} in the catalogue, {include_discontinued}.",
        "A customer is asking about {query}; what do we have?",
    ],
    tells=[
        'For "{query}" I found {products:count(product)}: {products:list(name, sku)}.',
        'Nothing in the catalogue matches "{query}".',
    ],
    values={
        "query": (
            "Voltline",
            "Trailhead",
            "Copperleaf",
            "cordless drill",
            "headphones",
            "camping tent",
            "dutch oven",
            "board game",
            "ELE10000",
            "KIT10014",
            "OUT10021",
        )
    },
    words={
        "category": {
            "electronics": "electronics",
            "home": "home goods",
            "kitchen": "kitchen",
            "outdoor": "outdoor gear",
            "tools": "tools",
            "toys": "toys",
        },
        "include_discontinued": {True: "discontinued ones too", False: "leaving out discontinued ones"},
    },
)
say.tool(
    "check_stock",
    asks=[
        "Do we have {product} at {store}?",
        "How many of {product} can we sell at {store}?",
        "Check stock of {product} at {store}, please.",
        "A customer wants {product}; is it in stock at {store}?",
        "How much of {product} is on the shelf at {store}, and where is it?",
        "What's {product} going for at {store}, and how many are there?",
    ],
    tells=[
        "{@store} has {available} of {@product} available to sell ({on_hand} on hand, {committed} held "
        "for pickups and transfers), in {aisle}, at {price:money}.",
    ],
)
say.tool(
    "find_stock_nearby",
    asks=[
        "Which store near {near_store} has {product} in stock?",
        "We're out of {product} at {near_store}; where's the closest store that has it?",
        "Where can a customer get {product} in or near {city}?",
        "Which stores around {city} have at least {min_quantity} of {product}?",
        "Find me the nearest stores to {near_store} with {min_quantity} or more of {product}.",
        "A customer in {city} wants {product}. Which store near them has it?",
    ],
    tells=[
        "The closest with {@product} is {stores.0.name}, {stores.0.distance_km} km away with "
        "{stores.0.available} available; {stores:count(store)} in all: {stores:list(name)}.",
        "No store near there has {min_quantity} of {@product} available.",
    ],
)
say.tool(
    "get_low_stock_report",
    asks=[
        "What's running low at {store}?",
        "Give me the low-stock report for {store}.",
        "I'm planning reorders for {store}; what's at or below its reorder point?",
        "Which items at {store} need restocking?",
        "Show me the emptiest shelves at {store}.",
    ],
    tells=[
        "{items:count(item)} at {@store} are at or below their reorder point, emptiest first: "
        "{items:list(name)}; {items.0.name} is down to {items.0.on_hand} on hand.",
        "Nothing at {@store} is running low.",
    ],
)

# -- changing stock -------------------------------------------------------------------------
say.tool(
    "adjust_inventory",
    asks=[
        "Please {delta} of {product} at {store}, {reason}.",
        "At {store}, {delta} of {product}; {reason}.",
        "Stock fix for {store}: {delta} of {product}, {reason}.",
        "Please {delta} of {product} at {store} under {employee}'s name, since {reason}.",
        "For {store}, {delta} of {product} in the system, since {reason}.",
        "On behalf of {employee}: {delta} of {product} at {store}, {reason}.",
    ],
    tells=[
        "{@product} at {@store} now has {on_hand} on hand and {available} available to sell; the change is logged."
    ],
    words={"delta": DELTA, "reason": REASONS},
)
say.tool(
    "record_stock_count",
    asks=[
        "We counted {counted} of {product} on the shelf at {store}; update the stock.",
        "Stock take at {store}: we have {counted} of {product}.",
        "Set the count of {product} at {store} to {counted}, we just counted them.",
        "Please record {employee}'s count at {store}: {counted} of {product}.",
        "The shelf count for {product} at {store} came out at {counted}; put that in.",
    ],
    tells=[
        "Recorded the count: {@product} at {@store} went from {previous_on_hand} to {on_hand} on hand, "
        "{available} available to sell."
    ],
)
say.tool(
    "list_adjustments",
    asks=[
        "Show me the stock history of {product} at {store}.",
        "What stock changes were logged at {store} lately?",
        "Why did the count of {product} at {store} change? Show me the log.",
        "List the {reason} at {store}.",
        "Show me the last {limit} stock changes at {store}.",
        "Any {reason} for {product} at {store}?",
    ],
    tells=[
        "{@reason} for {@product} at {@store}: {adjustments:count(entry)}, the latest on "
        "{adjustments.0.at:day}.",
        "{@reason} at {@store}: {adjustments:count(entry)}, the latest on {adjustments.0.at:day}.",
        "{@store} has {adjustments:count(stock change)} logged for {@product}, newest first: "
        "{adjustments:list(reason, at:day)}.",
        "{@store} logged {adjustments:count(stock change)}, newest first: {adjustments:list(reason, at:day)}.",
        "No stock changes like that are logged at {@store}.",
    ],
    words={"reason": LEDGER_REASONS},
)
say.tool(
    "set_store_price",
    asks=[
        "Take {percent_off}% off {product} at {store} until {until_day}.",
        "Mark {product} down to {price} at {store} through {until_day}.",
        "We need to move {product} at {store}: {percent_off}% off through {until_day}.",
        "Put {product} on sale at {store} for {price} until {until_day}, approved by {employee}.",
        "Price {product} at {store} at {price} through {until_day}, it's not selling.",
        "With {employee}'s approval, take {percent_off}% off {product} at {store} until {until_day}.",
    ],
    tells=[
        "{@product} at {@store} is now {price:money}, {percent_off}% off its {base_price:money} base price, "
        "through {until_day:day}."
    ],
)

# -- transfers between stores ---------------------------------------------------------------
say.tool(
    "create_transfer",
    asks=[
        "Request {quantity} of {product} from {from_store} for {to_store}.",
        "Send {quantity} of {product} from {from_store} to {to_store}.",
        "We're short on {product} at {to_store}; move {quantity} over from {from_store}.",
        "Set up a transfer of {quantity} of {product} from {from_store} to {to_store}.",
        "Please transfer {quantity} of {product} from {from_store} to {to_store}, {employee} is asking.",
        "We need {quantity} of {product} at {to_store}. Can {from_store} send them?",
    ],
    tells=[
        "Transfer {id} is requested: {quantity} of {@product} from {@from_store} to {@to_store}. "
        "The units are set aside at {@from_store} until it ships.",
    ],
)
say.tool(
    "ship_transfer",
    asks=[
        "Ship {transfer}.",
        "We've packed {transfer}; mark it shipped.",
        "The truck just left with {transfer}, please mark it as shipped.",
        "Mark {transfer} shipped; {employee} packed it.",
        "Please send out {transfer}.",
    ],
    tells=["{@transfer} is shipped: {quantity:count(unit)} on the way."],
)
say.tool(
    "receive_transfer",
    asks=[
        "Check in {transfer}, it just arrived.",
        "Receive {transfer}, please.",
        "We got {transfer}; {quantity_received} units were in the box.",
        "Check in {transfer}; we counted {quantity_received} in the delivery.",
        "Mark {transfer} received; {employee} unloaded it.",
    ],
    tells=[
        "{@transfer} is received: {quantity_received} of the {quantity} units shipped came in, and the receiving "
        "store now has {on_hand_at_destination} on hand."
    ],
)
say.tool(
    "cancel_transfer",
    asks=[
        "Cancel {transfer}, we don't need it any more.",
        "Call off {transfer}.",
        "We sold through locally, so please cancel {transfer}.",
        "Please cancel {transfer}; {employee} asked for it.",
        "Please cancel {transfer} before it ships.",
    ],
    tells=["{@transfer} is cancelled; {quantity:count(unit)} can be sold again at the sending store."],
)
say.tool(
    "list_transfers",
    asks=[
        "Which transfers involve {store}?",
        "Show me the {direction} transfers at {store}.",
        "Which transfers at {store} are {status}?",
        "What's {status} for {store}?",
        "List the {direction} transfers at {store} that are {status}.",
        "Show me the last {limit} transfers at {store}.",
    ],
    tells=[
        "{@store} has {transfers:count(transfer)} {@status} ({@direction}): {transfers:list(id)}.",
        "{@store} has {transfers:count(transfer)} {@status}: {transfers:list(id)}.",
        "I found {transfers:count(transfer)} at {@store} ({@direction}): {transfers:list(id, status)}.",
        "I found {transfers:count(transfer)} at {@store}: {transfers:list(id, status)}.",
        "There are no transfers like that at {@store}.",
    ],
    words={
        "direction": {"inbound": "inbound", "outbound": "outbound", "any": "inbound and outbound"},
        "status": {
            "requested": "waiting to ship",
            "in_transit": "in transit",
            "received": "already received",
            "cancelled": "cancelled",
        },
    },
)

# -- pickup holds ---------------------------------------------------------------------------
say.tool(
    "reserve_for_pickup",
    asks=[
        "Hold {quantity} of {product} at {store} for {customer_name}, phone {customer_phone}.",
        "I have a customer on the phone, {customer_name} ({customer_phone}); please put {quantity} of "
        "{product} aside at {store} for pickup.",
        "For pickup at {store}: {quantity} of {product} for {customer_name}, phone {customer_phone}.",
        "Reserve {quantity} of {product} at {store} for {customer_name}, {customer_phone}.",
        "Set up a pickup at {store}: {quantity} of {product} for {customer_name}, reachable at {customer_phone}.",
    ],
    tells=[
        "I've put {quantity} of {@product} on hold for {customer_name} at {@store}; the hold runs until "
        "{expires_at:when}.",
    ],
    values={"customer_name": CUSTOMERS, "customer_phone": PHONES},
)
say.tool(
    "complete_pickup",
    asks=[
        "Mark {pickup} as picked up, the customer just came in.",
        "The customer came in for {pickup}; mark it picked up.",
        "Close out {pickup}; {employee} handed it over at the counter.",
        "Close out {pickup}, they've got their stuff.",
        "Please mark {pickup} as collected.",
    ],
    tells=["Done: {customer_name} has collected {quantity:count(unit)}, and the hold is closed."],
)
say.tool(
    "cancel_pickup",
    asks=[
        "Cancel {pickup}, the customer isn't coming.",
        "Release {pickup}.",
        "Cancel {pickup} and put the items back on the shelf.",
        "The customer called to say they don't need it; please cancel {pickup}.",
        "Drop {pickup}, nobody's coming for it.",
    ],
    tells=["{customer_name}'s hold is {status:state}; {released:count(unit)} can be sold again."],
)
say.tool(
    "list_pickups",
    asks=[
        "Which pickup holds does {store} have?",
        "Show me the pickup holds at {store}.",
        "Which holds at {store} are {status}?",
        "Any pickups at {store} that are {status}?",
        "List the last {limit} pickup holds at {store}.",
    ],
    tells=[
        "{@store} has {pickups:count(pickup hold)} {@status}: {pickups:list(customer_name)}.",
        "{@store} has {pickups:count(pickup hold)}: {pickups:list(customer_name, status)}.",
        "{@store} has no {@status} pickup holds.",
        "There are no pickup holds at {@store}.",
    ],
    words={
        "status": {
            "active": "waiting to be collected",
            "picked_up": "already picked up",
            "cancelled": "cancelled",
            "expired": "expired",
        }
    },
)

# -- suppliers and reorders -----------------------------------------------------------------
say.tool(
    "list_suppliers",
    asks=[
        "Which suppliers do we work with?",
        "List our suppliers.",
        "Which of our suppliers are {status}?",
        "Show me the {status} suppliers.",
        "Who are our {status} vendors?",
    ],
    tells=[
        "{suppliers:count(supplier)} are {@status}: {suppliers:list(name)}.",
        "We have {suppliers:count(supplier)}: {suppliers:list(name, status)}.",
        "No supplier is {@status}.",
    ],
    words={"status": {"active": "active", "suspended": "suspended"}},
)
say.tool(
    "create_reorder",
    asks=[
        "Order {quantity} more of {product} for {store} from {supplier}.",
        "We're low on {product} at {store}; reorder {quantity} from {supplier}.",
        "Place a purchase order with {supplier}: {quantity} of {product}, delivered to {store}.",
        "For {employee}: order {quantity} of {product} from {supplier} for {store}.",
        "Reorder {product} for {store}, {quantity} units from {supplier}.",
    ],
    tells=[
        "Purchase order {id} is placed with {@supplier}: {quantity} of {@product} for {@store}, "
        "expected on {expected_day:day}."
    ],
)
say.tool(
    "receive_reorder",
    asks=[
        "The delivery for {reorder} arrived; check it in.",
        "We received {reorder}: {quantity_received} units came in.",
        "Receive {reorder}, please.",
        "Check in {reorder}: {employee} signed for it and counted {quantity_received}.",
        "Check in {reorder}, the supplier dropped it off this morning.",
    ],
    tells=[
        "{@reorder} is received: {quantity_received} of the {quantity} units ordered came in, and the store "
        "now has {on_hand} on hand."
    ],
)
say.tool(
    "cancel_reorder",
    asks=[
        "Cancel {reorder}, we don't need it any more.",
        "Call off {reorder}.",
        "We got stock by transfer instead; cancel {reorder}.",
        "Please cancel {reorder}; {employee} asked me to.",
        "Please cancel {reorder} with the supplier.",
    ],
    tells=["{@reorder} is cancelled; its {quantity:count(unit)} won't show as incoming any more."],
)
say.tool(
    "list_reorders",
    asks=[
        "What's on order for {store}?",
        "Which purchase orders for {store} are {status}?",
        "Show me the reorders for {store}.",
        "Which purchase orders do we have for {store}?",
        "List the {status} purchase orders of {store}.",
        "Show me the last {limit} purchase orders for {store}.",
    ],
    tells=[
        "{@store} has {reorders:count(purchase order)} {@status}: {reorders:list(id, expected_day:day)}.",
        "{@store} has {reorders:count(purchase order)}: {reorders:list(id, status)}.",
        "{@store} has no {@status} purchase orders.",
        "There are no purchase orders for {@store}.",
    ],
    words={"status": {"ordered": "still open", "received": "received", "cancelled": "cancelled"}},
)
