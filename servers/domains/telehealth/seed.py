"""The seed's directory half: specialties, pharmacies, providers with their licences and
schedules, patients (world people living in US cities, and their children) and the desk session.
The care half (appointments and everything that hangs off them) is in ``seed_care``."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from faker.providers.person.en_US import Provider as _Names

from servers.domains.telehealth.model import (
    PRIMARY_CARE,
    PROVIDER_STATES,
    SLOT_MINUTES,
    SPECIALTIES,
    Patient,
    Pharmacy,
    Provider,
    Session,
    Specialty,
    telehealth,
)
from servers.domains.telehealth.rules import us_date
from servers.domains.telehealth.seed_care import seed_care
from servers.kit import Seeder, geo

FIRST_NAMES = tuple(_Names.first_names)
LAST_NAMES = tuple(_Names.last_names)
CHAINS = ("CareWell Pharmacy", "Greenleaf Drugs", "Corner Apothecary")
HMO_INSURERS = ("Cascade Health HMO", "Summit Care HMO", "Harborview HMO")
PPO_INSURERS = ("BlueRidge PPO", "Meridian Choice PPO", "Pinnacle Health PPO")
# the morning and afternoon blocks of a provider's day (a 10-minute offset for odd providers)
BLOCKS = ((8 * 60, 12 * 60), (13 * 60, 17 * 60))


@dataclass
class Clinic:
    """What the care seed needs from the directory, in memory."""

    providers: list[dict]
    patients: list[dict]
    pharmacies: list[dict]
    # provider id -> day -> that day's slot dicts in time order (from today on)
    slots: dict[str, dict[str, list[dict]]] = field(default_factory=dict)
    specialist: dict[str, bool] = field(default_factory=dict)


@telehealth.seed
def fill(s: Seeder) -> None:
    s.add(Specialty, [{"id": sid, "name": name, "is_specialist": sp} for sid, name, sp in SPECIALTIES])
    pharmacies = s.add(Pharmacy, _pharmacies())
    providers = s.add(Provider, _providers(s))
    patients = _patients(s, providers, pharmacies)
    s.add(Patient, [{k: v for k, v in p.items() if not k.startswith("_")} for p in patients])
    s.add(Session, [{"id": "SES-000001", "verified_patient_id": None, "verified_at": None}])
    clinic = Clinic(providers, patients, pharmacies, _slots(s, providers))
    clinic.specialist = {sid: sp for sid, _, sp in SPECIALTIES}
    seed_care(s, clinic)


def _us_cities() -> list[geo.City]:
    return [c for c in geo.CITIES if c.country == "US"]


def _pharmacies() -> list[dict]:
    out = []
    for c in _us_cities():
        for chain in CHAINS:
            out.append(
                {
                    "id": f"PHM-{len(out) + 1:06d}",
                    "name": f"{chain} {c.name}",
                    "city": c.name,
                    "state": c.region,
                }
            )
    return out


def _name(s: Seeder, taken: set[str]) -> tuple[str, str]:
    while True:
        first, last = s.pick(FIRST_NAMES), s.pick(LAST_NAMES)
        if f"{first} {last}" not in taken:
            taken.add(f"{first} {last}")
            return first, last


def _providers(s: Seeder) -> list[dict]:
    n = s.count(24, 120, 600)
    ids = [sid for sid, _, _ in SPECIALTIES]
    weights = [3 if sid in PRIMARY_CARE else 1 for sid in ids]
    cities = {st: [c.name for c in _us_cities() if c.region == st] for st in PROVIDER_STATES}
    taken: set[str] = set()
    out = []
    for i in range(n):
        specialty = ids[i] if i < len(ids) else s.rng.choices(ids, weights)[0]
        home = PROVIDER_STATES[i % len(PROVIDER_STATES)]
        others = [st for st in PROVIDER_STATES if st != home]
        extra = s.rng.sample(others, s.rng.choices((0, 1, 2), (40, 35, 25))[0])
        first, last = _name(s, taken)
        out.append(
            {
                "id": f"PRV-{i + 1:06d}",
                "name": f"Dr. {first} {last}",
                "credentials": s.rng.choices(("MD", "DO", "NP", "PA"), (60, 15, 15, 10))[0],
                "specialty_id": specialty,
                "city": s.pick(cities[home]),
                "home_state": home,
                "licensed_states": ",".join([home, *sorted(extra)]),
                "accepts_new_patients": s.chance(0.72),
                "offers_telehealth": s.chance(0.7),
            }
        )
    return out


def _patients(s: Seeder, providers: list[dict], pharmacies: list[dict]) -> list[dict]:
    """Adults: the world's people who live in US cities (one record per name); minors: their
    children, a few without a guardian on the account."""
    total = s.count(80, 2000, 50_000)
    seen: set[str] = set()
    adults = []
    for person in s.world.people:
        if geo.city(person.city).country != "US" or person.name in seen:
            continue
        seen.add(person.name)
        adults.append(_adult(s, person, len(adults) + 1, providers, pharmacies))
        if len(adults) >= total - total // 8:
            break
    minors = []
    while len(adults) + len(minors) < total:
        minors.append(_minor(s, adults, len(adults) + len(minors) + 1, seen, providers))
    return adults + minors


def _plan(s: Seeder) -> dict:
    hmo = s.chance(0.45)
    return {
        "plan_type": "HMO" if hmo else "PPO",
        "insurer": s.pick(HMO_INSURERS if hmo else PPO_INSURERS),
        "member_number": f"M{s.rng.randint(100_000_000, 999_999_999)}",
        "copay_primary": float(s.pick((15, 20, 25, 30))),
        "copay_specialist": float(s.pick((35, 40, 50, 60))),
    }


def _near(s: Seeder, providers: list[dict], state: str, specialties: tuple[str, ...]) -> str | None:
    fits = [p for p in providers if p["specialty_id"] in specialties]
    local = [p for p in fits if p["home_state"] == state] or fits
    return s.pick(local)["id"] if local and not s.chance(0.04) else None


def _adult(s: Seeder, person, number: int, providers: list[dict], pharmacies: list[dict]) -> dict:
    state = geo.city(person.city).region
    local = [ph for ph in pharmacies if ph["city"] == person.city]
    return {
        "id": f"PAT-{number:06d}",
        "name": person.name,
        "date_of_birth": us_date(person.birthday),
        "email": person.email,
        "phone": person.phone,
        "city": person.city,
        "state": state,
        **_plan(s),
        "pharmacy_id": None if s.chance(0.06) else s.pick(local)["id"],
        "primary_provider_id": _near(s, providers, state, ("family medicine", "internal medicine")),
        "guardian_id": None,
    }


def _minor(s: Seeder, adults: list[dict], number: int, seen: set[str], providers: list[dict]) -> dict:
    parent = s.pick(adults)
    last = parent["name"].split()[-1]
    while True:
        name = f"{s.pick(FIRST_NAMES)} {last}"
        if name not in seen:
            seen.add(name)
            break
    today = s.now.date()
    # mostly children; some a few weeks either side of their 18th birthday
    if s.chance(0.12):
        born = today.replace(year=today.year - 18) + timedelta(days=s.rng.randint(-40, 40))
    else:
        born = today - timedelta(days=s.rng.randint(60, 17 * 365))
    return {
        **{
            k: parent[k]
            for k in (
                "city",
                "state",
                "plan_type",
                "insurer",
                "copay_primary",
                "copay_specialist",
                "pharmacy_id",
            )
        },
        "id": f"PAT-{number:06d}",
        "name": name,
        "date_of_birth": us_date(born.isoformat()),
        "email": None,
        "phone": None,
        "member_number": f"M{s.rng.randint(100_000_000, 999_999_999)}",
        "primary_provider_id": _near(s, providers, parent["state"], ("pediatrics",)),
        "guardian_id": None if s.chance(0.18) else parent["id"],
    }


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _slots(s: Seeder, providers: list[dict]) -> dict[str, dict[str, list[dict]]]:
    """Thirty days of 20-minute slots from today, weekdays only, all free for now."""
    today = s.now.date()
    days = [today + timedelta(days=d) for d in range(30)]
    days = [d.isoformat() for d in days if d.weekday() < 5]
    out: dict[str, dict[str, list[dict]]] = {}
    n = 0
    for i, p in enumerate(providers):
        shift = 10 if i % 2 else 0
        out[p["id"]] = {}
        for day in days:
            row = []
            for lo, hi in BLOCKS:
                for m in range(lo + shift, hi + shift - SLOT_MINUTES + 1, SLOT_MINUTES):
                    n += 1
                    row.append(
                        {
                            "id": f"SLT-{n:06d}",
                            "provider_id": p["id"],
                            "start": f"{day}T{_hhmm(m)}",
                            "end": f"{day}T{_hhmm(m + SLOT_MINUTES)}",
                            "status": "free",
                            "appointment_id": None,
                        }
                    )
            out[p["id"]][day] = row
    return out
