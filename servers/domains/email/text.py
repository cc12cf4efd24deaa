"""What the seeded mail says: conversation topics, replies, service notifications and attachments.

Written for this service; slots are filled from the shared world (names, companies, merchants,
cities) and the seed's own random generator, so every mailbox reads like a real one."""

from __future__ import annotations

import random
from dataclasses import dataclass

PROJECTS = (
    "Atlas", "Beacon", "Cobalt", "Delta", "Evergreen", "Falcon", "Granite", "Harbor",
    "Ion", "Juniper", "Keystone", "Lumen", "Meridian", "Nimbus", "Orchid", "Polaris",
)  # fmt: skip
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
ROLES = ("backend engineer", "product designer", "data analyst", "account manager", "support lead")
FEATURES = (
    "the onboarding flow",
    "search filters",
    "the billing page",
    "CSV export",
    "the mobile app",
    "SSO",
)
PLACES = ("Eagle Creek", "Mount Tabor", "the coast trail", "Forest Park", "Silver Falls", "the lake loop")
BOOKS = ("The Overstory", "Piranesi", "Project Hail Mary", "Circe", "The Dispossessed", "Klara and the Sun")
EVENTS = ("Quarterly business review", "Team offsite", "Sprint demo", "All-hands", "Roadmap workshop")
USER_LABELS = (
    "Travel", "Receipts", "Projects", "Family", "Finance", "Hiring",
    "Clients", "Newsletters", "Reading", "Follow up", "Events", "Taxes",
)  # fmt: skip


@dataclass(frozen=True)
class Topic:
    subject: str
    opening: tuple[str, ...]
    replies: tuple[str, ...]
    label: str | None = None  # the user label the persona files it under, when she does
    attachment: str | None = None  # a kind from ATTACHMENTS


WORK = (
    Topic(
        "{project} status update",
        ("Quick update on {project}: we're on track for the {weekday} milestone.",
         "The {project} numbers are in. Mostly good news, one risk on the integration side.",
         "Sharing where {project} stands before our review."),
        ("Thanks, this is helpful. Can we talk about the integration risk on {weekday}?",
         "Looks good to me. Let's keep the milestone as planned.",
         "Great progress. I'll pass this on to the leadership group."),
        "Projects",
    ),
    Topic(
        "{project} launch checklist",
        ("Here is the launch checklist for {project}. Please add anything I missed.",
         "Attaching the checklist we agreed on for the {project} launch."),
        ("Added two items about monitoring. Otherwise complete.",
         "I can own the rollback plan. Everything else looks right."),
        "Projects",
        "notes",
    ),
    Topic(
        "Notes from {weekday}'s sync",
        ("Notes from {weekday}'s sync are attached. Action items are at the bottom.",
         "Summary of {weekday}'s sync: we agreed to move the {project} demo by a week."),
        ("Thanks for writing these up.", "One correction: the demo moves to the following Thursday."),
        None,
        "notes",
    ),
    Topic(
        "Budget review for {project}",
        ("Before the budget review, could you check the {project} forecast? It looks high to me.",
         "Attached is the updated budget for {project}. We're about 8% over plan."),
        ("I went through it. The contractor line explains most of the difference.",
         "Agreed, let's cut the travel line and keep the rest."),
        "Finance",
        "spreadsheet",
    ),
    Topic(
        "Hiring: {role} candidates",
        ("We have three strong candidates for the {role} role. Can you do an interview on {weekday}?",
         "Sharing the shortlist for the {role} opening."),
        ("Yes, {weekday} afternoon works for me.", "I'd move the second candidate forward."),
        "Hiring",
        "resume",
    ),
    Topic(
        "Customer escalation: {company}",
        ("{company} reported an outage on their side this morning. Can you take a look?",
         "Heads up: {company} is unhappy about the last invoice and wants a call."),
        ("Looking into it now, I'll report back within the hour.", "I can join the call on {weekday}."),
        "Clients",
    ),
    Topic(
        "Design review: {feature}",
        ("The mockups for {feature} are ready for review.", "Could you give feedback on {feature} by {weekday}?"),
        ("Left comments on the second screen. The rest is great.", "Love it. Ship it."),
        None,
        "image",
    ),
    Topic(
        "Quick question about {project}",
        ("Do you know who owns the data pipeline for {project}?", "Is the {project} deadline still the end of the month?"),
        ("That's the platform team, I'll introduce you.", "Yes, nothing has changed."),
    ),
    Topic(
        "Invitation: {event} @ {weekday} 10:00",
        ("You're invited to the {event} on {weekday} at 10:00. Agenda to follow.",),
        ("Accepted, see you there.", "I have a conflict, can we move it to the afternoon?"),
        "Events",
        "invite",
    ),
    Topic(
        "Q3 planning: {project}",
        ("Let's start Q3 planning for {project}. What are your top three priorities?",),
        ("Reliability, the new API, and cleaning up the backlog.", "I'd put customer onboarding first."),
        "Projects",
    ),
)  # fmt: skip

PERSONAL = (
    Topic(
        "Dinner on {weekday}?",
        ("Are you free for dinner on {weekday}? There's a new place near the river.",),
        ("Yes! 7pm works.", "Can't this week, how about next {weekday}?"),
    ),
    Topic(
        "Weekend hike to {place}",
        ("Thinking of hiking {place} on Saturday. Want to come?",),
        ("Count me in. I'll bring snacks.", "Only if we start after 9!"),
    ),
    Topic(
        "Photos from {city}",
        ("Here are the photos from our trip to {city}.",),
        ("These are amazing, thank you!", "The sunset one is my favourite."),
        "Family",
        "image",
    ),
    Topic(
        "Book club: {book}",
        ("Next book club pick is {book}. We meet on {weekday}.",),
        ("Started it already, so good.", "I'll host this time."),
        "Reading",
    ),
    Topic(
        "Happy birthday!",
        ("Happy birthday! Hope you have a wonderful day.",),
        ("Thank you so much!", "Thanks! Let's celebrate soon."),
        "Family",
    ),
    Topic(
        "Moving day help",
        ("We're moving on Saturday. Any chance you could help for a few hours?",),
        ("Sure, I'll be there at 10.", "I can lend you my van."),
    ),
    Topic(
        "Trip to {city} next month",
        ("We're planning a trip to {city} next month. Any tips?",),
        ("Go to the old market early in the morning.", "I'll send you my list of places."),
        "Travel",
    ),
)  # fmt: skip

GREETINGS = ("Hi {first},", "Hey {first},", "Hello {first},", "{first},", "Hi {first}!")
SIGNOFFS = ("Thanks,", "Best,", "Cheers,", "Talk soon,", "Thanks!")


@dataclass(frozen=True)
class FileKind:
    names: tuple[str, ...]
    mime: str
    low_kb: float
    high_kb: float
    preview: str | None


ATTACHMENTS = {
    "notes": FileKind(("meeting_notes.txt", "notes_{weekday}.txt", "action_items.md"), "text/plain", 2, 18,
                      "Attendees: {names}\nDecisions:\n- {project} demo moves one week\n- Owners confirmed\nAction items:\n- follow up on integration risk"),
    "spreadsheet": FileKind(("{project}_budget.csv", "forecast_q3.csv", "pipeline_export.csv"), "text/csv", 8, 240,
                            "line,planned,actual\ncontractors,42000,47500\ntravel,8000,9100\nsoftware,12000,11800"),
    "resume": FileKind(("resume_candidate_{n}.pdf",), "application/pdf", 90, 400, "Experience: 6 years. Skills: Python, SQL, system design."),
    "image": FileKind(("IMG_{n}.jpg", "mockup_{n}.png", "photo_{n}.jpg"), "image/jpeg", 900, 6200, None),
    "invite": FileKind(("invite.ics",), "text/calendar", 1, 4, "BEGIN:VCALENDAR\nSUMMARY:{event}\nDTSTART:{weekday} 10:00\nEND:VCALENDAR"),
    "invoice": FileKind(("invoice_{n}.pdf",), "application/pdf", 60, 300, "Invoice #{n}\nAmount due: ${amount}\nDue in 30 days."),
    "receipt": FileKind(("receipt_{n}.pdf",), "application/pdf", 30, 120, "Receipt #{n}\nTotal: ${amount}\nPaid by card."),
    "itinerary": FileKind(("itinerary_{city}.pdf",), "application/pdf", 120, 600, "Trip to {city}\nFlight out {weekday} 08:15\nHotel: 3 nights"),
    "video": FileKind(("site_walkthrough_{n}.mp4", "raw_footage_{n}.mov", "scans_{n}.zip"), "video/mp4", 26_500, 41_000, None),
}  # fmt: skip


@dataclass(frozen=True)
class Service:
    """A sender that is not a person: receipts, shipping, newsletters, alerts."""

    local: str
    name: str  # may hold {merchant}
    subject: str
    body: str
    attachment: str | None
    label: str | None


SERVICES = (
    Service("receipts", "{merchant}", "Your receipt from {merchant}", "Thanks for your purchase at {merchant}. Total: ${amount}.", "receipt", "Receipts"),
    Service("billing", "{merchant} Billing", "Invoice #{n} from {merchant}", "Your invoice #{n} for ${amount} is attached. It is due in 30 days.", "invoice", "Finance"),
    Service("newsletter", "{merchant} Newsletter", "This week at {merchant}", "New arrivals, events and offers this week at {merchant}.", None, "Newsletters"),
    Service("shipping", "{merchant} Orders", "Your order #{n} has shipped", "Good news: your order #{n} is on its way and should arrive by {weekday}.", None, None),
    Service("trips", "Skyway Travel", "Your trip to {city}: itinerary", "Your booking is confirmed. The itinerary for {city} is attached.", "itinerary", "Travel"),
    Service("alerts", "Account Security", "Security alert: new sign-in", "We noticed a new sign-in to your account from {city}. If this was you, no action is needed.", None, None),
    Service("digest", "Team Tracker", "Your weekly digest", "12 issues were updated this week in projects you follow, including {project}.", None, None),
    Service("noreply", "Calendar", "Reminder: {event} on {weekday}", "This is a reminder for {event} on {weekday} at 10:00.", None, None),
)  # fmt: skip
SPAM = (
    ("prizes@winner-alerts.example", "Prize Center", "You have been selected!", "Claim your reward today, offer ends soon."),
    ("deals@cheap-meds.example", "Pharmacy Deals", "80% off today only", "Limited offer on everything. Click now."),
    ("support@account-verify.example", "Account Team", "Verify your account now", "Your account will be closed unless you verify it."),
)  # fmt: skip


def slots(rng: random.Random, **known: str) -> dict[str, str]:
    """Values for every slot a template may use: the ones given, random picks for the rest. One set
    per thread, so a reply talks about the same project as the message it answers."""
    return {
        "project": rng.choice(PROJECTS),
        "weekday": rng.choice(WEEKDAYS),
        "role": rng.choice(ROLES),
        "feature": rng.choice(FEATURES),
        "place": rng.choice(PLACES),
        "book": rng.choice(BOOKS),
        "event": rng.choice(EVENTS),
        "n": str(rng.randint(1000, 99999)),
        "amount": f"{rng.uniform(8, 900):.2f}",
        "company": "a customer",
        "city": "Lisbon",
        "names": "the team",
        **known,
    }
