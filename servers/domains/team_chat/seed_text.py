"""What the seeded workspace talks about: channel names and purposes, and message templates.

Messages mention things other services hold (issue keys, ticker symbols, meeting links, the
people of the shared world), as a real team's chat does."""

from __future__ import annotations

import random

# (name, purpose) of channels every workspace has; #general is the first and cannot be left
FIXED_CHANNELS = [
    ("general", "Company-wide announcements and work-based matters"),
    ("random", "Non-work banter and water cooler conversation"),
    ("announcements", "Official news from leadership"),
    ("engineering", "Engineering discussion"),
    ("design", "Design critiques and inspiration"),
    ("marketing", "Campaigns, launches and brand"),
    ("sales", "Deals, pipeline and customer wins"),
    ("support", "Customer issues and escalations"),
    ("help-it", "Laptops, accounts and access requests"),
    ("deploys", "Release and deploy notifications"),
    ("incidents", "Live incidents and postmortems"),
    ("product", "Roadmap and product decisions"),
    ("finance", "Budgets, invoices and expenses"),
    ("hiring", "Open roles, interviews and referrals"),
    ("social", "Events, lunches and celebrations"),
    ("book-club", "Monthly book club"),
    ("pets", "Pictures of pets, obviously"),
    ("running", "Runs, races and routes"),
]
AREAS = [
    "backend",
    "frontend",
    "mobile",
    "data",
    "infra",
    "security",
    "billing",
    "search",
    "payments",
    "growth",
    "onboarding",
    "analytics",
    "platform",
    "api",
    "docs",
    "qa",
    "ml",
    "ops",
    "partners",
    "legal",
]
KINDS = ["team", "dev", "standup", "review", "alerts", "planning", "oncall", "launch", "sync", "ideas"]
CITY_CHANNELS = ["portland", "seattle", "denver", "austin", "chicago", "boston", "nyc", "atlanta"]
TOPICS = [
    "Sprint {n}: focus on reliability",
    "Launch week: status in thread",
    "Office hours Tue/Thu 2pm",
    "Q{q} planning is open",
    "Oncall this week: {who}",
    "Retro notes pinned",
    "",
]

ISSUE_KEYS = ["WEB", "API", "OPS", "MOB", "DATA", "SEC", "PAY"]
SYMBOLS = ["HUGH", "CORV", "BRKN", "LUMA", "ORCA", "PIKE", "NOVA", "QUIL"]
SERVICES = [
    "checkout",
    "search",
    "billing",
    "auth",
    "notifications",
    "reporting",
    "the mobile app",
    "the API",
]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "tomorrow", "next week", "end of day"]
TIMES = ["10am", "11:30", "noon", "2pm", "3:30pm", "4pm"]
PLACES = ["the big conference room", "Zoom", "the kitchen", "room 4B", "the usual place"]
THINGS = [
    "the roadmap",
    "the budget",
    "the offsite",
    "the release notes",
    "the invoice",
    "the Q3 plan",
    "the demo",
]

TEMPLATES = [
    "Can someone review my PR for {service} before {day}?",
    "Deploy of {service} is done, all green",
    "Heads up: {service} will be down for maintenance at {time}",
    "Has anyone seen {issue}? It looks like a regression in {service}",
    "I'm picking up {issue} today",
    "{issue} is fixed and will ship with the next deploy",
    "Standup notes: {service} is on track, {issue} is blocked on review",
    "Reminder: {thing} review at {time} in {place}",
    "Who is joining the call at {time}? Link: https://meet.example/{code}",
    "Notes from the meeting are in the doc, see https://meet.example/{code}",
    "Thanks {first}, that fixed it!",
    "{first}, can you take a look at {thing} when you get a chance?",
    "I updated {thing}, comments welcome",
    "Lunch at {time}? I'm buying",
    "Happy birthday {first}!",
    "Welcome to the team, {first}!",
    "{symbol} is up {pct}% today, nice",
    "Did anyone see the {symbol} earnings call?",
    "The invoice for {thing} went out {day}",
    "Can we move the standup to {time} {day}?",
    "The offsite is confirmed for {day}, details to follow",
    "Release notes for {service} are drafted, please check them before {day}",
    "Quick poll: should we push {thing} to {day}?",
    "I'll be out {day}, {first} is covering for me",
    "Great work on the launch, everyone",
    "Is the roadmap review still on for {day}?",
    "Running a few minutes late, start without me",
    "Can someone approve my expense report for {thing}?",
    "New dashboard for {service} is live",
    "Postmortem for {issue} is scheduled for {day} at {time}",
]
REPLIES = [
    "On it",
    "Thanks!",
    "Looks good to me",
    "Approved",
    "+1",
    "Same here",
    "Can you share the link?",
    "I can take a look after lunch",
    "Done, let me know if anything else is needed",
    "Works for me",
    "Good catch, fixing now",
    "I think {first} knows more about this",
    "Let's discuss in the standup",
    "Moving this to {day}",
    "Nice work {first}",
]
EMOJI = [
    "thumbsup",
    "+1",
    "eyes",
    "white_check_mark",
    "tada",
    "heart",
    "raised_hands",
    "rocket",
    "joy",
    "pray",
    "100",
    "fire",
]


def channel_names(rng: random.Random, n: int) -> list[tuple[str, str]]:
    """``n`` unique (name, purpose) pairs: the fixed channels, then area-kind and city ones."""
    out = list(FIXED_CHANNELS[:n])
    taken = {name for name, _ in out}
    pool = [(f"{a}-{k}", f"The {a} {k} channel") for a in AREAS for k in KINDS]
    pool += [(f"office-{c}", f"The {c.title()} office") for c in CITY_CHANNELS]
    rng.shuffle(pool)
    k = 2
    while len(out) < n:
        for name, purpose in pool:
            if len(out) >= n:
                break
            name = name if k == 2 else f"{name}-{k}"
            if name not in taken:
                taken.add(name)
                out.append((name, purpose))
        k += 1
    return out


def topic(rng: random.Random, who: str) -> str:
    return rng.choice(TOPICS).format(n=rng.randint(10, 40), q=rng.randint(1, 4), who=who)


def message_text(rng: random.Random, first: str, reply: bool = False) -> str:
    """One chat message, its slots filled with the workspace's things and people."""
    template = rng.choice(REPLIES if reply and rng.random() < 0.7 else TEMPLATES)
    return template.format(
        service=rng.choice(SERVICES),
        day=rng.choice(DAYS),
        time=rng.choice(TIMES),
        issue=f"{rng.choice(ISSUE_KEYS)}-{rng.randint(100, 999)}",
        thing=rng.choice(THINGS),
        place=rng.choice(PLACES),
        code=f"{rng.choice('abcdefghjkmnpqrstuvwxyz')}{rng.randint(100, 999)}-{rng.randint(1000, 9999)}",
        first=first,
        symbol=rng.choice(SYMBOLS),
        pct=rng.randint(2, 15),
    )


EDITS = [
    "{text} (edited: fixed a typo)",
    "Correction: {text}",
    "{text}. Update: done",
]
