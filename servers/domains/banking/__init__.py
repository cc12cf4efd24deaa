"""Retail bank: customers hold accounts, accounts carry cards and a ledger,
money moves by deposits, withdrawals, transfers and payments to saved payees.

Rules a real bank enforces and this one does too: no overdrafts, frozen and
closed accounts cannot move money, a daily outgoing limit per account, cards
need their PIN to be unblocked or re-PINned, an account only closes at a zero
balance, and a customer cannot pay a payee that belongs to someone else.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from sqlalchemy import ForeignKey
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Db, Domain, Limit, Money, Month, Person, Pin, Ref, Seeder, ShortText, ToolError

banking = Domain("banking", "Retail bank: customers, accounts, cards, payees, transfers and statements.")

AccountKind = Literal["checking", "savings"]
AccountStatus = Literal["open", "frozen", "closed"]
CardStatus = Literal["active", "blocked", "expired"]


class Customer(
    banking.Table, prefix="CUS", people={"name": "name", "email": "email", "phone": "phone", "city": "city"}
):
    """A bank customer: one person of the shared world (CUS-000001 is the persona)."""

    __tablename__ = "customers"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)
    phone: Mapped[str]
    city: Mapped[str]
    verified: Mapped[bool]
    joined_on: Mapped[str]


class Account(banking.Table, prefix="ACC"):
    __tablename__ = "accounts"
    id: Mapped[str] = mapped_column(primary_key=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    kind: Mapped[str]
    nickname: Mapped[str]
    balance: Mapped[float]
    status: Mapped[str]
    daily_limit: Mapped[float]
    opened_on: Mapped[str]


class Card(banking.Table, prefix="CRD", hidden=("pin",)):
    __tablename__ = "cards"
    id: Mapped[str] = mapped_column(primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    network: Mapped[str]
    last4: Mapped[str]
    expires: Mapped[str]
    status: Mapped[str]
    pin: Mapped[str]


class Payee(banking.Table, prefix="PAY", people={"name": "name"}):
    """Someone outside the bank a customer pays: a world person or a world company."""

    __tablename__ = "payees"
    id: Mapped[str] = mapped_column(primary_key=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    name: Mapped[str]
    bank: Mapped[str]
    account_number: Mapped[str]
    active: Mapped[bool]


class Transfer(banking.Table, prefix="TRF"):
    __tablename__ = "transfers"
    id: Mapped[str] = mapped_column(primary_key=True)
    source_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    target_id: Mapped[str | None] = mapped_column(ForeignKey("accounts.id"))
    payee_id: Mapped[str | None] = mapped_column(ForeignKey("payees.id"))
    amount: Mapped[float]
    memo: Mapped[str]
    created_at: Mapped[str]


class Entry(banking.Table, prefix="TXN", noun="statement entry"):
    """One line of an account's statement."""

    __tablename__ = "entries"
    id: Mapped[str] = mapped_column(primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    kind: Mapped[str]
    amount: Mapped[float]
    balance_after: Mapped[float]
    description: Mapped[str]
    transfer_id: Mapped[str | None] = mapped_column(ForeignKey("transfers.id"))
    created_at: Mapped[str] = mapped_column(index=True)


# -- seed data ----------------------------------------------------------------------


BANKS = ["First National", "Harbor Credit Union", "Metro Savings", "Union Trust"]


def _open_accounts(s: Seeder, c: dict, person: Person, persona: bool, accounts: list[dict]) -> None:
    """A checking account for each customer, often a savings account too (both for the persona)."""
    for kind in ["checking", "savings"][: 1 + (persona or s.chance(0.6))]:
        accounts.append(
            {
                "id": f"ACC-{len(accounts) + 1:06d}",
                "customer_id": c["id"],
                "kind": kind,
                "nickname": f"{person.first_name}'s {kind}",
                "balance": 0.0,
                "status": "open" if persona or s.chance(0.9) else s.pick(["frozen", "closed"]),
                "daily_limit": s.pick([2500.0, 5000.0, 10000.0]),
                "opened_on": s.day_offset(-2500, -20),
            }
        )


def _add_payees(s: Seeder, c: dict, person: Person, i: int, payees: list[dict]) -> None:
    """Up to three payees for the customer (customers 2-4 also pay the persona)."""
    world = s.world
    # Payees are friends and family (world people, and the persona for a few customers, so
    # "pay Dana back" works from both sides) or bills to world companies.
    names = [world.persona.name] if 1 <= i <= 3 else []
    for _ in range(s.rng.randint(0, 3)):
        if s.chance(0.5):
            names.append(s.pick(world.companies).name)
        else:
            friend = s.pick(world.people)
            if friend is not person:
                names.append(friend.name)
    for name in names:
        payees.append(
            {
                "id": f"PAY-{len(payees) + 1:06d}",
                "customer_id": c["id"],
                "name": name,
                "bank": s.pick(BANKS),
                "account_number": s.fake.numerify("##########"),
                "active": s.chance(0.9),
            }
        )


def _issue_cards(s: Seeder, accounts: list[dict]) -> list[dict]:
    """A card for every checking account and for one savings account in five."""
    cards: list[dict] = []
    for a in accounts:
        if a["kind"] == "checking" or s.chance(0.2):
            cards.append(
                {
                    "id": f"CRD-{len(cards) + 1:06d}",
                    "account_id": a["id"],
                    "network": s.pick(["visa", "mastercard"]),
                    "last4": s.fake.numerify("####"),
                    "expires": f"{s.rng.randint(2025, 2030)}-{s.rng.randint(1, 12):02d}",
                    "status": s.pick(["active"] * 8 + ["blocked", "expired"]),
                    "pin": s.fake.numerify("####"),
                }
            )
    return cards


@banking.seed
def fill(s: Seeder) -> None:
    """Customers are the first people of the shared world, so the persona is CUS-000001 and any
    customer's name, email, phone and city match what the other domains show for them."""
    world = s.world
    people = world.pick_people(min(s.count(small=24, medium=400, large=20_000), len(world.people)))
    customers = s.add(
        Customer,
        (
            {
                "id": cid,
                "name": p.name,
                "email": p.email,
                "phone": p.phone,
                "city": p.city,
                "verified": p is world.persona or s.chance(0.9),
                "joined_on": s.day_offset(-3000, -30),
            }
            for p, cid in zip(people, s.ids(Customer, len(people)), strict=True)
        ),
    )
    accounts: list[dict] = []
    payees: list[dict] = []
    for i, (c, person) in enumerate(zip(customers, people, strict=True)):
        persona = i == 0  # the persona banks here with an open checking and savings account
        _open_accounts(s, c, person, persona, accounts)
        _add_payees(s, c, person, i, payees)
    cards = _issue_cards(s, accounts)
    s.add(Account, accounts)
    s.add(Payee, payees)
    s.add(Card, cards)
    _seed_history(s, accounts, payees, {c["id"]: c["city"] for c in customers})


def _seed_history(s: Seeder, accounts: list[dict], payees: list[dict], city_of: dict[str, str]) -> None:
    """Deposits, card spending (at world merchants of the customer's city) and transfers over
    the past months, with running balances.

    Long because every deposit, card payment, transfer and closing withdrawal goes through post(), which
    keeps each account's running balance, in one fixed time order that the snapshot bytes depend on.
    """
    per_account = s.count(small=6, medium=10, large=3)
    entries, transfers, balance = [], [], {a["id"]: 0.0 for a in accounts}
    payees_of: dict[str, list[dict]] = {}
    for p in payees:
        payees_of.setdefault(p["customer_id"], []).append(p)
    shops_in: dict[str, list[str]] = {}
    for m in s.world.merchants:
        shops_in.setdefault(m.city, []).append(m.name)

    def post(
        account: str, kind: str, amount: float, description: str, when: str, transfer: str | None
    ) -> None:
        balance[account] = round(balance[account] + amount, 2)
        entries.append(
            {
                "id": f"TXN-{len(entries) + 1:06d}",
                "account_id": account,
                "kind": kind,
                "amount": amount,
                "balance_after": balance[account],
                "description": description,
                "transfer_id": transfer,
                "created_at": when,
            }
        )

    moments = sorted(s.moment_offset(-120, -1) for _ in range(per_account * len(accounts)))
    for i, when in enumerate(moments):
        a = accounts[i % len(accounts)]
        roll = s.rng.random()
        if roll < 0.45 or balance[a["id"]] < 50:
            post(
                a["id"],
                "deposit",
                s.money(50, 3000),
                s.pick(["Payroll", "Cash deposit", "Mobile check"]),
                when,
                None,
            )
        elif roll < 0.8:
            spend = min(balance[a["id"]], s.money(5, 250))
            post(a["id"], "card", -spend, s.pick(shops_in[city_of[a["customer_id"]]]), when, None)
        else:
            target = accounts[s.rng.randrange(len(accounts))]
            amount = min(balance[a["id"]], s.money(10, 500))
            if target["id"] == a["id"]:
                continue
            tid = f"TRF-{len(transfers) + 1:06d}"
            transfers.append(
                {
                    "id": tid,
                    "source_id": a["id"],
                    "target_id": target["id"],
                    "payee_id": None,
                    "amount": amount,
                    "memo": s.pick(["rent", "dinner", "gift", "savings", ""]),
                    "created_at": when,
                }
            )
            # a statement line names the other account as its holder knows it, never by internal id
            post(a["id"], "transfer_out", -amount, f"Transfer to {target['nickname']}", when, tid)
            post(target["id"], "transfer_in", amount, f"Transfer from {a['nickname']}", when, tid)
    for a in accounts:
        a["balance"] = balance[a["id"]]
        if a["status"] == "closed" and balance[a["id"]] != 0:
            post(a["id"], "withdrawal", -balance[a["id"]], "Closing withdrawal", s.moment_offset(-1, 0), None)
            a["balance"] = 0.0
        elif a["status"] == "open" and int(a["id"][4:]) % 37 == 0 and balance[a["id"]] > 0:
            # one account in 37 was emptied yesterday (about to be closed): close_account has candidates
            when = (s.now - timedelta(hours=20)).isoformat(timespec="seconds")
            post(a["id"], "withdrawal", -balance[a["id"]], "Cash withdrawal", when, None)
            a["balance"] = 0.0
    s.conn.executemany(
        "UPDATE accounts SET balance = ? WHERE id = ?", [(a["balance"], a["id"]) for a in accounts]
    )
    s.add(Transfer, transfers)
    s.add(Entry, entries)


# -- rules shared by several tools ---------------------------------------------------


def _movable(db: Db, account_id: str) -> dict:
    """An account that may send or receive money right now."""
    account = db.get(Account, account_id)
    if account["status"] != "open":
        raise ToolError(f"account {account_id} is {account['status']}; money can only move on open accounts")
    return account


def _post(
    db: Db, account: dict, kind: str, amount: float, description: str, transfer_id: str | None = None
) -> float:
    """Change a balance and write the statement line that explains it."""
    new_balance = round(account["balance"] + amount, 2)
    db.execute("UPDATE accounts SET balance = ? WHERE id = ?", new_balance, account["id"])
    db.add(
        Entry,
        account_id=account["id"],
        kind=kind,
        amount=amount,
        balance_after=new_balance,
        description=description,
        transfer_id=transfer_id,
        created_at=db.stamp(),
    )
    return new_balance


def _spend_check(db: Db, account: dict, amount: float) -> None:
    """No overdraft and no more than the daily limit going out."""
    if account["balance"] < amount:
        raise ToolError(
            f"insufficient funds: account {account['id']} holds {account['balance']:.2f}, the payment needs {amount:.2f}"
        )
    sent_today = -(
        db.scalar(
            "SELECT coalesce(sum(amount), 0) FROM entries WHERE account_id = ? AND amount < 0 "
            "AND kind IN ('transfer_out', 'payment', 'withdrawal') AND substr(created_at, 1, 10) = ?",
            account["id"],
            db.today.isoformat(),
        )
    )
    if sent_today + amount > account["daily_limit"]:
        left = max(0.0, account["daily_limit"] - sent_today)
        raise ToolError(
            f"daily limit exceeded: account {account['id']} may send {account['daily_limit']:.2f} a day, "
            f"{left:.2f} is left today"
        )


def _card_with_pin(db: Db, card_id: str, pin: str) -> dict:
    card = db.get(Card, card_id)
    if card["pin"] != pin:
        raise ToolError(f"the PIN given for card {card_id} is not correct")
    return card


def _public(card: dict) -> dict:
    return {k: v for k, v in card.items() if k != "pin"}


# -- customers -------------------------------------------------------------------------


@banking.tool(returns=Customer, says=["show me the profile of customer {customer}", "who is {customer}?"])
def get_customer(db: Db, customer: Ref[Customer]) -> dict:
    """Look up a customer's profile: name, contact details and verification status."""
    return db.get(Customer, customer)


@banking.tool(returns=Customer, says=["find the customer with email {email}", "who has the email {email}?"])
def find_customer_by_email(db: Db, email: ShortText) -> dict:
    """Find a customer by their exact email address."""
    row = db.one("SELECT * FROM customers WHERE lower(email) = lower(?)", email)
    if row is None:
        raise ToolError(f"no customer has the email {email!r}")
    return row


@banking.tool(
    writes=[Customer],
    returns=Customer,
    idempotent=True,
    says=["change the phone number of {customer} to {phone}", "update {customer}'s phone to {phone}"],
)
def update_phone(db: Db, customer: Ref[Customer], phone: ShortText) -> dict:
    """Change the phone number on a customer's profile."""
    db.get(Customer, customer)
    return db.update(Customer, customer, phone=phone)


# -- accounts ---------------------------------------------------------------------------


@banking.tool(
    returns=Account, says=["list the accounts of {customer}", "what accounts does {customer} have?"]
)
def list_accounts(db: Db, customer: Ref[Customer]) -> dict:
    """List every account a customer holds, with balances and status."""
    db.get(Customer, customer)
    return {
        "customer": customer,
        "accounts": db.all("SELECT * FROM accounts WHERE customer_id = ? ORDER BY id", customer),
    }


@banking.tool(returns=Account, says=["what is the balance of {account}?", "how much money is in {account}?"])
def get_balance(db: Db, account: Ref[Account]) -> dict:
    """The current balance and status of one account."""
    a = db.get(Account, account)
    return {"account": a["id"], "balance": a["balance"], "status": a["status"], "kind": a["kind"]}


@banking.tool(
    writes=[Account, Entry],
    returns=Account,
    says=["open a new {kind} account for {customer}", "I'd like a {kind} account for customer {customer}"],
)
def open_account(
    db: Db, customer: Ref[Customer, "verified = 1"], kind: AccountKind, nickname: ShortText | None = None
) -> dict:
    """Open a new, empty account for a verified customer.

    Args:
        customer: The customer who will own the account.
        kind: checking or savings.
        nickname: A name the customer will recognise; defaults to the kind.
    """
    owner = db.get(Customer, customer)
    if not owner["verified"]:
        raise ToolError(
            f"customer {customer} has not completed identity verification and cannot open accounts"
        )
    open_count = db.scalar(
        "SELECT count(*) FROM accounts WHERE customer_id = ? AND status != 'closed'", customer
    )
    if open_count >= 5:
        raise ToolError(f"customer {customer} already has {open_count} accounts; the limit is 5")
    return db.insert(
        Account,
        customer_id=customer,
        kind=kind,
        nickname=nickname or kind,
        balance=0.0,
        status="open",
        daily_limit=2500.0,
        opened_on=db.today.isoformat(),
    )


@banking.tool(
    writes=[Account, Card],
    returns=Account,
    destructive=True,
    idempotent=True,
    says=["close account {account}", "please shut down my account {account}"],
)
def close_account(db: Db, account: Ref[Account, "status != 'closed' AND balance = 0"]) -> dict:
    """Close an account for good. Only possible once its balance is exactly zero."""
    a = db.get(Account, account)
    if a["status"] == "closed":
        raise ToolError(f"account {account} is already closed")
    if a["balance"] != 0:
        raise ToolError(
            f"account {account} still holds {a['balance']:.2f}; move the money out before closing it"
        )
    db.execute("UPDATE cards SET status = 'blocked' WHERE account_id = ? AND status = 'active'", account)
    return db.update(Account, account, status="closed")


@banking.tool(
    writes=[Account],
    returns=Account,
    idempotent=True,
    says=["freeze account {account}", "lock my account {account}, I think it's compromised"],
)
def freeze_account(db: Db, account: Ref[Account, "status = 'open'"]) -> dict:
    """Freeze an open account so no money can leave or enter it until it is unfrozen."""
    a = db.get(Account, account)
    if a["status"] != "open":
        raise ToolError(f"only open accounts can be frozen; {account} is {a['status']}")
    return db.update(Account, account, status="frozen")


@banking.tool(
    writes=[Account],
    returns=Account,
    idempotent=True,
    says=["unfreeze account {account}", "lift the freeze on {account}"],
)
def unfreeze_account(db: Db, account: Ref[Account, "status = 'frozen'"]) -> dict:
    """Reopen a frozen account."""
    a = db.get(Account, account)
    if a["status"] != "frozen":
        raise ToolError(f"account {account} is {a['status']}, not frozen")
    return db.update(Account, account, status="open")


# -- moving money -------------------------------------------------------------------------


@banking.tool(
    writes=[Account, Entry],
    returns=Account,
    says=["deposit {amount} into {account}", "put {amount} dollars in account {account}"],
)
def deposit(db: Db, account: Ref[Account, "status = 'open'"], amount: Money) -> dict:
    """Deposit money into an open account."""
    a = _movable(db, account)
    balance = _post(db, a, "deposit", amount, "Deposit")
    return {"account": account, "deposited": amount, "balance": balance}


@banking.tool(
    writes=[Account, Entry],
    returns=Account,
    says=["withdraw {amount} from {account}", "take out {amount} in cash from account {account}"],
)
def withdraw(db: Db, account: Ref[Account, "status = 'open' AND balance > 0"], amount: Money) -> dict:
    """Withdraw cash from an open account, within its balance and daily limit."""
    a = _movable(db, account)
    _spend_check(db, a, amount)
    balance = _post(db, a, "withdrawal", -amount, "Cash withdrawal")
    return {"account": account, "withdrawn": amount, "balance": balance}


@banking.tool(
    writes=[Transfer, Account, Entry],
    returns=Transfer,
    says=[
        "send {amount} from {source} to {target}",
        "transfer {amount} dollars from account {source} to account {target}",
        "move {amount} from {source} into {target} with the note '{memo}'",
    ],
)
def transfer(
    db: Db,
    source: Ref[Account, "status = 'open' AND balance > 0"],
    target: Ref[Account, "status = 'open'"],
    amount: Money,
    memo: ShortText | None = None,
) -> dict:
    """Move money between two accounts of this bank.

    Args:
        source: The account the money leaves.
        target: The account the money arrives in.
        amount: How much to send.
        memo: A short note both statements will show.
    """
    if source == target:
        raise ToolError("source and target are the same account; pick two different accounts")
    src, dst = _movable(db, source), _movable(db, target)
    _spend_check(db, src, amount)
    t = db.insert(
        Transfer,
        source_id=source,
        target_id=target,
        payee_id=None,
        amount=amount,
        memo=memo or "",
        created_at=db.stamp(),
    )
    _post(db, src, "transfer_out", -amount, f"Transfer to {dst['nickname']}", t["id"])
    _post(db, dst, "transfer_in", amount, f"Transfer from {src['nickname']}", t["id"])
    return t


@banking.tool(
    returns=Transfer, says=["show me transfer {transfer}", "what happened with transfer {transfer}?"]
)
def get_transfer(db: Db, transfer: Ref[Transfer]) -> dict:
    """The details of one transfer or payment."""
    return db.get(Transfer, transfer)


# -- statements --------------------------------------------------------------------------


@banking.tool(
    returns=Entry, says=["show the last {limit} transactions on {account}", "recent activity on {account}"]
)
def list_transactions(db: Db, account: Ref[Account], limit: Limit = 10) -> dict:
    """The most recent statement lines of an account, newest first."""
    db.get(Account, account)
    rows = db.all(
        "SELECT * FROM entries WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ?", account, limit
    )
    return {"account": account, "entries": rows}


@banking.tool(
    returns=Entry,
    says=["get the statement of {account} for {month}", "what went in and out of {account} in {month}?"],
)
def get_statement(db: Db, account: Ref[Account], month: Month) -> dict:
    """A monthly statement: opening and closing balance, money in, money out, and every line.

    Args:
        account: The account.
        month: The month, e.g. 2026-05.
    """
    db.get(Account, account)
    rows = db.all(
        "SELECT * FROM entries WHERE account_id = ? AND substr(created_at, 1, 7) = ? ORDER BY created_at, id",
        account,
        month,
    )
    before = db.one(
        "SELECT balance_after FROM entries WHERE account_id = ? AND substr(created_at, 1, 7) < ? "
        "ORDER BY created_at DESC, id DESC LIMIT 1",
        account,
        month,
    )
    opening = before["balance_after"] if before else 0.0
    money_in = round(sum(r["amount"] for r in rows if r["amount"] > 0), 2)
    money_out = round(-sum(r["amount"] for r in rows if r["amount"] < 0), 2)
    return {
        "account": account,
        "month": month,
        "opening_balance": opening,
        "money_in": money_in,
        "money_out": money_out,
        "closing_balance": round(opening + money_in - money_out, 2),
        "entries": rows,
    }


# -- cards --------------------------------------------------------------------------------


@banking.tool(
    returns=Card, says=["list the cards on {account}", "which cards are linked to account {account}?"]
)
def list_cards(db: Db, account: Ref[Account]) -> dict:
    """The cards linked to an account (PINs are never shown)."""
    db.get(Account, account)
    rows = db.all("SELECT * FROM cards WHERE account_id = ? ORDER BY id", account)
    return {"account": account, "cards": [_public(c) for c in rows]}


@banking.tool(
    writes=[Card],
    returns=Card,
    idempotent=True,
    says=["block card {card}", "I lost my card {card}, please block it"],
)
def block_card(db: Db, card: Ref[Card, "status = 'active'"]) -> dict:
    """Block an active card at once, e.g. when it is lost or stolen."""
    c = db.get(Card, card)
    if c["status"] != "active":
        raise ToolError(f"card {card} is {c['status']}; only active cards can be blocked")
    return _public(db.update(Card, card, status="blocked"))


@banking.tool(
    writes=[Card],
    returns=Card,
    idempotent=True,
    says=["unblock card {card}, my PIN is {pin}", "I found my card {card}; unblock it with PIN {pin}"],
)
def unblock_card(db: Db, card: Ref[Card, "status = 'blocked'"], pin: Pin) -> dict:
    """Unblock a blocked card. The cardholder must confirm the card's PIN."""
    c = _card_with_pin(db, card, pin)
    if c["status"] != "blocked":
        raise ToolError(f"card {card} is {c['status']}, not blocked")
    if db.get(Account, c["account_id"])["status"] == "closed":
        raise ToolError(f"card {card} belongs to closed account {c['account_id']} and cannot be unblocked")
    return _public(db.update(Card, card, status="active"))


@banking.tool(
    writes=[Card],
    returns=Card,
    idempotent=True,
    says=[
        "change the PIN of card {card} from {current_pin} to {new_pin}",
        "set a new PIN {new_pin} on {card}, the old one is {current_pin}",
    ],
)
def change_card_pin(db: Db, card: Ref[Card, "status = 'active'"], current_pin: Pin, new_pin: Pin) -> dict:
    """Set a new PIN on an active card, confirming the current one."""
    c = _card_with_pin(db, card, current_pin)
    if c["status"] != "active":
        raise ToolError(f"card {card} is {c['status']}; the PIN can only be changed on an active card")
    if new_pin == current_pin:
        raise ToolError("the new PIN must differ from the current one")
    if len(set(new_pin)) == 1 or new_pin in ("1234", "4321", "0123"):
        raise ToolError(f"PIN {new_pin} is too easy to guess; avoid repeated or sequential digits")
    return _public(db.update(Card, card, pin=new_pin))


# -- payees and payments ------------------------------------------------------------------


@banking.tool(returns=Payee, says=["who are the saved payees of {customer}?", "list {customer}'s payees"])
def list_payees(db: Db, customer: Ref[Customer]) -> dict:
    """The external payees a customer has saved."""
    db.get(Customer, customer)
    rows = db.all("SELECT * FROM payees WHERE customer_id = ? AND active ORDER BY id", customer)
    return {"customer": customer, "payees": rows}


@banking.tool(
    writes=[Payee],
    returns=Payee,
    says=[
        "add {name} at {bank} (account {account_number}) as a payee for {customer}",
        "save a new payee {name}, account number {account_number} at {bank}, for {customer}",
    ],
)
def add_payee(
    db: Db, customer: Ref[Customer], name: ShortText, bank: ShortText, account_number: ShortText
) -> dict:
    """Save an external payee so the customer can pay them later.

    Args:
        customer: Who the payee is saved for.
        name: The payee's name.
        bank: The payee's bank.
        account_number: The payee's account number at that bank (8 to 12 digits).
    """
    db.get(Customer, customer)
    if not account_number.isdigit() or not 8 <= len(account_number) <= 12:
        raise ToolError(f"account number must be 8 to 12 digits, got {account_number!r}")
    dup = db.one(
        "SELECT id FROM payees WHERE customer_id = ? AND account_number = ? AND bank = ? AND active",
        customer,
        account_number,
        bank,
    )
    if dup:
        raise ToolError(f"{customer} already has this payee saved as {dup['id']}")
    return db.insert(
        Payee, customer_id=customer, name=name, bank=bank, account_number=account_number, active=True
    )


@banking.tool(
    writes=[Payee],
    destructive=True,
    idempotent=True,
    says=["remove payee {payee}", "delete the saved payee {payee}"],
)
def remove_payee(db: Db, payee: Ref[Payee, "active = 1"]) -> dict:
    """Remove a saved payee. Past payments to them stay on the statements."""
    p = db.get(Payee, payee)
    if not p["active"]:
        raise ToolError(f"payee {payee} was already removed")
    db.update(Payee, payee, active=False)
    return {"removed": payee, "name": p["name"]}


@banking.tool(
    writes=[Transfer, Account, Entry],
    returns=Transfer,
    says=[
        "pay {amount} to payee {payee} from {account}",
        "send a payment of {amount} from {account} to {payee}",
    ],
)
def pay_payee(
    db: Db,
    account: Ref[Account, "status = 'open' AND balance > 0"],
    payee: Ref[Payee, "active = 1"],
    amount: Money,
) -> dict:
    """Pay a saved payee from one of the same customer's accounts."""
    a = _movable(db, account)
    p = db.get(Payee, payee)
    if not p["active"]:
        raise ToolError(f"payee {payee} was removed; add them again to pay them")
    if p["customer_id"] != a["customer_id"]:
        raise ToolError(f"payee {payee} belongs to another customer than account {account}")
    _spend_check(db, a, amount)
    t = db.insert(
        Transfer,
        source_id=account,
        target_id=None,
        payee_id=payee,
        amount=amount,
        memo=f"Payment to {p['name']}",
        created_at=db.stamp(),
    )
    _post(db, a, "payment", -amount, f"Payment to {p['name']}", t["id"])
    return t


# -- operator helpers (hidden from agents) ---------------------------------------------


@banking.tool(hidden=True)
def audit_ledger(db: Db) -> dict:
    """Accounts whose balance differs from the last line of their statement (should be none)."""
    rows = db.all(
        "SELECT a.id, a.balance, e.balance_after FROM accounts a JOIN entries e ON e.id = "
        "(SELECT id FROM entries WHERE account_id = a.id ORDER BY created_at DESC, id DESC LIMIT 1) "
        "WHERE round(a.balance - e.balance_after, 2) != 0"
    )
    return {"mismatches": rows}


# the words its customers use and its assistant answers with (read by the task generator)
from servers.domains.banking import language as _language  # noqa: E402,F401
