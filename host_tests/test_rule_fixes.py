"""Issue 13's rule fixes, beside the rule cases of host_tests/rules/own_cases.json
(which run on CPython and the unix port in test_rule_cases.py):

- Cirulla's matta (7C) is wild in the dealer's opening count (Parlett pp.
  136-138), and a matta that completes a declaration plays as the rank it
  is designated for the rest of the round, shown on its card;
- an Ace taking a lone Ace is a scopa under either Ace-on-Ace option;
- an option that does not apply to the game is refused (ValueError naming
  the option and the game), in `Rules` and in replay codes.
"""

import json

import pytest

import mpy
import ui_fakeboard as F
from scopa import engine as E
from scopa import replay
from scopa.game import Game
from scopa.rng import Rng
from scopa.rules import GAMES, Rules
from ui import gfx

# --- options that do not apply -------------------------------------------------

# game, options, the option the message names
NOT_APPLYING = [
    ("scopa_15", {"ace_takes_all": True}, "ace_takes_all"),
    ("scopa_15", {"match_priority": "free"}, "match_priority"),
    ("scopa", {"ace_on_ace": "all"}, "ace_on_ace"),
    ("scopa", {"ace_sweep_scopa": True}, "ace_sweep_scopa"),
    ("scopone", {"ace_takes_all": True}, "ace_takes_all"),
    ("cirulla", {"napola": True}, "napola"),
    ("cirulla", {"re_bello": "10D"}, "re_bello"),
    ("cirulla", {"redeal_kings": True}, "redeal_kings"),
    ("cirulla", {"napoleone": False}, "napoleone"),
    ("scopone_scientifico", {"redeal_kings": False}, "redeal_kings"),
    ("scopone_10", {"redeal_kings": False}, "redeal_kings"),
    ("scopa", {"partners_visible": True}, "partners_visible"),
    ("cirulla", {"players": 3, "partners_visible": True}, "partners_visible"),
]


@pytest.mark.parametrize("game, opts, name", NOT_APPLYING)
def test_an_option_that_does_not_apply_is_refused(game, opts, name):
    with pytest.raises(ValueError) as e:
        Rules(game, **opts)
    msg = str(e.value)
    assert msg.startswith(name + ":") and game in msg, msg


@pytest.mark.parametrize(
    "game, opts",
    [
        ("scopa_d_assi", {"ace_on_ace": "all", "ace_sweep_scopa": True}),
        ("cirulla", {"ace_on_ace": "all", "ace_sweep_scopa": False}),
        ("scopa", {"players": 4, "partners_visible": True}),
        ("scopone", {"redeal_kings": False, "napola": True, "re_bello": "6D"}),
        ("scopa_15", {"redeal_kings": False, "sum_choice": "fewest"}),
        ("scopone_scientifico", {"partners_visible": True, "match_priority": "free"}),
        # the preset's own value of an option that does not apply is no change
        ("scopa_15", {"ace_takes_all": False}),
        ("cirulla", {"napola": False}),
    ],
)
def test_options_that_apply_are_kept_and_read_back(game, opts):
    r = Rules(game, **opts)
    assert Rules.from_code(r.code()) == r


def _code_with(game, field, value):
    from scopa import rules as R

    code = Rules(game).code()
    i = R._FIELDS.index(field)
    return code[:i] + chr(R.DIGITS[value]) + code[i + 1 :]


def test_a_rules_code_with_an_option_that_does_not_apply_is_refused():
    with pytest.raises(ValueError, match="ace_takes_all: does not apply to scopa_15"):
        Rules.from_code(_code_with("scopa_15", "ace_takes_all", 1))
    with pytest.raises(ValueError, match="napola: does not apply to cirulla"):
        Rules.from_code(_code_with("cirulla", "napola", 1))


def test_a_replay_code_with_an_option_that_does_not_apply_is_refused():
    g = Game(Rules("scopa_15"), 5)
    good = replay.encode(g)
    assert replay.decode(good).rules == g.rules
    body = "S1.%s.5." % _code_with("scopa_15", "ace_takes_all", 1)
    with pytest.raises(replay.ReplayError, match="ace_takes_all: does not apply to scopa_15"):
        replay.decode(body + "." + replay._check(body))


@pytest.mark.mpy
def test_the_refusals_read_the_same_on_the_unix_port():
    codes = [_code_with("scopa_15", "ace_takes_all", 1), _code_with("cirulla", "napola", 1)]
    code = (
        "import json\n"
        "from scopa.rules import Rules\n"
        "from scopa import replay\n"
        "out = []\n"
        "for game, opts, name in json.loads(%r):\n"
        "    try:\n"
        "        Rules(game, **opts)\n"
        "        out.append(None)\n"
        "    except ValueError as e:\n"
        "        out.append(str(e))\n"
        "for c in json.loads(%r):\n"
        "    body = 'S1.%%s.5.' %% c\n"
        "    try:\n"
        "        replay.decode(body + '.' + replay._check(body))\n"
        "        out.append(None)\n"
        "    except ValueError as e:\n"
        "        out.append(str(e))\n"
        "print(json.dumps(out))\n" % (json.dumps(NOT_APPLYING), json.dumps(codes))
    )
    got = json.loads(mpy.run_mpy(code, path=(mpy.FIRMWARE,)))
    want = []
    for game, opts, _ in NOT_APPLYING:
        with pytest.raises(ValueError) as e:
            Rules(game, **opts)
        want.append(str(e.value))
    for c in codes:
        body = "S1.%s.5." % c
        with pytest.raises(ValueError) as e:
            replay.decode(body + "." + replay._check(body))
        want.append(str(e.value))
    assert got == want and None not in got


# --- the matta -----------------------------------------------------------------


MATTA = 16  # the 7 of coppe


def _declared(hand):
    # st[MATTA] after the engine declares `hand` for seat 0 (Cirulla)
    from scopa.cards import parse_list

    r = Rules("cirulla")
    st = E.new_state()
    for c in parse_list(hand):
        st[c] = E.HAND
    pts = E.declare(st, r, 0, E.hand_of(st, 0))
    assert st[E.SCOPE] == pts
    return pts, st[E.MATTA]


def test_the_matta_is_designated_the_rank_the_declaration_counts():
    assert _declared(["7C", "10D", "10S"]) == (10, 10)  # three Kings
    assert _declared(["7C", "5D", "5S"]) == (10, 5)
    assert _declared(["7C", "2D", "3S"]) == (3, 1)  # under 10: counted, and played, as an Ace
    assert _declared(["7C", "10D", "9S"]) == (0, 0)  # nothing declared: a 7
    assert _declared(["1C", "1D", "1S"]) == (10, 0)  # no matta in the hand


def _seed_where(rules, pred, tries=3000):
    for seed in range(1, tries):
        g = Game(rules, seed)
        if pred(g):
            return g
    raise AssertionError("no such deal")


def test_a_declared_matta_keeps_its_rank_to_the_end_of_the_round():
    r = Rules("cirulla")
    g = _seed_where(r, lambda g: g.st[E.MATTA])
    rank = g.st[E.MATTA]
    seat = [s for s in range(2) if MATTA in g.hand(s)][0]
    assert E.declaration(g.hand(seat)) and 1 <= rank <= 10
    rng = Rng(3)
    rnd = g.round_no
    while g.round_no == rnd and not g.round_over:
        assert g.st[E.MATTA] == rank
        n = E.gen_moves(g.st, r, g.mv)
        off = g.mv.offsets()[rng.below(n)]
        E.apply(g.st, r, g.mv.buf, off)
        if g.st[E.OVER]:
            break
    # a new round: the matta is a 7 again until it completes a declaration
    st = E.new_state()
    E.start_round(st, r, Rng(rank + 11), 0)
    holder = st[MATTA] - E.HAND
    if not (0 <= holder < 2 and E.declaration(E.hand_of(st, holder))):
        assert st[E.MATTA] == 0


def test_the_designated_matta_is_taken_and_takes_as_its_rank():
    from scopa import cards as p

    r = Rules("cirulla")
    st = E.new_state()
    for c in range(40):
        st[c] = E.MAZZO
    st[E.MATTA] = 10  # declared as a King
    for c in p.parse_list(["10B", "5C"]):
        st[c] = E.TABLE
        st[E.TAB + st[E.NTAB]] = c
        st[E.NTAB] += 1
    mv = E.Moves()
    E.gen_card_moves(st, r, MATTA, mv)
    assert sorted(t for _, t in mv.tuples()) == [(p.parse("5C"),), (p.parse("10B"),)]
    st[E.MATTA] = 0  # a 7: takes nothing, laid
    E.gen_card_moves(st, r, MATTA, mv)
    assert mv.tuples() == [(MATTA, ())]


def face_bits(c, rank=0):
    d = F.Display(gfx.CARD_W, gfx.CARD_H)
    d.fill(0)
    gfx.card(d, 0, 0, c, gfx.Palette(False), 1, gfx.FACE, False, rank)
    return [bytes(row) for row in d.rows]


@pytest.mark.parametrize("rank, like", [(10, 19), (8, 17)])
def test_the_designated_matta_shows_its_rank_inverted(rank, like):
    # the matta designated a King (a Fante) draws as the King (the Fante)
    # of coppe with its rank inverted in a box: dark on light, so that
    # no mark beside the glyph changes the letter (an underline right under
    # the Fante's F read as an E: a new user's find)
    card = face_bits(like)
    matta = face_bits(MATTA, rank)
    assert matta != face_bits(MATTA) and matta != card
    for y in range(gfx.CARD_H):
        for x in range(gfx.CARD_W):
            inside = 2 <= x <= 6 and 1 <= y <= 7  # the box: a margin round the glyph
            want = (1 - card[y][x]) if inside else card[y][x]
            assert matta[y][x] == want, (x, y)


def test_every_game_still_reads_its_preset_code():
    for g in GAMES:
        r = Rules(g)
        assert Rules.from_code(r.code()) == r


def test_a_code_read_a_byte_at_a_time_says_what_is_wrong():
    # codes are read a byte at a time (no one-character name each: ui.gfx):
    # every digit's value is worked out, and what is no code says so
    from scopa import replay
    from scopa import rules as R

    assert [R.digit(R.DIGITS[i]) for i in range(64)] == list(range(64))
    assert all(R.digit(k) == -1 for k in range(256) if k not in R.DIGITS)
    # a rules code of no players divided by zero (ZeroDivisionError)
    with pytest.raises(ValueError, match="players: 0"):
        Rules.from_code("0" * 19)
    with pytest.raises(ValueError, match="bad rules code"):
        Rules.from_code("é" * 19)
    # a lone surrogate (a terminal's undecodable input on CPython) was a
    # UnicodeEncodeError, not the ReplayError decode promises
    with pytest.raises(replay.ReplayError, match="damaged"):
        replay.decode("S1.\udcff.x.y.z")
    g = Game(Rules("scopa"), 12345)
    g.play_index(0)
    assert replay.encode(replay.decode(replay.encode(g))) == replay.encode(g)
