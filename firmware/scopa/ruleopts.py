"""FORMAT.md option keys and values for `Rules` (host_tests/rules/FORMAT.md).

Loaded only when a ruleset is made from such keys (the new-game menu, rule
cases), so the tables are not in the heap during play.
"""

from scopa import cards

# FORMAT.md key -> (attribute, values as given in the JSON -> int)
CHOICES = {
    "match_priority": ("strict", {"strict": 1, "free": 0}),
    "primiera_missing_suit": ("primiera_zero", {"excluded": 0, "zero": 1}),
    "sum_choice": ("fewest", {"any": 0, "fewest": 1}),
    "tie_at_target": ("recount", {"play_on": 0, "recount": 1}),
    "ace_on_ace": ("ace_on_ace_all", {"ace": 0, "all": 1}),
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
