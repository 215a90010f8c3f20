"""Scoring: the points of a round and the end of a match.

Categories (pagat.com Scopa; Parlett pp. 136-138): cards (most cards taken),
coins (most denari), settebello (the 7 of denari), primiera (best total of
one card per suit, see scopa.rules.PRIMIERA), one point per scopa. With three
sides only a single highest scores a category; a tie gives nobody the point.
Options: re_bello (+1 for that card), napola (1-2-3 of denari score 3, each
following denari one more, or with napola_fixed 3 whatever the length: the
Scopone manual's "a fixed bonus (3 points) or one point per card in the
run"; all ten win the match when napoleone is on). Cirulla adds piccola
(as napola) and grande (Fante, Cavallo, Re of denari: 5), and all ten
denari win the match. The piccola's cap (piccola_cap) differs by source:
none, the run scores its length (Parlett p.138; fishingcardgames.com
Cirulla: "the value of the highest Diamond held in unbroken sequence"),
the common reading; 5 (spazioinwind.libero.it/carte/cirulla.htm: 3 for
A 2 3, 4 with the 4, 5 with the 5); 6 (a house reading named by the
issue 13 audit, the run stopping before the settebello; no public page at
hand).

The functions take counts as well as piles, so the scorekeeper (real cards,
counts typed in) and the engine share one set of rules.
"""

from micropython import const

from scopa.rules import CIRULLA, PRIMIERA

# From scopa.cards, copied so that a game in progress does not keep that
# module (its text forms are for tests, logs and the menus) on the heap.
_DENARI = const(0)
_SETTEBELLO = const(6)  # 7 of denari
GRANDE = const(5)  # Cirulla's grande (Fante, Cavallo, Re of denari), points

CATEGORIES = (
    "cards",
    "coins",
    "settebello",
    "primiera",
    "scope",
    "re_bello",
    "napola",
    "piccola",
    "grande",
)


def primiera(pile, zero_missing=False):
    """Primiera of the cards `pile` (iterable of cards).

    Returns ``(total, best)``: total is an int, or None when a suit is
    missing and `zero_missing` is false (that side cannot compete; with
    true, the suit counts 0); best is a list of four cards (the best card of
    each suit, -1 where the suit is missing).
    """
    best = [-1, -1, -1, -1]
    pts = [0, 0, 0, 0]
    for c in pile:
        s = c // 10
        p = PRIMIERA[c % 10]
        if p > pts[s]:
            pts[s] = p
            best[s] = c
    if -1 in best and not zero_missing:
        return None, best
    return pts[0] + pts[1] + pts[2] + pts[3], best


def _unique_max(vals):
    # index of the single highest of vals (None entries never win), else -1
    top = -1
    who = -1
    for i, v in enumerate(vals):
        if v is None:
            continue
        if v > top:
            top = v
            who = i
        elif v == top:
            who = -2
    return who if who >= 0 else -1


def run_from_ace(coins):
    """Length of the run 1, 2, 3, ... of denari in `coins` (a set of values
    1..10); 0 when it does not reach 3."""
    n = 0
    while n + 1 in coins:
        n += 1
    return n if n >= 3 else 0


class Score:
    """Points of one round, per side. Attributes (lists of ints, one per
    side): cards, coins, settebello, primiera, scope, re_bello, napola,
    piccola, grande, total; taken (cards taken), denari (coins taken),
    primiera_total (int or None), primiera_cards (four cards, -1 where
    missing); napoleone: the side that took all ten denari and so wins the
    match at once, or -1. `categories` names the categories in play.
    """

    def __init__(self, sides):
        z = [0] * sides
        self.sides = sides
        self.cards = list(z)
        self.coins = list(z)
        self.settebello = list(z)
        self.primiera = list(z)
        self.scope = list(z)
        self.re_bello = list(z)
        self.napola = list(z)
        self.piccola = list(z)
        self.grande = list(z)
        self.total = list(z)
        self.taken = list(z)
        self.denari = list(z)
        self.primiera_total = [None] * sides
        self.primiera_cards = [[-1, -1, -1, -1] for _ in range(sides)]
        self.napoleone = -1
        self.categories: tuple = CATEGORIES[:5]

    def others(self):
        """The points of the variant's bonuses in play (re bello, napola,
        piccola, grande: CATEGORIES past the five of every round) added up,
        per side (list of ints): the screens' "Others" row."""
        out = [0] * self.sides
        for k in self.categories[5:]:
            vals = getattr(self, k)
            for i in range(self.sides):
                out[i] += vals[i]
        return out

    def as_dict(self):
        """The categories in play, ``total`` and ``napoleone`` (1 for the
        side that wins the match at once), as lists per side."""
        d = {}
        for k in self.categories:
            d[k] = list(getattr(self, k))
        d["total"] = list(self.total)
        d["napoleone"] = [1 if i == self.napoleone else 0 for i in range(self.sides)]
        return d


def score_counts(rules, taken, denari, settebello, prim, scope, coins_of=None):
    """Score from counts, as typed at a table.

    `taken`: cards taken per side (list of ints); `denari`: coins per side;
    `settebello`: the side that took the 7 of denari (-1 for none);
    `prim`: primiera total per side (int, or None for a side that cannot
    compete), or the winning side as an int; `scope`: scope per side;
    `coins_of`: optional list per side of the set of denari values taken
    (for re_bello, napola, piccola, grande). Returns a Score.
    """
    n = len(taken)
    s = Score(n)
    g = rules.game
    cats = ["cards", "coins", "settebello", "primiera", "scope"]
    s.taken = list(taken)
    s.denari = list(denari)
    w = _unique_max(taken)
    if w >= 0:
        s.cards[w] = 1
    w = _unique_max(denari)
    if w >= 0:
        s.coins[w] = 1
    if settebello >= 0:
        s.settebello[settebello] = 1
    if isinstance(prim, int):
        if prim >= 0:
            s.primiera[prim] = 1
    else:
        w = _unique_max(prim)
        if w >= 0:
            s.primiera[w] = 1
        s.primiera_total = list(prim)
    s.scope = list(scope)
    if rules.re_bello >= 0:
        cats.append("re_bello")
    if rules.napola:
        cats.append("napola")
    if g == CIRULLA:
        cats.append("piccola")
        cats.append("grande")
    if coins_of is not None:
        rb = rules.re_bello
        for i in range(n):
            have = coins_of[i]
            if rb >= 0 and rb // 10 == _DENARI and rb % 10 + 1 in have:
                s.re_bello[i] = 1
            run = run_from_ace(have)
            if rules.napola:
                s.napola[i] = 3 if run and rules.napola_fixed else run
            if g == CIRULLA:
                cap = rules.piccola_cap
                s.piccola[i] = cap if cap and run > cap else run
                s.grande[i] = GRANDE if (8 in have and 9 in have and 10 in have) else 0
            if len(have) == 10 and (g == CIRULLA or (rules.napola and rules.napoleone)):
                s.napoleone = i
    s.categories = tuple(cats)
    for i in range(n):
        t = 0
        for k in cats:
            t += getattr(s, k)[i]
        s.total[i] = t
    return s


def score_piles(rules, piles, scope):
    """Score of a round from the cards each side took.

    `piles`: one iterable of cards per side (partners pooled); `scope`:
    scope per side. Returns a Score with the primiera cards filled in.
    """
    n = len(piles)
    taken = [0] * n
    denari = [0] * n
    settebello = -1
    prim = []
    best = []
    coins_of = []
    rb_side = -1
    for i, pile in enumerate(piles):
        have = set()
        for c in pile:
            taken[i] += 1
            if c // 10 == _DENARI:
                denari[i] += 1
                have.add(c % 10 + 1)
            if c == _SETTEBELLO:
                settebello = i
            if c == rules.re_bello:
                rb_side = i
        coins_of.append(have)
        t, b = primiera(pile, rules.primiera_zero)
        prim.append(t)
        best.append(b)
    s = score_counts(rules, taken, denari, settebello, prim, scope, coins_of)
    s.primiera_cards = best
    if rules.re_bello >= 0:
        for i in range(n):
            s.total[i] -= s.re_bello[i]
            s.re_bello[i] = 1 if i == rb_side else 0
            s.total[i] += s.re_bello[i]
    return s


def match_result(rules, totals, categories=None, before=None):
    """Whether the match is over after a round.

    `totals`: match points per side after the round. The first side at or
    past the target wins; several past it: the highest; equal at the top:
    another round (tie_at_target play_on), or with recount, from `before`
    (points per side before the round) the round's `categories` (dict of
    category -> points per side) are added in order cards, coins,
    settebello, primiera, scope, then the others, and the first side to
    reach the target alone wins. Returns ``(over, winner)``, winner a side
    or None.
    """
    target = rules.target
    top = max(totals)
    if top < target:
        return False, None
    leaders = [i for i, t in enumerate(totals) if t == top]
    if len(leaders) == 1:
        return True, leaders[0]
    if rules.recount and categories and before is not None:
        run = list(before)
        for k in CATEGORIES:
            if k not in categories:
                continue
            pts = categories[k]
            for i in range(len(run)):
                run[i] += pts[i]
            reached = [i for i in range(len(run)) if run[i] >= target]
            if len(reached) == 1:
                return True, reached[0]
            if len(reached) > 1:
                w = _unique_max([run[i] if i in reached else None for i in range(len(run))])
                if w >= 0:
                    return True, w
    return False, None
