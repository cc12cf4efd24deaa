"""Sales CRM: accounts, contacts, leads, deals in pipelines, activities and tasks (the shape of
HubSpot deal pipelines and Salesforce lead conversion).

Acting model: the ``sessions`` row names the signed-in user, the persona (USR-000001, world person
0), who manages sales team West. Every user belongs to the team of one territory (west, central,
east, international: sets of the shared world's cities). Reps change only records they own;
managers change and reassign records their team owns and may reopen closed deals; the admin may
do anything. Records are only ever assigned to active users, by managers within their team (reps
cannot assign to others). Accounts are the shared world's companies (the persona's own employer
is the ``internal`` account, holding her colleagues as contacts); contacts are the people who
work there, with a few entered twice under another email.

Reference moment: Monday 2026-06-01 09:00. Nothing moves by itself.

Rules the service enforces, each refused with an error naming the values involved:

* Territories: an account is owned by someone on the team of its territory, and a lead by
  someone on the team of its city's territory.
* Contacts: emails are unique (a second record for an email is refused: merge instead);
  lifecycle stages only move forward (subscriber, lead, mql, sql, opportunity, customer,
  evangelist, other); calls and emails cannot be logged with a do-not-contact contact.
* Merging: the two records must be the same person (same name or same email mailbox), never one
  record into itself; the duplicate's activities, deal roles and lead conversions move to the
  primary, do-not-contact carries over if either had it, the later lifecycle stage is kept and
  the duplicate is deleted.
* Leads: status moves new -> working / nurturing / qualified / unqualified (never back to new);
  unqualified needs a reason; an open lead per email; only qualified leads convert, once, into
  the account at the email's domain (or a new prospect account) and the contact with the email
  (or a new one), optionally with a deal; converted leads are read-only.
* Deals: open on external accounts you may edit, in an open stage of their pipeline (sales by
  default, or renewals), with a close date today or later; a stage belongs to one pipeline and a
  deal moves only within its own. Proposal and later stages need an amount, negotiation and later
  a primary contact (someone at the deal's account); won stages (won, renewed) need both and can
  only be reached from a late stage (proposal, negotiation, contracting; quoted, committed); lost
  stages (lost, churned) need a lost_reason. Closing sets the close date to today; closed deals are
  final for reps, and a manager reopens one to an open stage (its close date moves 30 days out if
  it had passed). Winning turns a prospect account into a customer and the primary contact's
  lifecycle into customer. Every move appends a ``stage_history`` row (append-only).
* Weighted forecast = sum of amount x stage probability over open deals.
* Tasks: due today or later; done once; completed only by their owner, the owner's manager or an
  admin.
"""

from servers.domains.crm import accounts, activities, contacts, deals, leads, seed, stages
from servers.domains.crm.model import crm

# the modules that declare the domain; its tools are shown to agents in this order
crm.include(seed, contacts, accounts, deals, leads, stages, activities)

__all__ = ["crm"]

# the words its sales team uses and its assistant answers with (read by the task generator)
from servers.domains.crm import language as _language  # noqa: E402,F401
