"""Telehealth: the front desk and virtual-care coordinator of a multi-state clinic network.

Acting model: the desk serves many patients; every tool takes the ids it acts on (a patient,
appointment, slot, prescription ...). The caller is one patient, or a minor's guardian; who they
are is established in the conversation with ``verify_patient`` (full name and date of birth),
which the one-row ``sessions`` table remembers. Birth dates are hidden from every tool: the
caller says theirs. Adult patients are the shared world's people who live in US cities (the
persona is PAT-000001), minors are their children.

Reference moment: Monday 2026-06-01 09:00, clinic local time; nothing moves by itself. This
morning's visits before 08:50 are done, in progress, missed or not yet marked; visits at 08:50,
09:00 and 09:10 are inside their check-in window now; slots run 30 days ahead on weekdays.

Rules the service enforces, each refused with an error naming the values involved:

* Slots are 20 minutes and hold one appointment: a slot already taken (or blocked) cannot be
  booked. A patient new to the provider (no fulfilled visit with them) gets a 40-minute visit,
  the slot and the next one; others 20 minutes. Only future slots can be booked.
* Appointment status moves only along the FHIR lifecycle: proposed -> pending -> booked ->
  arrived -> fulfilled; proposed, pending and booked may be cancelled; booked may become noshow.
  Rescheduling keeps the provider, the length and the status.
* Check-in (in person) and starting a video visit are allowed from 15 minutes before to 10
  minutes after the start; a no-show only once that window has closed (a 75.00 fee is invoiced).
* Video visits only with providers who offer them. Referrals come from the patient's primary care
  provider, to specialist specialties, one active referral per specialty. Refills need an active
  prescription with refills left, not filled today. Messages go to the patient's care team. One
  unfinished intake form of a kind at a time.

The written policy (``policy.py``, ``get_policy``) holds what the desk must keep and the tools do
not check: verify the caller first, video only where the provider is licensed, HMO referrals for
specialists, the 24-hour late-cancellation fee, a recent visit for controlled-substance refills,
a guardian for minors, new patients only where accepted, and an explicit yes before changes.
"""

from servers.domains.telehealth import care, patients, policy, scheduling, seed, visits
from servers.domains.telehealth.model import telehealth

# the modules that declare the domain; its tools are shown to agents in this order
telehealth.include(policy, seed, patients, scheduling, visits, care)

__all__ = ["telehealth"]

# the words its callers use and its desk answers with (read by the task generator)
from servers.domains.telehealth import language as _language  # noqa: E402,F401
