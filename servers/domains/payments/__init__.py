"""Payments: a merchant platform in the shape of Stripe, run from an operator console.

Acting model: the console serves many merchant accounts; every tool takes the ids it acts on
(a merchant, customer, invoice, payment ...), as a support desk would. The user speaks for one
merchant (a business of the shared world), found by its billing email with ``find_merchant``;
its customers are world people and world companies (the persona buys from the first three
merchants), so names and emails agree with the other services.

Reference moment: Monday 2026-06-01 09:00. Nothing happens by itself: authorizations, payouts
and disputes stay as the seed left them unless a tool moves them.

Money is in the merchant's currency (usd, cad, gbp or eur, from the merchant's country), with
two decimals. Rules the service enforces, each refused with an error naming the values involved:

* Invoices go draft -> open (finalize: needs a line, a total above zero and a customer that was
  not deleted; assigns the merchant's next number and the due date) -> paid / void /
  uncollectible; uncollectible -> paid / void; paid and void are final. Only drafts take new
  lines; finalized invoices change only through credit notes.
* Paying an invoice uses the customer's credit balance first, then charges the rest to the given
  method (it must be the customer's) or the default one. Charges are at least 0.50 (GBP 0.30).
  Detached, expired and issuer-declined methods fail deterministically: the failed payment and
  its events are recorded (a decline is an outcome, not an error), the invoice stays open and
  its customer is marked delinquent until their failed invoices are settled.
* One-off charges may only authorize (``capture=false``): the hold is captured (in full or in
  part, within 7 days) or canceled. An idempotency key with the same request returns the
  original payment and charges nothing; with a different request it is refused (keys last 24h).
* Refunds: only succeeded (captured) payments, never disputed ones; partial refunds add up to at
  most what was captured; the money comes out of the merchant's available, then pending balance.
* Credit notes: on an open invoice they lower the amount due (to zero: paid); on a paid one they
  are refunded to its payment or added to the customer's credit balance; in total never more
  than the invoice total (nor, after payment, than what was paid).
* Disputes are answered with evidence before their deadline, or accepted (lost).
* Restricted merchants cannot charge, collect, capture or pay out (refunds still work). Payouts
  need payouts enabled and 1.00 <= amount <= the available balance; pending payouts can be
  canceled.
* Webhooks: https URLs only, known event types or ``*``, at most 16 endpoints per merchant, no
  URL twice. Every write appends to the event log (``events``), and each event is delivered to
  the merchant's enabled endpoints subscribed to it (a failing endpoint answers 500); disabled
  endpoints get nothing. ``resend_event`` retries one event on one enabled, subscribed endpoint
  of the same merchant, for events up to 30 days old; it appends a delivery attempt only.

Sensitive values: full card numbers and security codes are taken once and never stored or
shown (only brand, last four digits and expiry); a card's fingerprint and issuer decline code and
an endpoint's signing secret and health are hidden from every tool. Events, deliveries, refunds
and credit notes are append-only.
"""

from servers.domains.payments import (
    balance,
    charges,
    collecting,
    customers,
    disputes,
    invoices,
    seed,
    webhooks,
)
from servers.domains.payments.model import payments

# the modules that declare the domain; its tools are shown to agents in this order
payments.include(seed, customers, invoices, collecting, charges, disputes, webhooks, balance)

__all__ = ["payments"]

# the words its merchants use and its assistant answers with (read by the task generator)
from servers.domains.payments import language as _language  # noqa: E402,F401
