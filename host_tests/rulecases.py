"""Evaluate a rule case (host_tests/rules/FORMAT.md) with the engine.

`evaluate(case)` returns what the engine answers for the case's check, in
the case's own form, so a test compares it with ``case["expect"]``. Plain
code that runs on CPython and on the MicroPython unix port alike.
"""

from scopa import cards as C
from scopa import engine as E
from scopa import explain, scoring
from scopa import rules as R
from scopa.rules import Rules


def _names(cs):
    return sorted(C.name(c) for c in cs)


def normalise(check, value):
    """Order-free form of an answer: options and piles sorted."""
    if check == "captures":
        return sorted(sorted(o) for o in value)
    if check == "play":
        return {
            "scope": list(value["scope"]),
            "piles": [sorted(p) for p in value["piles"]],
            "table": sorted(value["table"]),
        }
    return value


def _state(rules, table, hands=(), dealer=None):
    st = E.new_state()
    for i in range(40):
        st[i] = E.MAZZO
    st[E.NTAB] = 0
    for c in table:
        st[c] = E.TABLE
        st[E.TAB + st[E.NTAB]] = c
        st[E.NTAB] += 1
    n = 0
    for seat, h in enumerate(hands):
        for c in h:
            st[c] = E.HAND + seat
            n += 1
    st[E.INHAND] = n
    if dealer is not None:
        st[E.DEALER] = dealer
        st[E.TURN] = (dealer + 1) % rules.players
    # the mazzo holds what is neither dealt nor on the table
    k = 0
    for c in range(40):
        if st[c] != E.MAZZO:
            st[E.DECK + k] = c
            k += 1
    st[E.DP] = k
    for c in range(40):
        if st[c] == E.MAZZO:
            st[E.DECK + k] = c
            k += 1
    return st


def evaluate(case):
    """The engine's answer to `case` (a dict in FORMAT.md form)."""
    rules = Rules.from_dict(case["rules"])
    check = case["check"]
    mv = E.Moves()
    if check == "captures":
        st = _state(rules, C.parse_list(case["table"]))
        E.gen_card_moves(st, rules, C.parse(case["card"]), mv)
        return [_names(t) for _, t in mv.tuples()]
    if check == "primiera":
        total, _ = scoring.primiera(C.parse_list(case["pile"]), rules.primiera_zero)
        return total
    if check == "score":
        piles = [C.parse_list(p) for p in case["piles"]]
        s = scoring.score_piles(rules, piles, case["scope"])
        d = s.as_dict()
        return dict((k, d.get(k, [0] * len(piles))) for k in case["expect"])
    if check == "match":
        before = case["before"]
        totals = [b + r for b, r in zip(before, case["round"])]
        over, winner = scoring.match_result(rules, totals, case.get("categories"), before)
        return {"over": over, "winner": winner}
    if check == "initial_table":
        table = C.parse_list(case["table"])
        out = {"redeal": E.initial_redeal(rules, table)}
        if "dealer_scope" in case["expect"]:
            out["dealer_scope"] = E.dealer_scope(rules, table)
        return out
    if check == "declaration":
        return {"points": E.declaration(C.parse_list(case["hand"]))}
    if check == "play":
        hands = [C.parse_list(h) for h in case["hands"]]
        st = _state(rules, C.parse_list(case["table"]), hands, case["dealer"])
        if case.get("last_deal"):
            st[E.DP] = 40  # the cards not shown were played before
        else:
            # cards remain to deal after these hands: keep enough in the mazzo
            st[E.DP] = min(st[E.DP], 40 - rules.hand * rules.players)
        sides = rules.sides
        if case.get("declared") and rules.game == R.CIRULLA:
            for seat in range(len(hands)):  # the hands were just dealt
                E.declare(st, rules, seat, E.hand_of(st, seat))
        # the declarations of hands dealt after a listed play are the next
        # deal's, not an effect of the plays: taken off again
        later = [0] * sides
        for card, taken in case["moves"]:
            fl = explain.play(st, rules, C.parse(card), C.parse_list(taken), mv)
            if fl & E.DEALT and rules.game == R.CIRULLA:
                for seat in range(rules.players):
                    later[rules.side(seat)] += E.declaration(E.hand_of(st, seat))
            if st[E.OVER]:
                break
        return {
            "scope": [st[E.SCOPE + s] - later[s] for s in range(sides)],
            "piles": [_names(E.pile_of(st, s)) for s in range(sides)],
            "table": _names(E.table_of(st)),
        }
    raise ValueError("unknown check %r" % check)
