"""Telecom support: a mobile carrier's support desk with the customer's phone in dual control
(τ²-bench telecom in our own terms).

Acting model: the agent works an operator console with explicit ids (a customer, a line's phone
number, a bill); lines are keyed by their phone number, which is what callers say. The
``sessions`` row is the conversation: which customer's identity has been verified (none at the
start). The ``device_*`` tools are the caller's phone, in τ² the user's own tools and here usable
by a solo agent on the user's behalf; each takes the number of the line whose SIM the phone
holds, so no "pick up the phone" step is needed and a family's several phones can be handled in
one conversation.

Reference moment: Monday 2026-06-01 09:00; every line's billing cycle is the one running then.
Nothing happens by itself: a shipped SIM does not arrive, a sent payment request is not paid.

What a phone shows (signal, data, speed) is derived from both sides (``rules``): the phone's
airplane mode, SIM state, mobile data and data-roaming switches, APN, network mode and where it
is, and the account's line status, roaming flag and data left. A fix on one side does not restore
service when the other side is faulty too. Lines are seeded with 0-3 composed faults from the
registry in ``faults`` (each with its fix chain).

Rules the service enforces (ToolErrors naming the values): a suspended line gets no service or
data whatever the phone does; the SIM asks for its PUK after 3 wrong PINs and is blocked after 10
wrong PUKs (a correct PUK unlocks it with a new PIN); payment requests go out for issued or
overdue bills only, payments need the customer's own active method and an unpaid, undisputed
bill; credits go on unpaid bills up to the outstanding amount; refuels need a limited plan and an
active line; retired plans take no new lines; eSIMs need an eSIM-capable phone; one SIM order on
its way per line; voicemail PINs must not be trivial. The written policy (``policy``) holds the
rest: verification, resuming after payment, one plan change per cycle, the goodwill and refuel
caps, roaming only in good standing, human transfer as a last resort, confirmation.

Sensitive values: the customer's date of birth, the SIM PIN/PUK and the voicemail PIN are never
shown by any tool; the caller states them.
"""

from servers.domains.telecom_support import accounts, device, policy, seed, service
from servers.domains.telecom_support.model import telecom_support

# the modules that declare the domain; its tools are shown to agents in this order
telecom_support.include(seed, policy, accounts, service, device)

__all__ = ["telecom_support"]

# the words its callers use and its agent answers with (read by the task generator)
from servers.domains.telecom_support import language as _language  # noqa: E402,F401
