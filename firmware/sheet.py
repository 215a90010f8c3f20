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
  from which the primiera is worked out
- ``sc``: scope per side
- optional, for the variants in play: ``rb`` (side with the re bello, -1),
  ``np`` (length of the run of denari from the Ace per side, for napola
  and Cirulla's piccola: 0 or 3..10), ``gr`` (side with Fante, Cavallo and
  Re of denari, Cirulla's grande, -1)
"""

from scopa import scoring
from scopa.rules import CIRULLA

MAX_SCOPE = 40


class EntryError(ValueError):
    """A round entry that cannot be right; the message says what to fix."""


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

    def check(self, e):
        """Raise EntryError when entry `e` cannot be right."""
        n = self.rules.sides
        for k in ("t", "d", "sc"):
            v = e.get(k)
            if not isinstance(v, list) or len(v) != n:
                raise EntryError("%s: one number per side" % k)
            for x in v:
                if not isinstance(x, int) or x < 0:
                    raise EntryError("%s: counts are whole numbers from 0" % k)
        if sum(e["t"]) != 40:
            raise EntryError("cards add up to %d, not 40" % sum(e["t"]))
        if sum(e["d"]) != 10:
            raise EntryError("denari add up to %d, not 10" % sum(e["d"]))
        for i in range(n):
            if e["d"][i] > e["t"][i]:
                raise EntryError("%s: more denari than cards" % self.names[i])
            if e["sc"][i] > MAX_SCOPE:
                raise EntryError("%s: too many scope" % self.names[i])
        s = e.get("s", -1)
        if not isinstance(s, int) or not 0 <= s < n:
            raise EntryError("who took the settebello?")
        if e["d"][s] == 0:
            raise EntryError("%s took the settebello but no denari" % self.names[s])
        if "pc" in e:
            pc = e["pc"]
            if not isinstance(pc, list) or len(pc) != n:
                raise EntryError("primiera: four cards per side")
            seen = set()
            for i in range(n):
                if not isinstance(pc[i], list) or len(pc[i]) != 4:
                    raise EntryError("primiera: four cards per side")
                for suit, c in enumerate(pc[i]):
                    if c == -1:
                        continue
                    if not isinstance(c, int) or c // 10 != suit or c in seen:
                        raise EntryError("primiera: a card of the wrong suit or named twice")
                    seen.add(c)
        else:
            p = e.get("p", -2)
            if not isinstance(p, int) or not -1 <= p < n:
                raise EntryError("who won the primiera?")
        for k in ("rb", "gr"):
            v = e.get(k, -1)
            if not isinstance(v, int) or not -1 <= v < n:
                raise EntryError("%s: a side or -1" % k)
        np = e.get("np")
        if np is not None:
            if not isinstance(np, list) or len(np) != n:
                raise EntryError("napola: one run length per side")
            for i in range(n):
                if np[i] not in (0, 3, 4, 5, 6, 7, 8, 9, 10) or np[i] > e["d"][i]:
                    raise EntryError("%s: a napola is 0 or 3 to its denari" % self.names[i])

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

    def recount(self):
        """Walk the evening: returns a list of matches, each a dict with
        ``rounds`` (list of (index, Score, totals after)), ``totals``,
        ``over`` and ``winner`` (side or None)."""
        r = self.rules
        n = r.sides
        matches = []
        cur = {"rounds": [], "totals": [0] * n, "over": False, "winner": None}
        for i, e in enumerate(self.rounds):
            if cur["over"]:
                matches.append(cur)
                cur = {"rounds": [], "totals": [0] * n, "over": False, "winner": None}
            sc = self.points(e)
            before = cur["totals"]
            after = [before[k] + sc.total[k] for k in range(n)]
            cur["totals"] = after
            cur["rounds"].append((i, sc, after))
            if sc.napoleone >= 0:
                cur["over"], cur["winner"] = True, sc.napoleone
            else:
                cur["over"], cur["winner"] = scoring.match_result(r, after, sc.as_dict(), before)
        matches.append(cur)
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

    # Saving ------------------------------------------------------------

    def to_obj(self):
        """JSON-able form (for store.save)."""
        return {"v": 1, "rules": self.rules.code(), "names": self.names, "rounds": self.rounds}

    @classmethod
    def from_obj(cls, obj):
        """Sheet from `to_obj()` output. Raises ValueError when it is not a
        sheet or a round in it cannot be right."""
        from scopa.rules import Rules

        if not isinstance(obj, dict) or obj.get("v") != 1:
            raise ValueError("not a score sheet of this version")
        s = cls(Rules.from_code(obj["rules"]), obj["names"])
        for e in obj["rounds"]:
            s.add(e)
        return s
