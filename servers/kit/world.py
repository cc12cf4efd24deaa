"""One shared world of people, companies and merchants, so tasks can cross domains.

Users' requests cross services ("message Dana the tire pressure", "pay the invoice from the email"):
that only works if Dana is the same person, with the same email and city, in chat, email and
banking. The world is generated from ``(seed, scale)`` alone, with its own random generators, so
it does not depend on the order in which any domain's fill calls Faker. Domains take people by
index: person 0 is **the persona**, the user the agent works for in every personal app.

Emails live on reserved ``.example`` domains, so no generated address can belong to anyone.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from datetime import date, timedelta

from faker.providers.person.en_US import Provider as _Names

from servers.kit import geo, restaurants
from servers.kit.geo import CITIES, STREET_NAMES, Address
from servers.kit.restaurants import Restaurant

PEOPLE = {"small": 80, "medium": 2000, "large": 50_000}
COMPANIES = {"small": 30, "medium": 200, "large": 1000}
MERCHANTS = 300
INDUSTRIES = (
    "software",
    "retail",
    "logistics",
    "healthcare",
    "finance",
    "media",
    "manufacturing",
    "education",
    "hospitality",
    "energy",
)
TITLES = (
    "Software Engineer",
    "Product Manager",
    "Account Executive",
    "Designer",
    "Data Analyst",
    "Operations Lead",
    "Nurse",
    "Teacher",
    "Accountant",
    "Marketing Manager",
    "Support Specialist",
    "Research Scientist",
)
MERCHANT_KINDS = {
    "coffee": ("Coffee", "Roasters", "Espresso Bar"),
    "grocery": ("Market", "Grocers", "Foods"),
    "restaurant": ("Kitchen", "Bistro", "Grill", "Noodle House", "Taqueria", "Pizzeria"),
    "fuel": ("Fuel", "Gas & Go"),
    "pharmacy": ("Pharmacy", "Drugstore"),
    "electronics": ("Electronics", "Tech Supply"),
    "books": ("Books", "Reading Room"),
    "clothing": ("Outfitters", "Apparel"),
    "transit": ("Transit", "Rideshare"),
    "utilities": ("Power & Light", "Water Utility", "Telecom"),
}
_MERCHANT_WORDS = (
    "Blue Heron",
    "Copper Kettle",
    "North Star",
    "Red Fox",
    "Golden Gate",
    "Silver Birch",
    "Harbor Light",
    "Old Mill",
    "Green Leaf",
    "Stone Bridge",
    "Wild Plum",
    "Iron Horse",
    "Lantern",
    "Juniper",
    "Pacific",
    "Summit",
    "Riverbend",
    "Maple Leaf",
    "Sunrise",
    "Cobalt",
)


@dataclass(frozen=True)
class Company:
    index: int
    name: str
    domain: str  # email domain, e.g. "corvid.example"
    industry: str
    city: str

    @property
    def address(self) -> Address:
        """The head office, fixed by the company's index."""
        return geo.address(
            self.city, (self.index * 7) % len(STREET_NAMES), 1 + (self.index * 53) % geo.HOUSES_PER_STREET
        )


@dataclass(frozen=True)
class Merchant:
    index: int
    name: str
    category: str
    city: str

    @property
    def address(self) -> Address:
        """Where the shop is; a restaurant merchant's address is its restaurant's."""
        return restaurants.merchant_address(self.index, self.city)


@dataclass(frozen=True)
class Person:
    index: int
    first_name: str
    last_name: str
    email: str
    phone: str
    handle: str  # "@dwhitfield"
    city: str
    timezone: str
    employer: int  # company index
    title: str
    birthday: str
    street_index: int
    house_number: int

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def username(self) -> str:
        """Login / Unix user name: the handle without its ``@``."""
        return self.handle[1:]

    @property
    def home(self) -> Address:
        return geo.address(self.city, self.street_index, self.house_number)


def _companies_known_to(person: int, available: int) -> int:
    """How many companies person ``person`` may work for: those of the smallest scale that has
    them, so a person's employer (and email) is the same at every scale that contains them."""
    for scale in ("small", "medium", "large"):
        if person < PEOPLE[scale]:
            return min(COMPANIES[scale], available)
    return available


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.casefold())


class World:
    """The people, companies, merchants and cities of one (seed, scale)."""

    def __init__(self, seed: int, scale: str) -> None:
        if scale not in PEOPLE:
            raise ValueError(f"unknown scale {scale!r}; allowed: {', '.join(PEOPLE)}")
        self.seed, self.scale = seed, scale
        self.cities = CITIES
        # Faker's name lists, drawn with our own generators: fast, and independent of Faker's state.
        # One generator per list, and the first people only work for the first companies, so a
        # smaller scale's world is a prefix of a larger one's (the persona is the same at every scale).
        self._firsts = tuple(_Names.first_names)
        self._lasts = tuple(_Names.last_names)
        self.companies = self._companies(random.Random(f"world:companies:{seed}"), COMPANIES[scale])
        self.people = self._people(random.Random(f"world:people:{seed}"), PEOPLE[scale])
        self.merchants = self._merchants(random.Random(f"world:merchants:{seed}"))

    # -- generation ------------------------------------------------------------------------------
    def _companies(self, rng: random.Random, n: int) -> tuple[Company, ...]:
        out: list[Company] = []
        taken: set[str] = set()
        suffixes = ("Inc", "LLC", "Group", "Labs", "Partners", "Co", "Systems", "Works")
        while len(out) < n:
            name = f"{rng.choice(self._lasts)} {rng.choice(suffixes)}"
            slug = _slug(name.split()[0])[:20] or "company"
            if slug in taken:
                slug = f"{slug}{len(out)}"
            taken.add(slug)
            out.append(
                Company(len(out), name, f"{slug}.example", rng.choice(INDUSTRIES), rng.choice(CITIES).name)
            )
        return tuple(out)

    def _people(self, rng: random.Random, n: int) -> tuple[Person, ...]:
        out: list[Person] = []
        emails: set[str] = set()
        handles: set[str] = set()
        born_after = date(1950, 1, 1)
        for i in range(n):
            first, last = rng.choice(self._firsts), rng.choice(self._lasts)
            employer = rng.randrange(_companies_known_to(i, len(self.companies)))
            local = f"{_slug(first)}.{_slug(last)}"
            email = f"{local}@{self.companies[employer].domain}"
            k = 2
            while email in emails:
                email, k = f"{local}{k}@{self.companies[employer].domain}", k + 1
            emails.add(email)
            handle = "@" + (_slug(first)[:1] + _slug(last))[:15]
            k = 2
            while handle in handles:
                handle, k = f"@{(_slug(first)[:1] + _slug(last))[:13]}{k}", k + 1
            handles.add(handle)
            home = CITIES[0] if i == 0 else rng.choice(CITIES)
            out.append(
                Person(
                    index=i,
                    first_name=first,
                    last_name=last,
                    email=email,
                    phone=f"+1-{rng.randint(201, 989)}-{rng.randint(200, 999)}-{rng.randint(0, 9999):04d}",
                    handle=handle,
                    city=home.name,
                    timezone=home.timezone,
                    employer=employer,
                    title=rng.choice(TITLES),
                    birthday=(born_after + timedelta(days=rng.randint(0, 365 * 52))).isoformat(),
                    street_index=rng.randrange(len(STREET_NAMES)),
                    house_number=rng.randint(1, geo.HOUSES_PER_STREET),
                )
            )
        return tuple(out)

    @staticmethod
    def _merchants(rng: random.Random) -> tuple[Merchant, ...]:
        out: list[Merchant] = []
        seen: set[str] = set()
        kinds = sorted(MERCHANT_KINDS)
        while len(out) < MERCHANTS:
            category = kinds[len(out) % len(kinds)]
            name = f"{rng.choice(_MERCHANT_WORDS)} {rng.choice(MERCHANT_KINDS[category])}"
            city = CITIES[len(out) % len(CITIES)].name
            if (name, city) in seen:
                name = f"{name} {len(out)}"
            seen.add((name, city))
            out.append(Merchant(len(out), name, category, city))
        return tuple(out)

    # -- looking things up ----------------------------------------------------------------------
    @functools.cached_property
    def restaurants(self) -> tuple[Restaurant, ...]:
        """Every restaurant and café of the world, ``restaurants.PER_CITY`` per city."""
        return restaurants.build(self.seed, self.merchants)

    @property
    def persona(self) -> Person:
        """The user the agent works for in personal apps (same person in every domain)."""
        return self.people[0]

    def employer(self, person: Person) -> Company:
        return self.companies[person.employer]

    def pick_people(self, n: int, *, offset: int = 0) -> list[Person]:
        """People ``offset .. offset+n`` (wrapping): domains take deterministic slices by index."""
        return [self.people[(offset + i) % len(self.people)] for i in range(n)]

    def colleagues(self, person: Person) -> list[Person]:
        """Everyone else who works for ``person``'s employer, in index order."""
        return [p for p in self.people if p.employer == person.employer and p.index != person.index]

    def circle(self, person: Person, n: int) -> list[Person]:
        """The ``n`` people ``person`` deals with most: colleagues first, then others in a fixed
        shuffled order. Email contacts, chat workspace members and social follows all start from
        this list, so the people who write to the persona are the people she chats with and follows;
        a longer circle is an extension of a shorter one."""
        order = self._acquaintances(person.index)
        return [self.people[i] for i in order[:n]]

    @functools.cache  # noqa: B019 - one order per person per World; worlds are cached
    def _acquaintances(self, index: int) -> tuple[int, ...]:
        person = self.people[index]
        near = [p.index for p in self.colleagues(person)]
        rest = [i for i in range(len(self.people)) if i != index and i not in set(near)]
        random.Random(f"world:circle:{self.seed}:{index}").shuffle(rest)
        return tuple(near + rest)

    def by_email(self, email: str) -> Person | None:
        return self._email_index().get(email.casefold())

    @functools.cache  # noqa: B019 - one index per World, and worlds are cached for the process
    def _email_index(self) -> dict[str, Person]:
        return {p.email.casefold(): p for p in self.people}


@functools.lru_cache(maxsize=8)
def world(seed: int = 0, scale: str = "medium") -> World:
    """The world for a seed and scale, built once per process."""
    return World(seed, scale)
