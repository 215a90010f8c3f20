"""Behaviour of the engine beyond the rule cases: cards, rulesets, deals,
illegal moves, crowded tables, match end, replay codes."""

import pytest

from rulecases import _state
from scopa import cards as C
from scopa import engine as E
from scopa import explain, replay
from scopa.game import Game
from scopa.rng import Rng
from scopa.rules import Rules
from selfplay import play_game, random_rules


def test_card_names_round_trip():
    for c in range(40):
        assert C.parse(C.name(c)) == c
    assert C.name(C.SETTEBELLO) == "7D"
    assert C.parse("10c") == C.card(10, C.COPPE)
    for bad in ("11D", "0S", "7X", "", "D", 7):
        with pytest.raises(ValueError, match="not a card"):
            C.parse(bad)


def test_faces():
    assert C.face(C.parse("10D")) == ("R", C.DENARI)
    assert C.face(C.parse("8B"), french=True) == ("J", C.BASTONI)


@pytest.mark.parametrize(
    "game,players,hand,table,deals",
    [
        ("scopa", 2, 3, 4, 6),
        ("scopa", 3, 3, 4, 4),
        ("scopa", 4, 3, 4, 3),
        ("scopa", 6, 3, 4, 2),
        ("scopone", 4, 9, 4, 1),
        ("scopone_scientifico", 4, 10, 0, 1),
        ("scopone_10", 4, 9, 0, 1),
    ],
)
def test_deal_sizes(game, players, hand, table, deals):
    r = Rules(game, players=players)
    assert (r.hand, r.table, r.deals) == (hand, table, deals)
    g = Game(r, seed=3)
    assert all(len(g.hand(s)) == hand for s in range(players))
    assert len(g.table()) == table or r.game in (4, 5)  # 15s may give the table away
    assert g.turn == (g.dealer + 1) % players


def test_rules_reject_bad_options():
    with pytest.raises(ValueError, match="unknown game"):
        Rules("briscola")
    with pytest.raises(ValueError, match="players"):
        Rules("scopone", players=2)
    with pytest.raises(ValueError, match="match_priority"):
        Rules("scopa", match_priority="loose")
    with pytest.raises(ValueError, match="target"):
        Rules("scopa", target=12)
    with pytest.raises(ValueError, match="unknown rule option"):
        Rules("scopa", wild=True)


def test_rules_code_round_trip():
    rng = Rng(9)
    for _ in range(200):
        r = random_rules(rng)
        assert Rules.from_code(r.code()) == r
    with pytest.raises(ValueError):
        Rules.from_code("zz")


def _game_with(table, hands, rules=None, last_deal=False):
    rules = rules or Rules("scopa")
    st = _state(rules, C.parse_list(table), [C.parse_list(h) for h in hands], dealer=1)
    st[E.DP] = 40 if last_deal else 4
    return rules, st


@pytest.mark.parametrize(
    "card,taken,rule",
    [
        ("5D", ["2B", "3S"], "match_priority strict"),
        ("5D", [], "capture_mandatory"),
        ("5D", ["4S"], "takes a card of value 5"),
        ("7C", [], "not in the hand"),
        ("5D", ["9C"], "not on the table"),
        ("5D", ["5C", "5C"], "named twice"),
    ],
)
def test_illegal_move_names_the_rule_and_changes_nothing(card, taken, rule):
    rules, st = _game_with(["5C", "2B", "3S", "4S"], [["5D", "9B"], ["1C"]])
    before = bytes(st)
    mv = E.Moves()
    with pytest.raises(E.IllegalMove, match=rule):
        explain.play(st, rules, C.parse(card), C.parse_list(taken), mv)
    assert bytes(st) == before


def test_sum_must_add_up():
    rules, st = _game_with(["2B", "4S", "1C"], [["9B"], ["1D"]])
    with pytest.raises(E.IllegalMove, match="add up to 6, not 9"):
        explain.play(st, rules, C.parse("9B"), C.parse_list(["2B", "4S"]), E.Moves())


def test_scopa_on_clear_but_not_on_last_play_nor_on_laying():
    rules, st = _game_with(["2B", "3S"], [["5D"], ["9C"]])
    f = explain.play(st, rules, C.parse("5D"), C.parse_list(["2B", "3S"]), E.Moves())
    assert f & E.SCOPA and st[E.SCOPE] == 1
    f = explain.play(st, rules, C.parse("9C"), [], E.Moves())
    assert not f & E.SCOPA  # laying on an empty table is no scopa
    rules, st = _game_with(["2B", "3S"], [["5D"], []], last_deal=True)
    st[E.INHAND] = 1
    f = explain.play(st, rules, C.parse("5D"), C.parse_list(["2B", "3S"]), E.Moves())
    assert f & E.ROUND_OVER and not f & E.SCOPA and st[E.SCOPE] == 0


def test_crowded_table_enumerates_exactly():
    """16 low cards on the table: the grouped enumeration gives exactly the
    subsets that a brute force over all 2**16 subsets finds."""
    table = [c for c in range(40) if c % 10 < 4]  # A 2 3 4 of every suit
    table = [c for c in table if c != C.parse("4B")]
    rules = Rules("scopa", match_priority="free", capture_mandatory=False)
    st = _state(rules, table, [[C.parse("10B")]])
    mv = E.Moves()
    E.gen_moves(st, rules, mv, seat=0)
    got = sorted(tuple(sorted(t)) for _, t in mv.tuples())
    want = [()]
    for mask in range(1, 1 << len(table)):
        sub = [table[i] for i in range(len(table)) if mask >> i & 1]
        if len(sub) >= 2 and sum(c % 10 + 1 for c in sub) == 10:
            want.append(tuple(sorted(sub)))
    assert got == sorted(want) and len(got) > 700


def test_sum_choice_fewest_keeps_the_shortest():
    rules = Rules("scopa", sum_choice="fewest")
    st = _state(rules, C.parse_list(["1B", "3C", "4S", "5D", "8C"]))
    mv = E.Moves()
    E.gen_card_moves(st, rules, C.parse("9S"), mv)
    assert sorted(len(t) for _, t in mv.tuples()) == [2, 2]


def test_optional_capture_allows_laying():
    rules = Rules("scopa", capture_mandatory=False)
    st = _state(rules, C.parse_list(["5C"]))
    mv = E.Moves()
    E.gen_card_moves(st, rules, C.parse("5D"), mv)
    assert sorted(t for _, t in mv.tuples()) == [(), (C.parse("5C"),)]


def test_dealer_rotates_and_match_ends_at_target():
    rng = Rng(2)
    g = Game(Rules("scopa"), seed=44)
    dealers = []
    while not g.finished:
        dealers.append(g.dealer)
        while not g.round_over:
            moves = g.legal_moves()
            g.play(*moves[rng.below(len(moves))])
        assert sum(g.score.taken) == 40
        if not g.finished:
            g.next_round()
    assert dealers[:3] == [1, 0, 1]
    assert max(g.totals) >= 11 and g.winner == g.totals.index(max(g.totals))
    assert g.totals.count(max(g.totals)) == 1
    with pytest.raises(ValueError, match="over"):
        g.next_round()


def test_best_of_three_plays_until_two_matches():
    rng = Rng(5)
    g = Game(Rules("scopa", best_of=3), seed=7)
    while not g.finished:
        while not g.round_over:
            moves = g.legal_moves()
            g.play(*moves[rng.below(len(moves))])
        if not g.finished:
            g.next_round()
    assert max(g.wins) == 2 and g.match_no in (2, 3)


def _as_played(g):
    return (bytes(g.st), bytes(g.history), bytes(g.played), list(g.totals), g.round_over, g.score)


def test_out_of_memory_in_a_play_changes_nothing(monkeypatch):
    # A board short of heap: the round's scoring (or the move's record)
    # raises MemoryError; the game is as before and the play can be retried.
    from scopa import scoring

    def boom(*a, **k):
        raise MemoryError

    rng = Rng(3)
    g = Game(Rules("scopa"), seed=5)
    for fail in ("score", "log"):
        while True:
            card, taken = g.legal_moves()[rng.below(len(g.legal_moves()))]
            if fail == "score" and g.st[E.INHAND] + g.deck_left() > 1:
                g.play(card, taken)  # up to the last play of the round
                continue
            break
        before = _as_played(g)
        if fail == "score":
            monkeypatch.setattr(scoring, "score_piles", boom)
        else:
            monkeypatch.setattr(g, "_log", boom)
        with pytest.raises(MemoryError):
            g.play(card, taken)
        assert _as_played(g) == before
        monkeypatch.undo()
        flags = g.play(card, taken)
        if fail == "score":
            assert flags & E.ROUND_OVER and g.round_over and sum(g.score.taken) == 40
            assert g.totals == g.score.total
            g.next_round()
    assert replay.decode(replay.encode(g)).history == g.history


def test_scoring_keeps_the_cards_tables():
    # scopa.scoring needs no scopa.cards in a game: same table, same constants
    from scopa import scoring

    # 7=21 6=18 A=16 5=15 4=14 3=13 2=12 F/C/R=10 (pagat.com Scopa)
    assert list(scoring.PRIMIERA) == [16, 12, 13, 14, 15, 18, 21, 10, 10, 10]
    assert (scoring._DENARI, scoring._SETTEBELLO) == (C.DENARI, C.SETTEBELLO)


def test_play_without_taken_needs_a_single_outcome():
    rules, st = _game_with(["1B", "3C", "4S", "5D", "8C"], [["9S", "2C"], ["1C"]])
    g = Game(rules, 1)
    g.st[:] = st
    with pytest.raises(E.IllegalMove, match="choose what to take"):
        g.play(C.parse("9S"))
    g.play(C.parse("2C"))  # nothing to take: laid
    assert C.parse("2C") in g.table()


def test_replay_code_rebuilds_the_game_and_rejects_damage():
    rng = Rng(11)
    for k in range(40):
        r = random_rules(rng)
        _, g, _ = play_game(r, k, rng, 0)
        code = replay.encode(g)
        g2 = replay.decode(code)
        assert g2.st == g.st and g2.totals == g.totals and g2.round_no == g.round_no
    assert len(code) < 200
    with pytest.raises(replay.ReplayError, match="damaged"):
        parts = code.split(".")
        parts[3] = parts[3][:-1] + ("1" if parts[3][-1] != "1" else "2")
        replay.decode(".".join(parts))
    for bad in ("", "S1.x", "S9.a.b.c.d", 42):
        with pytest.raises(replay.ReplayError):
            replay.decode(bad)


def test_each_seats_last_play_is_kept_for_the_round_and_replayed():
    # the round page's last plays: each seat's latest (card, cards taken),
    # through the deals of a round, none at the next round; a game rebuilt
    # from its replay code (a resumed one) has the same
    rng = Rng(17)
    for players in (2, 3, 4, 6):
        g = Game(Rules("scopa", players=players), seed=players)
        for _ in range(2):
            last = [None] * players
            while not g.round_over:
                assert _last_plays(g) == last
                seat = g.turn
                card, taken = g.legal_moves()[rng.below(len(g.legal_moves()))]
                g.play(card, taken)
                last[seat] = (card, len(taken))
                if g.deck_left() == 24 or g.round_over:
                    assert _last_plays(replay.decode(replay.encode(g))) == last
            g.next_round()
            assert _last_plays(g) == [None] * players


def _last_plays(g):
    return [g.last_play(s) for s in range(g.rules.players)]


def test_a_games_first_dealer_is_in_its_replay_code():
    # a new match after a finished one passes the deal on (turns.deal): its
    # first dealer is written after the seed, the last seat's as before
    rng = Rng(23)
    for players in (2, 3, 4, 6):
        r = Rules("scopa", players=players)
        old = replay.encode(Game(r, 77))
        for first in range(players):
            g = Game(r, 77, first)
            assert g.dealer == first and g.turn == (first + 1) % players
            for _ in range(3 * players):
                g.play_index(rng.below(len(g.legal_moves())))
            code = replay.encode(g)
            g2 = replay.decode(code)
            assert g2.first == first and g2.st == g.st and g2.history == g.history
            seed = code.split(".")[2]
            if first == players - 1:
                assert seed == old.split(".")[2] == "25"  # the codes of before
            else:
                assert seed == "25" + "ABCDE"[first]
        with pytest.raises(ValueError, match="not a seat"):
            Game(r, 77, players)
        for bad in ("25" + "ABCDEFG"[players - 1], "25AA", "A"):  # the last seat's is not written
            body = "S1.%s.%s." % (r.code(), bad)
            with pytest.raises(replay.ReplayError, match="bad (first dealer|seed)"):
                replay.decode(body + "." + replay._check(body))


def test_replay_of_an_illegal_move_is_refused():
    g = Game(Rules("scopa"), 5)
    body = "S1.%s.5.v" % g.rules.code()  # move index 31 does not exist
    with pytest.raises(replay.ReplayError, match="move 1"):
        replay.decode(body + "." + replay._check(body))


def test_cirulla_counts_the_run_of_coins_once():
    from scopa import scoring

    r = Rules("cirulla")  # its piccola is the run: napola does not apply
    with pytest.raises(ValueError, match="napola: does not apply to cirulla"):
        Rules("cirulla", napola=True)
    coins = [{1, 2, 3, 4, 7, 8, 9, 10}, {5, 6}]
    s = scoring.score_counts(r, [20, 20], [6, 4], 0, 0, [0, 0], coins_of=coins)
    assert s.piccola == [4, 0] and s.napola == [0, 0] and "napola" not in s.categories
    assert s.grande == [5, 0] and s.total == [12, 0]


def test_announcements_are_the_deals_declarations_and_the_dealers_fifteen():
    # Cirulla: over many deals, the dealer's bonus scope and each hand's
    # declaration (engine.declaration) in playing order; none once a card
    # is played, and none in a game without them
    # (a declaration shows the hand; the dealer's fifteen, the table taken)
    seen = set()
    for seed in range(1, 200):
        g = Game(Rules("cirulla"), seed)
        r = g.rules
        want = []
        if g.st[E.BONUS]:
            # the dealer's four: the table dealt (after the hands) that it
            # took, in its pile
            k = E.DECK + r.hand * r.players
            four = sorted(g.st[k : k + 4])
            assert E.pile_of(g.st, r.side(g.dealer)) == four
            m = 0  # the matta among them: the rest of the 15 or 30
            if 16 in four:
                m = 15 * g.st[E.BONUS] - sum(c % 10 + 1 for c in four if c != 16)
            want.append((g.dealer, g.st[E.BONUS], None, four, m))
        for i in range(1, r.players + 1):
            seat = (g.dealer + i) % r.players
            n = E.declaration(g.hand(seat))
            if n:
                want.append((seat, n, "Decino" if n == 10 else "Cirulla", g.hand(seat), 0))
        assert g.announcements() == want
        seen.update(w[2] for w in want)
        card, taken = g.legal_moves()[0]
        g.play(card, taken)
        assert g.announcements() == []
    assert seen == {None, "Cirulla", "Decino"}  # every kind met
    assert Game(Rules("scopa"), 3).announcements() == []
