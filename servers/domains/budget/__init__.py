"""Envelope budgeting (YNAB's method): give every dollar a job, month by month.

Acting model: the ``sessions`` row names the signed-in person, the persona (world person 0). She
owns two budgets (BUD-000001 "Household" and BUD-000002 "Freelance Studio") and people of her
circle shared theirs with her (budget_members, role ``collaborator``); every tool takes explicit
ids and refuses a budget that is not hers or shared with her. Payees are the shared world's
merchants (the names on banking card statements), the restaurants of the owner's city, the
owner's employer (paychecks) and a few billers.

Reference moment: Monday 2026-06-01 09:00. "This month" is 2026-06, "last month" 2026-05. Every
budget starts in 2025-12; money may be assigned up to 11 months ahead (2027-05).

The arithmetic, per category c and month m (computed on every read, never stored except as the
current month's figures on each category row):
- activity(c, m) is the sum of the month's transactions in c (split parts count under their own
  categories, split parents not at all); available(c, m) = max(available(c, m-1), 0) +
  assigned(c, m) + activity(c, m). A negative available is overspending.
- Inflows categorized to the internal "Ready to Assign" category are income. Ready to Assign(m)
  = income up to m - everything assigned up to m - overspending of earlier months: a month's
  uncovered overspending is taken from the next month's Ready to Assign.

Rules the service enforces (each refusal names the values and changes nothing):
- Assigning sets a month's amount (>= 0) between the first month and 11 months ahead; raising it
  may not push Ready to Assign below zero in that or any later month ("only 120.00 left to assign
  in June 2026"). Hidden categories cannot receive money.
- Moving money: the source must have the amount available in that month (Ready to Assign may be
  either side); both categories in one budget; hidden categories cannot receive.
  ``cover_overspending`` moves exactly a negative available's amount in, by default from Ready to
  Assign.
- Transactions: amount > 0 with a direction (outflow default); the day may not be in the future
  (use a scheduled transaction); closed accounts take nothing new; outflows from on-budget
  accounts need a category (the payee's usual one when omitted); inflows go to Ready to Assign by
  default; tracking (off-budget) accounts take no categories.
- Transfers pair an outflow and an inflow in one budget; only a transfer from an on-budget to a
  tracking account takes (and needs) a category.
- Splits: at least two parts, each with its own category of the same budget, adding up to the
  transaction exactly to the cent (omitted amounts: an even split, leftover cents first).
- Reconciled transactions are locked: their amount and cleared status cannot change, and they
  cannot be deleted. Reconciling needs the statement balance to equal the cleared balance (or
  ``create_adjustment``); all cleared lines then become reconciled and a row is appended to the
  append-only ``reconciliations`` log.
- Goals: ``monthly`` (assign the amount every month) and ``target_balance`` (save up to it) via
  ``set_category_goal``; ``target_by_month`` (reach it by a future month) via
  ``set_category_target_date``; ``clear_category_goal`` removes one. Progress is funded / needed
  this month; a target_by_month spreads what is missing over the months left.
- Reads are per budget and page like every list (limit/offset/total); discovery tools list raw rows.
"""

from servers.domains.budget import edits, plan, reconcile, register, seed, setup
from servers.domains.budget.model import budget

# the modules that declare the domain; its tools are shown to agents in this order
budget.include(seed, plan, setup, register, edits, reconcile)

__all__ = ["budget"]

# the words its users speak and its assistant answers with (read by the task generator)
from servers.domains.budget import language as _language  # noqa: E402,F401
