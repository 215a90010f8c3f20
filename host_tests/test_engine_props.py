"""Properties of the engine over generated games (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import engine as E
from scopa import replay, scoring
from scopa.game import Game
from scopa.rng import Rng
from selfplay import random_rules

seeds = st.integers(min_value=0, max_value=(1 << 30) - 1)


def _accounted(g):
    st_ = g.st
    locs = [st_[c] for c in range(40)]
    r = g.rules
    ok = all(
        x in (E.MAZZO, E.TABLE)
        or E.HAND <= x < E.HAND + r.players
        or E.PILE <= x < E.PILE + r.sides
        for x in locs
    )
    table = g.table()
    return (
        ok
        and sorted(table) == [c for c in range(40) if st_[c] == E.TABLE]
        and len(set(table)) == len(table)
        and sum(len(g.hand(s)) for s in range(r.players)) == st_[E.INHAND]
    )


def _walk(seed, pick_seed, rounds=1, check=None):
    rng = Rng(pick_seed)
    rules = random_rules(rng)
    g = Game(rules, seed)
    done = 0
    while True:
        if check:
            check(g)
        moves = g.legal_moves()
        assert moves
        g.play(*moves[rng.below(len(moves))])
        if g.round_over:
            done += 1
            if check:
                check(g)
            if g.finished or done >= rounds:
                return g
            g.next_round()


@settings(max_examples=60, deadline=None)
@given(seeds, seeds)
def test_forty_cards_always_accounted_for(seed, pick):
    def check(g):
        assert _accounted(g)

    g = _walk(seed, pick, check=check)
    # at the end of a round every card is in a pile (or, when nobody took
    # anything, still on the table): none is left in the mazzo or a hand
    taken = sum(len(g.pile(s)) for s in range(g.rules.sides))
    assert taken + len(g.table()) == 40 and g.deck_left() == 0


@settings(max_examples=60, deadline=None)
@given(seeds, seeds)
def test_points_add_up_to_the_breakdown(seed, pick):
    g = _walk(seed, pick)
    s = g.score
    d = s.as_dict()
    for side in range(g.rules.sides):
        assert s.total[side] == sum(d[k][side] for k in s.categories)
    assert sum(s.taken) == sum(len(g.pile(x)) for x in range(g.rules.sides))
    # at most one side scores each majority category
    for k in ("cards", "coins", "settebello", "primiera"):
        assert sum(d[k]) <= 1
    again = scoring.score_piles(
        g.rules,
        [g.pile(x) for x in range(g.rules.sides)],
        [g.scope(x) for x in range(g.rules.sides)],
    )
    assert again.total == s.total


@settings(max_examples=40, deadline=None)
@given(seeds, seeds, st.integers(min_value=1, max_value=3))
def test_replaying_the_code_reproduces_the_state(seed, pick, rounds):
    g = _walk(seed, pick, rounds=rounds)
    g2 = replay.decode(replay.encode(g))
    assert g2.st == g.st and g2.totals == g.totals and g2.wins == g.wins
    assert g2.legal_moves() == g.legal_moves()


@settings(max_examples=80, deadline=None)
@given(seeds, seeds, st.integers(0, 39), st.lists(st.integers(0, 39), max_size=5))
def test_illegal_moves_never_change_the_state(seed, pick, card, taken):
    rng = Rng(pick)
    g = Game(random_rules(rng), seed)
    for _ in range(rng.below(12)):
        if g.round_over:
            break
        moves = g.legal_moves()
        g.play(*moves[rng.below(len(moves))])
    if g.round_over:
        return
    legal = {(c, tuple(sorted(t))) for c, t in g.legal_moves()}
    if (card, tuple(sorted(taken))) in legal:
        return
    before = bytes(g.st)
    try:
        g.play(card, taken)
    except E.IllegalMove as e:
        assert str(e)
    else:
        raise AssertionError("an illegal move was accepted")
    assert bytes(g.st) == before
