"""Why a move is illegal: the message of an IllegalMove, naming the rule
broken. Loaded only when a move is refused."""

from scopa import cards as C
from scopa import engine as E
from scopa import rules as R


def explain(st, rules, card, taken, mv):
    """Why playing `card` and taking `taken` is not legal: the message of an
    IllegalMove naming the rule. `mv` holds the card's legal moves."""
    seat = st[E.TURN]
    nm = C.name(card)
    if st[E.OVER]:
        return "the round is over"
    if not 0 <= card < 40 or st[card] != E.HAND + seat:
        return "%s is not in the hand of seat %d, whose turn it is" % (nm, seat)
    for t in taken:
        if not 0 <= t < 40 or st[t] != E.TABLE:
            return "%s is not on the table" % (C.name(t) if 0 <= t < 40 else t,)
    if len(set(taken)) != len(taken):
        return "a table card is named twice"
    E.gen_card_moves(st, rules, card, mv)
    opts = [mv.move(o)[1] for o in mv.offsets()]
    caps = [o for o in opts if o]
    v = _value(st, card)
    total = 0
    for t in taken:
        total += _value(st, t)
    g = rules.game
    if not taken:
        return "%s can capture, and a card that can capture must (capture_mandatory)" % nm
    if v == 1 and rules.ace_takes_all and caps and len(caps[0]) == st[E.NTAB] and len(caps) == 1:
        return "the Ace takes the whole table (%s)" % R.GAMES[g]
    if g == R.SCOPA_15:
        if total + v != 15:
            return "in scopa a 15 the card played and the cards taken add up to 15, not %d" % (
                total + v
            )
    elif not (g == R.CIRULLA and total + v == 15):
        if len(taken) == 1 and total != v:
            return "%s takes a card of value %d, not %d" % (nm, v, total)
        if total != v:
            return "the cards taken add up to %d, not %d (the value of %s)" % (total, v, nm)
        if len(taken) > 1 and rules.strict:
            for o in caps:
                if len(o) == 1 and _value(st, o[0]) == v:
                    return (
                        "%s must take the %s: a single card of equal value is taken"
                        " before any sum (match_priority strict)" % (nm, C.name(o[0]))
                    )
    if not caps:
        return "%s cannot capture here: it is laid on the table" % nm
    if rules.fewest:
        return "only the combination with the fewest cards may be taken (sum_choice fewest)"
    return "%s cannot take %s" % (nm, C.names(taken))


def _value(st, c):
    # the value card c plays as: Cirulla's matta its designated rank
    return st[E.MATTA] if c == 16 and st[E.MATTA] else c % 10 + 1
