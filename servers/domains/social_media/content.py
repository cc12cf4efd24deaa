"""What people post about: topics, each with its hashtags and sentences, bios and replies.

Seeded posts are assembled from these pieces, so searches for a word ("ramen", "trail") or a
recurring tag ("#hiking") find real posts, and the texts read like people wrote them.
"""

from __future__ import annotations

import random

# topic -> (hashtags, sentences)
TOPICS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "running": (
        ("#running", "#marathon", "#5k", "#runchat", "#fitness"),
        (
            "Just finished a 10k along the river, legs are jelly",
            "New personal best on the morning loop today",
            "Signed up for the autumn half marathon. No turning back now",
            "Rain run this morning, fully soaked and weirdly happy",
            "Shin splints are back. Rest week it is",
        ),
    ),
    "hiking": (
        ("#hiking", "#trails", "#outdoors", "#mountains", "#camping"),
        (
            "Trail was muddy but the view from the ridge made up for it",
            "Found a waterfall two miles off the main trail",
            "First camping trip of the season, the stars were ridiculous",
            "Summit by noon, lunch with a view",
            "Packing list for the weekend trip is longer than the trip",
        ),
    ),
    "food": (
        ("#foodie", "#ramen", "#brunch", "#baking", "#sourdough"),
        (
            "Anyone have a good ramen place near downtown?",
            "First attempt at sourdough: dense, flat, delicious anyway",
            "Brunch spot on the corner finally reopened and the pancakes are still perfect",
            "Made tacos for twelve people and there are somehow no leftovers",
            "Farmers market haul: peaches, tomatoes and way too much basil",
        ),
    ),
    "coffee": (
        ("#coffee", "#espresso", "#mondaymotivation", "#latteart"),
        (
            "Rainy morning, fresh coffee and a long book",
            "The new espresso bar by the station is dangerously good",
            "Third coffee before ten. Send help",
            "Finally nailed a latte art heart, it only took forty tries",
            "Cold brew season is officially open",
        ),
    ),
    "work": (
        ("#work", "#remote", "#leadership", "#hiring", "#productivity"),
        (
            "Shipped the new release today, huge thanks to the whole team",
            "Three meetings before lunch. Send snacks",
            "Our team is hiring a data analyst, message me if you are interested",
            "Deadline moved up a week, so that is my weekend sorted",
            "Best meeting is the one that could have been an email and was",
        ),
    ),
    "tech": (
        ("#tech", "#python", "#opensource", "#ai", "#release"),
        (
            "Spent the afternoon debugging a timezone bug. It is always timezones",
            "Open source maintainers deserve more thanks than they get",
            "Tried the new laptop for a week, the battery life is unreal",
            "Wrote my first script to sort my photo library, very proud",
            "Every app wants to be a chat app now",
        ),
    ),
    "music": (
        ("#music", "#concert", "#vinyl", "#guitar", "#nowplaying"),
        (
            "Started learning the guitar again after ten years",
            "Concert last night was loud, sweaty and perfect",
            "Found a first pressing at the record store for five dollars",
            "This album has been on repeat all week",
            "Open mic night downtown was full of surprises",
        ),
    ),
    "movies": (
        ("#movies", "#scifi", "#filmtwitter", "#bookclub", "#reading"),
        (
            "Finally saw the new sci-fi movie everyone is talking about, no spoilers but wow",
            "Book club picked a nine hundred page novel. Wish us luck",
            "Rewatched an old favourite and it holds up",
            "Can recommend the new podcast about city planning, surprisingly gripping",
            "Halfway through the trilogy and I cannot put it down",
        ),
    ),
    "city": (
        ("#community", "#localnews", "#citylife", "#volunteer", "#gardening"),
        (
            "Reminder that the community garden cleanup is this Saturday at 10",
            "The new bike lanes on Main Street are a game changer",
            "Great turnout at the neighborhood meetup tonight",
            "Tomatoes in the community garden are finally turning red",
            "Volunteered at the food bank this morning, go if you can",
        ),
    ),
    "travel": (
        ("#travel", "#wanderlust", "#roadtrip", "#sunset", "#beach"),
        (
            "The sunset over the bay tonight was unreal",
            "Road trip playlist is ready, snacks are packed",
            "Missed my connection but found the best noodles in the airport",
            "Beach day with zero phone signal, highly recommend",
            "Back home and already planning the next trip",
        ),
    ),
    "pets": (
        ("#dogsofinstagram", "#catlife", "#pets", "#adoptdontshop"),
        (
            "The dog learned to open the fridge. We are in trouble",
            "Cat has claimed my new chair. It is her chair now",
            "Adopted a senior dog this weekend, best decision ever",
            "Vet says the puppy is perfectly healthy and perfectly chaotic",
            "Morning walk with the dog turned into a two hour adventure",
        ),
    ),
    "sports": (
        ("#soccer", "#basketball", "#gameday", "#cycling", "#sports"),
        (
            "What a finish to the game last night",
            "Pickup basketball at the park, my knees filed a complaint",
            "Cycled to work every day this week",
            "Our rec league team finally won a match",
            "Game day snacks are ready, so is the couch",
        ),
    ),
}
CLOSERS = ("", "", "", "!", ".", " :)", " Any tips?", " Who else?", " Highly recommend.", " More soon.")
REPLIES = (
    "Congrats, well deserved!",
    "Totally agree with this",
    "Where is this? Looks amazing",
    "Count me in",
    "Ha, same thing happened to me last week",
    "Thanks for sharing, really useful",
    "Sending good vibes your way",
    "Can you share the recipe?",
    "This made my day",
    "Not sure I agree, but fair point",
    "Love this!",
    "Wait, tell me more",
    "Saving this for later",
    "So jealous right now",
    "You have to try the one on 5th street too",
)
BIO_PARTS = (
    "coffee first",
    "runner",
    "amateur baker",
    "dog person",
    "cat person",
    "trail addict",
    "bookworm",
    "music nerd",
    "always travelling",
    "gardener",
    "opinions my own",
    "film buff",
    "weekend cyclist",
)


def post_text(rng: random.Random, topic: str) -> str:
    sentence = rng.choice(TOPICS[topic][1])
    closer = rng.choice(CLOSERS)
    if closer[1:2].isalpha() and not sentence.endswith((".", "!", "?")):
        sentence += "."  # "Rest week it is. More soon.", not "Rest week it is More soon."
    return sentence + closer


def bio(rng: random.Random, title: str, city: str) -> str:
    parts = rng.sample(BIO_PARTS, 2)
    return f"{title} in {city}. {parts[0].capitalize()}, {parts[1]}."


def all_tags() -> list[str]:
    return sorted({t for tags, _ in TOPICS.values() for t in tags})
