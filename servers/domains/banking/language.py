"""How a bank's customers speak, and what its assistant tells them.

A customer talks about their own money: "my checking account", "the Visa ending 4821", "Dana
Lee" (a saved payee). They never know an account's internal number; they do keep a transfer's
confirmation number, which the assistant gives them. The assistant answers with the amounts and
states they asked about, in dollars, and nothing else.
"""

from __future__ import annotations

from servers.domains.banking import Account, Card, Customer, Entry, Payee, Transfer, banking
from servers.kit import Language

say = Language(banking, speaker=("customer",))

# -- naming things ------------------------------------------------------------------------
say.names(Customer, "{name}")
say.names(
    Account,
    "my {kind} account",
    'my "{nickname}" account',
)
say.names(
    Card,
    "my {network} ending {last4}",
    "the card ending {last4}",
    "my {status} {network} card",
    within="{row} on {owner}",  # "my Visa ending 3366 on my checking account"
)
say.names(Payee, "{name}", "my payee {name}", "{name} at {bank}")
say.names(Transfer, held="transfer {id}")
say.names(
    Entry, 'the "{description}" charge of {amount:money}', 'the "{description}" line on {created_at:day}'
)

say.state(Account, "status", open="open", frozen="frozen", closed="closed")
say.state(Card, "status", active="active", blocked="blocked", expired="expired")
say.state(Card, "network", visa="Visa", mastercard="Mastercard")
say.state(
    Entry,
    "kind",
    deposit="deposit",
    card="card payment",
    transfer_out="transfer out",
    transfer_in="transfer in",
    payment="bill payment",
    withdrawal="withdrawal",
)

# -- the customer's profile ------------------------------------------------------------------
say.tool(
    "get_customer",
    asks=[
        "What do you have on file for me?",
        "Can you pull up my profile?",
        "What contact details do you have for me?",
    ],
    tells=["You're on file as {name} in {city}; we reach you at {email} or {phone}."],
)
say.tool(
    "find_customer_by_email",
    asks=[
        "My email is {email}, can you find my profile?",
        "Look me up by my email, {email}.",
        "I'm registered under {email}.",
        "Can you find me? My email address is {email}.",
        "Pull up the customer with the email {email}, that's me.",
    ],
    tells=["I found your profile, {name}."],
)
say.tool(
    "update_phone",
    asks=[
        "Please change my phone number to {phone}.",
        "I have a new phone number: {phone}.",
        "Update my phone to {phone}, I switched carriers.",
        "My number changed, it's {phone} now.",
        "Can you put {phone} on file as my phone number?",
    ],
    tells=["Done, your phone number on file is now {phone}."],
)

# -- accounts ------------------------------------------------------------------------------------
say.tool(
    "list_accounts",
    asks=[
        "What accounts do I have?",
        "Show me my accounts.",
        "Which accounts do I have with you, and what's in them?",
    ],
    tells=["You have {accounts:count(account)}: {accounts:list(nickname)}."],
)
say.tool(
    "get_balance",
    asks=[
        "What's the balance on {account}?",
        "How much is in {account}?",
        "How much money do I have in {account}?",
        "Can you check {account} for me? I need the balance.",
        "What's {account} sitting at right now?",
    ],
    tells=["{@account} has {balance:money}.", "The balance is {balance:money}."],
)
say.tool(
    "open_account",
    asks=[
        "I'd like to open a new {kind} account.",
        "Open a {kind} account for me, please.",
        "Can I get a new {kind} account?",
        'Please open a {kind} account called "{nickname}".',
        'Open a {kind} account for me and name it "{nickname}".',
    ],
    tells=[
        'Your new {kind} account "{@nickname}" is open, with a balance of $0.',
        "Your new {kind} account is open, with a balance of $0.",
    ],
    values={
        "nickname": (
            "Vacation fund",
            "Rainy day",
            "Emergency fund",
            "Bills",
            "House deposit",
            "Kids' savings",
        )
    },
)
say.tool(
    "close_account",
    asks=[
        "Please close {account}.",
        "I don't use {account} anymore, close it.",
        "Close {account} for good.",
        "Shut down {account}, please.",
        "I want to close {account}.",
    ],
    tells=["{@account} is closed now."],
)
say.tool(
    "freeze_account",
    asks=[
        "Freeze {account}, I think someone has my details.",
        "Please freeze {account}.",
        "Put a freeze on {account} right away.",
        "I see charges I don't recognise, freeze {account}.",
        "Can you lock {account} so no money can move?",
    ],
    tells=["{@account} is frozen; no money can go in or out until you unfreeze it."],
)
say.tool(
    "unfreeze_account",
    asks=[
        "Unfreeze {account}, please.",
        "It was a false alarm, you can unfreeze {account}.",
        "Lift the freeze on {account}.",
        "Please reopen {account}, it's safe now.",
        "Can you take the freeze off {account}?",
    ],
    tells=["{@account} is open again."],
)
say.tool(
    "deposit",
    asks=[
        "Deposit {amount} into {account}.",
        "Put {amount} into {account}.",
        "I want to deposit {amount} to {account}.",
        "Add {amount} to {account}, it's my paycheck.",
        "Please credit {amount} to {account}.",
    ],
    tells=["Deposited {deposited:money}; {@account} now has {balance:money}."],
)
say.tool(
    "withdraw",
    asks=[
        "Withdraw {amount} from {account}.",
        "Take {amount} out of {account}.",
        "I need {amount} in cash from {account}.",
        "Please withdraw {amount} from {account}.",
        "Can I take out {amount} from {account}?",
    ],
    tells=["Withdrew {withdrawn:money}; {@account} now has {balance:money}."],
)
say.tool(
    "transfer",
    asks=[
        "Move {amount} from {source} to {target}.",
        "Transfer {amount} from {source} into {target}.",
        "Send {amount} from {source} over to {target}.",
        "Please move {amount} out of {source} into {target}, rent is due.",
        "Can you put {amount} from {source} into {target}?",
        "Move {amount} from {source} to {target} with the note '{memo}'.",
        "Transfer {amount} from {source} to {target} and add the note '{memo}'.",
    ],
    tells=["Done, {amount:money} moved from {@source} to {@target}. The confirmation number is {id}."],
)
say.tool(
    "get_transfer",
    asks=[
        "What happened with {transfer}?",
        "Can you look up {transfer} for me?",
        "Did {transfer} go through?",
        "Show me the details of {transfer}.",
        "I have a confirmation number, {transfer}. What was it?",
    ],
    tells=[
        "That was {amount:money} sent on {created_at:day}, with the note '{memo}'.",
        "That was {amount:money} sent on {created_at:day}.",
    ],
)
say.tool(
    "list_transactions",
    asks=[
        "What are the latest transactions on {account}?",
        "Show me recent activity on {account}.",
        "What's been going in and out of {account} lately?",
        "Show me the last {limit} transactions on {account}.",
        "List the last {limit} things that hit {account}.",
    ],
    tells=[
        "The latest on {@account}: {entries:count(transaction)}, most recently {entries:list(description)}.",
        "There's no activity on {@account}.",
    ],
)
say.tool(
    "get_statement",
    asks=[
        "Can I get the statement for {account} for {month}?",
        "How much went in and out of {account} in {month}?",
        "What did {account} look like in {month}?",
        "Show me {month}'s statement for {account}.",
        "I need {month}'s statement for {account}.",
    ],
    tells=[
        "In that month {@account} went from {opening_balance:money} to {closing_balance:money}: "
        "{money_in:money} came in and {money_out:money} went out, over {entries:count(transaction)}.",
        "{@account} had no activity that month; the balance stayed at {closing_balance:money}.",
    ],
)

# -- cards ---------------------------------------------------------------------------------------
say.tool(
    "list_cards",
    asks=[
        "Which cards are on {account}?",
        "What cards do I have on {account}?",
        "List the cards linked to {account}.",
        "Show me the cards for {account}.",
        "Do I have any cards on {account}?",
    ],
    tells=[
        "{@account} has {cards:count(card)}, ending {cards:list(last4)}.",
        "There are no cards on {@account}.",
    ],
)
say.tool(
    "block_card",
    asks=[
        "I lost {card}, block it.",
        "Block {card}, please.",
        "My wallet was stolen, block {card} right now.",
        "Please put a block on {card}.",
        "I can't find {card}, can you block it?",
    ],
    tells=["{@card} is blocked; nobody can pay with it until it's unblocked."],
)
say.tool(
    "unblock_card",
    asks=[
        "I found {card}, please unblock it. My PIN is {pin}.",
        "Unblock {card}, the PIN is {pin}.",
        "Can you unblock {card}? PIN {pin}.",
        "Please lift the block on {card}; my PIN is {pin}.",
        "{card} turned up, unblock it please. PIN is {pin}.",
    ],
    tells=["{@card} works again."],
)
say.tool(
    "change_card_pin",
    asks=[
        "Change the PIN on {card} from {current_pin} to {new_pin}.",
        "I want a new PIN for {card}: {new_pin}. The old one is {current_pin}.",
        "Set the PIN of {card} to {new_pin}; current PIN {current_pin}.",
        "Please switch {card}'s PIN to {new_pin}, it's {current_pin} now.",
        "My PIN on {card} is {current_pin}; make it {new_pin}.",
    ],
    tells=["The PIN on {@card} is changed."],
)

# -- payees --------------------------------------------------------------------------------------
say.tool(
    "list_payees",
    asks=["Who do I have saved as payees?", "Show me my payees.", "Which payees have I saved?"],
    tells=["You have {payees:count(payee)} saved: {payees:list(name)}.", "You have no payees saved."],
)
say.tool(
    "add_payee",
    asks=[
        "Add {name} as a payee: account {account_number} at {bank}.",
        "Save {name} as a payee, they bank with {bank}, account number {account_number}.",
        "I need to pay {name}. Their account is {account_number} at {bank}, please save them.",
        "New payee: {name}, {bank}, account {account_number}.",
        "Please add {name} ({bank}, account {account_number}) to my payees.",
    ],
    tells=["{name} is saved as a payee."],
)
say.tool(
    "remove_payee",
    asks=[
        "Remove {payee} from my payees.",
        "I don't pay {payee} anymore, delete them.",
        "Delete {payee} from my saved payees.",
        "Please take {payee} off my payee list.",
        "Get rid of {payee} as a payee.",
    ],
    tells=["{name} is no longer one of your payees."],
)
say.tool(
    "pay_payee",
    asks=[
        "Pay {payee} {amount} from {account}.",
        "Send {amount} to {payee} out of {account}.",
        "Please pay {amount} to {payee} from {account}, it's for the bill.",
        "I owe {payee} {amount}; pay it from {account}.",
        "Use {account} to pay {payee} {amount}.",
    ],
    tells=["Paid {amount:money} to {@payee} from {@account}. The confirmation number is {id}."],
)
