"""The game of Scopa and its family: cards, rules, engine, scoring, replay.

No I/O here: the engine never draws and never reads buttons.
"""
