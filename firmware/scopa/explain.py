"""A move checked against the rules, and why a move is illegal: the message
of an IllegalMove, naming the rule broken. The game (scopa.game) loads it
only when a move is refused; the rule cases and host tools play through
`play`. It depends on the engine; the engine depends on nothing of it."""

from scopa import cards, engine
from scopa.rules import CIRULLA, GAMES, SCOPA_15


def play(st, rules, card, taken, mv):
    """Play `card` taking the table cards `taken` (iterable of cards; empty
    to lay the card) for the seat to play, checked against `rules`.

    Returns the flags of `engine.apply`. Raises engine.IllegalMove, whose
    message names the rule broken, and then leaves the state unchanged.
    `mv` (an engine.Moves) is scratch.
    """
    taken = tuple(taken)
    if not st[engine.OVER]:
        engine.gen_moves(st, rules, mv)
        o = engine.find_move(st, rules, card, taken, mv)
        if o >= 0:
            return engine.apply(st, rules, mv.buf, o)
    raise engine.IllegalMove(explain(st, rules, card, taken, mv))


def explain(st, rules, card, taken, mv):
    """Why playing `card` and taking `taken` is not legal: the message of an
    IllegalMove naming the rule. `mv` holds the card's legal moves."""
    seat = st[engine.TURN]
    nm = cards.name(card)
    if st[engine.OVER]:
        return "the round is over"
    if not 0 <= card < 40 or st[card] != engine.HAND + seat:
        return "%s is not in the hand of seat %d, whose turn it is" % (nm, seat)
    for t in taken:
        if not 0 <= t < 40 or st[t] != engine.TABLE:
            return "%s is not on the table" % (cards.name(t) if 0 <= t < 40 else t,)
    if len(set(taken)) != len(taken):
        return "a table card is named twice"
    engine.gen_card_moves(st, rules, card, mv)
    opts = [mv.move(o)[1] for o in mv.offsets()]
    caps = [o for o in opts if o]
    v = engine.value(st, card)
    total = 0
    for t in taken:
        total += engine.value(st, t)
    g = rules.game
    if not taken:
        return "%s can capture, and a card that can capture must (capture_mandatory)" % nm
    whole = len(caps) == 1 and len(caps[0]) == st[engine.NTAB]
    if v == 1 and rules.ace_takes_all and whole:
        return "the Ace takes the whole table (%s)" % GAMES[g]
    if g == SCOPA_15:
        if total + v != 15:
            return "in scopa a 15 the card played and the cards taken add up to 15, not %d" % (
                total + v
            )
    elif not (g == CIRULLA and total + v == 15):
        if len(taken) == 1 and total != v:
            return "%s takes a card of value %d, not %d" % (nm, v, total)
        if total != v:
            return "the cards taken add up to %d, not %d (the value of %s)" % (total, v, nm)
        if len(taken) > 1 and rules.strict:
            for o in caps:
                if len(o) == 1 and engine.value(st, o[0]) == v:
                    return (
                        "%s must take the %s: a single card of equal value is taken"
                        " before any sum (match_priority strict)" % (nm, cards.name(o[0]))
                    )
    if not caps:
        return "%s cannot capture here: it is laid on the table" % nm
    if rules.fewest:
        return "only the combination with the fewest cards may be taken (sum_choice fewest)"
    return "%s cannot take %s" % (nm, cards.names(taken))
