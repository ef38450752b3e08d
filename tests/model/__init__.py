"""The reference model of a room's schedules: a small, slow, obviously correct specification written
from the public contracts (README, docs/skill.md, docs/semantics.md), never from cronbell's core. The stateful and
interleaving tests beside it drive the real handlers and compare them with it after every step."""
