"""The constants the app and config share (a leaf: it imports nothing of
the firmware, so that neither imports the other for them)."""

from micropython import const

VERSION = "0.1.0"
SLEEPS = (30, 60, 120, 300, 0)  # sleep timeout choices, seconds (0: never)
CONTRASTS = (16, 48, 96, 160, 255)  # the display's contrast choices (0-255)

# Computer levels; HUMAN marks a seat played by a person.
EASY = const(0)
MEDIUM = const(1)
HARD = const(2)
HUMAN = const(3)

# Store record names
SETTINGS = "settings.sav"
GAME = "game.sav"
JOURNAL = "game.jrn"  # the plays since game.sav, a line each (store.append)
