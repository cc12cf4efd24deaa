"""How someone who budgets the envelope way (YNAB's method) speaks, and what the assistant says.

The user is the signed-in person: she keeps her own budgets ("Household", "Freelance Studio") and
helps with a few that friends shared with her ("Garrett Sanchez's Family Budget"). She names a
budget by its name, an account by its nickname or kind ("my checking account", "my Credit Card
account"), a category by its name ("Groceries", "the Dining Out category"), a payee by the shop's
name ("Pacific Foods") and a transaction by where and when it happened ("the Pacific Foods
transaction from Saturday, May 30"). Her words are the method's: she assigns money to a category
for a month, moves money between categories, covers overspending, reconciles an account against
the bank's statement and approves imported transactions. No id of the service ever comes up.
The assistant answers with the dollars she asked about: what is left to assign, what is
available, what was spent, and the balance after a change.
"""

from __future__ import annotations

from servers.domains.budget.model import (
    Account,
    Budget,
    Category,
    CategoryGroup,
    Member,
    Payee,
    Scheduled,
    Transaction,
    budget,
)
from servers.kit import Language

say = Language(budget)

# -- naming things ------------------------------------------------------------------------------
# a budget's name is a proper name ("Household", "Garrett Sanchez's Family Budget"): said as it is
say.names(Budget, "{name}", called="my budget")
say.names(
    Account,
    "my {kind:state} account",
    'my "{name}" account',
    "my {name} account",
    within="{row} in {owner}",  # "my checking account in Household"
    called="one of my accounts",
)
say.names(
    Category,
    "{name}",
    "the {name} category",
    "my {name} category",
    within="{row} in {owner}",  # "the Groceries category in Household"
    called="one of my categories",
)
say.names(CategoryGroup, "the {name} group", within="{row} in {owner}", called="one of my category groups")
say.names(Payee, "{name}", within="{row} in {owner}", called="a payee")
# a register line is told apart by where and when it happened (its amount is stored signed)
say.names(
    Transaction,
    "the {payee} transaction from {day:day}",
    "my {payee} transaction on {day:day}",
    "the {payee} transaction on {day:day} under {category}",
    'the "{memo}" transaction from {day:day}',
    shown=("payee", "category"),
    within="{row} in {owner}",
    called="one of my transactions",
)

say.state(Account, "kind", checking="checking", savings="savings", cash="cash", credit_card="credit card")
say.state(Member, "role", owner="yours", collaborator="shared with you")
say.state(Transaction, "cleared", uncleared="uncleared", cleared="cleared", reconciled="reconciled")
say.state(
    Scheduled,
    "frequency",
    weekly="every week",
    every_other_week="every other week",
    monthly="every month",
    yearly="every year",
)

FREQUENCY = {
    "weekly": "every week",
    "every_other_week": "every other week",
    "monthly": "every month",
    "yearly": "once a year",
}
MEMOS = (
    "birthday dinner",
    "split with roommate",
    "work lunch, expense it",
    "refund pending",
    "for the kids' school trip",
    "anniversary gift",
    "reimbursed by Sam",
)
CATEGORY_NAMES = (
    "Pet Care",
    "Gifts",
    "Home Repairs",
    "Kids' Activities",
    "Car Insurance",
    "Streaming",
    "Haircuts",
    "Date Night",
)

# -- budgets and months -------------------------------------------------------------------------
say.tool(
    "list_budgets",
    asks=[
        "Which budgets do I have?",
        "Show me my budgets.",
        "What budgets can I open, including the ones people shared with me?",
        "List all the budgets I have access to.",
    ],
    tells=[
        "You have {budgets:count(budget)}: {budgets:list(name, role)}.",
        "You don't have any budgets yet.",
    ],
)
say.tool(
    "get_month_summary",
    asks=[
        "How is {budget} doing for {month}?",
        "Give me the {month} summary for {budget}.",
        "How much is left to assign in {budget} for {month}?",
        "What's Ready to Assign in {budget} for {month}? I want to give the rest a job.",
        "Did I overspend anywhere in {budget} in {month}?",
        "Quick check on {budget}: where do things stand for {month}?",
    ],
    tells=[
        "{@budget} has {ready_to_assign:money} ready to assign ({income:money} came in, "
        "{assigned:money} was assigned). Overspent: {overspent_categories:list(name, available:money)}; goals "
        "still short: {underfunded_goals:list(name, underfunded:money)}.",
        "{@budget} has {ready_to_assign:money} ready to assign ({income:money} came in, "
        "{assigned:money} was assigned). Overspent: {overspent_categories:list(name, available:money)}.",
        "{@budget} has {ready_to_assign:money} ready to assign ({income:money} came in, "
        "{assigned:money} was assigned). Nothing is overspent; goals still short: "
        "{underfunded_goals:list(name, underfunded:money)}.",
        "{@budget} has {ready_to_assign:money} ready to assign ({income:money} came in, "
        "{assigned:money} was assigned), nothing is overspent and every goal is funded.",
    ],
)
say.tool(
    "list_categories",
    asks=[
        "What's available in each category of {budget}?",
        "Show me the categories in {budget}.",
        "List the categories of {budget} for {month}.",
        "What's available in each category of {budget} in {month}?",
        "How much do I have left in my categories in {budget} for {month}? Payday isn't until Friday.",
        "Walk me through the envelopes in {budget} for {month}.",
    ],
    tells=[
        "{@budget} has {categories:count(category)}; available: {categories:list(name, available:money)}. "
        "{ready_to_assign:money} is still ready to assign.",
        "{@budget} has no categories yet.",
    ],
)
say.tool(
    "list_category_groups",
    asks=[
        "What category groups does {budget} have?",
        "List the category groups in {budget}.",
        "How is {budget} organised? Show me its category groups.",
        "Which groups are my categories in {budget} sorted into?",
        "I want to add a category to {budget}; what groups are there?",
    ],
    tells=["{@budget} has {groups:count(category group)}: {groups:list(name)}."],
)

# -- giving every dollar a job ------------------------------------------------------------------
say.tool(
    "assign_to_category",
    asks=[
        "Assign {amount} to {category} for {month}.",
        "Budget {amount} for {category} in {month}.",
        "Put {amount} in {category} for {month}, that's what it usually takes.",
        "Set {category} to {amount} assigned for {month}.",
        "I got paid, so assign {amount} to {category} for {month}.",
        "Give {category} {amount} for {month}.",
    ],
    tells=[
        "{name} now has {assigned:money} assigned, so {available:money} is available; "
        "{ready_to_assign:money} is left to assign."
    ],
    values={"amount": (25, 40, 50, 60, 75, 100, 120, 150, 200, 250, 300, 400)},
)
say.tool(
    "move_money",
    asks=[
        "Move {amount} from {from_category} to {to_category} for {month}.",
        "Take {amount} out of {from_category} and put it in {to_category} for {month}.",
        "I need {amount} more in {to_category} for {month}; move it over from {from_category}.",
        "Shift {amount} from {from_category} into {to_category} in {month}, it needs a top-up.",
        "Can you move {amount} from {from_category} over to {to_category} for {month}?",
    ],
    tells=[
        "Moved {amount:money} from {from.name} to {to.name}. {from.name} has {from.available:money} "
        "left and {to.name} now has {to.available:money} available."
    ],
)
say.tool(
    "cover_overspending",
    asks=[
        "Cover the overspending in {category}.",
        "I overspent on {category}; cover it.",
        "Cover the overspending in {category} for {month}.",
        "I overspent on {category} in {month}; cover it from {from_category}.",
        "Fix the overspending in {category} using money from {from_category}.",
        "I went over on {category}. Cover it with {from_category}, please.",
    ],
    tells=[
        "Covered: {amount:money} moved from {from.name} into {to.name}, which is back to {to.available:money}."
    ],
)

# -- shaping the plan ---------------------------------------------------------------------------
say.tool(
    "create_category",
    asks=[
        "Add a {name} category to {group}.",
        "Create a new category called {name} under {group}.",
        "I want a {name} category in {group}.",
        "Set up a {name} envelope in {group}, it's a new expense for us.",
        "Make a category named {name} in {group}.",
    ],
    tells=["{name} is set up in the {group} group, with nothing assigned yet."],
    values={"name": CATEGORY_NAMES},
)
say.tool(
    "set_category_goal",
    asks=[
        "Set a {goal_kind} goal of {amount} on {category}.",
        "I want {category} to have a {goal_kind} goal of {amount}.",
        "Give {category} a {goal_kind} goal of {amount}.",
        "Add a {goal_kind} goal for {category}: {amount}.",
        "Put a {goal_kind} goal of {amount} on {category} so I stop underfunding it.",
    ],
    tells=[
        "{name} has a {@goal_kind} goal of {goal.target:money} now, and it's fully funded this month."
        "{goal.complete:yes}",
        "{name} has a {@goal_kind} goal of {goal.target:money} now; it still needs {goal.underfunded:money} "
        "this month.",
    ],
    words={"goal_kind": {"monthly": "monthly", "target_balance": "target balance"}},
    values={"amount": (25, 50, 75, 100, 150, 200, 300, 500, 1000, 2500)},
)
say.tool(
    "set_category_target_date",
    asks=[
        "I want to have {amount} saved in {category} by {goal_month}.",
        "Set a goal for {category}: {amount} by {goal_month}.",
        "Help me save {amount} in {category} by {goal_month}.",
        "Add a goal to {category} to reach {amount} by {goal_month}, that's when I'll need it.",
        "Give {category} a target of {amount} due {goal_month}.",
    ],
    tells=[
        "{name} is set to reach {goal.target:money} by then, and this month's share is already "
        "funded.{goal.complete:yes}",
        "{name} is set to reach {goal.target:money} by then; that takes {goal.needed:money} this month, "
        "{goal.underfunded:money} more than is assigned.",
    ],
    values={"amount": (300, 500, 800, 1000, 1200, 1500, 2000, 3000)},
)
say.tool(
    "clear_category_goal",
    asks=[
        "Remove the goal from {category}.",
        "I don't need a goal on {category} anymore.",
        "Clear the goal on {category}, it's paid off.",
        "Take the goal off {category}.",
        "Delete {category}'s goal, please.",
    ],
    tells=["The goal on {name} is gone."],
)
say.tool(
    "get_spending_report",
    asks=[
        "How much did I spend in {budget} in {month}?",
        "How much did I spend by {group_by} in {budget} in {month}?",
        "Where did my money go in {budget} in {month}? Break it down by {group_by}.",
        "Show the spending of {budget} by {group_by} for the {months} months up to {month}.",
        "What did I spend in {budget} over the {months} months up to {month}?",
        "I'm trying to cut back: what did {budget} spend in {month}, by {group_by}?",
    ],
    tells=[
        "You spent {total_spent:money}; the most went to {rows:list(name, spent:money)}.",
        "Nothing was spent in that period.",
    ],
    words={"group_by": {"category": "category", "payee": "payee"}},
    values={"months": (2, 3, 6)},
)

# -- the register -------------------------------------------------------------------------------
say.tool(
    "list_accounts",
    asks=[
        "What are my account balances in {budget}?",
        "Show the accounts in {budget}.",
        "How much is in each of my accounts in {budget}?",
        "List the accounts in {budget}, {include_closed}.",
        "Which accounts does {budget} track?",
    ],
    tells=[
        "{@budget} has {accounts:count(account)}: {accounts:list(name, working_balance:money)}.",
        "{@budget} has no accounts.",
    ],
    words={"include_closed": {True: "the closed ones too", False: "just the open ones"}},
)
say.tool(
    "list_transactions",
    # no payee, category or account filter: the tool takes one of another budget without a word,
    # and the sampler draws them apart from the budget the user names (see the report of issue 32)
    asks=[
        "Show the transactions of {budget} for {month}.",
        "What went through {budget} in {month}?",
        "Show me the latest transactions in {budget}.",
        "Which transactions in {budget} are {unapproved}?",
        "Show me what's {unapproved} in {budget}, I want to review the imports.",
        "Are there any {uncategorized} transactions in {budget}? I want to clean them up.",
    ],
    tells=[
        "You have {transactions:count(transaction)} waiting for approval; the latest: "
        "{transactions:list(payee, amount:money, day:day)}.{@unapproved:yes}",
        "You have {transactions:count(uncategorized transaction)}: "
        "{transactions:list(payee, amount:money, day:day)}.{@uncategorized:yes}",
        "{@budget} had {transactions:count(transaction)} that month; the latest: "
        "{transactions:list(payee, amount:money, day:day)}.{@month:yes}",
        "The latest transactions in {@budget}: {transactions:list(payee, amount:money, day:day)}.",
        "Nothing is waiting for approval.{@unapproved:yes}",
        "There are no uncategorized transactions.{@uncategorized:yes}",
        "There are no transactions in {@budget} for that month.",
    ],
    words={
        "unapproved": {True: "still waiting for approval"},
        "uncategorized": {True: "uncategorized"},
    },
    values={"unapproved": (True,), "uncategorized": (True,)},
)
say.tool(
    "list_payees",
    asks=[
        "Who are the payees in {budget}?",
        "List the payees of {budget}.",
        "Which shops and billers does {budget} know about?",
        "Show me the payees in {budget}, I want to tidy them up.",
        "What payees have I got in {budget}?",
    ],
    tells=[
        "{@budget} has {payees:count(payee)}, such as {payees:list(name, usual_category)}.",
        "{@budget} has no payees.",
    ],
)
say.tool(
    "add_transaction",
    asks=[
        "Log {amount} I spent at {payee} on {day} from {account}.",
        "Add a {amount} transaction at {payee} to {account} on {day}, under {category}.",
        "Record {amount} paid to {payee} on {day} from {account}, memo: {memo}.",
        "I got {amount} from {payee} on {day} into {account}; record it as {direction}.",
        "I paid {payee} {amount} {day} with {account}. Please enter it, {cleared}.",
        "Enter {amount} at {payee} on {day} on {account} and file it under {category}.",
    ],
    tells=[
        "Logged {amount:money} with {transaction.payee} on {day:day} under {transaction.category}; {@account} "
        "now has a working balance of {account.working_balance:money}.",
        "Logged {amount:money} with {transaction.payee} on {day:day}; {@account} now has a working balance of "
        "{account.working_balance:money}.",
    ],
    words={
        "direction": {"inflow": "income", "outflow": "spending"},
        "cleared": {"cleared": "it has already cleared", "uncleared": "it hasn't cleared yet"},
    },
    values={"memo": MEMOS, "direction": ("inflow",)},
)
say.tool(
    "update_transaction",
    asks=[
        "Change the category of {transaction} to {category}.",
        "Please file {transaction} under {category} instead.",
        "Add the memo '{memo}' to {transaction}.",
        "Mark {transaction} as {cleared}.",
        "I typed the wrong amount for {transaction}; it was actually {amount}.",
        "Fix the payee on {transaction}, it was actually {payee}.",
    ],
    tells=[
        "Done: {@transaction} is now under {transaction.category}.{@category:yes}",
        "Done: {@transaction} now has the memo '{transaction.memo}'.{@memo:yes}",
        "Done: {@transaction} is now marked {transaction.cleared:state}.{@cleared:yes}",
        "Done: {@transaction} is now {amount:money}.{@amount:yes}",
        "Done: {@transaction} now shows {transaction.payee} as the payee.{@payee:yes}",
        "Done, {@transaction} is updated.",
    ],
    words={"cleared": {"cleared": "cleared by the bank", "uncleared": "not cleared yet"}},
    values={"memo": MEMOS, "amount": (12.5, 18.99, 24.5, 36, 45.2, 60, 84.75, 110, 149.99)},
)
say.tool(
    "split_transaction",
    asks=[
        "Split {transaction} between {categories}.",
        "Divide {transaction} evenly across {categories}.",
        "Part of {transaction} was for something else: split it evenly between {categories}.",
        "Break {transaction} into equal parts for {categories}.",
        "Please split {transaction} across {categories}.",
    ],
    tells=["{@transaction} is now split between {transaction.parts:list(category)}."],
)
say.tool(
    "delete_transaction",
    asks=[
        "Delete {transaction}.",
        "Remove {transaction}, it was a duplicate.",
        "Delete {transaction}, it never happened.",
        "Get rid of {transaction}, I entered it twice.",
        "Please delete {transaction} from the register.",
    ],
    tells=["{@transaction} is deleted."],
)
say.tool(
    "transfer_between_accounts",
    asks=[
        "Transfer {amount} from {from_account} to {to_account} on {day}.",
        "Move {amount} from {from_account} into {to_account} on {day}.",
        "I moved {amount} from {from_account} to {to_account} {day}; record the transfer.",
        "Record a {amount} transfer from {from_account} to {to_account} on {day}, memo: {memo}.",
        "I paid {amount} from {from_account} toward {to_account} on {day}, enter it as a transfer.",
    ],
    tells=[
        "Recorded the {amount:money} transfer from {@from_account} to {@to_account}; {@from_account} is now at "
        "{from_balance.working_balance:money} and {@to_account} at {to_balance.working_balance:money}."
    ],
    values={"memo": ("paying off the card", "monthly savings", "topping up cash", "moving the bonus")},
)
say.tool(
    "approve_transactions",
    asks=[
        "Approve {transactions}.",
        "Those imported transactions look right, approve {transactions}.",
        "I checked {transactions}; you can approve them.",
        "Please approve {transactions}.",
        "These are all fine, approve {transactions}.",
    ],
    tells=["Approved {count:count(transaction)}: {@transactions}."],
)

# -- reconciling and scheduled bills ------------------------------------------------------------
say.tool(
    "reconcile_account",
    asks=[
        "Reconcile {account}; the cleared balance matches the bank.",
        "Reconcile {account}: the cleared balance is right.",
        "The bank and {account} agree on what's cleared, reconcile it.",
        "I checked {account} against my statement and the cleared balance matches. Please reconcile it.",
        "Time to reconcile {account}, the cleared total is the same as my bank shows.",
    ],
    tells=[
        "{@account} is reconciled at {statement_balance:money}; {locked:count(cleared transaction)} got locked.",
    ],
)
say.tool(
    "create_scheduled_transaction",
    asks=[
        "Set up a payment of {amount} to {payee} from {account} {frequency}, starting {first_day}.",
        "Schedule {amount} to {payee} {frequency} from {account}, first one on {first_day}.",
        "Add a recurring {direction} of {amount} with {payee} on {account} {frequency}, starting {first_day}.",
        "I get billed {amount} by {payee} {frequency}; schedule it on {account} from {first_day}.",
        "Put {amount} to {payee} on {account} {frequency} starting {first_day}, under {category}.",
    ],
    tells=["Scheduled: {amount:money} with {payee} {@frequency} on {@account}, starting {first_day:day}."],
    words={"frequency": FREQUENCY, "direction": {"outflow": "bill", "inflow": "deposit"}},
    values={"memo": MEMOS},
)
say.tool(
    "list_scheduled_transactions",
    asks=[
        "What bills are scheduled in {budget}?",
        "Show my upcoming scheduled transactions in {budget}.",
        "What's coming up in {budget}? I want to know which bills are next.",
        "List the recurring transactions in {budget}.",
        "Which scheduled payments does {budget} have?",
    ],
    tells=[
        "{@budget} has {scheduled:count(scheduled transaction)}; next up: {scheduled:list(payee, next_day:day)}.",
        "Nothing is scheduled in {@budget}.",
    ],
)
