"""Smart homes: the app a resident uses to run their homes' lights, climate, locks, cameras,
sensors, blinds and appliances, with scenes, automations, an alarm and guest lock codes (the shape
of Home Assistant's entities, areas and actions, with ToolSandbox-style setting dependencies).

Acting model: the ``sessions`` row names the signed-in user, the persona (world person 0,
USR-000001). Tools take explicit home and device ids; ``list_homes`` resolves "my home". The
persona owns HOM-000001 (her house at her world home address in Portland), is a member of a
friend's place (HOM-000002) and a guest at another friend's lake cabin (HOM-000003), and as the
admin of her employer's guest homes reaches most of the other homes; a tenth of the homes are
strangers', where every tool refuses. Roles: guests may operate lights, fans, TVs and speakers
only; members may do everything except manage lock codes and automations; owners and admins may
do everything.

Reference moment: Monday 2026-06-01 16:00 UTC, which is 09:00 in Portland, where the persona's own
house is; other homes keep their own city's time zone (``get_current_time``). Every stored time (readings, events, codes, scenes) is the home's local
wall-clock time, and time parameters (a lock code's window, an automation's HH:MM) are read on the
home's clock too. Nothing changes by itself: sensors report what the snapshot says, automations are
stored but not run, and a device changes only when a tool changes it.

Rules the service enforces, each refused with an error naming the values involved (and nothing
changed):
- Capabilities: every device kind supports a fixed set of actions (``get_device`` lists them); an
  action outside it is refused naming the kind and what it supports ("'Hallway motion sensor' is a
  motion sensor and does not support turn_on; a motion sensor supports: nothing but reading its
  state"). Colour needs a colour bulb; colour temperature stays in the bulb's range (a fixed-white
  bulb has none); a fan oscillates only if it can; media sources must be the device's own.
- Availability: an offline device, or one whose battery is at 0%, is unavailable. Battery motors
  (locks, blinds, garage openers) need 10% battery to move; a robot vacuum needs 20% to start and
  no fault. ``turn_on``/``turn_off`` on a device already in that state, and locking a locked lock,
  are refused as "already ...".
- Thermostats: the mode must be one the thermostat lists; heat/cool/auto take one target_temp,
  heat_cool a target_low and target_high at least 1.5° apart; targets stay within the thermostat's
  min/max; off, dry and fan_only take no target. In vacation mode only eco targets are accepted
  (heat at most 18 °C, cool at least 27 °C) until the home mode changes.
- Locks: a jammed lock cannot be operated; an open door (its door sensor reports open) cannot be
  locked. Unlocking needs a code when the lock requires one or the home is in away or vacation
  mode; a given code is always checked against the lock's owner code and its guest codes (enabled,
  inside their window). A wrong code is refused without saying what the right one is.
- Guest codes: owners and admins only; 4-8 digits, unique on the lock (the owner code included),
  at most 20 per lock, valid_until after valid_from and in the future. Revoking disables a code
  for good.
- Alarm: arming and disarming need the home's alarm code and an online alarm panel; away and
  vacation need every contact sensor closed unless ``bypass_open_sensors`` (the error lists the
  open ones); a triggered alarm can only be disarmed; arming in the current mode is "already
  armed". A garage door will not open while the alarm is armed away or vacation.
- Scenes: names unique per home, at most 50; ``activate_scene`` sets every device it can and lists
  the ones it skipped (unavailable, a low battery, vacation mode's eco limit) instead of failing.
- Automations: exactly one trigger and one action, devices and scenes of the same home, names
  unique per home, at most 50; enabling an enabled automation is "already enabled".

Alarm codes and lock codes are secrets: discovery tools never show them and no tool returns them.
Readings and the event log are append-only; every successful command appends an event.
"""

from servers.domains.iot_devices import actuators, automations, history, homes, scenes, security, seed
from servers.domains.iot_devices.model import iot_devices

# the modules that declare the domain; its tools are shown to agents in this order
iot_devices.include(seed, homes, actuators, security, history, scenes, automations)

__all__ = ["iot_devices"]

# the words its residents use and its assistant answers with (read by the task generator)
from servers.domains.iot_devices import language as _language  # noqa: E402,F401
