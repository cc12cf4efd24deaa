"""Words for the seeded records: deal products, reasons, and activity and task texts."""

from __future__ import annotations

from servers.kit import Seeder

PRODUCTS = {
    "sales": (
        "Analytics Suite",
        "Platform Rollout",
        "Pilot",
        "Team Licenses",
        "Data Warehouse",
        "Security Add-on",
        "Support Upgrade",
        "API Access",
        "Onboarding Package",
        "Expansion",
        "Mobile Edition",
        "Training Program",
    ),
    "renewals": (
        "Annual Renewal",
        "Renewal 2026",
        "Multi-year Renewal",
        "Support Renewal",
        "License Renewal",
    ),
}
# companies the CRM has never seen (leads from them create new accounts on conversion)
NEW_COMPANY_WORDS = (
    "Brightwater",
    "Kestrel",
    "Northwind",
    "Bluefin",
    "Ironwood",
    "Larkspur",
    "Meridian",
    "Quarry",
    "Saltmarsh",
    "Tidewell",
    "Amberline",
    "Cinder",
    "Fernway",
    "Granite",
    "Hollow Oak",
    "Lumen",
    "Moorland",
    "Pinecrest",
    "Redwing",
    "Silverline",
)
NEW_COMPANY_KINDS = (
    "Analytics",
    "Foods",
    "Freight",
    "Health",
    "Robotics",
    "Studios",
    "Outfitters",
    "Dental",
    "Logistics",
    "Energy",
    "Clinics",
    "Software",
    "Media",
    "Bakery",
    "Builders",
)
LOST_REASONS = ("competitor", "no_budget", "timing", "no_decision", "product_fit", "other")
UNQUALIFIED_REASONS = (
    "no budget this year",
    "student project",
    "outside our service area",
    "already a customer of a competitor under contract",
    "duplicate of an existing lead",
    "job seeker, not a buyer",
)
_SUBJECTS = {
    "call": (
        "Discovery call with {n}",
        "Follow-up call with {n}",
        "Pricing call with {n}",
        "Check-in call with {n}",
    ),
    "email": (
        "Sent proposal to {n}",
        "Emailed case study to {n}",
        "Recap email to {n}",
        "Sent pricing sheet to {n}",
    ),
    "meeting": (
        "Demo for {n}",
        "Quarterly review with {n}",
        "On-site workshop with {n}",
        "Kickoff meeting with {n}",
    ),
    "note": (
        "Notes on {n}",
        "Budget update from {n}",
        "Competitor mentioned by {n}",
        "Org chart notes for {n}",
    ),
}
_BODIES = (
    "Interested in the reporting features; wants a trial for their team.",
    "Budget is approved for next quarter, decision expected after the board meeting.",
    "Raised concerns about the migration timeline.",
    "Asked for references from customers in the same industry.",
    "Procurement needs a security questionnaire before signing.",
    "Evaluating two other vendors; price is the main factor.",
    "Champion is moving teams; need a new sponsor.",
    "Requested a revised quote with annual billing.",
)
_TASKS = (
    "Send follow-up to {n}",
    "Prepare quote for {n}",
    "Call {n} about renewal",
    "Schedule demo with {n}",
    "Share contract draft with {n}",
    "Check in with {n} after trial",
)


def activity_text(s: Seeder, kind: str, name: str) -> tuple[str, str]:
    return s.pick(list(_SUBJECTS[kind])).format(n=name), s.pick(list(_BODIES))


def task_text(s: Seeder, name: str) -> tuple[str, str]:
    return s.pick(list(_TASKS)).format(n=name), ""
