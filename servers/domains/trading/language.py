"""How a brokerage's customers speak, and what its assistant tells them.

An investor talks about what they see in their app: stocks, funds and coins by ticker ("HUGH",
"CORV-USD") or company name ("Hughes Labs"), orders by what they were ("my limit sell of 1 ODON",
"my HAYE sell order from Tuesday, May 26"), positions by symbol, price alerts by symbol and level,
exchanges by their everyday names ("the Tokyo Stock Exchange"). They hold their login name and
the tickers; an order's or an alert's internal number they never quote. The assistant answers
with prices, fills, cash and buying power in dollars, and nothing else.
"""

from __future__ import annotations

from servers.domains.trading.model import (
    CashMovement,
    Exchange,
    Instrument,
    Login,
    Order,
    PriceAlert,
    trading,
)
from servers.kit import Language

say = Language(trading)

# -- naming things ------------------------------------------------------------------------------
say.names(Instrument, "{name}", held="{id}", called="a stock")
say.names(Login, held="{id}", called="my username")
say.names(Exchange, "{name}")
say.names(
    Order,
    "my {type} {side} of {qty} {symbol}",
    "my {symbol} {side} order from {created_at:day}",
    "my {symbol} {side} at {limit_price:money}",
    "my {symbol} {side} with the stop at {stop_price:money}",
    "my {side} order for {qty} {symbol}",
    "the {type} {side} of {qty} {symbol}",
    "the {symbol} {side} order from {created_at:day}",
    "the {symbol} {side} at {limit_price:money}",
)
say.names(
    PriceAlert,
    "my {symbol} alert at {price:money}",
    "my alert for {symbol} {direction} {price:money}",
    "the {symbol} alert at {price:money}",
    "the alert for {symbol} {direction} {price:money}",
)

say.state(
    Exchange,
    "name",
    **{
        "New York Stock Exchange (simulated)": "the New York Stock Exchange",
        "Tokyo Stock Exchange (simulated)": "the Tokyo Stock Exchange",
        "Crypto venue (simulated, around the clock)": "the crypto market",
    },
)
say.state(Order, "side", buy="buy", sell="sell")
say.state(Order, "type", market="market", limit="limit", stop="stop", stop_limit="stop-limit")
say.state(
    Order,
    "time_in_force",
    day="day",
    gtc="good-till-canceled",
    ioc="immediate-or-cancel",
    fok="fill-or-kill",
)
say.state(
    Order,
    "status",
    new="open",
    partially_filled="partly filled",
    filled="filled",
    canceled="canceled",
    expired="expired",
    rejected="rejected",
    replaced="replaced",
)
say.state(PriceAlert, "direction", above="going above", below="dropping below")
say.state(CashMovement, "kind", deposit="deposit", withdrawal="withdrawal", dividend="dividend", fee="fee")

SIDE = {"buy": "buy", "sell": "sell"}
ORDER_TYPE = {
    "market": "a market order",
    "limit": "a limit order",
    "stop": "a stop order",
    "stop_limit": "a stop-limit order",
}
TIME_IN_FORCE = {
    "day": "good for today only",
    "gtc": "good till canceled",
    "ioc": "immediate or cancel",
    "fok": "fill or kill",
}
SECTOR = {
    "Technology": "tech",
    "Health Care": "health care",
    "Financials": "financials",
    "Energy": "energy",
    "Consumer Discretionary": "consumer discretionary",
    "Industrials": "industrials",
    "Communication Services": "communication services",
    "Utilities": "utilities",
    "Materials": "materials",
    "Diversified": "diversified funds",
    "Fixed Income": "bonds",
    "Crypto": "crypto",
}
ASSET_CLASS = {"equity": "stocks", "etf": "ETFs", "crypto": "coins"}
# an exchange's id is its code, not a name: users say the exchange's everyday name
EXCHANGE = {
    "XNYS-SIM": "the New York Stock Exchange",
    "XTKS-SIM": "the Tokyo Stock Exchange",
    "CRYPTO": "the crypto market",
}
# whole quantities, as people trade them (the generator would write a float as "5.0")
QTY = (1, 2, 3, 4, 5, 8, 10, 12, 15, 20, 25)
# a period of the account's past: the generator's own days for these reads may be in the future
START_DAY = ("2026-03-02", "2026-04-01", "2026-04-15", "2026-05-01", "2026-05-04", "2026-05-11")
END_DAY = ("2026-05-15", "2026-05-22", "2026-05-29", "2026-05-31")

# -- signing in ---------------------------------------------------------------------------------
say.tool(
    "login",
    asks=[
        "Log me in with {username}, password {password}.",
        "Sign me in to my brokerage account using {username} and the password {password}.",
        "Please log in for me with {username}; my password is {password}.",
        "I need to get into my account. Use {username} with the password {password}.",
        "Can you sign me in with {username}? The password is {password}.",
    ],
    tells=["You're signed in as {username}, {owner_name}."],
)
say.tool(
    "logout",
    asks=["Log me out, please.", "Sign me out of my brokerage account.", "I'm done for today, log me out."],
    tells=["You're signed out."],
)

# -- the account and cash -----------------------------------------------------------------------
say.tool(
    "get_account",
    asks=[
        "What's my buying power?",
        "How much cash do I have in my brokerage account?",
        "How much can I withdraw right now?",
        "What's my account worth today, and how much can I still spend?",
    ],
    tells=[
        "You have {cash:money} in cash and {buying_power:money} of buying power, which is also what you can "
        "withdraw; the whole account is worth {equity:money}."
    ],
)
say.tool(
    "deposit_funds",
    asks=[
        "Deposit {amount} into my brokerage account.",
        "Move {amount} from my bank into my trading account.",
        "Deposit {amount} from my bank, please.",
        "I want to add {amount} to my account so I can buy more.",
        "Please transfer {amount} from my linked bank into my brokerage account.",
    ],
    tells=["Deposited {deposited:money} from your bank; you now have {cash:money} in cash."],
)
say.tool(
    "withdraw_funds",
    asks=[
        "Withdraw {amount} to my bank.",
        "Take {amount} out of my brokerage account.",
        "Send {amount} back to my bank account, I need it for bills.",
        "Please move {amount} from my brokerage account to my bank.",
        "Can I cash out {amount} to my bank?",
    ],
    tells=["{withdrawn:money} is on its way to your bank; you have {cash:money} in cash left."],
)

# -- market data --------------------------------------------------------------------------------
say.tool(
    "search_instruments",
    asks=[
        "Search for '{query}' for me.",
        "What can I trade with '{query}' in the name?",
        "Find me {asset_class} matching '{query}'.",
        "Which {sector} names trade between {min_price} and {max_price}?",
        "Show me {asset_class} under {max_price}.",
        "What do you have in {sector} over {min_price}?",
        "Which {sector} names do you have under {max_price}?",
        "What trades on {exchange} for under {max_price}?",
    ],
    tells=[
        'For "{query}" I found {instruments:count(match)}: {instruments:list(name, symbol)}.',
        "I found {instruments:count(match)}: {instruments:list(name, symbol, last:money)}.",
        'Nothing matches "{query}".',
        "Nothing matches that.",
    ],
    words={"sector": SECTOR, "asset_class": ASSET_CLASS, "exchange": EXCHANGE},
    values={
        "query": (
            "bio",
            "energy",
            "solar",
            "coin",
            "capital",
            "software",
            "medical",
            "dividend",
            "bond",
            "Summit",
            "Harbor",
            "health",
        )
    },
)
say.tool(
    "get_quotes",
    asks=[
        "What are {symbols} trading at?",
        "Get me quotes for {symbols}.",
        "What's the price of {symbols} right now?",
        "How are {symbols} doing today?",
        "I'm thinking of trading; where are {symbols} right now?",
    ],
    tells=["The latest prices: {quotes:list(symbol, last:money)}."],
)
say.tool(
    "get_order_book",
    asks=[
        "Show me the order book for {symbol}.",
        "What's the depth on {symbol}, top {depth} levels?",
        "What are the best bids and asks on {symbol}?",
        "How wide is the spread on {symbol}? Show me the book.",
        "Show me the top {depth} bids and asks for {symbol}.",
    ],
    values={"depth": (3, 5)},
    tells=[
        "The spread on {symbol} is {spread:money}. Best bids: {bids:list(price:money, size)}; best asks: "
        "{asks:list(price:money, size)}.",
        "There's nothing resting in the {symbol} book right now.",
    ],
)
say.tool(
    "get_price_history",
    asks=[
        "What's the 20-day moving average of {symbol}?",
        "Show me {symbol}'s price history for the last {days} days.",
        "How has {symbol} traded over the last {days} days?",
        "Where's {symbol} against its moving averages?",
        "I want to see {symbol}'s daily bars for the past {days} days.",
    ],
    values={"days": (5, 10, 20, 30)},
    tells=[
        "{symbol}'s 20-day moving average is {ma20:money} and its 5-day one {ma5:money}.",
        "{symbol}'s 5-day moving average is {ma5:money}.",
    ],
)
say.tool(
    "get_market_status",
    asks=[
        "Is the market open right now?",
        "When does {exchange} open next?",
        "Is {exchange} open?",
        "What are the trading hours of {exchange}?",
        "Which markets are open right now?",
    ],
    tells=["It's {current_time:when} in New York. Trading hours: {exchanges:list(name, hours)}."],
    words={"exchange": EXCHANGE},
)

# -- orders -------------------------------------------------------------------------------------
say.tool(
    "place_order",
    asks=[
        "I'd like to {side} {qty} shares of {symbol} at market.",
        "Please {side} {qty} {symbol} at market for me.",
        "{symbol} looks right to me; please {side} {qty} shares at market.",
        "Put in {type} to {side} {qty} {symbol} at {limit_price}.",
        "I want to {side} {qty} {symbol} with a limit at {limit_price}; make it {type}, {time_in_force}.",
        "Place {type} to {side} {qty} {symbol} with a stop at {stop_price}.",
        "I want to {side} {qty} {symbol} using {type}: stop at {stop_price}, limit {limit_price}.",
        "Can you {side} {qty} {symbol} at market, {time_in_force}?",
    ],
    tells=[
        "Your order to {side} {qty} {symbol} is {status:state}: {filled_qty} at an average of "
        "{avg_fill_price:money}. You have {cash_after:money} in cash now.",
        "Your {side} order for {qty} {symbol} at {limit_price:money} is in and {status:state}; nothing has "
        "filled yet.",
        "Your {side} order for {qty} {symbol} is in, with the stop at {stop_price:money}; nothing has filled "
        "yet.",
        "Your {side} order for {qty} {symbol} is {status:state}.",
    ],
    words={"side": SIDE, "type": ORDER_TYPE, "time_in_force": TIME_IN_FORCE},
    values={"qty": QTY},
)
say.tool(
    "get_order",
    asks=[
        "What's the status of {order}?",
        "Did {order} fill?",
        "Show me {order} and its fills.",
        "What happened with {order}?",
        "How much of {order} went through?",
    ],
    tells=[
        "{@order} is {status:state}: {filled_qty} of {qty} filled at an average of {avg_fill_price:money}.",
        "{@order} is {status:state}; nothing of it has filled.",
    ],
)
say.tool(
    "list_orders",
    asks=[
        "What orders do I have?",
        "Which of my orders are {status}?",
        "Show me my {status} orders.",
        "Show me my orders for {symbol}.",
        "Do I have any {status} orders for {symbol}?",
        "Show me my {side} orders.",
        "What are my last {limit} orders?",
    ],
    tells=[
        "You have {orders:count(order)} for {symbol} that are {@status}.",
        "You have {orders:count(order)} that are {@status}: {orders:list(symbol, side)}.",
        "None of your orders are {@status}.",
        "You have {orders:count(order)} for {symbol}, newest first: {orders:list(side, status)}.",
        "You have {orders:count(order)} to {@side}: {orders:list(symbol, status)}.",
        "Your orders, newest first: {orders:list(symbol, side, status)}.",
        "You have no orders.",
    ],
    words={
        "status": {
            "open": "open",
            "new": "unfilled",
            "partially_filled": "partly filled",
            "filled": "filled",
            "canceled": "canceled",
            "expired": "expired",
            "rejected": "rejected",
            "replaced": "replaced",
        },
        "side": SIDE,
    },
)
say.tool(
    "cancel_order",
    asks=[
        "Cancel {order}.",
        "Please kill {order}, I changed my mind.",
        "I don't want {order} anymore, cancel it.",
        "Pull {order}, the price has moved.",
        "Can you cancel {order} before it fills?",
    ],
    tells=[
        "{@order} is canceled; the {filled_qty} that had already filled at {avg_fill_price:money} stays "
        "filled.",
        "{@order} is canceled.",
    ],
)
say.tool(
    "cancel_orders",
    asks=[
        "Cancel {orders}.",
        "Please cancel all of these: {orders}.",
        "Kill {orders}, I'm rethinking my plan.",
        "I want {orders} canceled.",
        "Pull {orders} before they fill.",
    ],
    tells=["Done, {count:count(order)} canceled: {@orders}.", "Done, {count:count(order)} canceled."],
)
say.tool(
    "replace_order",
    asks=[
        "Change {order} to {qty} shares.",
        "Move the limit on {order} to {limit_price}.",
        "Move the stop on {order} to {stop_price}.",
        "Make {order} {qty} instead, at {limit_price}.",
        "I want {order} for {qty} only.",
        "The price ran away; change {order} to a limit of {limit_price}.",
    ],
    tells=[
        "{@order} is changed: it's now for {qty} at {limit_price:money}, and {filled_qty} filled right away "
        "at {avg_fill_price:money}.",
        "{@order} is changed: it's now for {qty} at {limit_price:money}, and it's {status:state}.",
        "{@order} is changed: it's now for {qty} with the stop at {stop_price:money}, and it's "
        "{status:state}.",
        "{@order} is changed: it's now for {qty}, and it's {status:state}.",
    ],
    values={"qty": QTY},
)

# -- positions and history ----------------------------------------------------------------------
say.tool(
    "list_positions",
    asks=[
        "What do I own?",
        "Show me my positions and how they're doing.",
        "What's in my portfolio right now?",
        "Which stocks and coins am I holding?",
        "Show me the first {limit} of my positions.",
    ],
    tells=[
        "You hold {positions:count(position)}: {positions:list(symbol, market_value:money)}.",
        "You don't hold anything right now.",
    ],
)
say.tool(
    "close_position",
    asks=[
        "Sell all my {symbol}.",
        "Close out my {symbol} position.",
        "Close {qty} of my {symbol} position.",
        "I'm done with {symbol}; get me out of it.",
        "Sell {qty} of my {symbol} at market, I want to take some profit.",
    ],
    tells=[
        "Done: {filled_qty} {symbol} went at an average of {avg_fill_price:money}; you have "
        "{cash_after:money} in cash now.",
        "Your order to close {symbol} is {status:state}.",
    ],
    values={"qty": (1, 2, 3, 5)},
)
say.tool(
    "list_transactions",
    asks=[
        "Show me my transactions from {start_day} to {end_day}.",
        "What went in and out of my account since {start_day}?",
        "Show me my {kind} history.",
        "List my {kind} activity since {start_day}.",
        "What's happened in my account lately?",
        "Show me my last {limit} transactions.",
    ],
    tells=[
        "From {start_day:day} to {end_day:day} you had {transactions:count(transaction)}: "
        "{transactions:list(description, at:day)}.",
        "Since {start_day:day} you had {transactions:count(transaction)}: "
        "{transactions:list(description, at:day)}.",
        "Your {@kind} history: {transactions:count(transaction)}, the latest {transactions:list(description, at:day)}.",
        "Your latest transactions: {transactions:list(description, at:day)}.",
        "There's nothing from {start_day:day} to {end_day:day}.",
        "There's nothing since {start_day:day}.",
        "You have no {@kind} history.",
        "There's nothing in your history yet.",
    ],
    words={
        "kind": {
            "trade": "trading",
            "deposit": "deposit",
            "withdrawal": "withdrawal",
            "dividend": "dividend",
            "fee": "fee",
        }
    },
    values={"start_day": START_DAY, "end_day": END_DAY},
)

# -- watchlist and alerts -----------------------------------------------------------------------
say.tool(
    "add_to_watchlist",
    asks=[
        "Add {symbol} to my watchlist.",
        "Watch {symbol} for me.",
        "Put {symbol} on my watchlist, I want to keep an eye on it.",
        "Can you add {symbol} to my list?",
        "I'm curious about {symbol}; add it to my watchlist.",
    ],
    tells=["{symbol} is on your watchlist now."],
)
say.tool(
    "remove_from_watchlist",
    asks=[
        "Remove {symbol} from my watchlist.",
        "Stop watching {symbol}.",
        "Take {symbol} off my watchlist, I'm not interested anymore.",
        "I don't need {symbol} on my list anymore.",
        "Drop {symbol} from my watchlist.",
    ],
    tells=["{removed} is off your watchlist; {symbols_left:count(symbol)} left on it."],
)
say.tool(
    "get_watchlist",
    asks=[
        "Show me my watchlist.",
        "How are the stocks on my watchlist doing?",
        "What's on my watchlist?",
        "Where are the names on my watchlist trading?",
        "Show me the first {limit} names on my watchlist.",
    ],
    tells=[
        "Your watchlist has {symbols:count(symbol)}: {symbols:list(symbol, last:money)}.",
        "Your watchlist is empty.",
    ],
)
say.tool(
    "set_price_alert",
    asks=[
        "Alert me when {symbol} {direction} {price}.",
        "Set a price alert for when {symbol} {direction} {price}.",
        "Let me know if {symbol} {direction} {price}.",
        "I want a heads-up when {symbol} {direction} {price}.",
        "Tell me when {symbol} {direction} {price}, I'm waiting to trade it.",
    ],
    tells=["Done, I'll alert you when {symbol} {@direction} {price:money}."],
    words={"direction": {"above": "goes above", "below": "drops below"}},
)
say.tool(
    "delete_price_alert",
    asks=[
        "Delete {alert}.",
        "I don't need {alert} anymore.",
        "Turn off {alert}.",
        "Remove {alert}, I already traded it.",
        "Switch off {alert}, please.",
    ],
    tells=["{@alert} is off."],
)
