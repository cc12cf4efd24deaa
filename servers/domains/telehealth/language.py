"""How a clinic's callers speak at the front desk, and what the desk tells them.

A caller is a patient, or a parent calling for a child. They identify themselves as people do at
a clinic: full name and date of birth ("This is Dana Lee, date of birth 04/17/1985"), never a
chart number. They name everything else by what they know: providers by name and specialty ("Dr.
Emma Pittman, the dermatologist"), appointments by kind and time ("the video visit on Thursday,
June 4 at 2 pm"), openings by time and provider, prescriptions by the drug ("the lisinopril
prescription"), pharmacies by name, a bill by its invoice number or by what it was for ("the
$50 late-cancellation fee"). Two other people use the desk's tools: the front-desk **staff**, who
record a patient who never came, and a **provider**, who closes a visit with their note.

The desk answers with what was asked: who, when, how long, the copay in dollars, where a refill
went, the link to the video room; never a chart number, a slot number or a stored timestamp.
"""

from __future__ import annotations

from servers.domains.telehealth.model import (
    Appointment,
    IntakeForm,
    Invoice,
    Patient,
    Pharmacy,
    Prescription,
    Provider,
    Referral,
    Slot,
    Specialty,
    telehealth,
)
from servers.kit import Language

say = Language(telehealth, speaker=("patient",))

# -- naming things ------------------------------------------------------------------------------
# a patient is their full name; the date of birth is the caller's to say (no tool shows it)
say.names(Patient, "{name}", called="the patient")
say.names(Specialty, "{name}", held="{id}")  # "cardiology", as people say it
say.names(Provider, "{name}", "{name} from {specialty_id}", called="my doctor")
say.names(Pharmacy, "{name}")  # the chain and its town: "Greenleaf Drugs Denver"
say.names(
    Appointment,
    "the {kind:state} visit on {start:when}",
    "the appointment on {start:when}",
    "the {reason} appointment on {start:day}",
    "the appointment with {provider_name} on {start:when}",
    shown=("provider_name",),
    within="{row} for {owner}",  # "the video visit on Thursday, June 4 at 2 pm for Dana Lee"
)
say.names(
    Slot,
    "the opening on {start:when}",
    "the {start:when} slot",
    within="{row} with {owner}",  # "the opening on Friday, June 5 at 10 am with Dr. Sean Bryant"
)
say.names(
    Prescription,
    "the {drug} prescription",
    "the {drug} {dose}",
    within="{row} for {owner}",
)
# the invoice number is printed on the bill the patient got
say.names(
    Invoice,
    "the {amount:money} {kind:state} from {issued_on:day}",
    "the {kind:state} from {issued_on:day}",
    held="invoice {id}",
    within="{row} for {owner}",
)

STATUS = {
    "proposed": "proposed",
    "pending": "pending",
    "booked": "booked",
    "arrived": "checked-in",
    "fulfilled": "completed",
    "cancelled": "cancelled",
    "noshow": "missed",
}
say.state(Appointment, "status", **STATUS)
say.state(Appointment, "kind", in_person="in-person", video="video")
say.state(Appointment, "visit_type", new_patient="new-patient", follow_up="follow-up")
say.state(Referral, "status", active="active", expired="expired", closed="used up")
say.state(Prescription, "status", active="active", stopped="stopped")
say.state(Invoice, "kind", copay="copay", late_cancellation="late-cancellation fee", no_show="no-show fee")
say.state(Invoice, "status", open="unpaid", paid="paid", waived="waived")
FORMS = {
    "registration": "registration",
    "medical_history": "medical history",
    "telehealth_consent": "telehealth consent",
    "privacy_notice": "privacy notice",
    "depression_screening": "depression screening",
}
say.state(IntakeForm, "form", **FORMS)
say.state(IntakeForm, "status", sent="waiting to be filled in", completed="completed")
STATES = {
    "OR": "Oregon",
    "WA": "Washington",
    "CA": "California",
    "CO": "Colorado",
    "TX": "Texas",
    "IL": "Illinois",
    "NY": "New York",
    "FL": "Florida",
}

# -- anyone at the desk ---------------------------------------------------------------------------
say.tool(
    "get_current_time",
    by=("user", "staff", "provider"),
    asks=["What time is it at the clinic?", "What's today's date?", "What day is it today?"],
    tells=["It's {now:when} at the clinic."],
)

# -- who is calling ------------------------------------------------------------------------------
say.tool(
    "verify_patient",
    asks=[
        "Hi, this is {name}, date of birth {date_of_birth}.",
        "I'm {name}, born {date_of_birth}.",
        "My name is {name} and my date of birth is {date_of_birth}.",
        "It's {name} calling, DOB {date_of_birth}.",
        "This is {name}; my birthday is {date_of_birth}, if you need to verify me.",
        "The patient is {name}, date of birth {date_of_birth}.",
        "I'm calling for {name}, born {date_of_birth}.",
    ],
    tells=["Thanks, {name}, you're verified."],
)
say.tool(
    "find_patient",
    asks=[
        "Do you have a record for {name}, born {date_of_birth}? I'm not sure we're registered.",
        "Is {name}, date of birth {date_of_birth}, a patient of yours?",
        "Can you check whether {name} (DOB {date_of_birth}) is in your system?",
        "I'm calling about {name}, born {date_of_birth}; do you have a chart for them?",
        "Could you look up the record for {name}, date of birth {date_of_birth}?",
    ],
    tells=[
        "Yes, {name} is registered with us, on the {insurer} plan; their primary care provider is "
        "{primary_provider_name}.",
        "Yes, {name} is registered with us, on the {insurer} plan.",
    ],
)
say.tool(
    "get_patient",
    asks=[
        "What insurance and pharmacy do you have on file for {patient}?",
        "Can you read me back what's on file for {patient}?",
        "Which pharmacy do prescriptions for {patient} go to, and who's the primary care doctor?",
        "What's the balance on {patient}'s account?",
        "I'm updating my records: what plan do you have for {patient}?",
    ],
    tells=[
        "{name} is on the {insurer} plan, with {primary_provider_name} for primary care; prescriptions "
        "go to {pharmacy_name}, and the balance due is {balance_due:money}.",
        "{name} is on the {insurer} plan; prescriptions go to {pharmacy_name}, and the balance due is "
        "{balance_due:money}.",
        "{name} is on the {insurer} plan, and the balance due is {balance_due:money}.",
    ],
)
say.tool(
    "check_eligibility",
    asks=[
        "Is {patient} covered to see {provider}?",
        "Can {patient} book with {provider}, and what would the copay be?",
        "Before I book: would {patient} need a referral to see {provider}?",
        "What would a visit with {provider} cost {patient}?",
        "Could {patient} see {provider} by video, and is a referral needed?",
    ],
    tells=[
        "{@provider} isn't taking new patients, and this would be a first visit{new_patient:yes}"
        "{accepts_new_patients:no}; otherwise the copay would be {copay:money}.",
        "The {plan_type} plan needs a referral to see {@provider}, and there isn't one on file"
        "{referral_required:yes}{referral:no}; with one, the copay is {copay:money}.",
        "{@patient} is covered: the referral on file is good until {referral.expires_on:day}, the copay is "
        "{copay:money}, and a video visit is possible{video_allowed:yes}.",
        "{@patient} is covered: the referral on file is good until {referral.expires_on:day} and the copay is "
        "{copay:money}; visits with {@provider} would be in person{video_allowed:no}.",
        "{@patient} is covered with no referral needed: the copay is {copay:money}, and a video visit is "
        "possible{video_allowed:yes}.",
        "{@patient} is covered with no referral needed: the copay is {copay:money}; visits with {@provider} "
        "would be in person{video_allowed:no}.",
    ],
)
say.tool(
    "set_preferred_pharmacy",
    asks=[
        "Please send {patient}'s prescriptions to {pharmacy} from now on.",
        "Make {pharmacy} the pharmacy on file for {patient}.",
        "I moved, so switch {patient}'s pharmacy to {pharmacy}.",
        "Can refills for {patient} go to {pharmacy} instead?",
        "Change the pharmacy for {patient} to {pharmacy}; it's closer to work.",
    ],
    tells=["Done: prescriptions and refills will go to {pharmacy_name} from now on."],
)
say.tool(
    "send_intake_form",
    asks=[
        "Can you send the {form} form to {patient}?",
        "Please email the {form} form to {patient} so it's done before the visit.",
        "Send the {form} form for {patient} ahead of {appointment}.",
        "I still need to fill out the {form} form for {patient}; can you send it?",
        "Could you send {patient} the {form} form for {appointment}?",
    ],
    tells=["I've sent the {@form} form to {sent_to}."],
    words={"form": FORMS},
)

# -- finding a provider and a time ----------------------------------------------------------------
say.tool(
    "search_providers",
    asks=[
        "Which {specialty} providers are licensed in {state}?",
        "I need someone in {specialty} {telehealth}.",
        "Are there any {specialty} doctors {accepting_new_patients}?",
        "Find me a provider in {specialty} licensed in {state} and {telehealth}.",
        "Who in {specialty} is {accepting_new_patients} and {telehealth}?",
        "I live in {state}; which of your providers can see me there?",
    ],
    tells=[
        "{providers:count(provider)} came up: {providers:list(name)}.",
        "I couldn't find a provider that fits.",
    ],
    words={
        "state": STATES,
        "telehealth": {True: "offering video visits", False: "seeing patients in person only"},
        "accepting_new_patients": {True: "taking new patients", False: "not taking new patients"},
    },
)
say.tool(
    "get_available_slots",
    asks=[
        "What openings does {provider} have on {day}?",
        "When is {provider} free next?",
        "Does {provider} have anything on {day}?",
        "I'd like to get in with {provider}; what times are open on {day}?",
        "What's the soonest I can get in with {provider}? I'm flexible.",
    ],
    tells=[
        "{@provider} has {slots:count(opening)} on {day:day}: {slots:list(start:when)}.",
        "{@provider} has no openings on {day:day}{slots:no}.",
        "The soonest openings with {@provider} are {slots.0.start:when} and {slots.1.start:when}.",
        "The only opening with {@provider} is {slots.0.start:when}.",
        "{@provider} has no openings coming up.",
    ],
)

# -- appointments ---------------------------------------------------------------------------------
say.tool(
    "list_appointments",
    by=("user", "staff", "provider"),
    asks=[
        "What appointments does {patient} have {upcoming}?",
        "Which {status} appointments does {patient} have?",
        "Can you list the appointments for {patient}?",
        "I lost track: what visits does {patient} have {upcoming}?",
        "Does {patient} have any {status} appointments {upcoming}?",
    ],
    tells=[
        "{@patient} has {appointments:count(appointment)}: {appointments:list(reason, start:when)}.",
        "I don't see any appointments like that for {@patient}.",
    ],
    words={"upcoming": {True: "coming up", False: "on record"}, "status": STATUS},
)
say.tool(
    "get_appointment",
    by=("user", "staff"),
    asks=[
        "Who is {appointment} with?",
        "Is {appointment} in person or by video?",
        "Remind me what {appointment} is about and who it's with.",
        "How long is {appointment}, and who is it with?",
        "What's the status of {appointment}?",
    ],
    tells=[
        "It's with {provider_name} on {start:when}, for {reason}: {kind:state}, {minutes:minutes} long, "
        "and {status:state}.",
    ],
)
say.tool(
    "book_appointment",
    confirms=[
        "book {@slot} for {@patient} ({reason})",
        "book {@slot} for {@patient}",
    ],
    asks=[
        "Please book {slot} for {patient}; it's for {reason}.",
        "Can you book {slot} for {patient}? The reason is {reason}.",
        "I'd like {slot} for {patient}, for {reason}.",
        "Book {slot} as {kind} visit for {patient}; it's about {reason}.",
        "Could you put {slot} down for {patient} as {kind} visit? Reason: {reason}.",
    ],
    tells=[
        "All set: {provider_name} will see {@patient} on {start:when} ({kind:state}, {minutes:minutes}).",
    ],
    words={"kind": {"in_person": "an in-person", "video": "a video"}},
    values={
        "reason": (
            "a follow-up",
            "a check-up",
            "a second opinion",
            "a medication review",
            "symptoms that haven't gone away",
            "going over test results",
        )
    },
)
say.tool(
    "reschedule_appointment",
    confirms=[
        "move {@appointment} to {@slot}; the late-change fee applies{late_fee:yes}",
        "move {@appointment} to {@slot}",
    ],
    asks=[
        "Can you move {appointment} to {slot}?",
        "Something came up at work; please move {appointment} to {slot}.",
        "Reschedule {appointment} to {slot}, please.",
        "I need to push {appointment} to {slot}.",
        "Would {slot} work instead of {appointment}? Please switch it.",
    ],
    tells=[
        "Done: you're now with {provider_name} on {start:when}; the $50 late-change fee is on the "
        "account{late_fee:yes}.",
        "Done: you're now with {provider_name} on {start:when}.",
    ],
)
say.tool(
    "confirm_appointment",
    asks=[
        "Yes, please confirm {appointment}.",
        "I can make {appointment}; go ahead and confirm it.",
        "Please lock in {appointment}.",
        "{appointment} works, confirm it please.",
        "I got a note to confirm {appointment}; consider this my yes.",
    ],
    tells=["You're confirmed with {provider_name} on {start:when}."],
)
say.tool(
    "cancel_appointment",
    confirms=[
        "cancel {@appointment}; the late-cancellation fee applies{late_fee:yes}",
        "cancel {@appointment}",
    ],
    asks=[
        "Please cancel {appointment}.",
        "I can't make {appointment}, so please cancel it.",
        "Cancel {appointment}, please. The reason is {reason}.",
        "I have to cancel {appointment} ({reason}).",
        "Take {appointment} off the schedule, please; reason: {reason}.",
    ],
    tells=[
        "{@appointment} is cancelled, and the $50 late-cancellation fee is on the account{late_fee:yes}.",
        "{@appointment} is cancelled.",
    ],
    values={"reason": ("schedule conflict", "feeling better", "travel", "no ride that day", "work conflict")},
)

# -- the visit ------------------------------------------------------------------------------------
say.tool(
    "check_in",
    asks=[
        "I'm here for {appointment}; please check me in.",
        "Just arrived for {appointment}. Can you check me in?",
        "We're in the lobby for {appointment}, checking in.",
        "Please check in {appointment}, we made it.",
        "Checking in for {appointment}, sorry I'm cutting it close.",
    ],
    tells=["You're checked in; {provider_name} will be with you shortly."],
)
say.tool(
    "start_video_visit",
    asks=[
        "I'm ready for {appointment}; can you open the video room?",
        "Please start {appointment}, I'm at my computer.",
        "Can you start the video call for {appointment}?",
        "It's almost time for {appointment}. How do I get in?",
        "Open the video room for {appointment}, please.",
    ],
    tells=["The video room is open; join at {join_url}."],
)
say.tool(
    "complete_visit",
    by="provider",
    asks=[
        "I've finished {appointment}. My note: {summary}",
        "Close out {appointment} with this note: {summary}",
        '{appointment} is done; please file the note "{summary}"',
        "Wrap up {appointment}. Visit note: {summary}",
        "Mark {appointment} complete and file my summary: {summary}",
    ],
    tells=["The visit with {patient_name} is complete; your note is filed and the copay has been billed."],
    values={
        "summary": (
            "Blood pressure well controlled; continue current dose and recheck in 3 months.",
            "Rash improving with topical steroid; follow up in 4 weeks if not resolved.",
            "Labs ordered; results will be shared by message.",
            "Discussed sleep hygiene; medication unchanged.",
            "Knee exam normal; start physical therapy and ice after activity.",
        )
    },
)
say.tool(
    "record_no_show",
    by="staff",
    asks=[
        "The patient never came for {appointment}; mark it a no-show.",
        "Nobody showed up for {appointment}, please record a no-show.",
        "Record {appointment} as a no-show.",
        "{appointment} was missed and the window has closed; log the no-show.",
        "Mark {appointment} missed, please; we waited and they didn't come.",
    ],
    tells=[
        "Done: {patient_name} is marked as a no-show for {start:when} with {provider_name}, and the $75 "
        "no-show fee has been billed."
    ],
)

# -- care between visits --------------------------------------------------------------------------
say.tool(
    "create_referral",
    confirms=[
        "refer {@patient} to {@specialty} ({reason})",
        "refer {@patient} to {@specialty}",
    ],
    asks=[
        "{patient} needs a referral to {specialty} for {reason}.",
        "Can {patient} get a referral to {specialty}? It's for {reason}.",
        "Please request a {specialty} referral for {patient}; the reason is {reason}.",
        "My doctor suggested {specialty}; could you set up a referral for {patient} for {reason}?",
        "I'd like a referral to {specialty} for {patient}, because of {reason}.",
    ],
    tells=[
        "The referral to {specialty_id} is on file: it covers {visits_allowed} visits until {expires_on:day}.",
    ],
    values={
        "reason": (
            "symptoms that haven't improved",
            "a second opinion",
            "follow-up on abnormal test results",
            "a problem my doctor wants a specialist to check",
            "ongoing pain",
        )
    },
)
say.tool(
    "list_referrals",
    by=("user", "staff"),
    asks=[
        "What referrals does {patient} have on file?",
        "Is there a referral on file for {patient}?",
        "Which referrals does {patient} have, and are they still good?",
        "Can you check the referrals for {patient}? I want to book a specialist.",
        "Does {patient} have a referral I could use?",
    ],
    tells=[
        "{@patient} has {referrals:count(referral)}: {referrals:list(specialty_id, status)}.",
        "There are no referrals on file for {@patient}.",
    ],
)
say.tool(
    "list_prescriptions",
    asks=[
        "What medications do you have on file for {patient}?",
        "Which {status} prescriptions does {patient} have?",
        "Can you list the prescriptions for {patient}?",
        "I'm seeing a new doctor; what is {patient} prescribed right now?",
        "Does {patient} have any {status} prescriptions?",
    ],
    tells=[
        "{@patient} has {prescriptions:count(prescription)}: {prescriptions:list(drug, dose)}.",
        "I don't see any prescriptions like that for {@patient}.",
    ],
    words={"status": {"active": "active", "stopped": "stopped"}},
)
say.tool(
    "request_refill",
    confirms=[
        "send a refill of {@prescription} to {@pharmacy}",
        "request a refill of {@prescription}",
    ],
    asks=[
        "I'm almost out; can you send a refill of {prescription}?",
        "Please refill {prescription}.",
        "Refill {prescription} and send it to {pharmacy}.",
        "Could {prescription} go to {pharmacy} this time? I need a refill.",
        "I need a refill of {prescription}, please.",
    ],
    tells=[
        "The {drug} refill is on its way to {@pharmacy}; you have {refills_left} left on the prescription.",
        "The {drug} refill is on its way to the pharmacy on file; you have {refills_left} left on the prescription.",
    ],
)
say.tool(
    "message_provider",
    asks=[
        'Please pass a message to {provider} from {patient}, subject "{subject}": {body}',
        'Can you send {provider} a note for {patient}? Subject "{subject}". {body}',
        'I have a question for {provider}; it\'s from {patient}. "{subject}": {body}',
        'Message {provider} for {patient}, please, with the subject "{subject}": {body}',
        'Could you let {provider} know, from {patient}, under "{subject}": {body}',
    ],
    tells=['Your message "{subject}" is on its way to {@provider}.'],
    values={
        "subject": ("Question about my medication", "Quick question", "Follow-up question", "Side effects"),
        "body": (
            "Is it okay to take this with ibuprofen?",
            "I've been feeling dizzy since the new dose.",
            "Should I keep doing the exercises now that I feel better?",
            "Can I take it in the evening instead of the morning?",
        ),
    },
)

# -- bills ----------------------------------------------------------------------------------------
say.tool(
    "get_invoice",
    asks=[
        "I got a bill, {invoice}. What's it for, and is it paid?",
        "How much was {invoice}, and is it paid?",
        "Is {invoice} still open?",
        "Did {invoice} ever get paid?",
        "I want to make sure I don't pay twice: is {invoice} settled?",
    ],
    tells=["That's the {kind:state} of {amount:money} from {issued_on:day}; it's {status:state}."],
)
say.tool(
    "list_invoices",
    asks=[
        "What's {patient}'s balance?",
        "Which {status} bills does {patient} have?",
        "Can you list the invoices for {patient}?",
        "Are there any {status} invoices for {patient}?",
        "I want to settle up: what bills are there for {patient}?",
    ],
    tells=[
        "{@patient} has {invoices:count(invoice)}: {invoices:list(kind, amount:money, issued_on:day)}; the balance due is "
        "{balance_due:money}.",
        "There are no invoices like that for {@patient}; the balance due is {balance_due:money}.",
    ],
    words={"status": {"open": "unpaid", "paid": "paid", "waived": "waived"}},
)

# -- the desk's policy ------------------------------------------------------------------------------
telehealth.tools  # noqa: B018  (sealing the domain adds get_policy, declared next)
say.tool(
    "get_policy",
    by=("user", "staff", "provider"),
    asks=[
        "What are your rules for cancelling or moving an appointment?",
        "Before I book anything: what's the clinic's policy?",
        "Can you walk me through the front desk's policy?",
    ],
    tells=[
        "The desk keeps {rules:count(rule)}. In short: I verify who you are (full name and date of birth) "
        "before changing anything; video visits only with a provider licensed in the state you live in; "
        "on an HMO plan a specialist needs a referral from your primary care provider; cancelling or moving "
        "a booked visit less than 24 hours ahead costs $50; refills of controlled medications need a visit "
        "with the prescriber in the last 90 days; a minor needs a parent or guardian on the account; "
        "providers who aren't taking new patients only see people they've seen before; and I'll check "
        "with you before I book, move or cancel anything, request a refill or a referral.",
    ],
)
