"""The house rules' rows of a game (house_rules): New game's Options and
the How-to-play pages (ui.pages) show them; a module of its own, so that
neither loads the other's screens, nor the scorekeeper's lists these.
"""

import lang
from lang import tr
from ui.lists import re_bello_cards


def house_rules(cfg, french=False):
    """The option rows of New game choices `cfg` (config.option_keys), as
    ``(cfg key, label, [choices])``, each choice in the player's language
    and the common reading (FORMAT.md's default) first; `french`: cards
    named by French faces."""
    import config

    g = cfg["game"]
    on_off = [tr(lang.OFF), tr(lang.ON)]
    choices = {
        "deal": (lang.DEAL, config.DEAL_NAMES),
        "players": (lang.SK_PLAYERS, [str(p) for p in config.player_choices(g)]),
        "target": (lang.TARGET, [str(t) for t in config.TARGETS]),
        "ctarget": (lang.TARGET, [str(t) for t in config.CIRULLA_TARGETS]),
        "best": (lang.BEST_OF, ["1", "3"]),
        "must": (lang.MUST_TAKE, on_off),
        "pair": (lang.PAIR_FIRST, on_off),
        "fewest": (lang.FEWEST, on_off),
        "pzero": (lang.NO_SUIT, [tr(lang.OUT), "0"]),
        "aceace": (lang.ACE_ON_ACE, [tr(lang.TAKES_ACE), tr(lang.TAKES_ALL)]),
        "acescopa": (lang.ACE_SCOPA, on_off),
        "cacescopa": (lang.ACE_SCOPA, on_off[::-1]),  # Cirulla: on first
        "kings": (lang.KINGS, on_off),
        "napola": (lang.NAPOLA, [tr(lang.OFF), tr(lang.PER_CARD), tr(lang.FIXED_THREE)]),
        "napoleone": (lang.NAPOLEONE, on_off),
        "rebello": (lang.RE_BELLO, [tr(lang.OFF)] + re_bello_cards(french)),
        "piccola": (lang.PICCOLA_MAX, [tr(lang.OFF), "5", "6"]),
        "pvis": (lang.SEE_PARTNERS if config.players(cfg) == 6 else lang.SEE_PARTNER, on_off),
    }
    rows = []
    for k in config.option_keys(cfg):
        sid, ch = choices[k]
        rows.append((k, tr(sid), list(ch)))
    return rows
