"""The score sheet for a game played with real cards.

Each round is typed in as counts per side; the points come from the
engine's own scoring (scopa.scoring.score_counts) and the match end from
its tie rules (scoring.match_result), so the sheet and the game agree.
Rounds form one list for the evening; matches are found by recounting it
from the start, so undoing or editing any round recounts everything after.

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

from micropython import const

from scopa import scoring
from scopa.rules import CIRULLA

MAX_SCOPE = 40
FILE = "sheet.sav"  # the store record of the sheet on the device's flash
DRAFT = "round.sav"  # the round being typed (keep_draft)
VERSION = const(1)  # of to_obj(): bump when the entry format changes

# EntryError kinds: what the screens say about a wrong entry.
BAD = const(0)  # malformed (not something the screens can produce)
SUM = const(1)  # the counts add up to `got`, not `want` (40 cards, 10 denari)
MORE = const(2)  # a side has more denari than cards
NO_COINS = const(3)  # the settebello's side took no denari
TWICE = const(4)  # a card named for two sides (the primiera's, a denaro)
CLASH = const(5)  # the denari named (settebello, re bello, napola, grande,
# the primiera's) do not fit the denari taken, or one is named for two sides
COUNT = const(6)  # primiera: a side's best cards do not fit its cards and denari
SEVEN = const(7)  # primiera: the 7 of denari is not the settebello's side's (`side`)
NO_SEVEN = const(8)  # primiera: the 7 of a suit is in no side's (all 40 are taken)
ALL = const(9)  # primiera: nobody's, while one side (`side`) took every card
_SETTEBELLO = const(6)
_SUITS = ("denari", "coppe", "spade", "bastoni")

# Steps of a round entry, in the order the screens ask them; an error's key
# is the step to fix.
STEPS = ("t", "d", "s", "p", "sc", "rb", "np", "gr")


class EntryError(ValueError):
    """A round entry that cannot be right; the message says what to fix.

    Attributes: key (the entry field to fix, see STEPS; "pc" is the
    primiera step), kind (BAD, SUM...), side (the side concerned, or -1),
    got and want (for SUM; got: the card, 0..39, for TWICE)."""

    def __init__(self, msg, key="", kind=BAD, side=-1, got=0, want=0):
        super().__init__(msg)
        self.key = key
        self.kind = kind
        self.side = side
        self.got = got
        self.want = want


class Sheet:
    """The sheet: `rules` (scopa.rules.Rules), `names` (one short name per
    side), `rounds` (list of entries, see the module doc)."""

    def __init__(self, rules, names):
        if len(names) != rules.sides:
            raise ValueError("%d names for %d sides" % (len(names), rules.sides))
        self.rules = rules
        self.names = list(names)
        self.rounds = []

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
        took every card, every suit (ALL). Raises EntryError."""
        try:
            self.check(e)
        except EntryError as x:
            if x.key in ("sc", "rb", "np", "gr"):
                self._check_all(e)  # the primiera's step comes first
            raise
        self._check_all(e)

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
            plain = 0
            for suit in (1, 2, 3):
                if row[suit] >= 0:
                    plain += 1
            if (row[0] >= 0) != (d > 0) or plain > t - d or (plain == 0) != (t == d):
                msg = "%s: a primiera that does not fit %d cards, %d denari" % (self.names[i], t, d)
                raise EntryError(msg, "p", COUNT, i)
            if (row[0] == _SETTEBELLO) != (s == i):
                msg = "the settebello is %s's, and so the primiera's 7 of denari" % self.names[s]
                raise EntryError(msg, "p", SEVEN, s)
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
        fields = self.fields()
        pc = e.get("pc")
        np = e.get("np")
        rb = self.rules.re_bello
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
        sheet as it was, when it cannot be right."""
        self.points(e)
        self.rounds.append(e)

    def undo(self):
        """Remove the last round and return it (None when there is none)."""
        return self.rounds.pop() if self.rounds else None

    def edit(self, i, e):
        """Replace round `i` (0-based) by `e`; everything after is
        recounted. Raises EntryError or IndexError."""
        if not 0 <= i < len(self.rounds):
            raise IndexError("no round %d" % (i + 1))
        self.points(e)
        self.rounds[i] = e

    # Recount -------------------------------------------------------------

    def recount(self, scores=False):
        """Walk the evening: returns a list of matches, each a dict with
        ``rounds`` (list of (index, points, totals after): points is the
        round's points per side, or with `scores` its Score), ``totals``,
        ``over``, ``winner`` (side or None), ``game`` (0, 1...: with best
        of three a game is up to three matches), ``wins`` (matches won per
        side in that game so far) and ``finished`` (that game is over)."""
        r = self.rules
        n = r.sides
        # A slot per round, made whole first: what the recount keeps of each
        # round lies among its garbage, and after a collection in the middle
        # of a long sheet no hole is left for a growing list.
        matches: list = [None] * (len(self.rounds) + 1)
        k = 0
        game = 0
        wins = [0] * n
        cur = _match(n, game, wins)
        for i, e in enumerate(self.rounds):
            if cur["over"]:
                matches[k] = cur
                k += 1
                if cur["finished"]:
                    game += 1
                    wins = [0] * n
                cur = _match(n, game, wins)
            sc = self.points(e)
            before = cur["totals"]
            after = [before[k] + sc.total[k] for k in range(n)]
            cur["totals"] = after
            cur["rounds"].append((i, sc if scores else sc.total, after))
            if sc.napoleone >= 0:
                over, winner = True, sc.napoleone
            else:
                over, winner = scoring.match_result(r, after, sc.as_dict(), before)
            cur["over"], cur["winner"] = over, winner
            if over and winner is not None:
                wins = list(wins)
                wins[winner] += 1
                cur["wins"] = wins
                cur["finished"] = r.best_of == 1 or max(wins) * 2 > r.best_of
        matches[k] = cur
        del matches[k + 1 :]
        return matches

    def standing(self):
        """``(totals, over, winner, wins)`` of the match in progress (or
        just finished); wins counts matches won per side this evening."""
        ms = self.recount()
        wins = [0] * self.rules.sides
        for m in ms:
            if m["over"] and m["winner"] is not None:
                wins[m["winner"]] += 1
        last = ms[-1]
        return last["totals"], last["over"], last["winner"], wins

    def place(self, i):
        """``(match, round)`` of round `i` (0-based; len(rounds) for the
        next one): the match's number in the evening and the round's number
        in its match, both from 1."""
        ms = self.recount()
        for k, m in enumerate(ms):
            for j, r in enumerate(m["rounds"]):
                if r[0] == i:
                    return k + 1, j + 1
        last = ms[-1]
        if last["over"]:
            return len(ms) + 1, 1
        return len(ms), len(last["rounds"]) + 1

    # Saving ------------------------------------------------------------

    def to_obj(self):
        """JSON-able form (for store.save)."""
        return {
            "v": VERSION,
            "rules": self.rules.code(),
            "names": self.names,
            "rounds": self.rounds,
        }

    @classmethod
    def from_obj(cls, obj):
        """Sheet from `to_obj()` output. Raises ValueError when it is not a
        sheet (``format <v>, not <VERSION>`` for another version) or a round
        in it cannot be right."""
        from scopa.rules import Rules

        if not isinstance(obj, dict) or "v" not in obj:
            raise ValueError("not a score sheet")
        v = obj["v"]
        if v != VERSION:
            raise ValueError("format %s, not %d" % (v, VERSION))
        names = obj.get("names")
        rounds = obj.get("rounds")
        if not isinstance(names, list) or not isinstance(rounds, list):
            raise ValueError("not a score sheet")
        for x in names:
            if not isinstance(x, str):
                raise ValueError("not a score sheet")
        s = cls(Rules.from_code(obj.get("rules")), names)
        for e in rounds:
            if not isinstance(e, dict):
                raise ValueError("round %d: not an entry" % (len(s.rounds) + 1))
            try:
                s.add(e)
            except (TypeError, KeyError, IndexError) as x:
                raise ValueError("round %d: %r" % (len(s.rounds) + 1, x)) from None
        return s


def _match(n, game, wins):
    return {
        "rounds": [],
        "totals": [0] * n,
        "over": False,
        "winner": None,
        "game": game,
        "wins": wins,
        "finished": False,
    }


# On the device's flash -------------------------------------------------------


def save(sh, folder=""):
    """Write sheet `sh` to flash at once (store.save: a new file renamed
    over the old one, with a checksum; the previous copy kept as .bak).
    Raises OSError when the flash is full or read-only."""
    import store

    store.save(FILE, sh.to_obj(), folder)


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

    old = list(sh.rounds)
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
        sh.rounds = old
        raise


def keep_draft(obj, folder=""):
    """Save `obj` (a dict: ui.keeper_entry's draft of the round being
    typed) as DRAFT; None: remove it, a damaged copy set aside too
    (store.remove). An OSError (flash full) or a MemoryError is printed,
    never raised: the draft is a help, the sheet is what counts (a round
    confirmed must not be asked again for the draft's sake)."""
    import store

    try:
        if obj is None:
            store.remove(DRAFT, folder)
        else:
            store.save(DRAFT, obj, folder)
    except (OSError, MemoryError) as e:
        print("sheet: round draft not written:", repr(e))


def kept_draft(folder=""):
    """The draft keep_draft saved (a dict), or None: none, or damaged
    (then removed)."""
    import store

    obj, status = store.load(DRAFT, folder)[:2]
    if isinstance(obj, dict):
        return obj
    if status != store.NONE:
        keep_draft(None, folder)
    return None


def load(folder=""):
    """Read the sheet from flash: returns ``(sheet, status, why)``.

    sheet is None when nothing was saved (status store.NONE) or no copy is
    a good sheet (store.BAD); status OK, TMP or BAK says which copy was
    read (store.load), why what was wrong with the others (a copy that is
    a good record but not a good sheet, e.g. of another version, counts as
    damaged). A sheet read from the .tmp or .bak copy is saved again at
    once, so that the next save keeps it as its previous copy; with no
    good copy the damaged main one is set aside as sheet.sav.bad at once
    (store.set_aside)."""
    import store

    obj, status, why = store.load(FILE, folder, Sheet.from_obj)
    if obj is None:
        if status == store.BAD:
            try:
                store.set_aside(FILE, folder)  # kept as sheet.sav.bad, as the note says
            except OSError as e:
                why += "not set aside: %s; " % e
        return None, status, why
    sh = Sheet.from_obj(obj)
    if status != store.OK:
        try:
            save(sh, folder)
        except OSError as e:
            why += "not saved again: %s; " % e
    return sh, status, why


# What was wrong with a copy (from load()'s why), for the screens.
CUT = const(1)  # truncated
DAMAGED = const(2)  # random bytes, a bad checksum, not a sheet
NEWER = const(3)  # written by a later version of the firmware
OLDER = const(4)  # written by an earlier version


def trouble(why):
    """The first thing wrong in load()'s `why`: 0 (nothing), CUT, DAMAGED,
    NEWER or OLDER."""
    if not why:
        return 0
    first = why.split(";")[0]
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
