"""Words the template renderer draws on: personas, connectors, clarifications, out-of-scope asks.

Kept apart from the rendering logic so that adding variety is editing a list. Nothing here names
a domain: tool-specific wording comes from each tool's own ``says`` templates.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Persona:
    """How a user opens and closes a request; ``intro`` may name them (``{name}``)."""

    name: str
    openers: tuple[str, ...]
    closers: tuple[str, ...]
    intros: tuple[str, ...] = ()


PERSONAS: tuple[Persona, ...] = (
    Persona("direct", ("",), ("",), ("This is {name}.",)),
    Persona(
        "polite",
        ("Hello!", "Hi there!", "Good morning."),
        ("Thank you!", "Thanks a lot.", ""),
        ("My name is {name}.", "It's {name} here."),
    ),
    Persona("busy", ("Quick one:", "In a hurry, so:", ""), ("Thanks.", ""), ("{name} here.",)),
    Persona(
        "anxious",
        ("I'm a bit worried, can you help?", "Please help me with something."),
        ("Please let me know it worked.", "Thanks, I really appreciate it."),
        ("This is {name}.",),
    ),
    Persona(
        "formal",
        ("I would like to request the following.", "Could you please assist me."),
        ("Kind regards.", "Many thanks in advance."),
        ("On behalf of {name}:",),
    ),
)

CONNECTORS: tuple[str, ...] = ("Then", "After that,", "Next,", "Once that's done,", "And then", "Also,")
MINIMAL_CONNECTORS: tuple[str, ...] = ("Then", "Also")

CLARIFY_QUESTIONS: tuple[str, ...] = (
    "Could you tell me the {what}?",
    "Which {what} should I use?",
    "I need the {what} before I can do that. What is it?",
)
CLARIFY_REPLIES: tuple[str, ...] = (
    "It's {value}.",
    "The {what} is {value}.",
    "Sorry, {value}.",
    "Use {value}.",
)

MISSING_TOOL_ANSWER = "Sorry, none of the tools available to me can {action}."
MISSING_TOOL_CLARIFY = (
    "I can't {action} directly with the tools I have. Would you like me to try a different way?"
)
IRRELEVANT_ANSWER = "Sorry, that is outside what I can help with here; none of my tools can do it."

# Requests no service-style tool can answer. ``topic`` is matched against the offered tools'
# names and descriptions so a request is never used where some offered tool might serve it.
OUT_OF_SCOPE: tuple[tuple[str, str], ...] = (
    ("weather", "What's the weather going to be like in {city} this weekend?"),
    ("translate", "Can you translate '{phrase}' into French?"),
    ("joke", "Tell me a joke about {word}s."),
    ("recipe", "Give me a recipe for {food}."),
    ("poem", "Write a short poem about {word}."),
    ("capital", "What is the capital of {country}?"),
    ("convert", "How many kilometers are in {n} miles?"),
    ("score", "Who won the football match in {city} last night?"),
    ("horoscope", "What does my horoscope say for today?"),
    ("lyrics", "What are the lyrics of a song called '{phrase}'?"),
    ("flight", "Book me a flight from {city} to {city2} next Friday."),
    ("taxi", "Call me a taxi to {address}."),
    ("movie", "Which movies are playing in {city} tonight?"),
    ("stock", "What is the share price of {company} right now?"),
)
FOODS = ("lasagna", "pad thai", "banana bread", "gazpacho", "ramen", "shakshuka")
