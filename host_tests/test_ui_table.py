"""The table screen driven by keys: a card with one outcome plays at once,
several captures are cycled and confirmed or abandoned, the hint, the
computer's move shown long enough, a scopa announced, pass-and-play."""

import pytest

import app
import lang
import ui_fakeboard as F
from scopa import engine as E
from scopa import replay
from scopa.game import Game
from scopa.rules import Rules
from ui import gfx
from ui import table as TB


@pytest.fixture(autouse=True)
def random_ai(monkeypatch):
    monkeypatch.setattr(app, "USE_AI", False)


def start(tmp_path, game, levels, keys=""):
    """An App on the table screen with `game` and seat `levels`."""
    b = F.Board(F.keys(keys))
    a = app.App(b, str(tmp_path))
    a.game = game
    a.levels = levels
    a.go("table")
    a._switch()
    return a, b


def human_turn(a):
    return a.screen_mod == "table" and a.screen.stage == TB.PICK


def find(pred, rules=None, tries=3000):
    """A game (seed) whose first position, seat 0 to play, has `pred`."""
    rules = rules or Rules("scopa")
    for seed in range(1, tries):
        g = Game(rules, seed)
        if g.turn == 0 and pred(g):
            return g
    raise AssertionError("no such deal")


def several(g):
    return any(len(g.options(c)) >= 2 for c in g.hand(0))


def press(a, b, keys, steps=40):
    b.buttons.push(F.keys(keys))
    a.loop(steps * len(keys) + 20)


def test_card_with_several_captures_cycles_confirms_and_goes_back(tmp_path):
    g = find(several, Rules("scopa", match_priority="free"))
    hand = g.hand(0)
    i = next(i for i, c in enumerate(hand) if len(g.options(c)) >= 2)
    card = hand[i]
    opts = g.options(card)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    a.loop(5)
    assert human_turn(a)
    press(a, b, "R" * i + "A")
    s = a.screen
    assert s.stage == TB.CHOOSE and s.opts == opts and s.oi == 0
    press(a, b, "R")
    assert s.oi == 1 % len(opts)
    assert "A:ok B:back" in b.display.screen_text()
    press(a, b, "B")
    assert s.stage == TB.PICK and g.moves_played() == 0
    press(a, b, "AR")
    press(a, b, "A", steps=10)
    assert s.stage == TB.SHOW and s.move == (card, opts[1 % len(opts)])
    press(a, b, "A", steps=5)  # A skips the wait
    assert g.moves_played() == 1
    assert replay.indices(g)[0] == _index(Game(g.rules, g.seed), card, opts[1 % len(opts)])


def _lay_choice():
    """Must take off: a game whose first hand (seat 0 to play) has a card
    that can take or be laid; returns the game, the card's index in the
    hand, the card and its options."""

    def layable(g, c):
        return () in g.options(c) and len(g.options(c)) >= 2

    g = find(
        lambda g: any(layable(g, c) for c in g.hand(0)), Rules("scopa", capture_mandatory=False)
    )
    i = next(i for i, c in enumerate(g.hand(0)) if layable(g, c))
    card = g.hand(0)[i]
    return g, i, card, g.options(card)


def test_laying_a_card_that_could_take_says_so_in_the_band(tmp_path):
    # Must take off: a card that can take may be laid; that choice lights
    # no table card, so the band names it
    g, i, card, opts = _lay_choice()
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    a.loop(5)
    press(a, b, "R" * i + "A")
    s = a.screen
    assert s.stage == TB.CHOOSE
    for _ in opts:
        text = b.display.screen_text()
        if opts[s.oi]:
            assert "A:ok B:back" in text and "lay it" not in text
        else:
            assert "A:lay it down" in text
            lay = s.oi
        press(a, b, "R")
    assert s.oi == 0
    press(a, b, "R" * lay + "A", steps=10)
    assert s.stage == TB.SHOW and s.move == (card, ())


def test_a_hint_to_lay_still_says_lay_on_the_capture_choice(tmp_path):
    from ai import hint as H

    g, i, card, opts = _lay_choice()
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    a.turns.computer_turn = lambda hint=False: (card, (), (H.LEAVES, 11)) if hint else None
    a.loop(5)
    press(a, b, "R" * i + "A")
    press(a, b, "b", steps=100)  # the hint: lay it
    s = a.screen
    assert s.stage == TB.CHOOSE and s.hint is not None and not opts[s.oi]
    text = b.display.screen_text()
    assert "A:lay it down" in text and "Table sums" not in text


def _index(g, card, taken):
    for k, (c, t) in enumerate(g.legal_moves()):
        if c == card and sorted(t) == sorted(taken):
            return k
    raise AssertionError


def test_card_with_one_outcome_plays_at_once(tmp_path):
    g = find(lambda g: len(g.options(g.hand(0)[0])) == 1)
    card = g.hand(0)[0]
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    a.loop(5)
    press(a, b, "A", steps=10)
    assert a.screen.stage == TB.SHOW and a.screen.move[0] == card
    a.loop(TB.HUMAN_SHOW_MS // app.TICK_MS + 5)
    assert g.moves_played() == 1 and card not in g.hand(0)


def test_hint_selects_the_suggested_card_and_lights_its_captures(tmp_path):
    g = find(lambda g: any(t for c, t in g.legal_moves()))
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    a.loop(5)
    press(a, b, "b", steps=100)
    s = a.screen
    assert s.hint is not None
    card, taken, why = s.hint
    assert why is None  # a random move (USE_AI off) has no reason
    assert (card, tuple(taken)) in [(c, tuple(t)) for c, t in g.legal_moves()]
    assert g.hand(0)[s.cur] == card
    assert g.moves_played() == 0


def _choosing(tmp_path, hint):
    """On the capture choice of the first card with several captures, the
    hint to come ``hint(game, card, captures)``. Returns the app, the board,
    the game, the card's index in the hand and its captures."""
    g = find(several, Rules("scopa", match_priority="free"))
    hand = g.hand(0)
    i = next(i for i, c in enumerate(hand) if len(g.options(c)) >= 2)
    opts = g.options(hand[i])
    move = hint(g, hand[i], opts)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    a.turns.computer_turn = lambda hint=False: move if hint else None
    a.loop(5)
    press(a, b, "R" * i + "A")
    assert a.screen.stage == TB.CHOOSE and a.screen.oi == 0
    return a, b, g, i, opts


def test_hint_on_the_capture_choice_selects_the_hints_capture(tmp_path):
    from ai import hint as H

    def hint(g, card, opts):
        return card, opts[-1], (H.TAKES, len(opts[-1]) + 1)

    a, b, g, i, opts = _choosing(tmp_path, hint)
    s = a.screen
    assert "A:ok B:back" in b.display.screen_text()
    press(a, b, "b", steps=100)
    assert s.stage == TB.CHOOSE and s.cur == i and s.oi == len(opts) - 1
    assert s.hint is not None and not s.asking
    # its capture says why; another capture, how to confirm
    text = b.display.screen_text()
    assert "Presa: %d cards" % (len(opts[-1]) + 1) in text and "A:ok B:back" not in text
    press(a, b, "R", steps=10)
    assert "A:ok B:back" in b.display.screen_text()
    press(a, b, "L", steps=10)
    press(a, b, "A", steps=10)
    assert s.stage == TB.SHOW and s.move == (g.hand(0)[i], tuple(opts[-1]))
    assert g.moves_played() == 0


def test_a_hint_asked_with_the_play_is_dropped(tmp_path):
    # B held and A in one step of the loop: the card is played and no hint
    # turns up later unasked
    from ui import buttons as keys

    a, b, g, i, opts = _choosing(tmp_path, lambda g, card, opts: (card, opts[-1], None))
    s = a.screen
    s.key(keys.B | keys.LONG)
    s.key(keys.A)
    assert s.stage == TB.SHOW and s.move == (g.hand(0)[i], tuple(opts[0]))
    assert not s.asking and s.hint is None  # nothing left to compute at a later turn


def test_hint_on_the_capture_choice_of_another_card_goes_to_it(tmp_path):
    def other(g, card, opts):
        return next((c, t, None) for c, t in g.legal_moves() if c != card)

    a, b, g, i, opts = _choosing(tmp_path, other)
    s = a.screen
    press(a, b, "b", steps=100)
    assert s.stage == TB.PICK and s.hint is not None and not s.asking
    assert s.hint[0] != g.hand(0)[i] and g.hand(0)[s.cur] == s.hint[0]
    assert g.moves_played() == 0


@pytest.mark.parametrize("code", ["en", "it"])
def test_hint_gives_its_reason_in_the_band(tmp_path, monkeypatch, code):
    import lang
    from ai import hint as H

    monkeypatch.setattr(app, "USE_AI", True)
    # a position where the hard player takes the settebello
    g = find(lambda g: 6 in g.table() and any(6 in t for c, t in g.legal_moves()))
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    lang.load(code)
    try:
        a.loop(5)
        press(a, b, "b", steps=100)
        card, taken, why = a.screen.hint
        assert why == H.why(g.st, g.rules, 0, card, taken)
        assert 6 in taken and why == (H.SETTEBELLO, 0)
        a.dirty = True
        a.loop(3)
        want = lang.tr(lang.WHY_SCOPA + why[0])
        assert want in b.display.screen_text()
        assert want == {"en": "Takes settebello", "it": "Il settebello!"}[code]
    finally:
        lang.load("en")


@pytest.mark.parametrize(
    "code,italian,french",
    [("en", "Knights", "Queens"), ("it", "i cavalli", "le donne"), ("de", "Reiter", "Damen")],
)
def test_the_hints_rank_is_named_as_the_faces_show_it(tmp_path, code, italian, french):
    # with French faces the 9 is a Queen (Q on the card), not a Knight
    import lang
    from ai import hint as H

    g = find(lambda g: True)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    lang.load(code)
    try:
        a.loop(5)
        s = a.screen
        s.hint = (g.hand(0)[0], (), (H.ALL_OUT, 9))
        got = {}
        for faces in (0, 1):
            a.settings["faces"] = faces
            got[faces] = s._why()
        assert italian in got[0] and french in got[1]
        assert lang.rank(8, True) == lang.rank(8) and lang.rank(10, True) == lang.rank(10)
    finally:
        lang.load("en")


def test_the_hints_card_kept_is_named_as_its_face_shows_it(tmp_path):
    # "Keeps <card>": the one card a safer lay would have given up (the 9S),
    # as its face shows it; a rank's plural ("Keeps 9s") spoke of cards
    # the player may not hold
    from ai import hint as H

    g = find(lambda g: True)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    a.loop(5)
    s = a.screen
    s.hint = (g.hand(0)[0], (), (H.HOLDS, 28))
    got = []
    for faces in (0, 1):
        a.settings["faces"] = faces
        got.append(s._why())
    assert got == ["Keeps CS|for later", "Keeps QS|for later"]
    # the suit's letter is the suit drawn: the 6 of coppe is a 6 of hearts
    # with French faces, the Re di bastoni the King of clubs
    got = []
    for faces in (0, 1):
        a.settings["faces"] = faces
        for c in (15, 39):
            s.hint = (g.hand(0)[0], (), (H.HOLDS, c))
            got.append(s._why().split("|")[0])
    assert got == ["Keeps 6C", "Keeps RB", "Keeps 6H", "Keeps KC"]
    # Cirulla's matta (7C) declared a 5 is drawn a 5: named so
    g.st[E.MATTA] = 5
    a.settings["faces"] = 0
    s.hint = (g.hand(0)[0], (), (H.HOLDS, 16))
    assert s._why() == "Keeps 5C|for later"


def test_hint_codes_name_the_language_strings():
    import lang
    from ai import hint as H

    names = ["SCOPA", "ACE_SWEEP", "SETTEBELLO", "A_SEVEN", "SEVENS", "COINS"]
    names += ["TAKES_SAFE", "TAKES", "LEAVES", "ALL_OUT", "LEAST_RISK", "HARD_TO_TAKE", "KEEPS_ACE"]
    names += ["SETS_UP", "HOLDS", "ONLY", "ONLY_SAFE"]
    assert [getattr(H, n) for n in names] == list(range(len(H.REASONS)))
    assert lang.WHY_ONLY_SAFE + 1 - lang.WHY_SCOPA == len(H.REASONS)
    assert lang.WHY_SETTEBELLO - lang.WHY_SCOPA == H.SETTEBELLO
    assert lang.WHY_HARD_TO_TAKE - lang.WHY_SCOPA == H.HARD_TO_TAKE
    assert lang.WHY_KEEPS_ACE - lang.WHY_SCOPA == H.KEEPS_ACE
    assert lang.WHY_HOLDS - lang.WHY_SCOPA == H.HOLDS
    assert TB._HOLDS == H.HOLDS
    assert lang.WHY_ONLY - lang.WHY_SCOPA == H.ONLY
    assert lang.WHY_ONLY_SAFE - lang.WHY_SCOPA == H.ONLY_SAFE


def test_computer_move_stays_visible(tmp_path):
    g = find(lambda g: True)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    a.loop(5)
    press(a, b, "A")
    a.loop(TB.HUMAN_SHOW_MS // app.TICK_MS + 10)
    assert g.turn == 1
    a.loop(TB.THINK_MS // app.TICK_MS + 5, until=lambda a: a.screen.stage == TB.SHOW)
    s = a.screen
    assert s.stage == TB.SHOW and g.turn == 1
    # the top row counts the card shown out of P2's hand (it said 2:3 with
    # the card on its way to the table)
    small = gfx.small
    drawn = []
    try:
        gfx.small = lambda fb, t, *args: drawn.append(t) or small(fb, t, *args)
        s.draw(b.display)
    finally:
        gfx.small = small
    assert "2:%d" % (len(g.hand(1)) - 1) in drawn and "1:%d" % len(g.hand(0)) in drawn
    shown = s.t0
    moved = g.moves_played()
    a.loop(400, until=lambda a: a.game.moves_played() > moved)
    assert a.now - shown >= TB.SHOW_MS - 20


def test_scopa_is_announced(tmp_path):
    def sweep(g):
        return any(t and len(t) == len(g.table()) for c, t in g.legal_moves())

    rules = Rules("scopa")
    found = None
    for seed in range(1, 400):
        g = Game(rules, seed)
        for _ in range(12):
            if g.round_over:
                break
            if g.turn == 0 and sweep(g):
                found = g
                break
            g.play(*g.legal_moves()[0])
        if found:
            break
    assert found is not None
    g = found
    card, taken = next((c, t) for c, t in g.legal_moves() if t and len(t) == len(g.table()))
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    a.loop(5)
    a.screen.cur = g.hand(0).index(card)
    a.screen._show(card, taken)
    a.loop(TB.HUMAN_SHOW_MS // app.TICK_MS + 5, until=lambda a: a.screen.stage == TB.SCOPA)
    assert a.screen.stage == TB.SCOPA
    a.loop(10)
    assert "SCOPA! You" in b.display.screen_text()
    assert g.scope(0) >= 1


def test_pass_and_play_hides_the_hand_between_turns(tmp_path):
    g = Game(Rules("scopa", players=2), 7)
    a, b = start(tmp_path, g, [app.HUMAN, app.HUMAN])
    a.loop(TB.COVER_MS // app.TICK_MS + 5)
    assert a.screen.stage == TB.COVER
    assert "Pass to P1" in b.display.screen_text()
    assert a.turns.viewer() == -1
    press(a, b, "A")
    assert a.screen.stage == TB.PICK and a.turns.viewer() == 0
    press(a, b, "A")
    a.loop(TB.HUMAN_SHOW_MS // app.TICK_MS + 10)
    if g.moves_played() == 1:
        assert a.screen.stage == TB.COVER and a.turns.viewer() == -1
        assert "Pass to P2" in b.display.screen_text()


def test_pass_and_play_an_a_pressed_twice_does_not_show_the_next_hand(tmp_path):
    # P1 plays with A, and A again (once to skip the play's show, once
    # more): "Pass to P2" showed for a moment, then P2's hand to P1
    g = Game(Rules("scopa", players=2), 7)
    a, b = start(tmp_path, g, [app.HUMAN, app.HUMAN])
    a.loop(TB.COVER_MS // app.TICK_MS + 5)
    press(a, b, "A")  # P1 takes the device
    assert a.screen.stage == TB.PICK and a.turns.viewer() == 0
    b.buttons.push(F.keys("AAA"))
    a.loop(400, until=lambda a: a.screen.stage == TB.COVER)
    assert g.moves_played() == 1 and a.screen.stage == TB.COVER
    a.loop(TB.COVER_MS // app.TICK_MS - 20)  # the A's pressed by then are ignored
    assert a.screen.stage == TB.COVER and a.turns.viewer() == -1
    assert "Pass to P2" in b.display.screen_text()
    a.loop(30)
    press(a, b, "A")  # P2, once it has the device
    assert a.screen.stage == TB.PICK and a.turns.viewer() == 1


def test_pass_and_play_takes_an_a_after_a_week_on_the_hand_over(tmp_path):
    # ticks_diff from the hand-over turns negative after 2**29 ms (6.2
    # days): every A was then refused for as long again
    g = Game(Rules("scopa", players=2), 7)
    a, b = start(tmp_path, g, [app.HUMAN, app.HUMAN])
    a.loop(5)
    assert a.screen.stage == TB.COVER
    for _ in range(7 * 24):
        b.clock.advance(3600 * 1000)
        a.loop(1)
    press(a, b, "A")  # wakes the screen (a.dozing)
    assert a.screen.stage == TB.COVER and not a.dozing
    press(a, b, "A")
    assert a.screen.stage == TB.PICK and a.turns.viewer() == 0


def test_round_end_shows_the_breakdown_then_deals(tmp_path):
    g = Game(Rules("scopa"), 11)
    while True:
        if len(g.hand(0)) + len(g.hand(1)) == 1 and g.deck_left() == 0:
            break
        g.play(*g.legal_moves()[0])
    # the computer plays the last card
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY] if g.turn == 1 else [app.EASY, app.HUMAN])
    a.loop(600, until=lambda a: a.screen_mod == "summary")
    assert a.screen_mod == "summary" and g.round_over
    a.loop(10)
    text = b.display.screen_text()
    for word in ("Cards", "Denari", "7 bello", "Primiera", "Scope", "Total", "Match"):
        assert word in text
    # the human's column as the table names the seat, not "P1"
    assert "You" in text.splitlines()[0] and "P1" not in text and "P2" in text
    press(a, b, "A")
    assert a.screen.pages[a.screen.k] == "primiera"
    press(a, b, "A" * (len(a.screen.pages) - 1))
    a.loop(10)
    assert a.screen_mod == "table" and a.game.round_no == 2 or a.game.over


def test_three_sides_head_the_humans_column_in_the_columns_width(tmp_path):
    # "You" is 24 px in a 20 px column: the 3 x 5 font it fell back to has
    # no lower case, so the heading was an empty box, then "P1" where the
    # next page said "You": now "YOU" in that font; "Tu"/"Du" fit
    g = Game(Rules("scopa", players=3), 3)
    while not g.round_over:
        g.play(*g.legal_moves()[0])
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY, app.EASY])
    a.go("summary")
    a._switch()
    a.draw()
    # (the 3 x 5 font's heading is not in the text log: the other two)
    assert b.display.screen_text().splitlines()[0].split()[-2:] == ["P2", "P3"]
    assert a.screen.head(0, 20) == "YOU" and all(ord(ch) in gfx._CHARS for ch in "YOU")
    assert a.screen.head(0, 28) == "You" and a.screen.side_label(0) == "You"
    try:
        lang.load("it")
        assert a.screen.head(0, 20) == "Tu"
    finally:
        lang.load("en")


def test_a_team_of_three_wins_within_the_screen_in_german(tmp_path):
    # pass-and-play, no single human side: "Team 1+3+5 gewinnt" (18
    # characters) ran 8 px off the screen; then "1+3+5 gewinnt"
    g = Game(Rules("scopa", players=6), 1)
    while not g.over:
        if g.round_over:
            g.next_round()
        g.play(*g.legal_moves()[0])
    a, b = start(tmp_path, g, [app.HUMAN, app.HUMAN] + [app.EASY] * 4)
    a.loop(5)
    assert a.screen_mod == "summary" and a.screen.pages[-1] == "match"
    lang.load("de")
    try:
        a.screen.k = len(a.screen.pages) - 1
        a.dirty = True
        a.loop(5)
        first = b.display.screen_text().splitlines()[0]
    finally:
        lang.load("en")
    team = "1+3+5" if g.winner == 0 else "2+4+6"
    assert first == team + " gewinnt" and not b.display.overflow


def test_colour_board_plays_rounds(tmp_path):
    b = F.Board(iter(lambda: (F.A, 60), None), 240, 135, True)
    a = app.run(b, max_steps=60000, folder=str(tmp_path), until=lambda a: a.plays >= 40)
    assert a.plays >= 40 and a.lay.s == 2
    assert not b.display.overflow


def test_engine_flags_are_what_the_table_expects():
    assert E.SCOPA == 2


def test_best_of_three_goes_on_to_the_next_match(tmp_path):
    g = Game(Rules("scopa", best_of=3, target=11), 5)
    while not g.over:
        if g.round_over:
            g.next_round()
        g.play(*g.legal_moves()[0])
    assert not g.finished
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    a.loop(5)
    assert a.screen_mod == "summary" and a.screen.pages[-1] == "match"
    a.screen.k = len(a.screen.pages) - 1
    a.dirty = True
    a.loop(5)
    text = b.display.screen_text()
    # this match, not the series; A plays the next match
    said = "Match won!" if a.game.winner == 0 else "Match lost"
    assert said in text and "You" not in text.splitlines()[0] and "You" in text.splitlines()[1]
    assert "Matches" in text and "A: next match" in text
    press(a, b, "A")
    assert a.screen_mod == "table" and a.game.match_no == 2 and a.game.totals == [0, 0]


def test_the_cursors_card_is_drawn_as_the_cursor_not_only_lifted(tmp_path):
    from ui import gfx

    g = find(lambda g: len(g.hand(0)) >= 3)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    a.loop(5)
    s = a.screen
    assert s.stage == TB.PICK
    lay = a.lay
    card = g.hand(0)[s.cur]
    x = lay.hand(len(g.hand(0)))[s.cur]
    y = lay.hand_y - lay.lift

    def region(d):
        return [bytes(r[x : x + lay.cw]) for r in d.rows[y : y + lay.ch + 2 * lay.s]]

    def drawn(mode):
        d = F.Display(a.w, a.h)
        d.fill(0)
        gfx.card(d, x, y, card, a.pal, lay.s, mode, a.french())
        return region(d)

    shown = region(b.display)
    assert shown == drawn(gfx.SELECT)
    assert shown != drawn(gfx.FACE)  # not a face merely lifted


def _round_page(a, b):
    """The round page's text, shown by DOWN on the human's turn and left
    again by a key (the table back as it was)."""
    press(a, b, "D")
    assert a.screen.info
    text = b.display.screen_text().replace("\n", " ")
    press(a, b, "R")
    assert not a.screen.info and human_turn(a)
    return text


def _play_until(a, b, done, steps):
    """Play the human's cards (A; a card that takes in two ways: its first
    capture) and let the computers play, until done(a) or `steps` loops."""
    for _ in range(steps):
        if done(a):
            return
        if human_turn(a) or a.screen.stage == TB.CHOOSE:
            press(a, b, "A")
        a.loop(20)


def test_the_rounds_end_shows_its_rest_going_to_who_took_last(tmp_path):
    # the last play, then at once the summary: the table's rest went to
    # the side that took last unseen ("P2 takes the rest", a player expects)
    for seed in range(1, 30):
        g = Game(Rules("scopa"), seed)
        a, b = start(tmp_path / str(seed), g, [app.HUMAN, app.EASY])
        a.loop(5)
        _play_until(a, b, lambda a: a.game.round_over, 400)
        s = a.screen
        if g.round_over and a.screen_mod == "table" and s.cards:
            break
    else:
        raise AssertionError("no round ended with cards on the table")
    who = g.st[E.LAST]
    assert s.stage == TB.NEWS and s.line == "Rest to " + ("You" if who == 0 else "P2")
    assert all(g.st[c] == E.PILE + who for c in s.cards)  # (its pile now)
    assert s.line in b.display.screen_text()
    # the top row's match score is the one before the round: its points
    # are the summary's news, not given away under the rest
    shown = []
    small = gfx.small
    try:
        gfx.small = lambda fb, t, *args: shown.append(t) or small(fb, t, *args)
        s.draw(b.display)
    finally:
        gfx.small = small
    before = [g.totals[i] - g.score.total[i] for i in range(2)]
    assert g.totals != before and "%d-%d" % tuple(before) in shown
    a.loop(200, until=lambda a: a.screen_mod != "table")
    assert a.screen_mod == "summary"


def test_scopone_a_10s_mazzo_is_said_going_to_the_dealers_side(tmp_path):
    # 9 cards each, the mazzo's four to the dealer's side at the round's
    # end: said after the table's rest, its cards shown (a new user saw
    # them go unsaid)
    g = Game(Rules("scopone_10"), 4)
    four = [g.st[E.DECK + i] for i in range(g.st[E.DP], 40)]
    assert len(four) == 4
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY, app.EASY, app.EASY])
    a.loop(5)
    _play_until(a, b, lambda a: a.game.round_over, 2000)
    assert g.round_over and a.screen_mod == "table"
    said = []
    for _ in range(400):
        s = a.screen
        if a.screen_mod != "table":
            break
        if s.stage == TB.NEWS and (not said or said[-1][0] != s.line):
            said.append((s.line, list(s.cards), b.display.screen_text()))
        a.loop(5)
    assert a.screen_mod == "summary"
    line, cards, text = said[-1]
    side = g.rules.side(g.dealer)
    assert line == "Mazzo to " + a.turns.side_label(side) and line in text
    assert cards == four and all(g.st[c] == E.PILE + side for c in four)
    assert len(said) <= 2  # after the table's rest, if any


def _plays_text(g, seats):
    """The round page's plays of `seats` ("P2:7D+1 P3:AS"), from the game's
    history replayed: each seat's last play this round."""
    last = {}
    h = Game(g.rules, g.seed)
    for i in replay.indices(g):
        if h.round_over:
            h.next_round()
            last = {}
        seat = h.turn
        c, t = h.legal_moves()[i]
        h.play(c, t)
        last[seat] = "P%d:" % (seat + 1) + "A234567FCR"[c % 10] + "DCSB"[c // 10]
        last[seat] += "+%d" % len(t) if t else ""
    return " ".join(last[s] for s in seats if s in last)


def test_the_round_page_tells_mazzo_scope_last_take_and_the_last_plays(tmp_path):
    g = find(lambda g: g.turn == 0)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    a.loop(5)
    # play a card, let the computer answer, then the page
    for _ in range(200):
        if human_turn(a) and g.moves_played() >= 2:
            break
        if human_turn(a):
            press(a, b, "A")
        a.loop(20)
    assert human_turn(a) and g.moves_played() >= 2
    press(a, b, "U")
    text = b.display.screen_text()
    assert a.screen.info
    assert "Mazzo %d" % (40 - g.st[E.DP]) in text
    last = g.st[E.LAST]
    assert ("Last take " + (a.turns.seat_label(last) if last != E.NONE else "-")) in text
    assert "You %d" % g.scope(0) in text and "P2 %d" % g.scope(1) in text
    # the computer's play, before the human's turn, as the card's face shows it
    assert _plays_text(g, [1]).startswith("P2:") and _plays_text(g, [1]) in text
    press(a, b, "R")  # any key: back to the hand, the key does nothing else
    assert not a.screen.info and human_turn(a) and g.moves_played() >= 2
    assert "Mazzo" not in b.display.screen_text()


def test_the_play_that_ends_a_hand_stays_on_the_round_page_after_the_deal(tmp_path):
    # the human leads (turn 0), so the computer plays each hand's last card;
    # after the deal the round page still shows that play
    g = find(lambda g: g.turn == 0)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    a.loop(5)
    dp = g.st[E.DP]
    _play_until(a, b, lambda a: human_turn(a) and g.st[E.DP] > dp, 300)
    assert human_turn(a) and g.st[E.DP] > dp and g.moves_played() == 6
    # the hand's last play (the 6th), the computer's
    press(a, b, "D")
    assert _plays_text(g, [1]) in b.display.screen_text().replace("\n", " ")


@pytest.mark.parametrize("players", [2, 4])
def test_the_round_page_shows_the_rounds_last_plays_after_a_resume(tmp_path, players):
    # plays made, saved (game.sav, then a journal line a play); the game
    # resumed by a new App from those files shows the same round page
    g = find(lambda g: g.turn == 0, Rules("scopa", players=players))
    levels = [app.HUMAN] + [app.EASY] * (players - 1)
    a, b = start(tmp_path, g, levels)
    a.loop(5)
    _play_until(a, b, lambda a: human_turn(a) and g.moves_played() >= 2 * players + 1, 400)
    assert human_turn(a) and not g.round_over and g.moves_played() > players
    assert (tmp_path / app.JOURNAL).exists()  # plays journalled after the record
    seats = range(1, players)
    plays = _plays_text(g, seats)
    assert plays.count("P") == players - 1
    before = _round_page(a, b)
    assert plays in before
    b2 = F.Board(())
    a2 = app.App(b2, str(tmp_path))
    a2.start()
    a2.loop(200, until=human_turn)
    assert human_turn(a2) and replay.encode(a2.game) == replay.encode(g)
    assert _round_page(a2, b2) == before


def test_the_round_page_keeps_the_last_plays_through_the_menu(tmp_path):
    # B to the menu, then Continue: the table comes back with its page
    g = find(lambda g: g.turn == 0)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    a.loop(5)
    _play_until(a, b, lambda a: human_turn(a) and g.moves_played() >= 4, 200)
    before = _round_page(a, b)
    assert _plays_text(g, [1]) in before
    press(a, b, "B")
    assert a.screen_mod == "menu"
    press(a, b, "A")  # the cursor is on Continue
    a.loop(200, until=human_turn)
    assert human_turn(a) and _round_page(a, b) == before


def test_the_cursor_keeps_its_card_through_the_menu(tmp_path):
    g = find(lambda g: g.turn == 0)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    a.loop(5)
    press(a, b, "RR")
    card = g.hand(0)[2]
    assert a.screen.cur == 2
    press(a, b, "B")
    assert a.screen_mod == "menu"
    press(a, b, "A")  # Continue
    a.loop(200, until=human_turn)
    assert a.screen_mod == "table" and g.hand(0)[a.screen.cur] == card
    assert a.cursor == -1  # kept for that one return


def test_the_round_page_names_teams_by_their_players(tmp_path):
    g = find(lambda g: g.turn == 0, Rules("scopone_scientifico"))
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY, app.MEDIUM, app.EASY])
    assert a.turns.side_label(0) == "You+P3" and a.turns.side_label(1) == "P2+P4"
    a.loop(5)
    press(a, b, "D")
    rows = b.display.screen_text().split("\n")
    # the other side's scope goes on under the first's, not as a row of its own
    assert rows[rows.index("Scope You+P3 0") + 1] == " " * 6 + "P2+P4 0"
    # the engine keeps the side that took last: P4's take is P2+P4's
    for side, label in ((1, "P2+P4"), (0, "You+P3")):
        g.st[E.LAST] = side
        a.dirty = True
        a.loop(5)
        # (a line too long for the screen goes on on the next, two in)
        text = b.display.screen_text()
        assert "Last take " + label in text or "Last take\n  " + label in text


def test_a_team_is_named_with_the_player_first(tmp_path):
    # your seat P4 in Scopa for 6: your team read "P2+4+6", without "You"
    g = Game(Rules("scopa", players=6), 1)
    levels = [app.EASY] * 6
    levels[3] = app.HUMAN
    a, b = start(tmp_path, g, levels)
    assert a.turns.side_label(1) == "You+2+6" and a.turns.side_label(0) == "P1+3+5"
    g = Game(Rules("scopone_scientifico"), 1)
    a, b = start(tmp_path, g, [app.EASY, app.EASY, app.HUMAN, app.EASY])
    assert a.turns.side_label(0) == "You+P1" and a.turns.side_label(1) == "P2+P4"
    # pass and play: no "You", the seats in order
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY, app.HUMAN, app.EASY])
    assert a.turns.side_label(0) == "P1+P3"


def test_the_round_pages_wrapped_lists_read_as_one():
    # a labelled list that goes on to another line is indented: under its
    # first item when all fit there, else by two (German's "Letzter Stich"
    # left "P2" alone at the left, a row of its own); plays are no list
    from ui.round_info import _pack

    def pack(items, label=True):
        out = []
        _pack(out, items, label)
        assert all(len(t) <= 15 for t in out), out
        return out

    assert pack(["Scope", "You+P3 0", "P2+P4 0"]) == ["Scope You+P3 0", "      P2+P4 0"]
    assert pack(["Letzter Stich", "P2"]) == ["Letzter Stich", "  P2"]
    assert pack(["Scope", "You+3+5 12", "P2+4+6 12"]) == ["Scope", "  You+3+5 12", "  P2+4+6 12"]
    assert pack(["Last take", "P2"]) == ["Last take P2"]
    assert pack(["P2:4B+2", "P3:7D", "P4:10C+3"], False) == ["P2:4B+2 P3:7D", "P4:10C+3"]


def test_teams_are_named_by_their_seats_and_partners_marked(tmp_path):
    from ui import gfx

    g = find(lambda g: g.turn == 0, Rules("scopa", players=4))
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY, app.EASY, app.EASY])
    a.loop(5)
    # the status line: the viewer's seat underlined, the partner's dotted
    d = b.display
    y = 5 * a.lay.s + 2
    xs = []
    x = 0
    for seat in range(4):
        xs.append(x)
        x += gfx.small_width("%d:%d" % (seat + 1, len(g.hand(seat)))) + 4
    under = [[d.rows[y][xs[s] + 1 + i] for i in range(6)] for s in range(4)]
    assert all(under[0]) and any(under[2]) and not all(under[2])  # solid, dotted
    assert not any(under[1]) and not any(under[3])
    while not g.round_over:
        c, t = g.legal_moves()[0]
        g.play(c, t)
    a.go("summary")
    a._switch()
    a.draw()
    text = b.display.screen_text()
    assert "1+3" in text and "2+4" in text  # not "13", "24"


def test_no_frame_of_the_bare_table_between_two_announcements(tmp_path):
    # "Rest to P2", then "Mazzo to P1+P3", then the summary: each at once,
    # not after a frame of the bare table (a flicker at every Scopone a 10
    # round's end)
    for seed in range(1, 40):
        g = Game(Rules("scopone_10"), seed)
        a, b = start(tmp_path / str(seed), g, [app.HUMAN, app.EASY, app.EASY, app.EASY])
        a.loop(5)
        _play_until(a, b, lambda a: a.game.round_over, 2000)
        s = a.screen
        if g.round_over and a.screen_mod == "table" and s.stage == TB.NEWS and s.news:
            break
    else:
        raise AssertionError("no round ended with its rest and the mazzo to say")
    frames = []
    draw = s.draw
    s.draw = lambda fb: frames.append((s.stage, s.line)) or draw(fb)
    a.loop(400, until=lambda a: a.screen_mod != "table")
    assert a.screen_mod == "summary"
    # every frame from "Rest to" on is an announcement, the summary next
    assert frames and all(stage == TB.NEWS for stage, _ in frames), frames
    assert frames[-1][1].startswith("Mazzo to ")


@pytest.mark.parametrize("game", ["cirulla", "scopa"])
def test_the_tables_first_frame_is_its_deals_news_or_its_turn(tmp_path, game, monkeypatch):
    # the table opened on a deal (a new game, the next round) drew a frame
    # before its first step: the bare table, then the dealer's fifteen or
    # a declared hand, or "Your turn" (a new user's find: with the dealer's
    # thirty an empty table, its four cards already gone)
    news = game == "cirulla"
    g = find(lambda g: bool(g.announcements()) == news, Rules(game))
    b = F.Board(F.keys(""))
    a = app.App(b, str(tmp_path))
    a.game = g
    a.levels = [app.HUMAN, app.EASY]
    a.go("menu")
    a._switch()
    frames = []
    draw = TB.Screen.draw
    monkeypatch.setattr(TB.Screen, "draw", lambda s, fb: frames.append(s.stage) or draw(s, fb))
    a.go("table")
    a.loop(1)  # (the screen made and drawn in one step)
    assert a.screen_mod == "table" and frames == [TB.NEWS if news else TB.PICK]


def test_no_frame_of_the_table_without_its_turn_in_a_round(tmp_path, monkeypatch):
    # after each play the next turn ("Your turn", "P2 thinks") or the
    # summary in the same step: a frame of the table with no word of whose
    # turn it is (IDLE) came between every two plays, a flicker of the
    # status line
    g = Game(Rules("scopa"), 3)
    a, b = start(tmp_path, g, [app.HUMAN, app.EASY])
    frames = []
    draw = TB.Screen.draw
    monkeypatch.setattr(TB.Screen, "draw", lambda s, fb: frames.append(s.stage) or draw(s, fb))
    _play_until(a, b, lambda a: a.screen_mod != "table", 600)
    assert a.screen_mod == "summary" and frames.count(TB.SHOW) >= 36, frames
    assert TB.IDLE not in frames
