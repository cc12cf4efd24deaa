"""Connected cars: a car maker's cloud API that a signed-in driver uses to control cars remotely
(the shape of Tesla Fleet / Smartcar commands, with BFCL VehicleControlAPI's interlocks).

Acting model: the ``sessions`` row names the acting driver (the persona, world person 0). Every
tool takes an explicit ``vehicle`` id; ``list_vehicles`` resolves "my car". The persona owns two
cars (an EV asleep at home on the charger, an ICE car with two rear doors unlocked and a low rear
tire), drives a partner's plug-in hybrid with a shared key, and is the fleet manager of their
employer's car fleet, which is why the account reaches hundreds of cars. Owners and fleet
managers are account holders; drivers may drive and use comfort features only.

Reference moment: Monday 2026-06-01 09:00. Nothing moves by itself: a car reports what the
snapshot says until a command changes it.

Rules the service enforces, each with an error that names every blocking condition:
- Connectivity: an ``asleep`` car must be woken (``wake_vehicle``) before any command; an
  ``offline`` car is unreachable. Cloud-side reads (status with stale values, alerts, trips,
  keys, command history, service centers) still answer from the last report.
- Access: you need a key for the car; only account holders share or revoke keys, toggle valet
  mode or set a charge limit above 90%.
- Engine start: all four doors locked, brake pedal pressed fully (100%), gear P, fuel (ICE),
  battery (EV) or either (plug-in hybrid) above zero. Stop: speed 0 in P.
- Gear: brake at least 50%; D/R need the engine running and the parking brake released; P/R
  need speed 0. Doors: no unlocking while moving; an open door cannot be locked.
- Cruise: engine running, gear D, speed a multiple of 5 within 20-120 in the car's unit (mph or
  km/h), following distance 20-200 m.
- Climate 16-30 °C (60-86 °F), fan 0-100; ICE climate needs the engine running, EV climate needs
  10% battery. Seat heaters need the climate on.
- Refuel: ICE/hybrid, engine off, gear P, never above the tank capacity. Charging: EV/hybrid,
  plugged in to start, charging to stop, never at or above the charge limit (50-100%).
- Navigation and trip estimates geocode through the shared geography and need a road route.
- Valet PIN 4 digits, and the same PIN turns it off. At most 5 drivers per car.

Units: each car displays ``metric`` or ``imperial``; every reading and every speed, distance,
temperature and fuel amount a tool takes or returns is in that car's unit unless a ``unit`` is
given. Stored values are km, litres, °C and psi, except ``speed``/``cruise_speed``, which are kept
in the car's own unit because cruise speeds are whole multiples of 5 of it.

Every successful command appends a row to the append-only ``command_log``; a refused command
changes nothing, so the log is a faithful history of what was actually done.
"""

from servers.domains.vehicle import care, comfort, driving, seed
from servers.domains.vehicle.model import vehicle

# the modules that declare the domain; its tools are shown to agents in this order
vehicle.include(seed, driving, comfort, care)

__all__ = ["vehicle"]

# the words its drivers use and its assistant answers with (read by the task generator)
from servers.domains.vehicle import language as _language  # noqa: E402,F401
