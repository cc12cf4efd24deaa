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


# Openers and closers are rare (``OPENER_RATE``) and many, so that no stock phrase opens or closes
# more than a few percent of tasks; the intro says who is speaking, with what identifies them.
PERSONAS: tuple[Persona, ...] = (
    Persona("direct", ("",), ("",), ("I'm {name}.", "This is {name}.")),
    Persona(
        "polite",
        ("Hi!", "Hello.", "Good morning!", "Hi there.", "Hey, hope you're well."),
        ("Thank you!", "Thanks so much.", "Appreciate it.", "Thanks in advance.", "Cheers."),
        ("This is {name}.", "Hi, it's {name}."),
    ),
    Persona(
        "busy",
        ("Quick one.", "Got a minute?", "Short request.", "Need a hand fast.", "Hi, quick question."),
        ("Thanks.", "That's all.", "Ta.", "Thanks, that's it.", "Cheers!"),
        ("{name} here.", "It's {name}."),
    ),
    Persona(
        "worried",
        (
            "Hoping you can sort this out.",
            "Something's come up.",
            "I need some help here.",
            "Can you help me out?",
        ),
        (
            "Let me know once it's done.",
            "Tell me if anything goes wrong.",
            "Thanks for the help.",
            "Thank you, really.",
        ),
        ("I'm {name}.", "Hi, {name} here."),
    ),
    Persona(
        "formal",
        ("Good afternoon.", "Hello, I have a request.", "Good day.", "I'd like some help, please."),
        ("Thank you for your help.", "Kind regards.", "Best regards.", "With thanks."),
        ("Hello, this is {name}.", "This is {name} writing."),
    ),
)
ACTION_CLOSERS = ("Let me know once it's done.", "Tell me if anything goes wrong.")  # close a request to act
OPENER_RATE = 0.3  # of complete turns that open (and, independently, close) with a stock phrase

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
# A domain that declares its language: the tool's description would read as documentation
# ("I can't deposit money into an open account directly"), so the answer says plainly it cannot.
DECLARED_MISSING = "I'm sorry, I can't do that here: none of the tools I have can."
DECLARED_CLARIFY = (
    "I can't do that directly with the tools I have here. Would you like me to try another way?"
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
