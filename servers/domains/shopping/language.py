"""How an online store's customers speak, and what its assistant tells them.

A shopper talks about things they can see on the site or in their own account: products by
name ("the Kestrel Everyday Dark Chocolate"), the lines of their cart by the product in them,
their saved addresses by label or street ("my work address", "261 Grant St"), their cards by
the label the site shows ("my Visa ending 4242"). They never know a product's or an address's
internal id; they do keep an order number, and a return number once the store gives them one.
The assistant answers with the amounts, dates and states they asked about, in dollars and
days, and nothing else.
"""

from __future__ import annotations

from servers.domains.shopping import (
    Address,
    CartItem,
    Category,
    Customer,
    Order,
    OrderItem,
    PaymentMethod,
    Product,
    Return,
    shopping,
)
from servers.kit import Language

say = Language(shopping, speaker=("customer",))

# -- naming things ------------------------------------------------------------------------
say.names(Customer, "{name}")
say.names(Category, "{name}", "the {name} section")
say.names(Product, "the {name}", within="{row} from {owner}")  # "the X from the Grocery section"
say.names(CartItem, "the {name} in my cart", shown=("name",))
say.names(Address, "my {label} address", "{street}", "my address on {street}")
say.names(PaymentMethod, "my {label}")
say.names(Order, "my order from {placed_at:day}", "my {total:money} order", held="order {id}")
say.names(
    OrderItem,
    "the {name} from order {order_id}",
    "the {name} I got in order {order_id}",
    shown=("name",),
    found_in={"get_order": ("items", "id", "order_id")},
)
say.names(Return, "my return on order {order_id}", held="return {id}")

say.state(
    Order,
    "status",
    placed="newly placed",
    processing="still processing",
    shipped="on the way",
    delivered="delivered",
    cancelled="cancelled",
)
say.state(
    Return, "status", requested="waiting for the item to come back", approved="approved", refunded="refunded"
)
say.state(Address, "label", parents="parents'")
say.state(PaymentMethod, "label", **{"PayPal": "PayPal account", "Store gift card": "store gift card"})
say.state(PaymentMethod, "kind", card="card", paypal="PayPal", gift_card="gift card")


IN_STOCK = {True: "only what's in stock", False: "sold-out ones too"}
STARS = {1: "1 star", 2: "2 stars", 3: "3 stars", 4: "4 stars", 5: "5 stars"}

# -- the catalog ----------------------------------------------------------------------------
say.tool(
    "list_categories",
    asks=[
        "What categories do you sell?",
        "What kinds of things does the store carry?",
        "Which departments do you have?",
    ],
    tells=["We have {categories:count(category)}: {categories:list(name)}."],
)
say.tool(
    "browse_category",
    asks=[
        "What do you have in {category}?",
        "Show me what's in {category}.",
        "I'm shopping for something in {category}; what do you sell there?",
        "Show me everything in {category}, {in_stock_only}.",
        "What are the {limit} cheapest things in {category}?",
        "List {limit} products from {category}, cheapest first, {in_stock_only}.",
    ],
    tells=[
        "In {@category}, cheapest first: {products:list(name)}.",
        "There's nothing in {@category} that fits right now.",
    ],
    words={"in_stock_only": IN_STOCK},
)
say.tool(
    "search_products",
    asks=[
        "Do you have any {query}?",
        "I'm looking for {query}; what have you got?",
        "Find me {query} under {max_price}.",
        "Show me {query} between {min_price} and {max_price}.",
        "Any {query} over {min_price}? I want something decent.",
        "Find {query} for me, {in_stock_only}.",
        "What are your {limit} cheapest {query}?",
    ],
    tells=[
        'For "{query}" I found {products:count(product)}, cheapest first: {products:list(name)}.',
        'I found nothing for "{query}".',
    ],
    values={
        "query": (
            "headphones",
            "coffee",
            "green tea",
            "sunscreen",
            "olive oil",
            "dark chocolate",
            "granola",
            "running shoes",
            "denim jeans",
            "building blocks",
            "shampoo",
            "lip balm",
        )
    },
    words={"in_stock_only": IN_STOCK},
)
say.tool(
    "get_product",
    asks=[
        "Tell me about {product}.",
        "How much is {product}, and do you have it in stock?",
        "Is {product} in stock?",
        "What does {product} cost?",
        "I'm thinking of buying {product}; what's the price and how is it rated?",
    ],
    tells=[
        "The {name} costs {price:money} and is rated {rating} out of 5; we have {stock} left "
        "(at most {max_per_order} per order).",
        "The {name} costs {price:money}; we have {stock} left (at most {max_per_order} per order).",
    ],
)
say.tool(
    "list_reviews",
    asks=[
        "What do people say about {product}?",
        "Is {product} any good? Show me the reviews.",
        "Show me the reviews of {product}.",
        "Show me the latest {limit} reviews of {product}.",
        "Before I buy {product}, what are the reviews like?",
    ],
    tells=[
        "{@product} is rated {rating} out of 5 by its reviewers ({review_count} so far).",
        "{@product} has no reviews yet.",
    ],
)
say.tool(
    "write_review",
    asks=[
        'Post a review of {product}: {rating}, titled "{title}".',
        'I\'d like to review {product}. {rating}, headline "{title}".',
        'Leave {rating} for {product} with the title "{title}", and the text: {body}',
        'Rate {product} {rating}. Title it "{title}" and write: {body}',
        'Please review {product} for me, {rating}, "{title}".',
    ],
    tells=["Your {rating}-star review of {@product} is posted."],
    values={
        "title": (
            "My honest take",
            "After a month of use",
            "Quick review",
            "First impressions",
            "My thoughts",
        ),
        "body": (
            "Used it every day for two weeks.",
            "Bought it as a gift for my sister.",
            "Arrived on time and well packed.",
            "Ordered it to replace my old one.",
        ),
    },
    words={"rating": STARS},
)

# -- the customer's account -----------------------------------------------------------------
say.tool(
    "get_customer",
    asks=[
        "What do you have on file for me?",
        "Can you pull up my profile?",
        "What contact details do you have for me?",
    ],
    tells=["You're on file as {name}; we reach you at {email} or {phone}."],
)
say.tool(
    "find_customer_by_email",
    asks=[
        "My email is {email}, can you find my account?",
        "Look me up by my email, {email}.",
        "I shop with you under {email}.",
        "Can you find my account? The email is {email}.",
        "My account is under {email}.",
    ],
    tells=["I found your account, {name}."],
)
say.tool(
    "list_addresses",
    asks=["Which addresses do I have saved?", "Where can you ship my orders?", "Show me my saved addresses."],
    tells=[
        "You have {addresses:count(address)} saved: {addresses:list(street)}.",
        "You have no addresses saved.",
    ],
)
say.tool(
    "add_address",
    asks=[
        "Please save a new address: {street}, {city}, {state} {zip_code}.",
        "Add {street}, {city}, {state} {zip_code} to my addresses.",
        "Save {street}, {city}, {state} {zip_code} as my {label} address.",
        "Add my {label} address: {street}, {city}, {state} {zip_code}.",
        "I moved to {street}, {city}, {state} {zip_code}. Save it and {make_default}.",
        "New {label} address for me: {street}, {city}, {state} {zip_code}; {make_default}.",
    ],
    tells=[
        "{street}, {city} is saved to your addresses, and orders {@make_default}.",
        "{street}, {city} is saved to your addresses.",
    ],
    values={
        "street": ("12 Elm Street", "400 Market St Apt 5", "87 Alder Ave", "1520 Oak Lane", "9 Harbor Way"),
        "city": ("San Francisco", "Oakland", "Berkeley"),
        "state": ("CA",),
        "zip_code": ("94110", "94607", "94704", "94117"),
        "label": ("work", "cabin", "studio", "office"),
    },
    words={"make_default": {True: "ship there by default from now on", False: "keep my current default"}},
)
say.tool(
    "list_payment_methods",
    asks=[
        "How can I pay? What do I have saved?",
        "Which cards do I have on file?",
        "Show me my saved payment methods.",
    ],
    tells=["You have {payment_methods:count(payment method)} saved: {payment_methods:list(label)}."],
)

# -- the cart --------------------------------------------------------------------------------
say.tool(
    "view_cart",
    asks=[
        "What's in my cart?",
        "Show me my cart.",
        "What have I got in my cart right now, and what does it come to?",
    ],
    tells=[
        "Your cart has {items:count(item)}: {items:list(name)}, {subtotal:money} in all.",
        "There's nothing in your cart.",
    ],
)
say.tool(
    "add_to_cart",
    asks=[
        "Add {product} to my cart.",
        "Put {quantity} of {product} in my cart.",
        "I'll take {quantity} of {product}; add them to my cart.",
        "Please add {product} to my cart, I want to order it.",
        "Can you put {product} in my cart?",
    ],
    tells=["Added {@product}; your cart now has {quantity} of it."],
)
say.tool(
    "update_cart_quantity",
    asks=[
        "Change {item} to {quantity}.",
        "I want {quantity} of {item} instead.",
        "Make it {quantity} for {item}.",
        "Set the quantity of {item} to {quantity}.",
        "Can you update {item} to {quantity}? I need a different amount.",
    ],
    tells=["The quantity of {@item} is now {quantity}."],
)
say.tool(
    "remove_from_cart",
    asks=[
        "Remove {item}.",
        "Please take out {item}, I changed my mind.",
        "I don't want {item} anymore.",
        "Please delete {item}.",
        "Drop {item}, I found it cheaper elsewhere.",
    ],
    tells=["I removed {@item}."],
)
say.tool(
    "empty_cart",
    asks=["Empty my cart.", "Clear out my cart, I'm starting over.", "Remove everything from my cart."],
    tells=["Done, your cart is empty now."],
)

# -- coupons and checkout -------------------------------------------------------------------
say.tool(
    "validate_coupon",
    asks=[
        "Can I use the code {code}?",
        "Does {code} work on my cart?",
        "How much would {code} take off my cart?",
        "I have a coupon, {code}. What would it save me?",
        "Is the code {code} still good for what's in my cart?",
    ],
    tells=["{code} works: it takes {discount:money} off your {cart_subtotal:money} cart."],
)
say.tool(
    "checkout",
    asks=[
        "Check out my cart, ship it to {address} and charge {payment}.",
        "I'm ready to order: send it to {address} and pay with {payment}.",
        "Place the order with {payment}, shipping to {address}.",
        "Please check out; use {payment} and deliver to {address}. Apply the code {coupon_code} too.",
        "Order everything in my cart to {address}, paid with {payment}, with the coupon {coupon_code}.",
    ],
    tells=[
        "Your order {id} is placed: {items:count(item)} for {total:money} after {discount:money} off with "
        "{coupon_code}, paid with {@payment}; it ships to {@address}.",
        "Your order {id} is placed: {items:count(item)} for {total:money}, paid with {@payment}; "
        "it ships to {@address}.",
    ],
)

# -- orders ----------------------------------------------------------------------------------
say.tool(
    "list_orders",
    asks=[
        "Show me my orders.",
        "What have I ordered lately?",
        "Which of my orders are {status}?",
        "Do I have any orders {status}?",
        "What have I ordered since {placed_since}?",
        "Show me my last {limit} orders.",
        "Which of my orders since {placed_since} are {status}?",
    ],
    tells=[
        "Since {placed_since:day}, you have {orders:count(order)} {status}: {orders:list(id)}.",
        "You have {orders:count(order)} {status}: {orders:list(id)}.",
        "None of your orders since {placed_since:day} are {status}.",
        "None of your orders are {status}.",
        "Since {placed_since:day} you've placed {orders:count(order)}: {orders:list(id)}.",
        "You haven't placed any orders since {placed_since:day}.",
        "Your orders, newest first: {orders:list(id)}.",
        "I don't see any orders on your account.",
    ],
)
say.tool(
    "get_order",
    asks=[
        "What's in {order}?",
        "Can you pull up {order}?",
        "What did I pay for {order}?",
        "Show me the details of {order}.",
        "I can't remember what I bought in {order}, what was it?",
    ],
    tells=["In {@order}: {items:list(name)}, {total:money} in all. It's {status:state}."],
)
say.tool(
    "track_order",
    asks=[
        "Where is {order}?",
        "Has {order} shipped yet?",
        "When will {order} arrive?",
        "Can you track {order} for me?",
        "What's the delivery status of {order}?",
    ],
    tells=[
        "{@order} was delivered by {carrier} on {delivered_on:day}.",
        "{@order} shipped with {carrier} on {shipped_on:day} (tracking number {tracking_number}) and should "
        "arrive by {expected_delivery:day}.",
        "{@order} is {status:state}; it should ship by {expected_ship_by:day}.",
        "{@order} is {status:state}.",
    ],
)
say.tool(
    "cancel_order",
    asks=[
        "Please cancel {order}, {reason}.",
        "I need to cancel {order}: {reason}.",
        "Can you cancel {order}? Honestly, {reason}.",
        "Cancel {order} please, {reason}.",
        "I'd like to cancel {order} because {reason}.",
    ],
    tells=["{@order} is cancelled; {refund_amount:money} will be refunded to you."],
    values={
        "reason": (
            "I ordered it by mistake",
            "I found it cheaper elsewhere",
            "I changed my mind",
            "it won't arrive in time",
            "I ordered the wrong size",
        )
    },
)
say.tool(
    "change_shipping_address",
    asks=[
        "Please send {order} to {address} instead.",
        "Can you change the delivery address on {order} to {address}? I won't be home.",
        "Ship {order} to {address}, not where it's going now.",
        "I'd rather get {order} at {address}.",
        "Switch the delivery of {order} over to {address}.",
    ],
    tells=["{@order} will now go to {@address}."],
)

# -- returns ---------------------------------------------------------------------------------
say.tool(
    "request_return",
    asks=[
        "I want to return {item}, {reason}.",
        "Please start a return for {item}: {reason}.",
        "Can I send back {quantity} of {item}, since {reason}?",
        "Return {quantity} of {item} for me; {reason}.",
        "I'd like to return {item} because {reason}.",
    ],
    tells=[
        "I've started the return of {@item}; your return number is {id}, and {refund_amount:money} will come back to you."
    ],
    values={
        "reason": (
            "it arrived damaged",
            "it's the wrong size",
            "it's not as described",
            "I don't need it anymore",
            "it stopped working",
        )
    },
)
say.tool(
    "get_return",
    asks=[
        "What's the status of {return_id}?",
        "Has {return_id} been refunded yet?",
        "Any news on {return_id}?",
        "Where's my refund for {return_id}?",
        "Can you check on {return_id} for me?",
    ],
    tells=[
        "{@return_id}, for the {product.name}, is {status:state}; the refund is {refund_amount:money}.",
        "{@return_id} is {status:state}; the refund is {refund_amount:money}.",
    ],
)
