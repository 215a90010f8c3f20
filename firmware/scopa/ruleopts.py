"""FORMAT.md option keys and values for `Rules` (host_tests/rules/FORMAT.md).

Loaded only when a ruleset is made from such keys (the new-game menu, rule
cases), so the tables are not in the heap during play.
"""

from scopa import cards

PICCOLA_CAPS = (0, 5, 6)  # Rules.piccola_cap: none, or the most the piccola scores

# FORMAT.md key -> (attribute, values as given in the JSON -> int)
CHOICES = {
    "match_priority": ("strict", {"strict": 1, "free": 0}),
    "primiera_missing_suit": ("primiera_zero", {"excluded": 0, "zero": 1}),
    "sum_choice": ("fewest", {"any": 0, "fewest": 1}),
    "tie_at_target": ("recount", {"play_on": 0, "recount": 1}),
    "ace_on_ace": ("ace_on_ace_all", {"ace": 0, "all": 1}),
    "napola_score": ("napola_fixed", {"per_card": 0, "fixed": 1}),
}
FLAGS = {
    "capture_mandatory": "mandatory",
    "napola": "napola",
    "napoleone": "napoleone",
    "ace_takes_all": "ace_takes_all",
    "ace_sweep_scopa": "ace_sweep_scopa",
    "redeal_kings": "redeal_kings",
    "partners_visible": "partners_visible",
}


def attr(key):
    """The Rules attribute that FORMAT.md option `key` sets (the key itself
    for re_bello, players, target, best_of)."""
    if key in CHOICES:
        return CHOICES[key][0]
    return FLAGS.get(key, key)


def set_option(rules, key, v):
    """Set FORMAT.md option `key` to `v` on `rules`. Raises ValueError
    naming the option when the key or value is not valid."""
    if key in CHOICES:
        attr, table = CHOICES[key]
        if v not in table:
            raise ValueError("%s: %r is not one of %s" % (key, v, ", ".join(table)))
        setattr(rules, attr, table[v])
    elif key in FLAGS:
        setattr(rules, FLAGS[key], _flag(key, v))
    elif key == "re_bello":
        if v is None or v is False or v == -1:
            rules.re_bello = -1
        elif v is True:
            rules.re_bello = cards.RE_DENARI
        else:
            rules.re_bello = cards.parse(v) if isinstance(v, str) else int(v)
    elif key == "piccola_cap":
        if v is not None and v not in PICCOLA_CAPS[1:]:
            raise ValueError("piccola_cap: %r is not null, 5 or 6" % (v,))
        rules.piccola_cap = v or 0
    elif key in ("players", "target", "best_of") and isinstance(v, int):
        setattr(rules, key, v)
    else:
        raise ValueError("unknown rule option %r" % (key,))


def _flag(key, v):
    if v is True or v == 1:
        return 1
    if v is False or v == 0:
        return 0
    raise ValueError("%s: %r is not true or false" % (key, v))


# The options that apply to each game (GAMES order), besides those of
# _ALWAYS; partners_visible applies with teams (4 or 6 players). An option
# that does not apply must keep the preset's value (check_applies).
_ALWAYS = (
    "players",
    "target",
    "best_of",
    "mandatory",
    "fewest",
    "primiera_zero",
    "recount",
    "partners_visible",
)
_SCORE = ("re_bello", "napola", "napoleone", "napola_fixed")
_ACE = ("ace_takes_all", "ace_on_ace_all", "ace_sweep_scopa")
_APPLY = (
    ("strict", "redeal_kings") + _SCORE,  # scopa
    ("strict", "redeal_kings") + _SCORE,  # scopone: four cards face up
    ("strict",) + _SCORE,  # scopone scientifico: no table dealt
    ("strict", "redeal_kings") + _SCORE + _ACE,  # scopa d'Assi
    ("redeal_kings",) + _SCORE,  # scopa a 15: takes by fifteen only
    ("strict", "piccola_cap") + _ACE,  # cirulla: its piccola and grande, redeal on Aces
    ("strict",) + _SCORE,  # scopone a 10: no table dealt
)


def applies(game, field):
    """True when option `field` (a Rules attribute) applies to `game`
    (scopa.rules.SCOPA.. SCOPONE_10); partners_visible needs teams as well."""
    return field in _ALWAYS or field in _APPLY[game]


def key_of(field):
    """The FORMAT.md key of Rules attribute `field`."""
    for k in CHOICES:
        if CHOICES[k][0] == field:
            return k
    for k in FLAGS:
        if FLAGS[k] == field:
            return k
    return field


def check_applies(rules, preset, fields, name):
    """Raise ValueError naming the option and the game when `rules` sets an
    option that does not apply to its game (a value of one of `fields`
    other than in `preset`, the Rules of the game as it comes; `name` the
    game's name), or partners_visible without teams; or naming piccola_cap
    when it is not 0, 5 or 6."""
    g = rules.game
    if rules.piccola_cap not in PICCOLA_CAPS:
        raise ValueError("piccola_cap: %r is not none, 5 or 6" % (rules.piccola_cap,))
    for f in fields:
        if not applies(g, f) and getattr(rules, f) != getattr(preset, f):
            raise ValueError("%s: does not apply to %s" % (key_of(f), name))
    if rules.partners_visible and rules.players < 4:
        raise ValueError(
            "partners_visible: %s for %d players has no partners" % (name, rules.players)
        )
