"""The score sheet for a game played with real cards.

Each round is typed in as counts per side; the points come from the
engine's own scoring (scopa.scoring.score_counts) and the match end from
its tie rules (scoring.match_result), so the sheet and the game agree.
Rounds form one list for the evening; matches are found by counting it
from the start (the tally: counted once, kept per round, and counted
again from a round undone or edited), so an edit recounts everything
after it. A sheet holds MAX_ROUNDS rounds.

A round entry is a dict (JSON-able, as saved):

- ``t``: cards taken per side (list of ints, adding up to 40)
- ``d``: denari per side (adding up to 10, none above that side's cards)
- ``s``: the side that took the settebello
- ``p``: the side that won the primiera (-1: nobody), or ``pc``: the best
  card of each suit per side (lists of four cards, -1 for a missing suit)
  from which the primiera is worked out. They must fit the other counts:
  a denari card exactly when the side took denari, the 7 of denari for the
  settebello's side only, at most one other card per non-denari card
  taken (and one when it took any), the 7 of every suit in some side's
  (all 40 cards are taken), no denaro named for the side better than its
  best one
- ``sc``: scope per side
- optional, for the variants in play: ``rb`` (side with the re bello, -1),
  ``np`` (length of the run of denari from the Ace per side, for napola
  and Cirulla's piccola: 0 or 3..10), ``gr`` (side with Fante, Cavallo and
  Re of denari, Cirulla's grande, -1)
"""

from array import array
from micropython import const

from scopa import scoring
from scopa.rules import CIRULLA, SCOPA_15

MAX_SCOPE = 40
# Rounds a sheet takes (some twenty evenings of five matches), so that the
# longest sheet is read, counted and written in a known heap: the README's
# benchmark of the scorekeeper (tools/bench_app.py) measures it
MAX_ROUNDS = const(500)
FILE = "sheet.sav"  # the store record of the sheet on the device's flash
DRAFT = "round.sav"  # the round being typed (keep_draft)
VERSION = const(2)  # of to_obj(): bump when the format changes (1: a dict per round)

# EntryError kinds: what the screens say about a wrong entry.
BAD = const(0)  # malformed (not something the screens can produce)
SUM = const(1)  # the counts add up to `got`, not `want` (40 cards, 10 denari)
MORE = const(2)  # a side has more denari than cards
NO_COINS = const(3)  # the settebello's side took no denari
TWICE = const(4)  # a card named for two sides (the primiera's, a denaro)
CLASH = const(5)  # the denari named (settebello, re bello, napola, grande,
# the primiera's) do not fit the denari taken, or one is named for two sides
COUNT = const(6)  # primiera: a side's best cards do not fit its cards and denari
SEVEN = const(7)  # primiera: the 7D is not the settebello's side's (`side`; `got`: the side to fix)
NO_SEVEN = const(8)  # primiera: the 7 of a suit is in no side's (all 40 are taken)
ALL = const(9)  # primiera: nobody's, while one side (`side`) took every card
FULL = const(10)  # the sheet holds MAX_ROUNDS rounds (Sheet.add)
SCOPE = const(11)  # a side (`side`) has more scope than half its cards
PLAYS = const(12)  # a side (`side`) has more scope than plays (`want`: scope_cap)
SWEEPS = const(13)  # the sides' scope together more than a round allows (`want`: scope_total)
_SETTEBELLO = const(6)
# a round's record: which optional fields its entry holds
_P = const(1)
_PC = const(2)
_RB = const(4)
_NP = const(8)
_GR = const(16)
# a round's row in the tally: fields before the points per side
_END = const(1)
_FIN = const(2)
_TOT = const(3)
_CHUNK = const(32)  # rounds a string of to_obj()
_SUITS = ("denari", "coppe", "spade", "bastoni")

# Steps of a round entry, in the order the screens ask them; an error's key
# is the step to fix.
STEPS = ("t", "d", "s", "p", "sc", "rb", "np", "gr")


def scope_cap(rules):
    """The most scope a side can score in a round of `rules` (a count of
    scope), or -1 in Cirulla, whose declarations score scope with no
    capture (no bound).

    A scopa is a play of the side's own that sweeps the table
    (scopa.engine.apply), so a side scores at most one a play: a seat
    plays rules.hand cards in each of rules.deals deals, and a side plays
    its seats' cards (partners: every partner's). The round's last play,
    the dealer's side's, scores none (engine.apply); where the table
    starts empty (Scopone scientifico, Scopone a 10) the round's first
    play, the other side's, lays a card and scores none either, so each
    side has one play fewer. Elsewhere the sheet does not know who dealt:
    the bound is the plays, and in Scopa a 15 one more (the dealer's side
    takes a first table of 30 for 2 scope: engine.dealer_scope). So 18 in
    Scopa for 2, 4 or 6 and in Scopone, 12 in Scopa for 3, 19 in Scopone
    scientifico and in Scopa a 15 (13 with 3 players), 17 in Scopone a
    10."""
    if rules.game == CIRULLA:
        return -1
    cap = rules.hand * rules.deals * (rules.players // rules.sides)
    if rules.table == 0:
        return cap - 1
    return cap + 1 if rules.game == SCOPA_15 else cap


def primiera_over(row, t, d):
    """True when a side's primiera cards `row` (4 ints: a card 0..39 of
    each suit, denari first, or -1 for none) are more than its `t` cards
    and `d` denari hold: a denaro with no denaro taken, or more cards of
    the other suits than its cards that are not denari. (Short of them
    is not: the side's other cards yet to be named.)"""
    plain = (row[1] >= 0) + (row[2] >= 0) + (row[3] >= 0)
    return (row[0] >= 0 and not d) or plain > t - d


def scope_most(rules, t):
    """The most scope a side that took `t` cards can have in a round of
    `rules` (a count), -1 in Cirulla (no bound): half its cards (a scopa
    puts the card played and one taken on its pile) or its plays
    (scope_cap), whichever is lower. The bound said is the cards' (SCOPE)
    when the most is t // 2, else the plays' (PLAYS)."""
    cap = scope_cap(rules)
    return cap if cap < t // 2 else t // 2 if cap >= 0 else -1


def scope_total(rules):
    """The most scope the sides score together in a round of `rules` (a
    count of scope), or -1 in Cirulla (no bound: scope_cap).

    A scopa leaves the table empty, so the next play lays a card: no two
    plays in a row sweep (scopa.engine.apply). Of the round's plays that
    can sweep, every play but the last (and the first where the table
    starts empty), at most every other one does: 18 in Scopa for 2, 3, 4
    or 6 and in Scopone (35 such plays), 19 in Scopone scientifico (38),
    17 in Scopone a 10 (34); in Scopa a 15, 19 (the dealer's 2 for a
    first table of 30, the first play then laying on an empty table)."""
    if rules.game == CIRULLA:
        return -1
    n = rules.hand * rules.deals * rules.players - 1 - (rules.table == 0)
    if rules.game == SCOPA_15:
        return 2 + n // 2  # the first play too lays: n - 1 plays, (n - 1 + 1) // 2
    return (n + 1) // 2


def _grown(i):
    # rounds a record or tally grown for round `i` holds: _CHUNK more, but
    # never past MAX_ROUNDS (other than an earlier firmware's longer sheet)
    return max(i + 1, min(i + _CHUNK, MAX_ROUNDS))


class EntryError(ValueError):
    """A round entry that cannot be right; the message says what to fix.

    Attributes: key (the entry field to fix, see STEPS; "pc" is the
    primiera step), kind (BAD, SUM...), side (the side concerned, or -1),
    got and want (for SUM; got: the card, 0..39, for TWICE; want: the
    most scope, scope_cap, for PLAYS; got: the sides' scope, want: the
    most together, scope_total, for SWEEPS; got: the side whose denari
    card is wrong, for SEVEN)."""

    def __init__(self, msg, key="", kind=BAD, side=-1, got=0, want=0):
        super().__init__(msg)
        self.key = key
        self.kind = kind
        self.side = side
        self.got = got
        self.want = want


class Sheet:
    """The sheet: `rules` (scopa.rules.Rules), `names` (one short name per
    side), `rounds` (the entries, see the module doc: a read-only sequence
    of dicts made when read; add, undo and edit change it).

    In memory a round is a record of 5 + 8 * sides bytes and a row of
    3 + sides shorts of the tally (its place in its match, how the match
    stands after it), counted once: 31 bytes a round for two sides, where
    a dict per round and a recount per screen took about 600 on a 64-bit
    build."""

    def __init__(self, rules, names):
        if len(names) != rules.sides:
            raise ValueError("%d names for %d sides" % (len(names), rules.sides))
        self.rules = rules
        self.names = list(names)
        n = rules.sides
        self._w = 5 + 8 * n  # bytes of a round's record (_pack)
        self._tw = _TOT + n  # shorts of its row in the tally (_row)
        self._r = bytearray()  # the records
        self._t = array("h")  # the tally
        self._n = 0  # rounds
        self._ok = 0  # rows of the tally counted
        self.rounds = _Rounds(self)

    # Entries -----------------------------------------------------------

    def fields(self):
        """The entry fields the rules ask for, in STEPS order: always t, d,
        s, p, sc; rb with re bello, np with napola or Cirulla (its
        piccola), gr with Cirulla."""
        r = self.rules
        out = ["t", "d", "s", "p", "sc"]
        if r.re_bello >= 0:
            out.append("rb")
        if r.napola or r.game == CIRULLA:
            out.append("np")
        if r.game == CIRULLA:
            out.append("gr")
        return out

    def check(self, e):
        """Raise EntryError when entry `e` cannot be right."""
        n = self.rules.sides
        for k in ("t", "d", "sc"):
            v = e.get(k)
            if not isinstance(v, list) or len(v) != n:
                raise EntryError("%s: one number per side" % k, k)
            for x in v:
                if not isinstance(x, int) or x < 0:
                    raise EntryError("%s: counts are whole numbers from 0" % k, k)
        # every variant deals all 40 cards and they all end in a pile (Scopone
        # a 10 carte: the last four to the dealer's side)
        for k, want, what in (("t", 40, "cards"), ("d", 10, "denari")):
            got = sum(e[k])
            if got != want:
                msg = "%s add up to %d, not %d" % (what, got, want)
                raise EntryError(msg, k, SUM, -1, got, want)
        for i in range(n):
            if e["d"][i] > e["t"][i]:
                raise EntryError("%s: more denari than cards" % self.names[i], "d", MORE, i)
            if e["sc"][i] > MAX_SCOPE:
                raise EntryError("%s: too many scope" % self.names[i], "sc", BAD, i)
        s = e.get("s", -1)
        if not isinstance(s, int) or not 0 <= s < n:
            raise EntryError("who took the settebello?", "s")
        if e["d"][s] == 0:
            msg = "%s took the settebello but no denari" % self.names[s]
            raise EntryError(msg, "s", NO_COINS, s)
        if "pc" in e:
            pc = e["pc"]
            if not isinstance(pc, list) or len(pc) != n:
                raise EntryError("primiera: four cards per side", "p")
            seen = []
            for i in range(n):
                if not isinstance(pc[i], list) or len(pc[i]) != 4:
                    raise EntryError("primiera: four cards per side", "p")
                for suit, c in enumerate(pc[i]):
                    if c == -1:
                        continue
                    if not isinstance(c, int) or c // 10 != suit:
                        raise EntryError("primiera: a card of the wrong suit", "p", BAD, i)
                    if c in seen:
                        raise EntryError("primiera: a card named twice", "p", TWICE, i, c)
                    seen.append(c)
            self._check_primiera(e)
        else:
            p = e.get("p", -2)
            if not isinstance(p, int) or not -1 <= p < n:
                raise EntryError("who won the primiera?", "p")
            if p >= 0:
                self._check_winner(e, p)
        self._check_denari(e, False)
        for k in ("rb", "gr"):
            v = e.get(k, -1)
            if not isinstance(v, int) or not -1 <= v < n:
                raise EntryError("%s: a side or -1" % k, k)
        np = e.get("np")
        if np is not None:
            if not isinstance(np, list) or len(np) != n:
                raise EntryError("napola: one run length per side", "np")
            for i in range(n):
                if np[i] not in (0, 3, 4, 5, 6, 7, 8, 9, 10) or np[i] > e["d"][i]:
                    raise EntryError(
                        "%s: a napola is 0 or 3 to its denari" % self.names[i], "np", CLASH, i
                    )
        self._check_denari(e, True)

    def check_typed(self, e):
        """check(e), and what a round typed now must keep besides, which
        rounds saved by an earlier firmware may not (they still load and
        count as they were typed): a primiera nobody won while one side
        took every card, every suit (ALL); no more scope than half a
        side's cards (SCOPE) or than the plays it makes (PLAYS, scope_cap;
        of the two the lower bound is said), nor more together than a
        round allows (SWEEPS, scope_total); the denari of the one side whose denari are
        not all named are the rest, with their napola, grande and re bello
        (CLASH). Raises EntryError."""
        try:
            self.check(e)
        except EntryError as x:
            if x.key in ("sc", "rb", "np", "gr"):
                self._check_all(e)  # the primiera's step comes first
            if x.key in ("rb", "np", "gr"):
                self._check_scope(e)  # and the scope's
            raise
        self._check_all(e)
        self._check_scope(e)
        self._check_rest(e)

    def _check_scope(self, e):
        # a scopa puts the card played and at least one taken on the pile
        # (Scopa a 15's dealer's fifteen or thirty: the table's four cards
        # for one or two); Cirulla's declarations score scope with no cards
        # (pagat.com Scopa, Cirulla)
        # and a play of the side's own (scope_cap): the lower bound said
        # (scope_most)
        for i in range(self.rules.sides):
            sc = e["sc"][i]
            t = e["t"][i]
            most = scope_most(self.rules, t)
            if most < 0:
                return
            if sc > most and most == t // 2:
                msg = "%s: %d scope with %d cards" % (self.names[i], sc, t)
                raise EntryError(msg, "sc", SCOPE, i)
            if sc > most:
                msg = "%s: %d scope, at most %d a round" % (self.names[i], sc, most)
                raise EntryError(msg, "sc", PLAYS, i, sc, most)
        top = scope_total(self.rules)
        sc = e["sc"]
        n = sum(sc)
        if n > top:  # (said on the side with the most)
            msg = "%d scope in all, where a round has %d at most" % (n, top)
            raise EntryError(msg, "sc", SWEEPS, sc.index(max(sc)), n, top)

    def _check_all(self, e):
        if e.get("p", 0) == -1:
            took = [i for i in range(self.rules.sides) if e["t"][i]]
            if len(took) == 1:
                msg = "%s took every card: the primiera is theirs" % self.names[took[0]]
                raise EntryError(msg, "p", ALL, took[0])

    def _check_winner(self, e, p):
        # A primiera counts a card of each suit (primiera_missing_suit
        # excluded: a side without one has no primiera; zero: that suit
        # counts 0, so one card is enough); pagat.com Scopa, "Primiera".
        d = e["d"][p]
        t = e["t"][p]
        if not self.rules.primiera_zero:
            if d == 0:
                msg = "%s won the primiera but took no denari" % self.names[p]
                raise EntryError(msg, "p", NO_COINS, p)
            if t - d < 3:
                msg = "%s won the primiera with %d cards of the other 3 suits"
                raise EntryError(msg % (self.names[p], t - d), "p", COUNT, p)
        elif t == 0:
            raise EntryError("%s won the primiera but took no cards" % self.names[p], "p", COUNT, p)

    def _check_primiera(self, e):
        # The best cards of each side (entry `e` has "pc") against its counts
        # and the settebello's owner; all 40 cards are taken, so each suit's
        # 7 is the best card of the side that took it.
        pc = e["pc"]
        n = self.rules.sides
        s = e["s"]
        for i in range(n):
            row = pc[i]
            t = e["t"][i]
            d = e["d"][i]
            plain = (row[1] >= 0) + (row[2] >= 0) + (row[3] >= 0)
            if primiera_over(row, t, d) or (row[0] < 0 and d) or (not plain and t != d):
                msg = "%s: a primiera that does not fit %d cards, %d denari" % (self.names[i], t, d)
                raise EntryError(msg, "p", COUNT, i)
            if (row[0] == _SETTEBELLO) != (s == i):
                msg = "the settebello is %s's, and so the primiera's 7 of denari" % self.names[s]
                raise EntryError(msg, "p", SEVEN, s, i)
        for suit in (1, 2, 3):
            seven = 10 * suit + 6
            if seven not in [pc[i][suit] for i in range(n)]:
                raise EntryError(
                    "the 7 of %s is in no side's primiera" % _SUITS[suit], "p", NO_SEVEN
                )

    def _named(self, e, i, late):
        # (denari values 1..10 entry `e` names for side i, the last field naming one):
        # the settebello and the primiera's, and with `late` the later steps'
        have = []
        last = ""
        if e["s"] == i:
            have.append(7)
            last = "s"
        pc = e.get("pc")
        if pc is not None and pc[i][0] >= 0:
            have.append(pc[i][0] % 10 + 1)
            last = "p"
        if not late:
            return have, last
        rb = self.rules.re_bello
        if e.get("rb", -1) == i and rb >= 0 and rb // 10 == 0:
            have.append(rb % 10 + 1)
            last = "rb"
        np = e.get("np")
        if np and np[i]:
            have += list(range(1, np[i] + 1))
            last = "np"
        if e.get("gr", -1) == i:
            have += [8, 9, 10]
            last = "gr"
        return have, last

    def _namer(self, e, i, v, late):
        # the last step (of STEPS) whose value names denaro v for side i (_named)
        key = "s"
        pc = e.get("pc")
        if pc is not None and pc[i][0] >= 0 and pc[i][0] % 10 + 1 == v:
            key = "p"
        if late:
            rb = self.rules.re_bello
            if e.get("rb", -1) == i and 0 <= rb < 10 and rb + 1 == v:
                key = "rb"
            np = e.get("np")
            if np and v <= np[i]:
                key = "np"
            if e.get("gr", -1) == i and v >= 8:
                key = "gr"
        return key

    def _check_denari(self, e, late):
        # The denari named for each side are distinct cards that side took,
        # none better than its primiera's best denaro; with `late` (the steps
        # after the primiera too) the napola is the whole run of what is
        # named, and the re bello and grande go to the side named holding them.
        taken = []
        pc = e.get("pc")
        for i in range(self.rules.sides):
            have, last = self._named(e, i, late)
            mine = []
            for v in have:
                if v in taken:  # (the card: the denaro of rank v)
                    # the step to fix: the later of the two that name it
                    j = 0
                    while v not in self._named(e, j, late)[0]:
                        j += 1
                    a = self._namer(e, i, v, late)
                    b = self._namer(e, j, v, late)
                    side = i if STEPS.index(a) >= STEPS.index(b) else j
                    key = a if side == i else b
                    raise EntryError("a denaro named for two sides", key, TWICE, side, v - 1)
                if v not in mine:
                    mine.append(v)
            if len(mine) > e["d"][i]:
                raise EntryError("%s: more denari named than taken" % self.names[i], last, CLASH, i)
            if pc is not None and pc[i][0] >= 0:
                top = scoring.PRIMIERA[pc[i][0] % 10]
                for v in mine:
                    if scoring.PRIMIERA[v - 1] > top:
                        msg = "%s: a denaro named better than the primiera's" % self.names[i]
                        raise EntryError(msg, last, CLASH, i)
            taken += mine
        if not late:
            return
        for i in range(self.rules.sides):
            mine = self._named(e, i, True)[0]
            if e["d"][i] == 10:  # all the denari: every one of them is this side's
                mine = list(range(1, 11))
            self._check_held(e, i, mine)

    def _check_held(self, e, i, mine):
        # side i holds the denari (values 1..10) `mine`: its primiera's best
        # denaro is the best of them, its napola their run, the grande and
        # the re bello among them are its
        fields = self.fields()
        np = e.get("np")
        rb = self.rules.re_bello
        pc = e.get("pc")
        if pc is not None and pc[i][0] >= 0:  # none better than its primiera's
            top = scoring.PRIMIERA[pc[i][0] % 10]
            for v in mine:
                if scoring.PRIMIERA[v - 1] > top:
                    msg = "%s: a denaro better than the primiera's" % self.names[i]
                    raise EntryError(msg, "p", CLASH, i)
        if np is not None and scoring.run_from_ace(mine) != np[i]:
            msg = "%s: the denari named make a napola of %d" % (
                self.names[i],
                scoring.run_from_ace(mine),
            )
            raise EntryError(msg, "np", CLASH, i)
        if "gr" in fields and e.get("gr", -1) != i and 8 in mine and 9 in mine and 10 in mine:
            raise EntryError("%s holds the grande" % self.names[i], "gr", CLASH, i)
        if "rb" in fields and rb // 10 == 0 and e.get("rb", -1) != i and rb % 10 + 1 in mine:
            raise EntryError("%s holds the re bello" % self.names[i], "rb", CLASH, i)

    def _check_rest(self, e):
        # every denaro of all sides but one named (as many as each took):
        # the last side's are the rest, its napola, grande and re bello as
        # they say (Cirulla: a piccola of 4 named A 2 3 4, all its side
        # took, leaves the Fante, Cavallo and Re to the other: its grande)
        n = self.rules.sides
        held = []  # the denari of the sides whose are all named
        left = -1
        for i in range(n):
            mine = []
            for v in self._named(e, i, True)[0]:
                if v not in mine:
                    mine.append(v)
            if len(mine) < e["d"][i]:
                if left >= 0:
                    return  # two sides with denari unnamed: no rest known
                left = i
            else:
                held += mine
        if left >= 0:  # its own named among them
            self._check_held(e, left, [v for v in range(1, 11) if v not in held])

    def points(self, e):
        """The Score (scopa.scoring.Score) of entry `e`. Raises EntryError."""
        self.check(e)
        r = self.rules
        n = r.sides
        if "pc" in e:
            prim = [
                scoring.primiera([c for c in e["pc"][i] if c >= 0], r.primiera_zero)[0]
                for i in range(n)
            ]
        else:
            prim = e["p"]
        coins = []
        np = e.get("np") or [0] * n
        rb = e.get("rb", -1)
        gr = e.get("gr", -1)
        for i in range(n):
            have = set(range(1, np[i] + 1))
            if gr == i:
                have.update((8, 9, 10))
            if rb == i and r.re_bello >= 0:
                have.add(r.re_bello % 10 + 1)
            if e["d"][i] == 10:
                have = set(range(1, 11))
            coins.append(have)
        extras = r.re_bello >= 0 or r.napola or r.game == CIRULLA
        return scoring.score_counts(
            r, e["t"], e["d"], e["s"], prim, e["sc"], coins if extras else None
        )

    def add(self, e):
        """Confirm entry `e` as the next round (after a match is over, the
        next round starts a new match). Raises EntryError, and keeps the
        sheet as it was, when it cannot be right; MemoryError, the sheet
        as it was too; EntryError FULL when it holds MAX_ROUNDS."""
        if self._n >= MAX_ROUNDS:
            raise EntryError("the sheet is full: %d rounds" % self._n, "", FULL)
        self._add(e)

    def _add(self, e):
        sc = self.points(e)
        n = self._n
        self._pack(n, e)
        self._n = n + 1
        if self._ok == n:  # its row at once, from the score already worked out
            self._row(n, sc)

    def undo(self):
        """Remove the last round and return it (None when there is none)."""
        if not self._n:
            return None
        e = self.rounds[-1]
        self._n -= 1
        self._ok = min(self._ok, self._n)
        return e

    def edit(self, i, e):
        """Replace round `i` (0-based) by `e`; everything after is
        recounted. Raises EntryError or IndexError."""
        if not 0 <= i < self._n:
            raise IndexError("no round %d" % (i + 1))
        self.points(e)
        self._pack(i, e)
        self._ok = min(self._ok, i)

    def mark(self, i=-1):
        """What back() needs to undo the next add, undo or edit of round
        `i` (a few bytes: the count of rounds, round i's record)."""
        w = self._w
        return self._n, i, self._r[i * w : (i + 1) * w] if i >= 0 else None

    def back(self, m):
        """Put the sheet back as it was at mark() `m` (allocates nothing)."""
        n, i, rec = m
        if rec is not None:
            self._r[i * self._w : (i + 1) * self._w] = rec
            self._ok = min(self._ok, i)
        self._n = n
        self._ok = min(self._ok, n)

    # Packing: one record of _w bytes per round in one bytearray -----------
    # flags (_P "p", _PC "pc", _RB "rb", _NP "np", _GR "gr" in the entry),
    # then t, d, sc (a byte per side each), s, p + 1, rb + 1, gr + 1, np
    # (a byte per side), pc + 1 (four bytes per side).

    def _pack(self, i, e):
        n = self.rules.sides
        w = self._w
        r = self._r
        if len(r) < (i + 1) * w:  # room for _CHUNK rounds more: grown seldom
            r.extend(bytes(_grown(i) * w - len(r)))
        o = i * w
        f = 0
        for k, bit in (("p", _P), ("pc", _PC), ("rb", _RB), ("np", _NP), ("gr", _GR)):
            if k in e:
                f |= bit
        if f & _PC:
            f &= ~_P  # (the cards say who won it)
        r[o] = f
        for j, k in enumerate(("t", "d", "sc")):
            v = e[k]
            for x in range(n):
                r[o + 1 + j * n + x] = v[x]
        o += 1 + 3 * n
        r[o] = e["s"]
        r[o + 1] = e.get("p", -1) + 1 if f & _P else 0
        r[o + 2] = e.get("rb", -1) + 1
        r[o + 3] = e.get("gr", -1) + 1
        np = e.get("np") or ()
        pc = e.get("pc") if f & _PC else None
        for x in range(n):
            r[o + 4 + x] = np[x] if np else 0
            for suit in range(4):
                r[o + 4 + n + 4 * x + suit] = pc[x][suit] + 1 if pc else 0

    def _unpack(self, i):
        n = self.rules.sides
        r = self._r
        o = i * self._w
        f = r[o]
        e = {}
        for j, k in enumerate(("t", "d", "sc")):
            e[k] = list(r[o + 1 + j * n : o + 1 + (j + 1) * n])
        o += 1 + 3 * n
        e["s"] = r[o]
        if f & _P:
            e["p"] = r[o + 1] - 1
        if f & _PC:
            q = o + 4 + n
            e["pc"] = [[r[q + 4 * x + s] - 1 for s in range(4)] for x in range(n)]
        if f & _RB:
            e["rb"] = r[o + 2] - 1
        if f & _GR:
            e["gr"] = r[o + 3] - 1
        if f & _NP:
            e["np"] = list(r[o + 4 : o + 4 + n])
        return e

    # Tally: one row of _tw shorts per round, counted when first asked -----
    # (_sync): the round's number in its match (1, 2...), _END (-1: the
    # match goes on; else its winner: scoring.match_result names one for
    # every match over), _FIN (1: the
    # game is over with it), then the match totals after it, per side (its
    # points are what the totals grew by).

    def _sync(self):
        # count the rows not counted yet (after an edit or undo, or a round
        # added while the rows were behind); a MemoryError midway keeps
        # those counted (from_obj makes the rows of a sheet read at once,
        # _row grows them by _CHUNK)
        while self._ok < self._n:
            i = self._ok
            self._row(i, self.points(self._unpack(i)))

    def _before(self, i):
        # (number, totals before it) of round i in its match, from the rows
        # before it
        if i:
            p = (i - 1) * self._tw
            t = self._t
            if t[p + _END] == -1:
                return t[p] + 1, list(t[p + _TOT : p + _TOT + self.rules.sides])
        return 1, [0] * self.rules.sides

    def _row(self, i, sc):
        tw = self._tw
        t = self._t
        if len(t) < (i + 1) * tw:  # room for _CHUNK rounds more: grown seldom
            t.extend(array("h", bytes(2 * (_grown(i) * tw - len(t)))))
        j, before = self._before(i)
        after, end, fin = self._result(i, before, sc)
        o = i * tw
        t[o] = j
        t[o + _END] = end
        t[o + _FIN] = fin
        for x in range(len(after)):
            t[o + _TOT + x] = after[x]
        self._ok = i + 1

    def _result(self, i, before, sc):
        # (totals after, _END, _FIN) of a round scoring `sc` as round i, its
        # match's totals `before` it
        r = self.rules
        n = r.sides
        after = [before[x] + sc.total[x] for x in range(n)]
        if sc.napoleone >= 0:
            over, winner = True, sc.napoleone
        else:
            over, winner = scoring.match_result(r, after, sc.as_dict(), before)
        if not over or winner is None:  # (a match over always has one)
            return after, -1, 0
        wins = self._wins(i)
        wins[winner] += 1
        return after, winner, 1 if r.best_of == 1 or max(wins) * 2 > r.best_of else 0

    def _wins(self, i):
        # matches won per side in the game of round i by the rounds before
        # it (back to the round that ended the game before)
        wins = [0] * self.rules.sides
        t = self._t
        tw = self._tw
        while i > 0 and not t[(i - 1) * tw + _FIN]:
            i -= 1
            end = t[i * tw + _END]
            if end >= 0:
                wins[end] += 1
        return wins

    def row(self, i):
        """Round `i` (0-based) as the evening counts it: ``(no, points,
        totals, won)``: the round's number in its match (from 1), its points
        and the match totals after it (lists, per side), and the side that
        won the match with it, else -1. Raises IndexError."""
        if not 0 <= i < self._n:
            raise IndexError("no round %d" % (i + 1))
        self._sync()
        o = i * self._tw
        t = self._t
        after = list(t[o + _TOT : o + _TOT + self.rules.sides])
        pts = list(after)
        if t[o] > 1:
            for x in range(len(pts)):
                pts[x] -= t[o - self._tw + _TOT + x]
        return t[o], pts, after, t[o + _END]

    def preview(self, e, i=-1):
        """What entry `e` would make of round `i` (an edit; -1: the next
        round): ``(score, totals, winner, no)``: its Score, the match totals
        after it, the side that wins the match with it (None: the match
        goes on) and its number in the match. Raises
        EntryError."""
        sc = self.points(e)
        self._sync()
        if i < 0:
            i = self._n
        j, before = self._before(i)
        after, end, _ = self._result(i, before, sc)
        return sc, after, end if end >= 0 else None, j

    def match(self):
        """The match in progress (or just finished), a dict: ``totals``,
        ``over``, ``winner`` (side or None), ``game`` (0, 1...), ``wins``
        (matches won per side in that game so far), ``finished`` (that
        game is over), ``n`` (its rounds)."""
        self._sync()
        return self._match(self._n - 1)

    def _match(self, i):
        # the match whose last counted round is i (-1: none yet)
        n = self.rules.sides
        t = self._t
        tw = self._tw
        if i < 0:
            end, fin, after, j = -1, 0, [0] * n, 0
        else:
            o = i * tw
            end, fin, j = t[o + _END], t[o + _FIN], t[o]
            after = list(t[o + _TOT : o + _TOT + n])
        wins = self._wins(i) if i >= 0 else [0] * n
        if end >= 0:
            wins[end] += 1
        game = 0
        for k in range(i - j + 1):  # the games over before this match
            game += t[k * tw + _FIN]
        return {
            "totals": after,
            "over": end != -1,
            "winner": end if end >= 0 else None,
            "game": game,
            "wins": wins,
            "finished": bool(fin),
            "n": j,
        }

    def winners(self):
        """``(winner, totals)`` of every match over, in order."""
        self._sync()
        t = self._t
        tw = self._tw
        n = self.rules.sides
        out = []
        for i in range(self._n):
            end = t[i * tw + _END]
            if end != -1:
                o = i * tw + _TOT
                out.append((end, list(t[o : o + n])))
        return out

    # Recount -------------------------------------------------------------

    def recount(self, scores=False):
        """Walk the evening: returns a list of matches, each a dict as
        match() (without ``n``) with ``rounds``: a list of (index, points,
        totals after), points the round's per side, or with `scores` its
        Score (scored again: tools/scores.py). For the host's tools; the
        screens ask row(), match() and winners(), which keep nothing per
        round but the tally."""
        self._sync()
        matches = []
        rs = []
        for i in range(self._n):
            _, pts, after, _ = self.row(i)
            rs.append((i, self.points(self.rounds[i]) if scores else pts, after))
            if i == self._n - 1 or self._t[(i + 1) * self._tw] == 1:
                m = self._match(i)
                del m["n"]
                m["rounds"] = rs
                matches.append(m)
                rs = []
        if not matches:
            m = self._match(-1)
            del m["n"]
            m["rounds"] = []
            matches.append(m)
        return matches

    def standing(self):
        """``(totals, over, winner, wins)`` of the match in progress (or
        just finished); wins counts matches won per side this evening."""
        wins = [0] * self.rules.sides
        for w, _ in self.winners():
            if w is not None:
                wins[w] += 1
        m = self.match()
        return m["totals"], m["over"], m["winner"], wins

    def place(self, i):
        """``(match, round)`` of round `i` (0-based; len(rounds) for the
        next one): the match's number in the evening and the round's number
        in its match, both from 1."""
        self._sync()
        t = self._t
        tw = self._tw
        k = 1
        for r in range(min(i, self._n)):  # the matches over before it
            if t[r * tw + _END] != -1:
                k += 1
        if i < self._n:
            return k, t[i * tw]
        return k, self._before(i)[0]

    # Saving ------------------------------------------------------------

    def to_obj(self, lazy=False):
        """JSON-able form (for store.save): the rounds' records as strings
        of hex digits, _CHUNK rounds a string (no long string to make or
        read on a long sheet). With `lazy` the strings are made as they
        are written (store.save iterates them), not all at once."""
        h = _Hex(self)
        return {
            "v": VERSION,
            "rules": self.rules.code(),
            "names": self.names,
            "rounds": h if lazy else list(h),
        }

    @classmethod
    def from_obj(cls, obj):
        """Sheet from `to_obj()` output, or an earlier firmware's (format 1:
        a list of entries), with room for 32 rounds more (not past
        MAX_ROUNDS: its next rounds grow no block). Raises ValueError when it is not a sheet
        (``format <v>, not <VERSION>`` for another version) or a round in
        it cannot be right."""
        from binascii import unhexlify

        from scopa.rules import Rules

        v = obj.get("v") if isinstance(obj, dict) else None
        if not isinstance(v, int) or isinstance(v, bool):
            # (a round draft's "v" is its values: not a sheet of another format)
            raise ValueError("not a score sheet")
        if v not in (1, VERSION):
            raise ValueError("format %s, not %d" % (v, VERSION))
        names = obj.get("names")
        rounds = obj.get("rounds")
        if not isinstance(names, list) or not isinstance(rounds, list):
            raise ValueError("not a score sheet")
        for x in names:
            if not isinstance(x, str):
                raise ValueError("not a score sheet")
        s = cls(Rules.from_code(obj.get("rules")), names)
        if v == 1:
            for e in rounds:
                if not isinstance(e, dict):
                    raise ValueError("round %d: not an entry" % (s._n + 1))
                try:
                    s._add(e)  # (an earlier firmware took more than MAX_ROUNDS)
                except (TypeError, KeyError, IndexError) as x:
                    raise ValueError("round %d: %r" % (s._n + 1, x)) from None
            return s
        w = s._w
        size = 0
        for x in rounds:
            if not isinstance(x, str) or len(x) % (2 * w):
                raise ValueError("not a score sheet")
            size += len(x) // 2
        # room for the rounds read and _CHUNK more (_grown), made now in one
        # block each: the next rounds' add grows neither (a long sheet's
        # records copied to a block beside the old one at its next round
        # needed a hole of 10.5 KB)
        n = size // w
        room = n if n >= MAX_ROUNDS else _grown(n)
        r = s._r = bytearray(room * w)
        s._t = array("h", bytes(2 * room * s._tw))  # (its rows: made while there is room)
        o = 0
        for x in rounds:
            try:
                r[o : o + len(x) // 2] = unhexlify(x)
            except ValueError:
                raise ValueError("not a score sheet") from None
            o += len(x) // 2
        s._n = n
        try:
            s._sync()
        except EntryError as x:
            raise ValueError("round %d: %s" % (s._ok + 1, x)) from None
        except (TypeError, KeyError, IndexError) as x:
            raise ValueError("round %d: %r" % (s._ok + 1, x)) from None
        return s


class _Hex:
    # Sheet.to_obj's rounds: each iteration makes the strings afresh
    def __init__(self, sh):
        self.sh = sh

    def __iter__(self):
        from binascii import hexlify

        sh = self.sh
        w = sh._w
        for i in range(0, sh._n, _CHUNK):
            yield hexlify(bytes(sh._r[i * w : min(i + _CHUNK, sh._n) * w])).decode()


class _Rounds:
    # Sheet.rounds: the rounds as entries (dicts), read from their records
    def __init__(self, sh):
        self.sh = sh

    def __len__(self):
        return self.sh._n

    def __getitem__(self, i):
        n = self.sh._n
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("no round")
        return self.sh._unpack(i)

    def __iter__(self):
        for i in range(self.sh._n):
            yield self.sh._unpack(i)

    def __eq__(self, other):
        return list(self) == list(other)


# On the device's flash -------------------------------------------------------


def save(sh, folder=""):
    """Write sheet `sh` to flash at once (store.save: a new file renamed
    over the old one, with a checksum; the previous copy kept as .bak).
    Raises OSError when the flash is full or read-only."""
    import store

    store.save(FILE, sh.to_obj(lazy=True), folder)


def keep(sh, folder=""):
    """save() that never raises: returns "" or what went wrong (printed
    too), for screens that must go on with the sheet in memory."""
    try:
        save(sh, folder)
        return ""
    except OSError as e:
        print("sheet: not saved:", e)
        return str(e) or "OSError"


def commit(sh, folder, op, i=-1, e=None):
    """Change sheet `sh` and write it to flash at once: `op` is "add"
    (entry `e`), "edit" (round `i` becomes `e`), "undo" or "save" (as it
    is). Returns "" or why it was not written (keep). Raises EntryError
    (nothing changed), or MemoryError with the sheet put back as it was,
    so that the screen that asked can stay as it is and ask again."""
    import gc

    old = sh.mark(i if op == "edit" else -1)
    try:
        if op == "add":
            sh.add(e)
        elif op == "edit":
            sh.edit(i, e)
        elif op == "undo":
            sh.undo()
        gc.collect()
        return keep(sh, folder)
    except MemoryError:
        sh.back(old)
        raise


def keep_draft(obj, folder=""):
    """Save `obj` (a dict: ui.keeper_entry's draft of the round being
    typed) as DRAFT; None: remove it (its copies; a damaged one set aside
    as round.sav.bad stays, the latest). An OSError (flash full) is
    printed, never raised, as a MemoryError removing it: the draft is a
    help, the sheet is what counts (a round confirmed must not be asked
    again for the draft's sake). Raises MemoryError when the heap is short
    for a save (nothing written: App.step tries again later)."""
    import store

    try:
        if obj is None:
            store.set_aside(DRAFT, folder)  # (a damaged copy kept, as the sheet's)
            store.remove(DRAFT, folder, bad=False)
        else:
            store.save(DRAFT, obj, folder)
    except (OSError, MemoryError) as e:
        if obj is not None and isinstance(e, MemoryError):
            raise
        print("sheet: round draft not written:", repr(e))


def kept_draft(folder=""):
    """The draft keep_draft saved: ``(draft, lost)``. draft is a dict
    (from its .bak when the main copy is damaged: a second's keys older),
    or None: none saved, a record that is not a draft (removed), or every
    copy damaged (the newest then kept as round.sav.bad, the others
    removed: store.give_up; lost is True, else False). Raises MemoryError
    when the heap is short, every copy left as it is."""
    import store

    obj, status, why = store.load(DRAFT, folder, spare=True)
    if why:
        print("sheet: round draft:", why)
    if isinstance(obj, dict):
        return obj, False
    if status == store.BAD:
        try:
            store.give_up(DRAFT, folder)  # kept as round.sav.bad
        except OSError as e:
            print("sheet: round draft not set aside:", e)
    elif status != store.NONE:
        keep_draft(None, folder)
    return None, status == store.BAD


def load(folder=""):
    """Read the sheet from flash: returns ``(sheet, status, why)``.

    sheet is None when nothing was saved (status store.NONE) or no copy is
    a good sheet (store.BAD); status OK, TMP or BAK says which copy was
    read (store.load), why what was wrong with the others (a copy that is
    a good record but not a good sheet, e.g. of another version, counts as
    damaged). A sheet read from the .tmp or .bak copy is saved again at
    once, so that the next save keeps it as its previous copy; with no
    good copy the newest damaged one is kept as sheet.sav.bad at once and
    the others removed (store.give_up). Raises MemoryError when the heap
    is short, every copy left as it is: a sheet of MAX_ROUNDS fits the
    app's heap, so short of memory now is not damage."""
    import store

    made = []  # the sheet of the copy read, built once (a round is scored)
    obj, status, why = store.load(
        FILE, folder, lambda o: made.append(Sheet.from_obj(o)), spare=True
    )
    if obj is None:
        if status == store.BAD:
            try:
                # kept as sheet.sav.bad, as the note says, the other copies
                # removed: the note said once, not at every start until a
                # new sheet is saved
                store.give_up(FILE, folder)
            except OSError as e:
                why += ("; " if why else "") + "not set aside: %s" % e
        return None, status, why
    obj = None
    sh = made[-1]
    if status != store.OK:
        try:
            save(sh, folder)
        except OSError as e:
            why += ("; " if why else "") + "not saved again: %s" % e
    return sh, status, why


# What was wrong with a copy (from load()'s why), for the screens.
CUT = const(1)  # truncated
DAMAGED = const(2)  # random bytes, a bad checksum, not a sheet
NEWER = const(3)  # written by a later version of the firmware
OLDER = const(4)  # written by an earlier version


def trouble(why):
    """The first thing wrong in load()'s `why`: 0 (nothing), CUT, DAMAGED,
    NEWER or OLDER."""
    first = ""
    for w in why.split("; "):
        if w and not w.endswith(": missing"):  # (removed by hand: nothing to say of it)
            first = w
            break
    if not first:
        return 0
    if "truncated" in first:
        return CUT
    k = first.find("format ")
    if k >= 0:
        try:
            got, want = first[k + 7 :].split(", not ")
            return NEWER if int(got) > int(want) else OLDER
        except ValueError:
            pass
    return DAMAGED
