"""The regional games on the screens (fake board, CPython): the table
announces Scopa a 15's and Cirulla's dealer bonus and Cirulla's
declarations at the deal, and the round summary shows the variant
categories and an all-coins match win."""

import pytest

import app
import ui_fakeboard as F
from scopa import engine as E
from scopa import scoring
from scopa.game import Game
from scopa.rules import Rules
from ui import table as TB


@pytest.fixture(autouse=True)
def random_ai(monkeypatch):
    monkeypatch.setattr(app, "USE_AI", False)


def start(tmp_path, game, levels, screen="table"):
    b = F.Board(())
    a = app.App(b, str(tmp_path))
    a.game = game
    a.levels = levels
    a.go(screen)
    a._switch()
    return a, b


def seed_where(rules, pred, tries=5000):
    for seed in range(1, tries):
        g = Game(rules, seed)
        if pred(g):
            return g
    raise AssertionError("no such deal")


def announced(a, b, steps=2000, cards=None):
    """The NEWS lines the table shows, in order, until the first turn;
    `cards`, a list: each line's cards, lit in the table's place, added."""
    seen = []

    def watch(a):
        s = a.screen
        if s.stage == TB.NEWS and (not seen or seen[-1] != s.line):
            seen.append(s.line)
            if cards is not None:
                cards.append(list(s.cards))
        return s.stage in (TB.PICK, TB.THINK)

    a.loop(steps, until=watch)
    assert a.screen.stage in (TB.PICK, TB.THINK)
    return seen


def test_cirulla_dealer_bonus_and_declaration_are_announced(tmp_path):
    r = Rules("cirulla")

    def both(g):
        return g.st[E.BONUS] == 2 and E.declaration(g.hand(0)) == 3

    g = seed_where(r, both)
    assert g.dealer == 1 and g.table() == []
    # the engine has counted them: 30 on the first table, a cirulla in hand
    assert g.scope(1) == 2 + E.declaration(g.hand(1)) and g.scope(0) == 3
    four = E.pile_of(g.st, 1)  # the table the dealer took
    hand = g.hand(0)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    # each shows its cards, as the rules have them shown: the dealer's
    # four taken, the declared hand (they went unseen)
    cards = []
    assert announced(a, b, cards=cards) == ["P2: 30 +2", "You: Cirulla +3"]
    assert cards == [four, hand] and len(four) == 4
    assert a.screen.stage == TB.PICK and not a.screen.cards


def test_the_dealers_matta_shows_as_the_dealer_counts_it(tmp_path):
    # Cirulla's dealer's 30 of R 7C 4 6 read as 27: the matta, wild, drew
    # as a plain 7 (a tester's find); it draws as the 10 it counts
    def matta_taken(g):
        return g.st[E.BONUS] and 16 in E.pile_of(g.st, g.rules.side(g.dealer))

    g = seed_where(Rules("cirulla"), matta_taken)
    cards = E.pile_of(g.st, g.rules.side(g.dealer))
    want = 15 * g.st[E.BONUS] - sum(c % 10 + 1 for c in cards if c != 16)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    a.loop(500, until=lambda a: a.screen.stage == TB.NEWS)
    assert a.screen.cards == cards and a.screen.matta == want and 1 <= want <= 10
    drawn = []
    real = TB.gfx.card
    TB.gfx.card = lambda fb, x, y, c, *args: drawn.append((c, args[-1])) or real(fb, x, y, c, *args)
    try:
        a.screen.draw(b.display)
    finally:
        TB.gfx.card = real
    assert (16, want) in drawn


def test_scopa_a_15s_dealer_seven_of_coppe_is_a_plain_seven(tmp_path):
    # no matta in Scopa a 15: the 7C among the dealer's four drew as a
    # designated 7 (the matta's boxed rank)
    def seven_taken(g):
        return g.st[E.BONUS] and 16 in E.pile_of(g.st, g.rules.side(g.dealer))

    g = seed_where(Rules("scopa_15"), seven_taken)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    a.loop(500, until=lambda a: a.screen.stage == TB.NEWS)
    assert 16 in a.screen.cards and a.screen.matta == 0


def test_decino_is_announced_and_a_key_skips(tmp_path):
    g = seed_where(Rules("cirulla", players=4), lambda g: E.declaration(g.hand(2)) == 10)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY, app.EASY, app.EASY])

    def decino(a):
        return a.screen.stage == TB.NEWS and "Decino" in a.screen.line

    a.loop(500, until=decino)
    assert a.screen.line == "P3: Decino +10"
    a.draw()
    assert "P3: Decino +10" in b.display.screen_text()
    b.buttons.push(F.keys("A"))  # any key skips
    a.loop(20, until=lambda a: a.screen.stage != TB.NEWS)
    assert a.screen.stage != TB.NEWS and a.now < 1200


def test_scopa_15_dealer_bonus_is_announced_once(tmp_path):
    g = seed_where(Rules("scopa_15"), lambda g: g.st[E.BONUS] == 1 and g.turn == 0)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    assert announced(a, b) == ["P2: 15 +1"]
    # the next deals of the round announce nothing
    lines = []
    while not g.round_over:
        a.loop(3)
        s = a.screen
        if a.screen_mod != "table":
            break  # the round's last play shown: its summary
        if s.stage == TB.PICK:
            c, t = g.legal_moves()[0]
            a.turns.play(c, t)
            s.stage = TB.IDLE
        elif s.stage == TB.NEWS:
            if not s.cards:  # (the round's end: its rest to who took last)
                lines.append(s.line)
            s._done()
    assert lines == []


def test_no_news_in_scopa(tmp_path):
    g = Game(Rules("scopa"), 7)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    assert announced(a, b) == []


def test_summary_shows_the_variant_categories(tmp_path):
    r = Rules("cirulla")
    g = Game(r, 3)
    while not g.round_over:
        c, t = g.legal_moves()[0]
        g.play(c, t)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY], "summary")
    s = a.screen
    assert s.pages[:3] == ["table", "primiera", "extra"]
    s.k = 2
    a.draw()
    text = b.display.screen_text()
    assert "Piccola" in text and "Grande" in text
    assert text.startswith("Round 1")  # titled as the first page


def test_summary_announces_all_ten_coins(tmp_path):
    r = Rules("scopa", napola=True, re_bello="6D")
    g = Game(r, 5)
    coins = list(range(10))
    rest = [c for c in range(10, 40)]
    g.score = scoring.score_piles(r, [coins + rest[:8], rest[8:]], [0, 1])
    assert g.score.napoleone == 0 and "re_bello" in g.score.categories
    g.round_over = g.over = True
    g.winner = 0
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY], "summary")
    s = a.screen
    assert s.pages == ["table", "primiera", "extra", "match"]
    s.k = 2
    a.draw()
    text = b.display.screen_text()
    assert "Re bello" in text and "Napola" in text
    s.k = 3
    a.draw()
    text = b.display.screen_text()
    assert "All ten denari!" in text and "You win!" in text


@pytest.mark.parametrize("scored", [True, False])
@pytest.mark.parametrize("w, h", [(128, 64), (128, 80), (128, 96), (240, 135)])
def test_summary_rows_add_up_to_the_total(tmp_path, w, h, scored):
    # re bello, napola, piccola and grande are counted in the total: the
    # first page adds them up as "Others", so that its rows make the total
    # (a new user's find); 128 x 64 has no room for the match's row then,
    # which the page of those categories shows. A round where none of them
    # gave a point has no "Others", the match's row where it was
    extra = ("re_bello", "napola", "piccola", "grande")
    # (the re bello always scores: someone holds it)
    r = Rules("scopa", napola=True, re_bello="10D") if scored else Rules("scopa", napola=True)
    for seed in range(1, 50):  # a round where one of them scores, or none
        g = Game(r, seed)
        while not g.round_over:
            c, t = g.legal_moves()[0]
            g.play(c, t)
        sc = g.score
        others = [sum(getattr(sc, n)[i] for n in extra if n in sc.categories) for i in range(2)]
        if any(others) == scored:
            break
    assert any(others) == scored
    b = F.Board((), w, h)
    a = app.App(b, str(tmp_path))
    a.game = g
    a.levels = [app.HUMAN, app.EASY]
    a.go("summary")
    a._switch()
    a.draw()
    assert not b.display.overflow  # (80 px: eight rows 8 px apart, not 9 under a 12 px heading)
    rows = {ln.split()[0]: ln.split()[1:] for ln in b.display.screen_text().split("\n")[1:]}
    assert rows.get("Others", ["0", "0"]) == [str(t) for t in others]
    assert ("Others" in rows) == scored
    points = [sc.cards, sc.coins, sc.settebello, sc.primiera]
    for i in range(2):
        shown = sum(p[i] for p in points) + int(rows["Scope"][i]) + others[i]
        assert int(rows["Total"][i]) == shown == sc.total[i]
    on_first = h > 64 or not scored
    assert ("Match" in rows) == on_first
    # the line over the total, where there is room, a pixel clear of the
    # 8 x 8 rows over and under it (on the colour board it touched the p of
    # Scope)
    d = b.display
    line = [y for y in range(h) if all(d.pixel(x, y) == a.pal.FG for x in range(w))]
    assert len(line) <= 1 and (line or h < 135)
    if line:
        at = {t: y for t, x, y in d.frame if x == 0}
        above = at["Others" if scored else "Scope"]
        assert above + 8 < line[0] < at["Total"] - 1, (line, at)
    a.screen.k = a.screen.pages.index("extra")
    a.draw()
    text = b.display.screen_text()
    assert ("Match %d %d" % tuple(g.totals) in text) != on_first, text
    if not on_first:  # its line, too, a pixel clear of the rows (it touched the p of Napola)
        line = [y for y in range(h) if all(d.pixel(x, y) == a.pal.FG for x in range(w))]
        at = {t: y for t, x, y in d.frame if x == 0}
        above = max(y for y in at.values() if y < at["Match"])
        assert len(line) == 1 and above + 8 < line[0] < at["Match"] - 1, (line, at)
