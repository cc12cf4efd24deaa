"""How people ask a calculator desk, and what it tells them.

Nobody here has an account: a person asks the quick questions that come up between two other
tasks ("what's 15% off $80?", "how many working days until the 30th?", "how many cups in a
quart?") and wants the number back, rounded the way they would write it, with its unit. Units are
said by the symbols people write (km, lb, °F, fl oz); dates are said in words.
"""

from __future__ import annotations

from servers.domains.utilities.model import Unit, utilities
from servers.kit import Language

say = Language(utilities)

# -- units: people write symbols, a few are spelled out ----------------------------------------
UNIT_WORDS = {
    "C": "°C",
    "F": "°F",
    "K": "kelvin",
    "floz": "fl oz",
    "m3": "cubic meters",
    "cup": "cups",
    "pt": "pints",
    "qt": "quarts",
    "gal": "gallons",
    "nmi": "nautical miles",
    "kn": "knots",
    "st": "stone",
    "t": "metric tons",
    "bit": "bits",
    "B": "bytes",
}
say.names(Unit, held="{id}")

DIMENSION = {
    "length": "length",
    "mass": "weight",
    "temperature": "temperature",
    "volume": "volume",
    "speed": "speed",
    "data_size": "data size",
}
say.state(Unit, "dimension", **DIMENSION)

# -- lists of numbers ------------------------------------------------------------------------
say.tool(
    "sum_numbers",
    asks=[
        "What do {numbers} add up to?",
        "Add up {numbers} for me.",
        "What's the total of {numbers}?",
        "I'm totting up receipts: {numbers}. What's the sum?",
        "Quick one, what's {numbers} all added together?",
    ],
    tells=["Those {count} numbers add up to {value}."],
)
say.tool(
    "mean",
    asks=[
        "What's the average of {numbers}?",
        "Can you average {numbers}?",
        "I have {numbers}; what do they average out to?",
        "My scores this term were {numbers}. What's my average?",
        "What's the mean of {numbers}?",
    ],
    tells=["The average of those {count} numbers is {value}."],
)
say.tool(
    "median",
    asks=[
        "What's the median of {numbers}?",
        "Find the middle value of {numbers}.",
        "If I sort {numbers}, what's the median?",
        "What's the median of these: {numbers}?",
        "I need the median of {numbers}, not the average.",
    ],
    tells=["The median of those {count} numbers is {value}."],
)
say.tool(
    "standard_deviation",
    asks=[
        "What's the standard deviation of {numbers}?",
        "How spread out are {numbers}? Give me the standard deviation.",
        "Work out the {kind} standard deviation of {numbers}.",
        "I need the {kind} standard deviation of {numbers} for a report.",
        "What's the standard deviation of these readings: {numbers}?",
    ],
    words={"kind": {"sample": "sample", "population": "population"}},
    tells=[
        "The {@kind} standard deviation is {value}, around a mean of {mean}.",
        "The standard deviation is {value}, around a mean of {mean}.",
    ],
)
say.tool(
    "min_max",
    asks=[
        "What are the highest and lowest of {numbers}?",
        "What's the range of {numbers}?",
        "Find the smallest and largest of {numbers}.",
        "Of {numbers}, which is the lowest and which the highest?",
        "How far apart are the biggest and smallest of {numbers}?",
    ],
    tells=["The lowest is {min} and the highest is {max}, a range of {range}."],
)

# -- arithmetic ------------------------------------------------------------------------------
say.tool(
    "calculate",
    asks=[
        "What is {expression}?",
        "Calculate {expression} for me.",
        "Can you work out {expression}?",
        "I don't trust my mental math: {expression}?",
        "What does {expression} come to?",
    ],
    tells=["{expression} = {value:exact}."],
)
say.tool(
    "round_number",
    asks=[
        "Round {value} to {decimals} decimal places.",
        "Round {value} {direction} to {decimals} decimal places.",
        "What's {value} rounded to the nearest whole number?",
        "Round {value} {direction} to a whole number.",
        "Can you round {value} to {decimals} decimals for me?",
    ],
    words={"direction": {"nearest": "the usual way", "up": "up", "down": "down"}},
    tells=["Rounded {@direction}, that's {value:exact}.", "Rounded, that's {value:exact}."],
)

# -- percentages -----------------------------------------------------------------------------
say.tool(
    "percent_of",
    asks=[
        "What is {percent}% of {value}?",
        "Work out {percent} percent of {value}.",
        "How much is {percent}% of {value}?",
        "I need {percent}% of {value}, what's that?",
        "What's a {percent}% share of {value}?",
    ],
    tells=["{percent}% of {of} is {value}."],
)
say.tool(
    "percent_change",
    asks=[
        "What's the percent change from {old_value} to {new_value}?",
        "It went from {old_value} to {new_value}; by what percentage is that?",
        "By how many percent did {old_value} change when it became {new_value}?",
        "Our numbers moved from {old_value} to {new_value}. What's that as a percentage?",
        "How big a change is {old_value} to {new_value}, in percent?",
    ],
    tells=["Going from {old_value} to {new_value} is a change of {value}% (a difference of {difference})."],
)
say.tool(
    "apply_discount",
    asks=[
        "What does a {price} item cost after {percent}% off?",
        "What's {percent}% off {price}?",
        "How much would I pay for something priced {price} with {percent} percent off?",
        "The sale takes {percent}% off a {price} jacket. What do I pay?",
        "Take {percent}% off {price} for me.",
    ],
    tells=["With {percent}% off, {original:money} comes to {value:money}; you save {saved:money}."],
)

# -- units -----------------------------------------------------------------------------------
say.tool(
    "convert_units",
    asks=[
        "Convert {value} {from_unit} to {to_unit}.",
        "{value} {from_unit} is how much in {to_unit}?",
        "What is {value} {from_unit} in {to_unit}?",
        "How many {to_unit} is {value} {from_unit}?",
        "I've got {value} {from_unit} written down; what's that in {to_unit}?",
    ],
    words={"from_unit": UNIT_WORDS, "to_unit": UNIT_WORDS},
    tells=["{from.value} {@from_unit} is {value} {@to_unit}."],
)
say.tool(
    "list_units",
    asks=[
        "Which {dimension} units can you convert between?",
        "What units do you know?",
        "What units of {dimension} do you support?",
        "Can you convert {dimension}? Which units?",
        "List the {dimension} units you handle.",
    ],
    words={"dimension": DIMENSION},
    tells=[
        "For {@dimension} I know {units:count(unit)}: {units:list(name)}.",
        "I know {units:count(unit)}: {units:list(name)}.",
    ],
)

# -- dates -----------------------------------------------------------------------------------
say.tool(
    "days_between",
    asks=[
        "How many days are there between {start} and {end}?",
        "How many days is it from {start} to {end}?",
        "How many days is {start} from today?",
        "Counting from {start}, how many days until {end}?",
        "I need the number of days between {start} and {end}.",
    ],
    tells=["{start:day} and {end:day} are {value:abs} days apart."],
)
say.tool(
    "business_days_between",
    asks=[
        "How many business days are there between {start} and {end}?",
        "How many working days from {start} to {end}?",
        "Not counting weekends, how many days from {start} until {end}?",
        "I need the number of workdays between {start} and {end}.",
        "How many weekdays are there from {start} to {end}?",
    ],
    tells=[
        "Between {start:day} and {end:day} there are {value:abs} business days (weekends left out; holidays"
        " aren't counted), out of {calendar_days:abs} calendar days."
    ],
)
say.tool(
    "shift_date",
    asks=[
        "What's the date {amount} {unit} {direction} {date}?",
        "What date is it {amount} {unit} from today?",
        "Add {amount} {unit} to {date}.",
        "If I start on {date}, what's the date {amount} {unit} later?",
        "Count {amount} {unit} {direction} {date}: what date is that?",
    ],
    words={"direction": {"after": "after", "before": "before"}},
    tells=[
        "That's {value:day}; the month is shorter, so it stops at its last day.{clamped:yes}",
        "That's {value:day}.",
    ],
)
say.tool(
    "weekday_of",
    asks=[
        "What day of the week is {date}?",
        "Which weekday does {date} fall on?",
        "What day is it today?",
        "Is {date} a weekday or a weekend?",
        "What day of the week will {date} be?",
    ],
    tells=["Today is {date:day}.{is_today:yes}", "It falls on a {weekday}."],
)
