"""New game: every choice of the menus gives the Rules it names.

config.make_rules turns the New game choices (settings "cfg") into a
scopa Rules; ui/menu.py shows, for each game, the house rules that apply
to it (config.option_keys) with the common rule (FORMAT.md's default)
first. Checked here: the presets as the menu starts them, each option row
of each game, that an option shows only where it applies, old settings,
and the menus driven by keys on the real app (fake board).
"""

import pytest

import app
import config as C
import lang
import ui_fakeboard as F
from scopa.rules import Rules


def cfg_of(**kw):
    cfg = C.default_settings()["cfg"]
    cfg.update(kw)
    return cfg


# --- the presets ---------------------------------------------------------------


@pytest.mark.parametrize(
    "game, players, preset",
    [
        (C.SCOPA, 2, "scopa"),
        (C.SCOPA, 3, "scopa"),
        (C.SCOPA, 4, "scopa"),
        (C.SCOPA, 6, "scopa"),
        (C.SCOPONE, 4, "scopone"),
        (C.SCIENTIFICO, 4, "scopone_scientifico"),
        (C.SCOPONE_10, 4, "scopone_10"),
        (C.D_ASSI, 2, "scopa_d_assi"),
        (C.D_ASSI, 6, "scopa_d_assi"),
        (C.A_15, 3, "scopa_15"),
        (C.CIRULLA, 2, "cirulla"),
        (C.CIRULLA, 4, "cirulla"),
    ],
)
def test_defaults_are_the_presets(game, players, preset):
    r = C.make_rules(cfg_of(game=game, players=players))
    want = Rules(preset) if preset.startswith("scopone") else Rules(preset, players=players)
    assert r == want, (r, want)


def test_the_presets_defaults_where_houses_differ():
    assert C.GAME_KEYS == tuple(__import__("scopa.rules").rules.GAMES)
    d = C.make_rules(cfg_of(game=C.D_ASSI))
    assert d.ace_takes_all and not d.ace_on_ace_all and not d.ace_sweep_scopa
    assert d.redeal_kings and d.target == 11 and d.re_bello == -1 and not d.napola
    c = C.make_rules(cfg_of(game=C.CIRULLA))
    assert c.ace_takes_all and not c.ace_on_ace_all and c.ace_sweep_scopa
    assert not c.redeal_kings and c.target == 51 and c.re_bello == -1 and not c.napola
    f = C.make_rules(cfg_of(game=C.A_15))
    assert not f.ace_takes_all and f.redeal_kings and f.target == 11
    t = C.make_rules(cfg_of(game=C.SCOPONE_10))
    assert (t.hand, t.table, t.players) == (9, 0, 4)


# --- each option row -----------------------------------------------------------

# cfg key, index, then the FORMAT.md options it means
OPTION_CASES = [
    ("target", 1, {"target": 16}),
    ("target", 3, {"target": 31}),
    ("best", 1, {"best_of": 3}),
    ("must", 0, {"capture_mandatory": False}),
    ("pair", 0, {"match_priority": "free"}),
    ("fewest", 1, {"sum_choice": "fewest"}),
    ("kings", 0, {"redeal_kings": False}),
    ("napola", 1, {"napola": True}),
    ("rebello", 1, {"re_bello": "10D"}),
    ("rebello", 2, {"re_bello": "6D"}),
    ("aceace", 1, {"ace_on_ace": "all"}),
    ("acescopa", 1, {"ace_sweep_scopa": True}),
    ("ctarget", 1, {"target": 31}),
    ("ctarget", 2, {"target": 21}),
    ("pzero", 1, {"primiera_missing_suit": "zero"}),
    ("pvis", 1, {"partners_visible": True}),  # teams: Scopone only with 3 players
    ("napola", 2, {"napola": True, "napola_score": "fixed"}),
    ("piccola", 1, {"piccola_cap": 5}),
    ("piccola", 2, {"piccola_cap": 6}),
]


@pytest.mark.parametrize("game", range(len(C.GAME_KEYS)))
@pytest.mark.parametrize("key, idx, opts", OPTION_CASES, ids=lambda v: str(v))
def test_each_option_of_each_game(game, key, idx, opts):
    players = 4 if game in C.DEALS else 3
    cfg = cfg_of(game=game, players=players)
    cfg[key] = idx
    r = C.make_rules(cfg)
    preset = C.GAME_KEYS[game]
    base = {} if game in C.DEALS else {"players": players}
    if key in C.option_keys(cfg):
        assert r == Rules(preset, **base, **opts), (key, idx)
    else:  # an option that does not apply leaves the preset as it is
        assert r == Rules(preset, **base), (key, idx)


def test_napoleone_with_napola():
    cfg = cfg_of(game=C.D_ASSI, napola=1)
    assert "napoleone" in C.option_keys(cfg)
    assert C.make_rules(cfg) == Rules("scopa_d_assi", napola=True, napoleone=True)
    cfg["napoleone"] = 0
    assert C.make_rules(cfg) == Rules("scopa_d_assi", napola=True, napoleone=False)
    cfg["napola"] = 0
    assert "napoleone" not in C.option_keys(cfg)
    assert C.make_rules(cfg) == Rules("scopa_d_assi")


def test_options_only_where_they_apply():
    def keys(game, **kw):
        return C.option_keys(cfg_of(game=game, **kw))

    common = ["best", "must"]
    score = ["napola", "rebello"]
    takes = ["pair", "fewest", "pzero"]  # (Scopa a 15 takes by fifteen only: no pair)
    scopa = ["target", *common, *takes, "kings", *score]
    assert keys(C.SCOPA) == scopa
    assert keys(C.SCOPA, players=4) == [*scopa, "pvis"]
    assert keys(C.SCOPONE) == ["deal", *scopa, "pvis"]
    for g in (C.SCIENTIFICO, C.SCOPONE_10):  # no table dealt: no Kings on it
        assert keys(g) == ["deal", "target", *common, *takes, *score, "pvis"]
    assert keys(C.D_ASSI) == [
        "players",
        "target",
        *common,
        "pair",
        "fewest",
        "pzero",
        "aceace",
        "acescopa",
        "kings",
        *score,
    ]
    assert keys(C.A_15) == ["players", "target", *common, "fewest", "pzero", "kings", *score]
    assert keys(C.CIRULLA) == [
        "players",
        "ctarget",
        *common,
        "pair",
        "fewest",
        "pzero",
        "aceace",
        "cacescopa",
        "piccola",
    ]
    assert keys(C.CIRULLA, players=4)[-1] == "pvis"
    assert keys(C.SCOPA, napola=1) == [
        "target",
        *common,
        "pair",
        "fewest",
        "pzero",
        "kings",
        "napola",
        "napoleone",
        "rebello",
    ]


def test_players_are_made_valid_for_the_game():
    assert C.make_rules(cfg_of(game=C.CIRULLA, players=6)).players == 4
    assert C.make_rules(cfg_of(game=C.CIRULLA, players=3)).players == 3
    assert C.make_rules(cfg_of(game=C.D_ASSI, players=6)).players == 6
    assert C.make_rules(cfg_of(game=C.SCOPONE, players=2)).players == 4


def test_old_settings_read_the_same():
    # before the regional games: game 0..2, re bello on/off (the King)
    assert C.make_rules(cfg_of(game=2)) == Rules("scopone_scientifico")
    assert C.make_rules(cfg_of(rebello=1)) == Rules("scopa", re_bello="10D")
    assert C.make_rules(cfg_of(target=3, napola=1)) == Rules("scopa", target=31, napola=True)


# --- the menus on the app, by keys -------------------------------------------------


def run(script, tmp_path, steps=1500):
    b = F.Board(F.keys(script))
    a = app.run(b, max_steps=steps, folder=str(tmp_path))
    return a, b


def options(a):
    """The Options screen's rows as {cfg key: shown value}."""
    s = a.screen
    return {k: r[1][r[2]] if r[1] else None for k, r in zip(s.keys, s.rows)}


@pytest.mark.parametrize(
    "down, title, game, players",
    [
        (4, "Scopone", C.SCIENTIFICO, 4),  # the Scopone manual's deal first
        (5, "Scopa d'Assi", C.D_ASSI, 2),
        (6, "Scopa a 15", C.A_15, 2),
        (7, "Cirulla", C.CIRULLA, 2),
    ],
)
def test_new_game_rows(tmp_path, down, title, game, players):
    a, b = run("A" + "D" * down + "A", tmp_path)
    assert a.screen_mod == "menu" and type(a.screen).__name__ == "Options"
    assert a.screen.title == title
    assert a.settings["cfg"]["game"] == game
    a.screen.action(len(a.screen.rows) - 1)  # Start
    assert a.game.rules == C.make_rules(cfg_of(game=game, players=players))


def test_another_game_starts_from_its_own_players(tmp_path):
    # Scopa for 4, then Cirulla: it opened with 4 players, its Players row
    # out of sight above Start (a new user's find); Cirulla again keeps
    # the count set for it
    a, b = run("ADDA", tmp_path)  # Scopa for 4
    assert a.settings["cfg"]["players"] == 4
    a.go("menu", "Games")
    a._switch()
    a.screen.action(7)  # Cirulla
    a._switch()
    assert options(a)["players"] == "2"
    s = a.screen
    s.sel = s.keys.index("players")
    b.buttons.push(F.keys("R"))  # 3
    a.loop(100)
    a.go("menu", "Games")
    a._switch()
    a.screen.action(7)
    a._switch()
    assert options(a)["players"] == "3"


def test_menu_names_each_option_in_the_games_words(tmp_path):
    a, b = run("ADDDDDA", tmp_path)  # Scopa d'Assi
    o = options(a)
    assert list(o) == [
        "players",
        "seat",
        "opp",
        "target",
        "best",
        "must",
        "pair",
        "fewest",
        "pzero",
        "aceace",
        "acescopa",
        "kings",
        "napola",
        "rebello",
        None,
    ]
    assert o["players"] == "2" and o["aceace"] == "Ace" and o["acescopa"] == "Off"
    assert o["rebello"] == "Off" and o["kings"] == "On"
    lang.load("it")
    try:
        a.screen.build()
        labels = [r[0] for r in a.screen.rows]
        assert "Sull'asso" in labels and "Asso fa scopa" in labels and "3 re: ridare" in labels
        assert options(a)["aceace"] == "L'asso"
    finally:
        lang.load("en")


def test_players_and_deal_rebuild_the_rows(tmp_path):
    a, b = run("ADDDDDDDA", tmp_path)  # Cirulla
    s = a.screen
    assert options(a)["ctarget"] == "51"
    assert "partner" not in s.keys
    # Players: right twice -> 4, two teams: the partner row appears
    s.sel = s.keys.index("players")
    b.buttons.push(F.keys("RR"))
    a.loop(100)
    s = a.screen
    assert options(a)["players"] == "4" and "partner" in s.keys
    assert s.keys[s.sel] == "players"
    assert a.settings["cfg"]["players"] == 4
    labels = {k: r[0] for k, r in zip(a.screen.keys, a.screen.rows)}
    assert labels["opp"] == "Opponents"
    b.buttons.push(F.keys("R"))  # 2 again (Cirulla: 2, 3, 4)
    a.loop(100)
    assert options(a)["players"] == "2" and "partner" not in a.screen.keys
    # one opponent: "Opponent" (a new user's: "Opponents" for one)
    labels = {k: r[0] for k, r in zip(a.screen.keys, a.screen.rows)}
    assert labels["opp"] == "Opponent"
    # Scopone: the deal sets the game
    b.buttons.push(F.keys("B"))
    a.loop(100)
    assert type(a.screen).__name__ == "Games"
    b.buttons.push(F.keys("UUUA"))  # Cirulla -> Scopone
    a.loop(100)
    s = a.screen
    assert s.title == "Scopone" and s.keys[0] == "deal"
    assert options(a)["deal"] == "scientifico" and "kings" not in s.keys  # no table dealt
    s.sel = 0
    b.buttons.push(F.keys("R"))
    a.loop(100)
    assert options(a)["deal"] == "classico" and "kings" in a.screen.keys
    assert a.settings["cfg"]["game"] == C.SCOPONE
    b.buttons.push(F.keys("R"))
    a.loop(100)
    assert options(a)["deal"] == "a 10 carte" and a.settings["cfg"]["game"] == C.SCOPONE_10
    assert "kings" not in a.screen.keys
    b.buttons.push(F.keys("R"))
    a.loop(100)
    assert options(a)["deal"] == "scientifico" and a.settings["cfg"]["game"] == C.SCIENTIFICO
    assert a.settings["cfg"]["deal"] == 0


def test_the_partner_row_names_one_partner_or_two(tmp_path):
    labels = {}
    for down in range(4):  # Scopa for 2, 3, 4, 6
        a, b = run("A" + "D" * down + "A", tmp_path / str(down))
        s = a.screen
        n = a.settings["cfg"]["players"]
        labels[n] = [
            s.rows[s.keys.index(k)][0] if k in s.keys else None for k in ("partner", "pvis")
        ]
    assert labels == {
        2: [None, None],
        3: [None, None],
        4: ["Partner", "See partner"],
        6: ["Partners", "See partners"],  # Scopa for 6: two partners
    }
    # Scopone after Scopa for 6 (its players set to Scopone's 4): one partner
    b.buttons.push(F.keys("BDA"))  # back to the games, down to Scopone
    a.loop(200)
    s = a.screen
    assert s.title == "Scopone" and a.settings["cfg"]["players"] == 4
    assert s.rows[s.keys.index("pvis")][0] == "See partner"


def test_a_persons_seat_with_pass_and_play_off_shows_medium_and_stays(tmp_path):
    # Pass & play on, the opponent a person; then off: the row said Easy
    # and the settings were rewritten to Easy (the next game against Easy,
    # unchosen), where the seat plays as Medium (config.make_levels)
    a, b = run("AA", tmp_path)  # Scopa for 2
    a.settings["pass"] = 1
    a.set_setting("opp", app.HUMAN)
    a.go("menu", "Options")
    a._switch()
    assert options(a)["opp"] == "Human"
    a.settings["pass"] = 0
    a.go("menu", "Options")
    a._switch()
    assert options(a)["opp"] == "Medium" and a.settings["cfg"]["opp"] == app.HUMAN
    a.screen.action(len(a.screen.rows) - 1)  # Start
    assert a.levels == [app.HUMAN, app.MEDIUM]


def test_re_bello_names_the_king_as_its_face_shows_it(tmp_path):
    a, b = run("AA", tmp_path)  # Scopa for 2
    s = a.screen
    assert s.rows[s.keys.index("rebello")][1][1:] == ["RD", "6D"]
    a.settings["faces"] = 1  # French faces: the king is K
    s.build()
    assert a.screen.rows[a.screen.keys.index("rebello")][1][1:] == ["KD", "6D"]


def test_napola_shows_napoleone(tmp_path):
    a, b = run("AA", tmp_path)  # Scopa for 2
    s = a.screen
    assert "napoleone" not in s.keys
    s.sel = s.keys.index("napola")
    b.buttons.push(F.keys("R"))
    a.loop(100)
    s = a.screen
    assert "napoleone" in s.keys and s.keys[s.sel] == "napola"
    assert options(a)["napoleone"] == "On"
    s.sel = s.keys.index("rebello")
    b.buttons.push(F.keys("RR"))
    a.loop(100)
    assert options(a)["rebello"] == "6D"
    s.sel = len(s.rows) - 1
    b.buttons.push(F.keys("A"))
    a.loop(100)
    assert a.game.rules == Rules("scopa", napola=True, re_bello="6D")


def test_the_chosen_deal_is_remembered(tmp_path):
    a, b = run("ADDDDADRB", tmp_path)  # Scopone, deal classico, back
    assert a.settings["cfg"]["game"] == C.SCOPONE
    b.buttons.push(F.keys("DA"))  # Scopa d'Assi, then back to Scopone
    a.loop(100)
    assert a.settings["cfg"]["game"] == C.D_ASSI
    b.buttons.push(F.keys("BUA"))
    a.loop(100)
    assert a.settings["cfg"]["game"] == C.SCOPONE
    assert options(a)["deal"] == "classico"


def test_help_has_a_section_per_game(tmp_path):
    a, b = run("DDDA", tmp_path)  # How to play
    s = a.screen
    assert [r[0] for r in s.rows] == [*C.GAME_NAMES, "Scorekeeper"]
    for i, key in enumerate([*C.GAME_KEYS, lang.KEEPER]):
        assert lang.pages(key) > lang.pages("nothing") or key == lang.KEEPER, key
        s.action(i)
        assert a._next == ("pages", "Help", key)


def test_cirulla_ace_sweep_is_a_scopa_unless_the_house_says_no():
    cfg = C.default_settings()["cfg"]
    cfg["game"] = C.CIRULLA
    assert C.make_rules(cfg).ace_sweep_scopa == 1  # Cirulla's common rule
    cfg["cacescopa"] = 1
    assert C.make_rules(cfg).ace_sweep_scopa == 0
