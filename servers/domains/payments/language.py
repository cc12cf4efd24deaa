"""How a merchant running their business on the platform speaks, and what its assistant says.

The speaker is a merchant (a shop, a clinic, a repair service), identified by the billing email
of their account. They talk about their own business: customers by name or email ("Dana Lee",
"my customer Okafor Logistics"), invoices by their number or amount ("invoice SBRB00074", "the
$1,245 invoice"), saved cards by brand and last four digits, disputes by the charge they contest
("the dispute over the $365.70 charge"), webhooks by their URL, payouts by amount and arrival day.
The one platform id they do keep is a payment's number, shown on their dashboard and receipts.
The assistant answers with the amounts, days and states asked about, and nothing else.
"""

from __future__ import annotations

from servers.domains.payments.model import (
    EVENT_TYPES,
    CreditNote,
    Customer,
    Delivery,
    Dispute,
    Event,
    Invoice,
    Merchant,
    Payment,
    PaymentMethod,
    Payout,
    Product,
    WebhookEndpoint,
    payments,
)
from servers.kit import Language

say = Language(payments, speaker=("merchant",))

# -- naming things ------------------------------------------------------------------------
say.names(Merchant, "{name}")
say.names(Customer, "{name}", "my customer {name}", "{name} ({email})")
say.names(
    PaymentMethod,
    "the {brand:state} ending {last4}",
    "the {kind:state} ending {last4}",
    found_in={"get_customer": ("payment_methods", "id", "customer_id")},
    within="{row} that {owner} has on file",
)
say.names(Product, 'the "{name}" product', "our {name}")
say.names(
    Invoice,
    "invoice {number}",
    "the {total:money} invoice",
    "the {status:state} invoice for {total:money}",
    "the invoice due {due_date:day}",
    found_in={"get_customer": ("open_invoices", "id", "customer_id")},
    within="{row} for {owner}",
)
say.names(
    Payment,
    "the {amount:money} payment from {created_at:day}",
    "the {status:state} {amount:money} payment",
    held="payment {id}",
    found_in={"get_invoice": ("payments", "id", "invoice_id")},
    within="{row} on {owner}",
)
say.names(
    Dispute,
    "the dispute over the {amount:money} charge",
    "the {reason:state} dispute for {amount:money}",
    "the dispute on payment {payment_id}",
)
say.names(WebhookEndpoint, "the webhook at {url}", "my {url} endpoint")
say.names(Event, "the {type} event from {created_at:when}", 'the {type} event "{summary}"')
say.names(
    Payout,
    "the {amount:money} payout",
    "the payout arriving {arrival_day:day}",
    found_in={"get_balance": ("recent_payouts", "id", "merchant_id")},
)

say.state(Merchant, "status", active="active", restricted="restricted until its verification is done")
say.state(
    Invoice,
    "status",
    draft="draft",
    open="open",
    paid="paid",
    uncollectible="written-off",
    void="voided",
)
say.state(
    Dispute,
    "reason",
    fraudulent="fraud",
    product_not_received="item-not-received",
    duplicate="duplicate-charge",
    subscription_canceled="canceled-subscription",
    general="general",
)
say.state(
    Dispute,
    "status",
    needs_response="waiting on a response",
    under_review="under review with the bank",
    won="won",
    lost="lost",
)
say.state(
    Payment,
    "status",
    succeeded="paid",
    requires_capture="authorized",
    failed="declined",
    canceled="canceled",
    disputed="disputed",
)
say.state(
    Payment,
    "failure_code",
    insufficient_funds="insufficient funds",
    do_not_honor="the bank refused it",
    expired_card="the card has expired",
    payment_method_detached="that card was removed",
)
say.state(
    PaymentMethod,
    "brand",
    visa="Visa",
    mastercard="Mastercard",
    amex="Amex",
    discover="Discover",
    bank="bank account",
)
say.state(PaymentMethod, "kind", card="card", bank_account="bank account")
say.state(PaymentMethod, "status", active="active", expired="expired", detached="removed")
say.state(WebhookEndpoint, "status", enabled="switched on", disabled="switched off")
say.state(Delivery, "status", succeeded="it went through", failed="it failed again")
say.state(Payout, "status", pending="on its way", paid="paid out", failed="failed", canceled="canceled")

INVOICE_STATUS = {
    "draft": "in draft",
    "open": "open",
    "paid": "paid",
    "uncollectible": "written off",
    "void": "voided",
}

# -- the merchant's account ------------------------------------------------------------------
say.tool(
    "find_merchant",
    asks=[
        "Can you pull up my account? The billing email is {email}.",
        "My account's billing email is {email}. Is it all set up?",
        "Look up my merchant account, {email}.",
        "I run the account under {email}. What state is it in?",
        "Find my business account, please: {email}.",
    ],
    tells=[
        "I found your account, {name}: it's {status:state} and payouts are turned on.{payouts_enabled:yes}",
        "I found your account, {name}: it's {status:state}, and payouts are turned off.",
    ],
)
say.tool(
    "get_balance",
    asks=[
        "What's my balance?",
        "How much can I pay out right now?",
        "How much money is sitting in my account?",
        "What's available in my balance, and what's still pending?",
        "I need to pay suppliers this week. How much do I have available?",
    ],
    tells=[
        "You have {available_balance:money} available and {pending_balance:money} still pending, "
        "but payouts are turned off on your account.{payouts_enabled:no}",
        "You have {available_balance:money} available to pay out, and {pending_balance:money} is still pending.",
    ],
)
say.tool(
    "create_payout",
    asks=[
        "Pay out {amount} to my bank account.",
        "Send {amount} from my balance to the bank.",
        "I need {amount} in my bank account, please pay it out.",
        "Transfer {amount} of my available balance to my bank, rent is due.",
        "Can you pay out {amount} to me?",
    ],
    tells=[
        "A {amount:money} payout is on its way and should arrive {arrival_day:day}; "
        "{available_balance:money} is left available."
    ],
)
say.tool(
    "cancel_payout",
    asks=[
        "Cancel {payout}.",
        "Stop {payout}, I want to keep the money in my balance.",
        "Please call off {payout}.",
        "I changed my mind about {payout}, cancel it.",
        "Can you cancel {payout} before it goes out?",
    ],
    tells=[
        "{@payout} is canceled and the money is back in your balance; "
        "you have {available_balance:money} available now."
    ],
)

# -- customers -------------------------------------------------------------------------------
say.tool(
    "find_customer",
    asks=[
        "Which customer has the email {email}?",
        "A payment came in from {email}. Who is that?",
        "Look up the customer with the email {email}.",
        "Can you find {email} among the customers? They just emailed me.",
        "Who's behind {email}? I want to check before I reply.",
    ],
    tells=["{email} belongs to {customers.0.name}."],
)
say.tool(
    "list_customers",
    asks=[
        'Which customers have "{query}" in their name or email?',
        'Search the customers for "{query}".',
        'I can\'t remember the full name, it had "{query}" in it. Who could that be?',
        'Find customers matching "{query}".',
        'Look up "{query}" in the customer list.',
        'Search the customers for "{query}", {include_deleted}.',
    ],
    tells=[
        '{customers:count(customer)} match "{@query}": {customers:list(name, email)}.',
        'No customer matches "{@query}".',
    ],
    words={"include_deleted": {True: "deleted ones included", False: "leaving out deleted ones"}},
)
say.tool(
    "get_customer",
    asks=[
        "What cards does {customer} have on file?",
        "Pull up {customer}'s account, please.",
        "Does {customer} owe me anything?",
        "What do you have on file for {customer}?",
        "My customer wants to pay by card. What does {customer} have saved, and what's still open?",
    ],
    tells=[
        "{name} has {payment_methods:count(saved payment method)}, ending {payment_methods:list(last4)}, "
        "and {open_invoices:count(unpaid invoice)}, with {open_invoices:sum(amount_due)} still due.",
        "{name} has {payment_methods:count(saved payment method)}, ending {payment_methods:list(last4)}, "
        "and nothing outstanding.",
        "{name} has no saved payment method and {open_invoices:count(unpaid invoice)}, "
        "with {open_invoices:sum(amount_due)} still due.",
        "{name} has no saved payment method and owes you nothing.",
    ],
)
say.tool(
    "create_customer",
    asks=[
        "Add {name} as a new customer, their email is {email}.",
        "Set up {name} ({email}) as one of my customers.",
        "I have a new client, {name}. Create them as a customer with the email {email}.",
        "Please create a customer for {name}; invoices go to {email}.",
        "New customer: {name}, {email}.",
    ],
    tells=["{name} is set up as your customer; invoices and receipts will go to {email}."],
    values={
        "name": (
            "Dana Whitfield",
            "Marcus Lee",
            "Priya Raman",
            "Okafor Logistics LLC",
            "Hannah Schultz",
            "Riverside Dental Group",
            "Tomás Alvarez",
        )
    },
)
say.tool(
    "attach_card",
    asks=[
        "Save a card for {customer}: {card_number}, expires {exp_month}/{exp_year}, CVC {cvc}.",
        "My customer {customer} read me their card over the phone: {card_number}, exp {exp_month}/{exp_year}, "
        "security code {cvc}. Please add it.",
        "Add the card {card_number} (exp {exp_month}/{exp_year}, CVC {cvc}) to {customer} {make_default}.",
        "The old card of {customer} expired. Save the new one, {card_number}, exp {exp_month}/{exp_year}, "
        "CVC {cvc}, in place of {replaces}.",
        "Replace {replaces} of {customer} with the new card {card_number}, expiring {exp_month}/{exp_year}, CVC {cvc}.",
        "Put {card_number}, expiring {exp_month}/{exp_year}, code {cvc}, on file for {customer}.",
    ],
    tells=[
        "The {brand:state} ending {last4} is saved for {@customer} in place of {@replaces}, "
        "and it's now their default.{default:yes}",
        "The {brand:state} ending {last4} is saved in place of {@replaces}, and it's now the default.{default:yes}",
        "The {brand:state} ending {last4} is saved for {@customer} and is now their default card.{default:yes}",
        "The {brand:state} ending {last4} is saved for {@customer}.",
        "The {brand:state} ending {last4} is saved.",
    ],
    words={"make_default": {True: "and make it their default", False: "but keep their current default"}},
)
say.tool(
    "detach_payment_method",
    asks=[
        "Remove {payment_method}.",
        "Remove {payment_method}, the customer asked me to.",
        "Please delete {payment_method}; it was reported stolen.",
        "Detach {payment_method} so nobody charges it by mistake.",
        "We shouldn't keep {payment_method} any more. Remove it.",
    ],
    tells=["{@payment_method} is removed and can't be charged any more."],
)

# -- invoices --------------------------------------------------------------------------------
say.tool(
    "list_invoices",
    asks=[
        "Show me my latest invoices.",
        "Which of my invoices are {status}?",
        "List the invoices that are {status}.",
        "What invoices have I sent {customer}?",
        "Which of {customer}'s invoices are {status}?",
        "I need to chase people. Show me {overdue_only} invoices.",
        "Who hasn't paid on time? List {overdue_only} invoices.",
    ],
    tells=[
        "{@customer} has {invoices:count(invoice)} overdue: {invoices:list(number, amount_due:money)}.{overdue_only:yes}",
        "You have {invoices:count(invoice)} overdue: {invoices:list(number, amount_due:money)}.{overdue_only:yes}",
        "{@customer} has {invoices:count(invoice)} {@status}: {invoices:list(number, total:money)}.",
        "You have {invoices:count(invoice)} {@status}: {invoices:list(number, total:money)}.",
        "You have {invoices:count(invoice)} {@status}, for {invoices:list(total:money)}.",
        "{@customer} has {invoices:count(invoice)}: {invoices:list(number, total:money, status)}.",
        "You have {invoices:count(invoice)}; the latest are {invoices:list(number, total:money, status)}.",
        "Nothing is overdue.{overdue_only:yes}",
        "{@customer} has no invoices that are {@status}.",
        "None of your invoices are {@status}.",
        "{@customer} has no invoices yet.",
        "You have no invoices yet.",
    ],
    words={"status": INVOICE_STATUS, "overdue_only": {True: "only the overdue", False: "all my"}},
)
say.tool(
    "get_invoice",
    asks=[
        "What's on {invoice}?",
        "Has {invoice} been paid?",
        "How much is still due on {invoice}?",
        "Can you show me {invoice}, line by line?",
        "The customer says they paid {invoice}. Did they?",
    ],
    tells=[
        "{@invoice} is still a draft: {total:money} for {lines:list(description)}, not sent yet.{number:no}",
        "It's still an empty draft, with no lines yet.{number:no}",
        "Invoice {number} is overdue: {amount_due:money} of {total:money} was due {due_date:day}.{overdue:yes}",
        "Invoice {number} is {status:state}: {total:money} for {lines:list(description)}, "
        "and nothing is left to pay.{amount_due:no}",
        "Invoice {number} is {status:state}: {total:money} for {lines:list(description)}, "
        "with {amount_due:money} due by {due_date:day}.",
        "Invoice {number} is {status:state}, for {total:money}.",
    ],
)
say.tool(
    "create_invoice",
    asks=[
        "Start an invoice for {customer}.",
        "I need to bill {customer}. Open a draft invoice, payable within {due_days} days.",
        'Create an invoice for {customer} with the note "{memo}".',
        "Start a draft invoice for {customer} with {due_days}-day terms.",
        'Draft an invoice for {customer}, due {due_days} days after I send it, memo "{memo}".',
        "Please open a new invoice for {customer}, I'll add the lines next.",
    ],
    tells=[
        "A draft invoice for {@customer} is ready, due {due_days} days after you finalize it; "
        "it's empty until you add lines."
    ],
    values={
        "memo": (
            "Thank you for your business",
            "Net 30 as agreed",
            "PO 4471",
            "May services",
            "Deposit for the June event",
            "Please pay by bank transfer",
        )
    },
)
say.tool(
    "add_invoice_line",
    asks=[
        'Add "{description}" for {unit_amount} to {invoice}.',
        'Put {quantity} x "{description}" at {unit_amount} each on {invoice}.',
        'Add a line to {invoice}: "{description}", {unit_amount}.',
        'Bill {quantity} of "{description}" at {unit_amount} apiece on {invoice}.',
        'I forgot something on {invoice}: "{description}", {unit_amount}.',
        'Add {product} to {invoice} as "{description}" at {unit_amount}.',
    ],
    tells=[
        'Added "{description}" ({quantity} × {unit_amount:money}); the invoice now comes to {invoice_total:money}.',
    ],
    values={
        "description": (
            "Consulting, 3 hours",
            "Setup fee",
            "Monthly plan - June",
            "Rush delivery",
            "Replacement part",
            "On-site visit",
            "Catering for 20",
        )
    },
)
say.tool(
    "finalize_invoice",
    asks=[
        "Finalize {invoice} so I can send it.",
        "I'm happy with {invoice}, finalize it.",
        "Please finalize {invoice}.",
        "I'm done adding lines to {invoice}. Finalize it.",
        "Lock in {invoice} and give it a number.",
    ],
    tells=["{@invoice} is finalized as invoice {number}: {total:money}, due {due_date:day}."],
)
say.tool(
    "void_invoice",
    asks=[
        "Void {invoice}, I sent it by mistake.",
        "Please void {invoice}.",
        "Cancel {invoice}; the job fell through.",
        "I sent {invoice} twice. Void it.",
        "Void {invoice}, we settled it another way.",
    ],
    tells=["Invoice {number} is void now; nothing is owed on it."],
)
say.tool(
    "mark_invoice_uncollectible",
    asks=[
        "Write off {invoice}, they're never paying.",
        "Mark {invoice} as uncollectible.",
        "The customer went out of business. Write off {invoice}.",
        "Please mark {invoice} uncollectible.",
        "I've given up on {invoice}; mark it as bad debt.",
    ],
    tells=[
        "Invoice {number} is written off, with {amount_due:money} unpaid; you can still collect it or void it later."
    ],
)
say.tool(
    "pay_invoice",
    asks=[
        "Charge {invoice} now.",
        "Collect {invoice} from the customer's saved card.",
        "Please take payment for {invoice}.",
        "Charge {invoice} to {payment_method}.",
        "The customer said to use {payment_method} for {invoice}. Collect it.",
        "Try collecting {invoice} again, they say their card works now.",
    ],
    tells=[
        "The charge was declined ({declined}), so invoice {number} is still open with {amount_due:money} due, "
        "and the customer is now marked as behind on payments.{paid:no}",
        "Invoice {number} is paid in full from the customer's credit balance.{charged:no}",
        "Invoice {number} is paid: {credit_applied:money} came from the customer's credit balance "
        "and {charged:money} was charged.{credit_applied:yes}",
        "Invoice {number} is paid: {charged:money} was charged to {@payment_method}.",
        "Invoice {number} is paid: {charged:money} was charged to the customer's saved payment method.",
    ],
)
say.tool(
    "create_credit_note",
    asks=[
        "Take {amount} off {invoice}, {reason}.",
        "Issue a credit note of {amount} on {invoice}.",
        "Credit {amount} on {invoice} and {refund}.",
        "I overcharged on {invoice} by {amount} because {reason}. Credit it.",
        "Please credit the customer {amount} on {invoice}.",
        "Give a {amount} credit on {invoice}, {reason}, and {refund}.",
    ],
    tells=[
        "I issued a {amount:money} credit note on invoice {invoice.number} and refunded that to the customer.{refund_id:yes}",
        "I issued a {amount:money} credit note on invoice {invoice.number}; {invoice.amount_due:money} is still due.{invoice.amount_due:yes}",
        "I issued a {amount:money} credit note on invoice {invoice.number}; {kind:state}.",
    ],
    words={
        "reason": {
            "duplicate": "it was billed twice",
            "fraudulent": "the order was fraudulent",
            "order_change": "the order changed",
            "product_unsatisfactory": "they weren't happy with the product",
        },
        "refund": {True: "refund it to their card", False: "keep it as credit on their account"},
    },
)
say.state(
    CreditNote,
    "kind",
    pre_payment="that settles what was due on it",
    post_payment="it's added to the customer's credit balance for their next invoices",
)

# -- one-off charges -------------------------------------------------------------------------
say.tool(
    "charge_customer",
    asks=[
        'Charge {customer} {amount} for "{description}".',
        'Bill {customer} {amount} for "{description}" on their card.',
        'Put a hold of {amount} on the card of {customer} for "{description}"{capture}.',
        'Charge {customer} {amount} for "{description}" on {payment_method}.',
        'Charge {customer} {amount} for "{description}" with the key {idempotency_key} so it can\'t go through twice.',
        'My customer {customer} owes me {amount} for "{description}". Charge them.',
    ],
    tells=[
        "The charge was declined ({failure_code:state}); nothing was taken from {@customer}.",
        "That charge already went through with the same key: {amount:money}, payment {id}. "
        "Nothing was charged twice.{idempotent_replay:yes}",
        '{amount:money} is on hold on the card of {@customer} for "{description}"; capture it within 7 days. '
        "The payment number is {id}.{amount_captured:no}",
        '{@customer} was charged {amount:money} for "{description}". The payment number is {id}.',
    ],
    words={"capture": {False: ", don't capture it yet", True: " and capture it right away"}},
    values={
        "description": (
            "Annual membership",
            "Catering deposit",
            "Repair balance",
            "Event tickets",
            "Late fee",
            "Custom order deposit",
        )
    },
)
say.tool(
    "capture_payment",
    asks=[
        "Capture {payment}.",
        "The order shipped, capture {payment}.",
        "Capture {amount} of {payment} and release the rest.",
        "Only {amount} of {payment} is needed, capture that much.",
        "Please capture the hold on {payment}.",
    ],
    tells=[
        "Captured {@amount:money} of the {amount:money} hold; the rest is released back to the customer.",
        "Captured the full {amount_captured:money}; it's in your pending balance now.",
    ],
)
say.tool(
    "cancel_payment",
    asks=[
        "Cancel {payment}.",
        "Release the hold on {payment}, {reason}.",
        "Cancel {payment}, {reason}.",
        "Drop the hold on {payment}; we won't need it.",
        "Please void the authorization {payment}.",
    ],
    tells=["The {amount:money} hold is released; nothing was charged."],
    words={
        "reason": {
            "duplicate": "it was a duplicate",
            "fraudulent": "it looks fraudulent",
            "requested_by_customer": "the customer asked",
            "abandoned": "the order was abandoned",
        }
    },
)
say.tool(
    "get_payment",
    asks=[
        "What happened with {payment}?",
        "How much of {payment} has been refunded?",
        "Can you look up {payment} for me?",
        "A customer is asking about {payment}. What's its status?",
        "Is there anything left to refund on {payment}?",
    ],
    tells=[
        '{@payment} ({amount:money} for "{description}") is disputed as {dispute.reason:state}; '
        "the dispute is {dispute.status:state}, so it can't be refunded.{dispute:yes}",
        "{amount_refunded:money} of {@payment} has been refunded, and {refundable:money} more can still be."
        "{amount_refunded:yes}{refundable:yes}",
        "{@payment} was refunded in full ({amount_refunded:money}).{amount_refunded:yes}",
        '{@payment} for "{description}" went through, and nothing has been refunded yet; '
        "all {refundable:money} can still be refunded.{refundable:yes}",
        "{@payment} was declined ({failure_code:state}), so nothing was taken or refunded.",
        '{@payment} ({amount:money} for "{description}") is {status:state}; nothing has been captured or refunded.'
        "{amount_captured:no}",
        '{@payment} ({amount:money} for "{description}") is {status:state}.',
    ],
)
say.tool(
    "refund_payment",
    asks=[
        "Refund {payment} in full.",
        "Refund {amount} of {payment}, {reason}.",
        "Give the customer their money back for {payment}, {reason}.",
        "Refund {amount} on {payment}; part of the order was missing.",
        "Please refund {payment}.",
    ],
    tells=[
        "Refunded {amount:money} of {@payment}; {refundable:money} of it can still be refunded.{refundable:yes}",
        "Refunded {amount:money}; {@payment} is now refunded in full.",
    ],
    words={
        "reason": {
            "duplicate": "it was a duplicate charge",
            "fraudulent": "it was fraud",
            "requested_by_customer": "the customer asked for it",
        }
    },
)

# -- disputes --------------------------------------------------------------------------------
say.tool(
    "list_disputes",
    asks=[
        "Do I have any disputes?",
        "Which of my disputes are {status}?",
        "Show me the disputes that are {status}.",
        "Are any chargebacks {status}?",
        "List my disputes.",
    ],
    tells=[
        "You have {disputes:count(dispute)} {@status}: {disputes:list(amount:money, reason)}.",
        "You have {disputes:count(dispute)}: {disputes:list(amount:money, reason, status)}.",
        "None of your disputes are {@status}.",
        "You have no disputes.",
    ],
    words={
        "status": {
            "needs_response": "waiting on my response",
            "under_review": "under review with the bank",
            "won": "won",
            "lost": "lost",
        }
    },
)
say.tool(
    "submit_dispute_evidence",
    asks=[
        "Answer {dispute} with this: {evidence}",
        "Here's my evidence for {dispute}: {evidence}",
        "I want to fight {dispute}. Send the bank this: {evidence}",
        "Submit this for {dispute}: {evidence}",
        "Please respond to {dispute}. {evidence}",
    ],
    tells=["Your evidence is in; {@dispute} is now under review with the bank."],
    values={
        "evidence": (
            "Signed delivery receipt attached; the customer collected the order in store.",
            "The customer used the service on three dates; access logs attached.",
            "This charge is not a duplicate: the two orders were for different items.",
            "The customer agreed to the cancellation policy at checkout.",
            "Tracking shows the package was delivered to the billing address on May 12.",
        )
    },
)
say.tool(
    "accept_dispute",
    asks=[
        "Accept {dispute}, it's not worth fighting.",
        "Close {dispute}; we'll take the loss.",
        "I won't contest {dispute}. Accept it.",
        "Please accept {dispute}, the customer has a point.",
        "Just accept {dispute}.",
    ],
    tells=["{@dispute} is closed as lost; the {amount:money} stays with the cardholder."],
)

# -- webhooks and the event log -------------------------------------------------------------
say.tool(
    "list_events",
    asks=[
        "What's happened on my account lately?",
        "Show me my recent {type} events.",
        "Were there any {type} events recently?",
        "Pull up the latest {type} events from my log.",
        "I'm debugging my webhook handler. What {type} events came through?",
    ],
    tells=[
        "Your log has {events:count(event)} of type {@type}, newest first: {events:list(summary, created_at:when)}.",
        "Your log has {events:count(event)}; the newest: {events:list(summary, created_at:when)}.",
        "There are no {@type} events in your log.",
        "Your event log is empty.",
    ],
    # developers quote event types as written ("invoice.payment_failed"), underscores and all
    words={"type": {t: t for t in EVENT_TYPES if "_" in t}},
)
say.tool(
    "list_webhook_endpoints",
    asks=[
        "Which webhook endpoints do I have?",
        "List my webhooks.",
        "Where are my webhooks being sent, and are they switched on?",
    ],
    tells=[
        "You have {endpoints:count(webhook endpoint)}: {endpoints:list(url, status)}.",
        "You have no webhook endpoints.",
    ],
)
say.tool(
    "create_webhook_endpoint",
    asks=[
        "Register {url} as a webhook for {events}.",
        "Add a webhook at {url} that gets {events}.",
        "Send {events} events to {url}, please.",
        "I set up a new endpoint, {url}. Subscribe it to {events}.",
        "Create a webhook pointing at {url} for {events}.",
    ],
    tells=[
        "{url} is registered and switched on. Its signing secret is {secret}; "
        "copy it now, it won't be shown again."
    ],
    values={
        "url": (
            "https://hooks.example.com/payments",
            "https://api.example.com/webhooks/billing",
            "https://erp.example.net/payment-events",
            "https://ops.example.org/hooks/refunds",
        )
    },
    words={"events": {t: t for t in EVENT_TYPES}},  # quoted as developers write them
)
say.tool(
    "update_webhook_endpoint",
    asks=[
        "Switch {endpoint} {enabled}.",
        "Please turn {endpoint} {enabled}.",
        "From now on, {endpoint} should only get {events}.",
        "Change {endpoint} to send just {events}.",
        "We're moving servers. Turn {endpoint} {enabled} for now.",
    ],
    tells=["{@endpoint} is {status:state} now.{@enabled:yes}", "{@endpoint} now gets {events}."],
    words={"enabled": {True: "back on", False: "off"}, "events": {t: t for t in EVENT_TYPES}},
)
say.tool(
    "resend_event",
    asks=[
        "Resend {event} to {endpoint}.",
        "My server was down. Send {event} to {endpoint} again.",
        "My endpoint was down. Redeliver {event} to {endpoint}.",
        "Retry {event} on {endpoint}.",
        "Can you push {event} to {endpoint} once more?",
    ],
    tells=["I resent the {event_type} event to {url}: {status:state} (HTTP {response_code})."],
)
