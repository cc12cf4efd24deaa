"""Logging in and out, the account, deposits and withdrawals."""

from __future__ import annotations

from servers.domains.trading.model import (
    DAILY_LIMIT,
    Account,
    CashMovement,
    Login,
    Password,
    Session,
    trading,
)
from servers.domains.trading.rules import _equity, _funds, _m, _moved_today
from servers.kit import (
    Db,
    Money,
    Ref,
    ToolError,
)

# -- session -------------------------------------------------------------------------------


@trading.tool(
    writes=[Session],
    returns=Account,
    says=[
        "log in as {username} with password {password}",
        "sign me in to my brokerage: {username}, {password}",
    ],
)
def login(
    db: Db,
    username: Ref[Login, "account_id IN (SELECT id FROM accounts WHERE status != 'closed')"],
    password: Password,
) -> dict:
    """Log in to a brokerage account; later account tools act on it. Switches account if already logged in.

    Args:
        username: The login name.
        password: The account's password.
    """
    row = db.find(Login, username)
    if row is None or row["password"] != password:
        raise ToolError(f"wrong username or password for {username!r}")
    account = db.get(Account, row["account_id"])
    if account["status"] == "closed":
        raise ToolError(f"account {account['id']} of {username} is closed; it can no longer log in")
    db.set_acting(account_id=account["id"], logged_in_at=db.stamp())
    return {
        "logged_in": True,
        "username": username,
        "account": account["id"],
        "owner_name": account["owner_name"],
        "status": account["status"],
    }


@trading.tool(writes=[Session], idempotent=True, says=["log me out", "sign out of the brokerage account"])
def logout(db: Db) -> dict:
    """End the session; market data still works, account tools need a new login."""
    account = db.actor()
    db.set_acting(account_id=None, logged_in_at=None)
    return {"logged_out": True, "account": account["id"]}


# -- account and cash -------------------------------------------------------------------------


@trading.tool(
    needs=[Session],
    returns=Account,
    says=["what's my buying power?", "show my brokerage account balance", "how much cash can I withdraw?"],
)
def get_account(db: Db) -> dict:
    """The logged-in account: cash, buying power, holds by open orders, equity, withdrawable cash,
    status, day-trade count and pattern-day-trader flag, and what is left of today's limits."""
    a = db.actor()
    funds = _funds(db, a)
    return {
        "account": a["id"],
        "owner_name": a["owner_name"],
        "username": a["username"],
        "kind": a["kind"],
        "status": a["status"],
        "cash": a["cash"],
        "held_by_open_buys": funds["held"],
        "open_buy_orders": funds["open_buys"],
        "short_market_value": funds["short_value"],
        "buying_power": funds["power"],
        "withdrawable_cash": funds["power"],
        "equity": _equity(db, a),
        "day_trade_count": a["day_trade_count"],
        "pattern_day_trader": bool(a["pattern_day_trader"]),
        "deposit_left_today": round(DAILY_LIMIT - _moved_today(db, a["id"], "deposit"), 2),
        "withdrawal_left_today": round(DAILY_LIMIT - _moved_today(db, a["id"], "withdrawal"), 2),
        "linked_bank_last4": a["linked_bank_last4"],
    }


@trading.tool(
    writes=[Account, CashMovement],
    needs=[Session],
    returns=CashMovement,
    says=["deposit {amount} into my brokerage account", "fund my trading account with {amount} from my bank"],
)
def deposit_funds(db: Db, amount: Money) -> dict:
    """Move money in from the linked bank account (up to 50,000.00 a day).

    Args:
        amount: How much to deposit, in dollars.
    """
    a = db.actor()
    done = _moved_today(db, a["id"], "deposit")
    if done + amount > DAILY_LIMIT:
        raise ToolError(
            f"daily deposit limit is {_m(DAILY_LIMIT)}: {_m(done)} was already deposited today, "
            f"{_m(DAILY_LIMIT - done)} is left"
        )
    cash = round(a["cash"] + amount, 2)
    db.update(Account, a["id"], cash=cash)
    mid = db.add(
        CashMovement,
        account_id=a["id"],
        kind="deposit",
        amount=amount,
        description=f"Transfer from bank ****{a['linked_bank_last4']}",
        status="completed",
        at=db.stamp(),
    )
    return {"movement": mid, "deposited": amount, "cash": cash}


@trading.tool(
    writes=[Account, CashMovement],
    needs=[Session, Account],
    returns=CashMovement,
    says=["withdraw {amount} to my bank", "take {amount} out of my brokerage account"],
)
def withdraw_funds(db: Db, amount: Money) -> dict:
    """Move money out to the linked bank account: at most the withdrawable cash (cash not held by
    open buy orders) and 50,000.00 a day.

    Args:
        amount: How much to withdraw, in dollars.
    """
    a = db.actor()
    funds = _funds(db, a)
    if amount > funds["power"]:
        raise ToolError(
            f"cannot withdraw {_m(amount)}: withdrawable cash is {_m(funds['power'])} ({funds['why']}); "
            f"shortfall {_m(amount - funds['power'])}"
        )
    done = _moved_today(db, a["id"], "withdrawal")
    if done + amount > DAILY_LIMIT:
        raise ToolError(
            f"daily withdrawal limit is {_m(DAILY_LIMIT)}: {_m(done)} was already withdrawn today, "
            f"{_m(DAILY_LIMIT - done)} is left"
        )
    cash = round(a["cash"] - amount, 2)
    db.update(Account, a["id"], cash=cash)
    mid = db.add(
        CashMovement,
        account_id=a["id"],
        kind="withdrawal",
        amount=-amount,
        description=f"Transfer to bank ****{a['linked_bank_last4']}",
        status="completed",
        at=db.stamp(),
    )
    return {"movement": mid, "withdrawn": amount, "cash": cash}
