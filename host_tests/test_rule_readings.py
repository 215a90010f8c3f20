"""Issue 13's readings of the rule books that the menus now offer: primiera
with a missing suit, the partner's hand visible, napola as a fixed 3,
Cirulla's piccola cap, Scopone dealt 10 each with an empty table by
default, and How to play stating the capture rule, the last play and the
house rules set. New game and the scorekeeper's set-up are driven by key
scripts on the real app (fake board) and the Rules they give are checked.
(The scoring of the new options: rule cases O20..O26 of
host_tests/rules/own_cases.json, on CPython and the unix port.)"""

import tempfile

import pytest

import app
import config as C
import lang
import ui_fakeboard as F
from ai import core
from menu_keys import Menus
from scopa.game import Game
from scopa.rules import Rules
from ui import peek
from ui import table as TB


def _menus_keys(game_row, sets):
    """Letters that open New game, the row labelled `game_row`, set each
    (lang id, shown choice) of `sets`, and Start; and the Rules they start."""
    with tempfile.TemporaryDirectory(prefix="readings_") as folder:
        m = Menus(folder)
        assert m.go_label(lang.NEW_GAME)
        m.press("A")
        assert m.go_row(lambda i, r: r[0] == game_row), game_row
        m.press("A")
        for sid, text in sets:
            assert m.go_label(sid), lang.tr(sid)
            assert m.choose(text), (lang.tr(sid), text)
        assert m.go_label(lang.START)
        m.press("A")
        return m.keys, m.app.game.rules


def _replay(letters, tmp_path):
    b = F.Board(F.keys(letters))
    a = app.run(b, max_steps=20 * len(letters) + 200, folder=str(tmp_path))
    return a.game.rules


@pytest.mark.parametrize(
    "row, sets, want",
    [
        ("Scopa for 2", [(lang.NO_SUIT, "0")], Rules("scopa", primiera_missing_suit="zero")),
        ("Scopa for 2", [(lang.NO_SUIT, "Out")], Rules("scopa")),
        ("Scopa for 4", [(lang.SEE_PARTNER, "On")], Rules("scopa", players=4, partners_visible=1)),
        ("Scopa for 6", [(lang.SEE_PARTNERS, "Off")], Rules("scopa", players=6)),
        ("Scopa for 2", [(lang.NAPOLA, "Per card")], Rules("scopa", napola=True)),
        (
            "Scopa for 3",
            [(lang.NAPOLA, "Fixed 3")],
            Rules("scopa", players=3, napola=True, napola_score="fixed"),
        ),
        ("Cirulla", [(lang.PICCOLA_MAX, "5")], Rules("cirulla", piccola_cap=5)),
        ("Cirulla", [(lang.PICCOLA_MAX, "6")], Rules("cirulla", piccola_cap=6)),
        ("Cirulla", [(lang.PICCOLA_MAX, "Off")], Rules("cirulla")),
        (
            "Scopone",
            [(lang.SEE_PARTNER, "On"), (lang.NO_SUIT, "0")],
            Rules("scopone_scientifico", partners_visible=True, primiera_missing_suit="zero"),
        ),
        ("Scopone", [], Rules("scopone_scientifico")),  # the default deal: 10 each, no table
        ("Scopone", [(lang.DEAL, "classico")], Rules("scopone")),
        (
            "Scopa d'Assi",
            [(lang.NAPOLA, "Fixed 3")],
            Rules("scopa_d_assi", napola=1, napola_score="fixed"),
        ),
    ],
)
def test_new_game_sets_each_reading(tmp_path, row, sets, want):
    letters, rules = _menus_keys(row, sets)
    assert rules == want, (letters, rules, want)
    assert _replay(letters, tmp_path) == want  # the key script alone gives it


def test_the_readings_common_first_and_only_where_they_apply():
    cfg = C.default_settings()["cfg"]
    for g in range(len(C.GAME_KEYS)):
        cfg.update(game=g, players=2)
        assert C.make_rules(cfg) == Rules(C.GAME_KEYS[g])  # every first choice: the preset
        keys = C.option_keys(cfg)
        assert "pzero" in keys
        assert ("pvis" in keys) == (g in C.DEALS)  # teams only
        assert ("piccola" in keys) == (g == C.CIRULLA) != ("napola" in keys)
    assert C.DEALS[0] == C.SCIENTIFICO and C.DEAL_NAMES[0] == "scientifico"


def test_old_settings_keep_their_scopone_deal(tmp_path):
    from app import App

    a = App(F.Board(()), str(tmp_path))
    a.settings["cfg"].update(game=C.SCOPONE, deal=0)  # saved before: deal 0 was classico
    a.save_settings()
    b = App(F.Board(()), a.folder)
    b.settings = C.load_settings(b.folder)[0]
    assert b.settings["cfg"]["deal"] == C.DEALS.index(C.SCOPONE)


# --- the scorekeeper's set-up ---------------------------------------------------


class Keeper:
    def __init__(self, folder):
        self.board = F.Board(())
        self.app = app.App(self.board, str(folder))
        self.app.start()

    def press(self, letters):
        self.board.buttons.push(F.keys(letters))
        self.app.loop(14 * len(letters) + 40)

    def row(self, sid):
        return [r[0] for r in self.app.screen.rows].index(lang.tr(sid))

    def set(self, sid, text):
        """DOWN to the row `sid`, RIGHT until it shows `text`."""
        s = self.app.screen
        while s.sel != self.row(sid):
            self.press("D")
            s = self.app.screen
        for _ in range(len(s.rows[s.sel][1])):
            if s.rows[s.sel][1][s.rows[s.sel][2]] == text:
                return
            self.press("R")
            s = self.app.screen
        raise AssertionError((lang.tr(sid), text))

    def start(self):
        s = self.app.screen
        while s.rows[s.sel][0] != lang.tr(lang.START):
            self.press("D")
            s = self.app.screen
        self.press("A")
        assert self.app.screen_mod == "scorekeeper"
        return self.app.screen.sh.rules


@pytest.mark.parametrize(
    "game, sets, want",
    [
        ("Scopa", [(lang.NO_SUIT, "0")], Rules("scopa", primiera_missing_suit="zero")),
        ("Scopa", [(lang.NAPOLA, "Fixed 3")], Rules("scopa", napola=True, napola_score="fixed")),
        ("Scopone", [], Rules("scopone_scientifico")),
        ("Scopone", [(lang.NAPOLA, "Per card")], Rules("scopone_scientifico", napola=True)),
        # (from Scopone to Cirulla by RIGHT: the Players row's choice, 2, comes back)
        ("Cirulla", [(lang.PICCOLA_MAX, "5")], Rules("cirulla", piccola_cap=5)),
        (
            "Cirulla",
            [(lang.PICCOLA_MAX, "6"), (lang.NO_SUIT, "0")],
            Rules("cirulla", piccola_cap=6, primiera_missing_suit="zero"),
        ),
    ],
)
def test_scorekeeper_set_up_sets_each_reading(tmp_path, game, sets, want):
    k = Keeper(tmp_path)
    k.press("DA")  # the start menu's Scorekeeper: a new sheet's set-up
    assert k.app.screen_mod == "keeper_setup"
    k.set(lang.SK_GAME, game)
    for sid, text in sets:
        k.set(sid, text)
    assert k.start() == want


def test_a_sheets_readings_come_back_in_its_set_up(tmp_path):
    from ui import keeper_setup

    class Sh:
        rules = Rules("cirulla", piccola_cap=6, primiera_missing_suit="zero")
        names = ["A", "B"]

    s = keeper_setup.Screen(app.App(F.Board(()), str(tmp_path)), Sh)
    assert s.rules() == Sh.rules
    Sh.rules = Rules("scopa", napola=True, napola_score="fixed")
    assert keeper_setup.Screen(app.App(F.Board(()), str(tmp_path)), Sh).rules() == Sh.rules


# --- the partner's hand ---------------------------------------------------------


def _table(tmp_path, rules, levels):
    b = F.Board(())
    a = app.App(b, str(tmp_path))
    a.game = Game(rules, 3)
    a.levels = levels
    a.go("table")
    a._switch()
    a.loop(200, until=lambda a: a.screen.stage == TB.PICK)
    return a, b


@pytest.fixture()
def random_ai(monkeypatch):
    monkeypatch.setattr(app, "USE_AI", False)


def test_the_partners_hand_shows_only_under_the_option(tmp_path, random_ai):
    levels = [app.HUMAN, app.EASY, app.EASY, app.EASY]
    for vis in (True, False):
        r = Rules("scopa", players=4, partners_visible=vis)
        a, b = _table(tmp_path, r, levels)
        s = a.screen
        assert s.stage == TB.PICK and a.game.turn == 0
        b.buttons.push(F.keys("U"))  # UP: the partner's hand (DOWN: the round's page)
        a.loop(30)
        a.draw()
        text = b.display.screen_text()
        if vis:
            assert s.peek == 1 and peek.partners(s) == [2]
            assert "Partner P3" in text
        else:
            assert s.peek == 0 and peek.partners(s) == [] and "Partner" not in text
        b.buttons.push(F.keys("L"))  # any other key: the own hand again
        a.loop(30)
        assert s.peek == 0 and s.stage == TB.PICK


def test_six_players_look_at_each_partner_in_turn(tmp_path, random_ai):
    r = Rules("scopa", players=6, partners_visible=True)
    a, b = _table(tmp_path, r, [app.HUMAN] + [app.EASY] * 5)
    s = a.screen
    assert peek.partners(s) == [2, 4]
    seen = []
    for key in "UUUUD":  # UP: P3's hand, P5's, the own; DOWN steps back
        b.buttons.push(F.keys(key))
        a.loop(30)
        seen.append(s.peek)
    assert seen == [1, 2, 0, 1, 0]


@pytest.mark.parametrize("partner", [app.HARD, app.MEDIUM])
def test_a_hard_player_is_told_whether_its_partners_play_at_its_level(
    tmp_path, monkeypatch, partner
):
    # the hard opponents, each the other's partner: mates 1; the human's
    # partner, hard: mates 0 (ai.hard.SOLO); the hint (hard's move for the
    # human): 1 beside a hard partner, 0 beside a medium one
    from ai import hard, hint

    told = {}
    real = hard.choose

    def choose(st, rules, seat, rng, budget_ms=None, nodes=None, mates=1):
        told[seat] = mates
        return real(st, rules, seat, rng, budget_ms, 200, mates)

    monkeypatch.setattr(hard, "choose", choose)
    monkeypatch.setattr(hint, "choose", choose)
    levels = [app.HUMAN, app.HARD, partner, app.HARD]
    a, b = _table(tmp_path, Rules("scopa", players=4), levels)
    b.buttons.push(F.keys("b"))  # the hint
    a.loop(300, until=lambda a: 0 in told)
    assert told == {0: 1 if partner == app.HARD else 0}
    b.buttons.push(F.keys("A"))  # the human plays its first card
    a.loop(5000, until=lambda a: a.game.moves_played() == 4)
    want = {0: told[0], 1: 1, 3: 1}
    if partner == app.HARD:
        want[2] = 0
    assert told == want, a.game.moves_played()


@pytest.mark.parametrize("vis", [False, True])
def test_the_computer_partner_knows_the_humans_hand_only_under_the_option(vis):
    r = Rules("scopone_scientifico", partners_visible=vis)
    g = Game(r, 9)
    core.setup(r)
    core.view(g.st, 2)  # the computer partner of seat 0
    unseen = set(core.unseen[: core.nun])
    human = set(g.hand(0))
    assert (human & unseen == set()) == vis
    assert not set(g.hand(2)) & unseen  # its own hand it knows
    assert set(g.hand(1)) <= unseen  # an opponent's never


# --- How to play ----------------------------------------------------------------


@pytest.mark.parametrize("code", lang.LANGS)
def test_how_to_play_states_the_capture_rule_and_the_last_play(code):
    lang.load(code)
    try:
        n = lang.pages("scopa", code)
        text = " ".join(" ".join(lang.page("scopa", k, code)) for k in range(n))
        must = lang.tr(lang.MUST_TAKE).split()[0]
        assert must in text, (code, must)  # where the option is on
        last = {"en": "last play", "it": "ultima giocata", "de": "letzte Zug", "no": "Siste trekk"}
        assert last[code] in text and ("scopa" in text.lower())
    finally:
        lang.load("en")


def test_how_to_play_lists_the_house_rules_set(tmp_path):
    from ui.pages import house_pages

    lang.load("en")  # (run alone, no language was loaded)
    cfg = C.default_settings()["cfg"]
    cfg.update(must=0, pzero=1, napola=2)
    pages = house_pages(cfg, "scopa")[0]
    lines = [ln for p in pages for ln in p[1:]]
    assert all(p[0] == "House rules" and len(p) <= 7 for p in pages)
    assert all(len(ln) <= 16 for ln in lines)
    assert "Must take    Off" in lines and "Missing suit   0" in lines
    assert "Fewest cards Off" in lines
    assert "Napola   Fixed 3" in lines and "Napoleone     On" in lines
    pages = house_pages(C.default_settings()["cfg"], "cirulla")[0]
    lines = [ln for p in pages for ln in p[1:]]
    assert "Piccola max  Off" in lines and not any(ln.startswith("Napola") for ln in lines)
    # the Help screen shows them after the game's own and the common pages
    a = app.App(F.Board(()), str(tmp_path))
    a.settings["cfg"].update(must=0)
    a.go("pages", "Help", "scopa")
    a._switch()
    s = a.screen
    assert s.n == lang.pages("scopa") + len(s.house) + len(s.keys)
    assert any("Must take    Off" == ln for p in s.house for ln in p)
    # then what each one means, in the order they are listed ("Missing
    # suit: Out" meant nothing to a new player)
    seen = [s.lines]
    while s.turn(1):
        seen.append(s.lines)
    assert len(seen) == s.n
    assert seen[lang.pages("scopa") :][: len(s.house)] == s.house
    means = seen[lang.pages("scopa") + len(s.house) :]
    assert [p[0].split(":")[0] for p in means] == [
        "Target",
        "Best of 3",
        "Must take",
        "Pair first",
        "Fewest cards",
        "Missing suit",
        "Kings redeal",
        "Napola",
        "Re bello",
    ]
    assert "Out: it cannot" in means[5] and "0: the" in means[5][-2]


def test_old_rules_codes_read_with_the_new_options_off():
    code = Rules("scopa", napola=True).code()
    assert len(code) == 19
    old = Rules.from_code(code[:17])
    assert old == Rules("scopa", napola=True) and old.napola_fixed == 0 and old.piccola_cap == 0


def test_the_piccola_cap_and_napola_score_are_refused_where_they_do_not_apply():
    with pytest.raises(ValueError, match="piccola_cap: does not apply to scopa"):
        Rules("scopa", piccola_cap=5)
    with pytest.raises(ValueError, match="napola_score: does not apply to cirulla"):
        Rules("cirulla", napola_score="fixed")
    with pytest.raises(ValueError, match="piccola_cap"):
        Rules("cirulla", piccola_cap=4)
