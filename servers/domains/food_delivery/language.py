"""How a delivery app's customers, restaurant staff and dispatchers speak, and what its assistant says.

Three kinds of people use this console, each in their own words:

* a **customer** orders for themself: restaurants by name ("Tidewater Pizzeria", "Blue Door Cafe in
  Portland"), dishes by name at a restaurant ("the Pad Thai from Saffron Thai Kitchen"), their own
  orders by restaurant and time ("my Tidewater Pizzeria order from this morning") or by the order
  number the app showed them, promo codes as typed ("SAVE10");
* **restaurant staff** run their kitchen: pause the place when the kitchen is swamped, mark a dish
  sold out, accept, decline or finish the orders in their queue ("the order placed at 8:52 am");
* a **dispatcher** sends couriers, by name, never by an internal number.

The assistant answers with what was asked: amounts in dollars, times in words, the order number
after a checkout (the one identifier a customer keeps), courier names; never internal ids.
"""

from __future__ import annotations

from servers.domains.food_delivery.model import (
    Courier,
    Customer,
    MenuItem,
    Order,
    Promo,
    Restaurant,
    food_delivery,
)
from servers.kit import Language

say = Language(food_delivery, speaker=("customer",))

# -- naming things ------------------------------------------------------------------------------
say.names(Customer, "{name}")
say.names(Restaurant, "{name}", "{name} in {city}")
say.names(MenuItem, "the {name}", within="{row} from {owner}")  # "the Pad Thai from Saffron Thai Kitchen"
say.names(
    Order,
    "my {restaurant} order from {placed_at:when}",
    "my {total:money} order from {restaurant}",
    "the {restaurant} order placed {placed_at:when}",
    "the order placed {placed_at:when}",
    "the {total:money} order placed {placed_at:when}",
    held="order {id}",
    shown=("restaurant",),
)
say.names(Courier, "{name}")
say.names(Promo, held="{id}")  # the code as typed: "SAVE10"

say.state(
    Order,
    "status",
    placed="waiting for the restaurant",
    accepted="being prepared",
    ready="ready for pickup",
    picked_up="out for delivery",
    delivered="delivered",
    cancelled="cancelled",
    rejected="declined by the restaurant",
)
say.state(Restaurant, "status", online="online", paused="paused", closed="off the app")
say.state(
    Restaurant,
    "cuisine",
    american="American",
    breakfast="breakfast",
    cafe="café",
    chinese="Chinese",
    indian="Indian",
    italian="Italian",
    japanese="Japanese",
    mediterranean="Mediterranean",
    mexican="Mexican",
    thai="Thai",
)
say.state(Courier, "status", available="available", busy="out on a delivery", offline="offline")
say.state(Courier, "vehicle", bike="by bike", scooter="by scooter", car="by car")

CUISINE = {
    "american": "American",
    "breakfast": "breakfast",
    "cafe": "café",
    "chinese": "Chinese",
    "indian": "Indian",
    "italian": "Italian",
    "japanese": "Japanese",
    "mediterranean": "Mediterranean",
    "mexican": "Mexican",
    "thai": "Thai",
}

# -- anyone -------------------------------------------------------------------------------------
say.tool(
    "get_current_time",
    by=("user", "staff", "dispatch", "support"),
    asks=[
        "What time is it in {city} right now?",
        "What's the local time in {city}?",
        "Before I order: what time is it over in {city}?",
        "Is it morning yet in {city}? What time is it there?",
        "What day and time is it in {city} at the moment?",
    ],
    tells=["It's {local_time:when} in {city}."],
)

# -- the customer: finding food -----------------------------------------------------------------
say.tool(
    "search_restaurants",
    asks=[
        "Which {cuisine} places deliver to {customer}?",
        "I'm hungry. What {cuisine} restaurants can deliver to {customer}, {open_now}?",
        "Find me a {query} on the app.",
        "Is there a good {query} near {near}?",
        "I feel like ordering from a {query}. What is there near {near}?",
        "What {cuisine} restaurants are there near {near}?",
        "Show me {cuisine} places near {near}, {open_now}.",
        "Which {cuisine} places deliver to {customer}, {sort}?",
        "Any {cuisine} places that deliver to {customer} for at most {max_delivery_fee} delivery?",
    ],
    tells=[
        "{restaurants:count(place)} came up: {restaurants:list(name)}.",
        "I couldn't find any place that fits.",
    ],
    words={
        "cuisine": CUISINE,
        "open_now": {True: "only ones open right now", False: "open or not"},
        "sort": {
            "rating": "best rated first",
            "distance": "closest first",
            "delivery_fee": "cheapest delivery first",
            "name": "in alphabetical order",
        },
    },
    values={
        "query": (
            "taqueria",
            "pizzeria",
            "noodle house",
            "ramen bar",
            "curry house",
            "thai kitchen",
            "pancake house",
            "bakery",
            "espresso bar",
            "diner",
            "dumpling bar",
            "trattoria",
        ),
        "max_delivery_fee": (2, 3, 4),
        "near": (
            "Portland",
            "Seattle",
            "Denver",
            "Chicago",
            "14 Elm St, Portland",
            "230 Oak Ave, Seattle",
            "118 Maple Dr, Denver",
        ),
    },
)
say.tool(
    "get_restaurant",
    by=("user", "staff"),
    asks=[
        "Is {restaurant} open right now?",
        "What are the opening hours of {restaurant}?",
        "Does {restaurant} deliver to {customer}, and what's the delivery fee?",
        "Can I order from {restaurant} right now? Does it deliver to {customer}?",
        "Tell me about {restaurant}: is it any good, and is it open?",
        "I'm thinking of ordering from {restaurant}. Is it taking orders?",
    ],
    tells=[
        "{name} is open and taking orders, and it delivers to you for free.{taking_orders:yes}"
        "{delivery_to_customer.delivers:yes}{delivery_to_customer.delivery_fee:no}",
        "{name} is open and taking orders, and it delivers to you for {delivery_to_customer.delivery_fee:money}."
        "{taking_orders:yes}{delivery_to_customer.delivers:yes}",
        "{name} is open, but it doesn't deliver as far as {delivery_to_customer.address}."
        "{open_now:yes}{delivery_to_customer.delivers:no}",
        "{name} isn't taking orders right now; it next opens {next_opening:when}. It does deliver to you, "
        "for {delivery_to_customer.delivery_fee:money}.{delivery_to_customer.delivers:yes}",
        "{name} isn't taking orders right now, and it doesn't deliver as far as {delivery_to_customer.address}."
        "{taking_orders:no}",
        "{name} is open and taking orders: today's hours are {hours.monday:clock}, it's rated {rating} out of 5, "
        "and delivery is {delivery_fee:money}.{taking_orders:yes}",
        "{name} is closed right now; it next opens {next_opening:when}. It's rated {rating} out of 5.",
        "{name} has paused orders on the app until {paused_until:when}.",
        "{name} isn't taking orders on the app right now.",
    ],
)
say.tool(
    "get_restaurant_menu",
    by=("user", "staff"),
    asks=[
        "What's on the menu at {restaurant}?",
        "Can I see the menu of {restaurant}?",
        "What can I order from {restaurant}?",
        "Show me the {section} at {restaurant}.",
        "What do they have under {section} at {restaurant}?",
        "What can I get from {restaurant} right now? {available_only}.",
        "I'm ordering from {restaurant} tonight; what's on their menu?",
    ],
    tells=[
        "Under {section}, {restaurant} has {items:count(dish)}: {items:list(name, price:money)}.",
        "{restaurant} has {items:count(dish)} on the menu, such as {items:list(name, price:money)}.",
        "{restaurant} has nothing on that part of the menu right now.",
    ],
    words={"available_only": {True: "Just what isn't sold out", False: "Sold-out dishes too"}},
    values={"section": ("Drinks", "Sides", "Starters", "Desserts")},
)

# -- the customer: account and cart -------------------------------------------------------------
say.tool(
    "find_customer",
    asks=[
        "My email is {email}, can you find my account?",
        "Look me up by my email, {email}.",
        "I order under {email}.",
        "Can you pull up my account? The email is {email}.",
        "My account is under {email}.",
    ],
    tells=["I found your account, {name}."],
)
say.tool(  # support's question about a caller: the one found may be someone other than the speaker
    "find_customer_by_phone",
    by="support",
    asks=[
        "A customer is calling from {phone}; which account is it?",
        "Who's the customer with the phone number {phone}?",
        "Can you look up the account for {phone}? They're on the line now.",
        "Someone called about their order from {phone}. Which customer is it?",
        "Find the account that has the number {phone}, please.",
    ],
    tells=["That number is on {customers.0.name}'s account.", "No account has that number."],
)
say.tool(
    "view_cart",
    asks=[
        "What's in my cart?",
        "Show me my cart and what it comes to with fees.",
        "What have I got in my cart right now?",
        "How much is my cart with delivery and fees?",
    ],
    tells=[
        "Your cart from {restaurant.name} has {lines:count(item)}: {lines:list(name)}. That's "
        "{subtotal:money}, about {estimated_total_before_tip:money} with delivery and service fees before tip.",
        "Your cart is empty.",
    ],
)
say.tool(
    "add_to_cart",
    asks=[
        "Add {item} to my cart.",
        "Put {quantity} of {item} in my cart.",
        "I'll have {quantity} of {item}, please add them to my cart.",
        "Add {item} to my cart with a note for the kitchen: {note}.",
        "Please put {quantity} of {item} in my cart, and tell them '{note}'.",
        "Can you add {item} to my cart? I'm ordering dinner.",
    ],
    tells=[
        "Added {@item}; your cart from {cart.restaurant.name} comes to {cart.subtotal:money} so far.",
        "Added {@item} to your cart.",
    ],
    values={
        "note": (
            "no onions",
            "extra spicy please",
            "sauce on the side",
            "no cilantro",
            "please cut it in half",
            "extra napkins please",
        )
    },
)
say.tool(
    "update_cart_item",
    asks=[
        "Make it {quantity} of {item} in my cart.",
        "Change {item} in my cart to {quantity}.",
        "I need {quantity} of {item} instead, friends are coming over.",
        "Set {item} in my cart to {quantity}.",
        "Can you change the quantity of {item} in my cart to {quantity}?",
    ],
    tells=[
        "You now have {line.quantity} of {line.name} in your cart; it comes to {cart.subtotal:money}.",
    ],
)
say.tool(
    "remove_from_cart",
    asks=[
        "Take {item} out of my cart.",
        "Remove {item} from my cart, I changed my mind.",
        "I don't want {item} after all, please remove it from my cart.",
        "Please drop {item} from my cart.",
        "Get rid of {item} in my cart.",
    ],
    tells=[
        "{@item} is out of your cart; what's left is {cart.lines:list(name)}, {cart.subtotal:money} in all.",
        "{@item} is out of your cart, which is now empty.",
    ],
)
say.tool(
    "place_order",
    asks=[
        "Check out my cart, please.",
        "Place my order with a {tip} dollar tip.",
        "I'm ready to order: tip {tip} dollars and use the code {promo_code}.",
        "Place the order in my cart with the promo code {promo_code}.",
        "Check out my cart but deliver it to {address} instead of home.",
        "Order what's in my cart for {scheduled_for}, with a {tip} dollar tip.",
        "Schedule my cart for {scheduled_for}.",
    ],
    tells=[
        "Your order {id} is placed for {scheduled_for:when}: {items:count(item)}, {total:money} in all.",
        "Your order {id} is placed: {items:count(item)}, {total:money} after {discount:money} off with "
        "{promo_code}. It should arrive around {eta:when}.",
        "Your order {id} is placed: {items:count(item)}, {total:money} in all. It should arrive around {eta:when}.",
    ],
    values={"tip": (2, 3, 4, 5)},
)

# -- the customer: orders -----------------------------------------------------------------------
say.tool(
    "list_customer_orders",
    asks=[
        "What have I ordered lately?",
        "Show me my orders.",
        "Which of my orders are {status}?",
        "Do I have any orders {status}?",
        "Show me my last {limit} orders.",
    ],
    tells=[
        "You have {orders:count(order)} {status:state}: {orders:list(restaurant, placed_at:when)}.",
        "None of your orders are {status:state}.",
        "Your latest orders: {orders:list(restaurant, placed_at:when)}.",
        "You haven't ordered anything yet.",
    ],
)
say.tool(
    "get_order",
    by=("user", "staff", "dispatch", "support"),
    asks=[
        "What was in {order}?",
        "Can you pull up {order}?",
        "How much did I pay for {order}?",
        "Show me the details of {order}.",
        "What's going on with {order}?",
    ],
    tells=[
        "{@order} is {status:state}: {items:list(name)}, {total:money} in all.",
        "{@order} is {status:state}, {total:money} in all.",
    ],
)
say.tool(
    "track_order",
    by=("user", "dispatch", "support"),
    asks=[
        "Where's {order}?",
        "When will {order} get here?",
        "Can you track {order}? I'm starving.",
        "How far away is {order}?",
        "Is {order} on its way yet?",
    ],
    tells=[
        "{@order} is {status:state}; {courier.name} is bringing it and it should arrive around {eta:when}, "
        "in about {minutes_left} minutes.",
        "{@order} is {status:state}; it should arrive around {eta:when}, in about {minutes_left} minutes.",
        "{@order} is {status:state}.",
    ],
)
say.tool(
    "cancel_order",
    asks=[
        "Please cancel {order}, {reason}.",
        "I need to cancel {order}: {reason}.",
        "Can you cancel {order}? Honestly, {reason}.",
        "I want to cancel {order} because {reason}.",
        "Cancel {order} please, {reason}.",
    ],
    tells=[
        "{@order} is cancelled free of charge; {refunds:sum(amount)} goes back to you.{cancel_fee:no}",
        "{@order} is cancelled. The kitchen had already accepted it, so {cancel_fee:money} is kept as a fee "
        "and {refunds:sum(amount)} comes back to you.",
        "{@order} is cancelled; the {cancel_fee:money} fee covers the whole order, so nothing comes back.",
    ],
    words={
        "reason": {
            "customer_request": "I changed my mind",
            "ordered_by_mistake": "I ordered it by mistake",
            "taking_too_long": "it's taking way too long",
            "wrong_address": "it's going to the wrong address",
            "restaurant_request": "the restaurant asked me to cancel it",
            "other": "something came up",
        }
    },
)
say.tool(
    "issue_refund",
    asks=[
        "I'd like a refund of {amount} on {order} because {reason}.",
        "Please refund {amount} on {order}: {reason}.",
        "Refund {amount} on {order} {method}, because {reason}.",
        "Can I get {amount} back for {order}? Unfortunately {reason}.",
        "I want {amount} back {method} for {order}; {reason}.",
        "About {order}: {reason}. Please give me {amount} back.",
    ],
    tells=[
        "I've refunded {amount:money} on {@order}, {@method}.",
        "I've refunded {amount:money} on {@order}; it goes back to the card you paid with.",
    ],
    words={
        "reason": {
            "missing_item": "something was missing",
            "wrong_item": "I got the wrong dish",
            "late": "it arrived late",
            "quality": "the food was cold and soggy",
            "cancelled": "it was cancelled and I was still charged a fee",
        },
        "method": {"original": "to my card", "credit": "as app credit"},
    },
)
say.tool(
    "rate_order",
    asks=[
        "Rate {order} {stars}.",
        "I'd give {order} {stars}.",
        "Please leave {stars} for {order}.",
        "Give {order} {stars} and say: {comment}",
        "I think {order} deserves {stars}. Add the comment '{comment}'.",
    ],
    tells=["Thanks, {@order} is rated {stars} out of 5."],
    words={"stars": {1: "1 star", 2: "2 stars", 3: "3 stars", 4: "4 stars", 5: "5 stars"}},
    values={
        "comment": (
            "Arrived hot and fast",
            "Food was cold when it got here",
            "Great as always",
            "The courier was really friendly",
            "Portions were smaller than usual",
            "Took ages, but tasty",
        )
    },
)

# -- restaurant staff ---------------------------------------------------------------------------
say.tool(
    "list_restaurant_orders",
    by="staff",
    asks=[
        "What new orders do we have at {restaurant}?",
        "Anything new in the queue at {restaurant}?",
        "Which {status} orders does {restaurant} have?",
        "Show me the {status} orders at {restaurant}.",
        "I'm on shift at {restaurant}; which orders are {status}?",
    ],
    tells=[
        "{@restaurant} has {orders:count(order)} {@status}: {orders:list(placed_at:when, total:money)}.",
        "{@restaurant} has {orders:count(new order)}: {orders:list(placed_at:when, total:money)}.",
        "{@restaurant} has no {@status} orders right now.",
        "There are no new orders at {@restaurant} right now.",
    ],
    words={
        "status": {
            "placed": "new",
            "accepted": "accepted",
            "ready": "ready",
            "picked_up": "picked-up",
            "delivered": "delivered",
            "cancelled": "cancelled",
            "rejected": "declined",
        }
    },
)
say.tool(
    "set_restaurant_status",
    by="staff",
    asks=[
        "Can you put {restaurant} {status}?",
        "Please put {restaurant} {status} on the app.",
        "I manage {restaurant}; put us {status}.",
        "Our oven is being repaired. Put {restaurant} {status} until {paused_until}.",
        "We're short-staffed today, put {restaurant} {status} until {paused_until}.",
        "Set {restaurant} {status} for now, please.",
    ],
    tells=[
        "{name} is paused on the app until {paused_until:when}; no new orders will come in until then.",
        "{name} is back online and taking orders.{taking_orders:yes}",
        "{name} is back online; orders will come in once it opens {next_opening:when}.",
        "{name} is back online on the app.",
    ],
    words={"status": {"online": "back online", "paused": "on pause"}},
)
say.tool(
    "set_item_availability",
    by="staff",
    asks=[
        "Mark {item} {availability}.",
        "Please show {item} as {availability} on our menu.",
        "Update our menu: {item} is {availability}.",
        "Can you set {item} to {availability}?",
        "Kitchen update, {item} is {availability}. Change it on the app please.",
    ],
    tells=[
        "{name} is marked sold out; customers can't order it until you bring it back.{sold_out:yes}",
        "{name} is back on the menu and can be ordered again.",
    ],
    words={"availability": {"available": "available again", "sold_out": "sold out"}},
)
say.tool(
    "accept_order",
    by="staff",
    asks=[
        "Accept {order}.",
        "We'll take {order}; it needs {prep_minutes} minutes.",
        "Please accept {order} with a prep time of {prep_minutes} minutes.",
        "Go ahead and accept {order}, the food will be ready in {prep_minutes} minutes.",
        "Confirm {order} for us, usual prep time.",
    ],
    tells=[
        "{@order} is accepted; the food should be ready in {prep_minutes} minutes and reach the customer "
        "around {eta:when}.",
    ],
)
say.tool(
    "reject_order",
    by="staff",
    asks=[
        "Please decline {order}: {reason}.",
        "We have to turn down {order}, {reason}.",
        "Reject {order}, {reason}.",
        "Decline {order}, {reason}: {out_of_stock_items} ran out.",
        "We can't make {order} ({reason}), so please decline it.",
    ],
    tells=[
        "{@order} is declined and the customer gets their {total:money} back; the items that ran out are now "
        "marked sold out.{sold_out:yes}",
        "{@order} is declined and the customer gets their {total:money} back.",
    ],
    words={
        "reason": {
            "out_of_items": "we've run out of something in it",
            "kitchen_closed": "the kitchen is closed",
            "too_busy": "we're too busy right now",
            "other": "we just can't do it",
        }
    },
)
say.tool(
    "mark_order_ready",
    by="staff",
    asks=[
        "Heads up, {order} is ready for pickup.",
        "The food for {order} is bagged and ready.",
        "Mark {order} ready, please.",
        "We just finished {order}, the courier can come get it.",
        "Please set {order} to ready for pickup.",
    ],
    tells=[
        "{@order} is marked ready for pickup; it should reach the customer around {eta:when}.",
    ],
)

# -- dispatch -----------------------------------------------------------------------------------
say.tool(
    "list_couriers",
    by=("dispatch", "staff"),
    asks=[
        "Which couriers are free near {restaurant}?",
        "Who can pick up from {restaurant} right now?",
        "Which couriers near {restaurant} are {status}?",
        "Show me the couriers around {restaurant} who are {status}.",
        "I need a courier for {restaurant}; who's closest?",
    ],
    tells=[
        "I see {couriers:count(courier)} {status:state} around {restaurant.name}: {couriers:list(name)}.",
        "{couriers:count(courier)} are free near {restaurant.name}; the closest is {couriers.0.name}, "
        "{couriers.0.distance_km} km away {couriers.0.vehicle:state}.",
        "No couriers are {status:state} around {restaurant.name} right now.",
        "No couriers are free near {restaurant.name} right now.",
    ],
)
say.tool(
    "assign_courier",
    by="dispatch",
    asks=[
        "Get a courier on {order}.",
        "Assign the nearest courier to {order}.",
        "Send {courier} to pick up {order}.",
        "We need a courier for {order}, whoever is closest.",
        "Please dispatch {courier} for {order}.",
    ],
    tells=[
        "{courier.name} is taking {@order}, {courier.vehicle:state}; it should arrive around {eta:when}.",
    ],
)
say.tool(
    "confirm_pickup",
    by="dispatch",
    asks=[
        "The courier just picked up {order}.",
        "The courier has left with {order}.",
        "Please confirm pickup of {order}.",
        "Our courier has {order} now, mark it picked up.",
        "The courier collected {order}, update it please.",
    ],
    tells=["{@order} is out for delivery; it should arrive around {eta:when}."],
)
say.tool(
    "confirm_delivery",
    by="dispatch",
    asks=[
        "The courier just delivered {order}.",
        "The courier handed over {order}.",
        "Please mark {order} as delivered.",
        "Please confirm {order} arrived at the door just now.",
        "Confirm that {order} was delivered, please.",
    ],
    tells=[
        "{@order} is delivered, later than its estimated {eta:when}.{late:yes}",
        "{@order} is delivered, on time.",
    ],
)
