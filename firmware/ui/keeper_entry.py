"""Entering a round on the scorekeeper: one step a field, then the review.

Steps (sheet.STEPS, those the rules ask for): cards taken, denari, who
took the settebello, the primiera (a side, nobody, or "by the cards": the
best card of each suit per side, from which the primiera is worked out),
scope, then re bello, napola (Cirulla: piccola) and grande when in play.
Last the review: the round's points and the match totals after it; A
confirms, and the sheet is written to flash at once. Its bottom line
says what A and B do ("A:ok B:back"; a round's review opened from the
history, "A:edit B:back") where a row is free for it (_layout).

A round of the sheet is named by its number and its match's, "R1 M2"
(each match counts its rounds from 1), on its review and its edit's
steps; an edit's steps and review show that name on a reversed top row,
so that an edit never looks like a new round ("Round 2").

Keys: UP / DOWN change the value (held, they repeat), LEFT / RIGHT move
between the sides, A goes on (to the next side, then the next step), B
goes back (from the first step: leaves, nothing saved; once the keeper
typed a value, "B again: drop": a second B leaves, any other key stays). Cards and denari
fill the last side with what is left of 40 and 10; with three sides or
more a side's one more comes from the last side or, where it has none
left, from a side between (typed after it), else from one before, and its
one fewer goes to the last side (a denaro, where the last side has no card
to hold it, to a side between that has, else to one before). The last side
can still be lowered, and raised past what the others leave it takes from
the nearest side before it with any. No key leaves a side more denari
than cards: where the last side, lowered, would get back more than its
cards, the one denaro alone moves (a side's one more from what is left,
its one fewer to the first side with a card for it, the last side
first); UP at a side's cards, or DOWN where every other side is at its
cards, does nothing, and the band says so ("Denari > cards") until the
next key; so does UP to a napola longer than the side's denari ("Denari
mismatch"). A
objects when the counts do not add up, the cursor then on the side to fix
(by the cards: on the card named twice, or on the first card of the side
whose cards do not fit its counts).
The settebello's and the primiera's steps open on a side only when the
counts leave no other; else nothing is chosen ("Pick with < >"): LEFT /
RIGHT pick the side on that hand, UP / DOWN the first / last choice, and
A objects until a pick. The settebello's and re bello's choices are the
sides that took a denaro (a re bello of another suit, in a sheet's
rules: every side). An edited round's steps open on its old values,
except one that the counts typed since rule out (denari past a side's
cards, the settebello, re bello, primiera, piccola or grande where the
denari or cards taken cannot have it: what sheet.Sheet.check_typed objects
to): that step opens as a new round's.

arg: ``(sheet, i)`` enters a new round (i = -1) or edits round i;
``(sheet, i, True)`` shows round i's review first (from the history),
where A edits it; ``(sheet, i, False, draft)`` goes on with a round
typed before a power cut (`draft`, App.keep_round: every key's state is
kept, saved at most a second after it).
"""

import lang
import sheet
from lang import tr
from scopa import scoring
from scopa.rules import CIRULLA
from ui import buttons as keys
from ui import gfx

REVIEW = "ok"
NAPOLA_RUNS = (0, 3, 4, 5, 6, 7, 8, 9, 10)
# The best card of a suit, cycled by UP: none, then by primiera points.
RANKS = (-1, 7, 6, 1, 5, 4, 3, 2, 10, 9, 8)
TOTAL = {"t": 40, "d": 10}
LABELS = {
    "t": lang.CARDS,
    "d": lang.COINS,
    "s": lang.SETTEBELLO,
    "p": lang.PRIMIERA,
    "sc": lang.SCOPE,
    "rb": lang.RE_BELLO,
    "np": lang.NAPOLA,
    "gr": lang.GRANDE,
}
CATEGORY_LABELS = {
    "cards": lang.CARDS,
    "coins": lang.COINS,
    "settebello": lang.SETTEBELLO,
    "primiera": lang.PRIMIERA,
    "scope": lang.SCOPE,
    "re_bello": lang.RE_BELLO,
    "napola": lang.NAPOLA,
    "piccola": lang.PICCOLA,
    "grande": lang.GRANDE,
}
# the variant's bonuses, one review row where short of rows (_layout)
_EXTRA = scoring.CATEGORIES[5:]
OTHERS = "others"
ERRORS = {
    sheet.MORE: lang.SK_MORE,
    sheet.NO_COINS: lang.SK_NO_COINS,
    sheet.CLASH: lang.SK_CLASH,
    sheet.NO_SEVEN: lang.SK_NO_SEVEN,
    sheet.SCOPE: lang.SK_SCOPE_CARDS,
}


UNSET = -2  # a choice step's value before the keeper picks one


def _new_winner(sh, before, after):
    """The note of an edit that changed a match's winner: "Winner
    changed", then the first such match's new result ("BO wins", "14-6"),
    which the totals no longer show when later rounds start a new match;
    a match that had no winner and has one now: "Match to BO", "0-12";
    one that had and has none now: "No winner yet"."""
    lines = [tr(lang.SK_NEW_WINNER)]
    for i in range(len(after)):
        w, t = after[i]
        if i >= len(before) or before[i][0] != w:
            if w is not None:
                if i >= len(before):  # a match that had no winner
                    lines = [tr(lang.MATCH_TO) % sh.names[w]]
                else:
                    lines.append(tr(lang.WINS) % sh.names[w])
                lines.append("-".join(str(x) for x in t))
            return lines
    if len(after) < len(before):  # the last match won is not any more
        return [tr(lang.SK_NO_WINNER)]
    return lines


def _fit(d, t, total):
    """Change the denari `d` in place so that no side has more than its
    cards `t`, still `total` in all: the excess to the last sides with
    room, as the last side takes what is left (5 / 5 becomes 0 / 10 when
    the first side took no card)."""
    left = total
    for i in range(len(d)):
        if d[i] > t[i]:
            d[i] = t[i]
        left -= d[i]
    for i in range(len(d) - 1, -1, -1):
        k = min(left, t[i] - d[i])
        d[i] += k
        left -= k


def _past(d, t):
    """The denari of `d` past the cards `t` of their sides, in all."""
    k = 0
    for i in range(len(d)):
        if d[i] > t[i]:
            k += d[i] - t[i]
    return k


def _room(d, t, i):
    """The side that takes side `i`'s one fewer denaro: the first with a
    card for it (`d` the denari, `t` the cards) of the last side, then
    those between (the last first), then those before `i` (the nearest
    first); -1 when none."""
    n = len(d)
    for j in [n - 1] + list(range(n - 2, i, -1)) + list(range(i - 1, -1, -1)):
        if j != i and d[j] < t[j]:
            return j
    return -1


def _ints(xs, lo, hi):
    """True when every item of `xs` is an int (not a bool, a list...)
    from `lo` to `hi`."""
    for x in xs:
        if type(x) is not int or not lo <= x <= hi:
            return False
    return True


def _only(v):
    """The one side with a count above 0, else UNSET."""
    side = UNSET
    for i in range(len(v)):
        if v[i] > 0:
            if side != UNSET:
                return UNSET
            side = i
    return side


class Screen(keys.Screen):
    """The counts of one round, a step at a time (see the module doc)."""

    READABLE = True  # idle: dimmed, never off (App.stays_readable)
    SKIP = keys.LONG

    def __init__(self, app, arg):
        self.app = app
        self.sh = sh = arg[0]
        self.idx = arg[1]
        self.n = n = sh.rules.sides
        self.steps = sh.fields() + [REVIEW]
        self.k = 0  # the step
        self.cur = 0  # the side (count steps) or the cell side * 4 + suit (primiera cards)
        self.cards = False  # typing the primiera's cards
        self.err = ""
        self.told = False  # err only explains the last key (a change, a refusal): gone at the next
        self.top = 0  # first category row shown on the review
        self.rev = None
        self.given = []  # steps whose value the player chose (no default then)
        v = {}
        self.v = v
        self.pc = [[-1, -1, -1, -1] for _ in range(n)]
        if self.idx >= 0:
            e = sh.rounds[self.idx]
            for f in ("t", "d", "sc"):
                v[f] = list(e[f])
            v["s"] = e["s"]
            if "pc" in e:
                v["p"] = n + 1
                self.pc = [list(c) for c in e["pc"]]
            else:
                v["p"] = e["p"] if e["p"] >= 0 else n
            v["rb"] = e.get("rb", -1)  # -1: an older entry's "nobody", kept
            v["gr"] = e.get("gr", -1)
            v["np"] = list(e.get("np") or [0] * n)
            self.given = list(self.steps)
        else:
            v["t"] = [20, 20] if n == 2 else [14, 13, 13]
            v["d"] = [5, 5] if n == 2 else [4, 3, 3]
            v["s"] = 0
            v["p"] = 0
            v["sc"] = [0] * n
            v["rb"] = UNSET
            v["gr"] = -1
            v["np"] = [0] * n
        self.drop = False  # B out asked: a second B drops the round
        # an edit's round as this screen makes it (an older record's missing
        # re bello, napola or grande as none): B out asks once it differs
        self.e0 = self.entry() if self.idx >= 0 else None
        self.match, self.round = sh.place(self.idx if self.idx >= 0 else len(sh.rounds))
        self.view = len(arg) > 2 and arg[2]
        if self.view:
            self.k = len(self.steps) - 1
            self.review()
        elif len(arg) > 3 and not self._resume(arg[3]):
            self.leave()  # not this screen's shape: the sheet, the draft removed

    def _resume(self, d):
        # the draft's state, when it has the shape of this screen's (True;
        # a damaged or another firmware's draft must not stop the app at
        # every start)
        n = self.n
        k = d.get("k")
        v = d.get("v")
        if isinstance(v, dict):  # (a copy: a step the draft's rules did not ask for at its default)
            w = dict(self.v)
            w.update(v)
            v = w
        pc = d.get("pc")
        g = d.get("g")
        cur = d.get("cur")
        if not (
            _ints([k, cur], 0, max(len(self.steps), 4 * n) - 1)
            and k < len(self.steps)
            and isinstance(v, dict)
            and isinstance(pc, list)
            and len(pc) == n
            and isinstance(g, list)
        ):
            return False
        for f in self.steps[:-1]:
            x = v.get(f)
            if f in ("t", "d", "sc", "np"):
                # as the screen keeps them: the cards and denari at most all
                # there (short where the last of three sides was lowered:
                # A then says the sum)
                if not (isinstance(x, list) and len(x) == n):
                    return False
                hi = TOTAL.get(f, sheet.MAX_SCOPE)
                if not _ints(x, 0, hi) or (f in TOTAL and sum(x) > hi):
                    return False
                if f == "np":
                    for r in x:
                        if r not in NAPOLA_RUNS:
                            return False
            elif not _ints([x], -1 if f == "gr" else UNSET, n + 1 if f == "p" else n - 1):
                return False  # a side, none chosen (UNSET), nobody, by the cards
        for c in pc:
            if not (isinstance(c, list) and len(c) == 4 and _ints(c, -1, 39)):
                return False
            for suit in range(4):
                if c[suit] >= 0 and c[suit] // 10 != suit:
                    return False
        for f in g:
            if f not in self.steps:
                return False
        f = self.steps[k]
        old = (self.v, self.pc, self.given)
        self.v, self.pc, self.given = v, pc, g
        self.cards = d.get("c") == 1 and f == "p" and v["p"] == n + 1
        if cur >= (4 * n if self.cards else n):
            cur = 0
        refused = False
        if f == REVIEW:
            try:
                self.sh.check_typed(self.entry())
            except sheet.EntryError as x:
                # (a lost sheet's round on other rules, ui.keeper_setup:
                # the step they refuse, and why)
                f = "p" if x.key == "pc" else x.key
                if f not in self.steps:
                    self.v, self.pc, self.given = old
                    return False
                k = self.steps.index(f)
                cur = 0
                refused = True
        self.k = k
        self.cur = cur
        if refused:
            self.err = self.objection()
        elif f == REVIEW:
            self.review()
        return True

    def draft(self):
        """What App.keep_round keeps of the round being typed (a dict):
        the sheet it is for (its names, rules and rounds), the round (i),
        the step, values, primiera cards and the steps chosen."""
        sh = self.sh
        return {
            "names": sh.names,
            "rules": sh.rules.code(),
            "n": len(sh.rounds),
            "i": self.idx,
            "e0": sh.rounds[self.idx] if self.idx >= 0 else None,
            "k": self.k,
            "v": self.v,
            "pc": self.pc,
            "g": self.given,
            "c": 1 if self.cards else 0,
            "cur": self.cur,
        }

    # The entry ------------------------------------------------------------

    def entry(self, upto=None):
        """The round as a sheet entry (dict). With `upto` (an index of
        self.steps) the steps after it among the scope, re bello, napola and
        grande count none and name no card (0, nobody's), so that what the
        check then objects to is a step's up to `upto`: a later step's old
        value neither hides nor blocks it (the sheet's check raises some
        later steps' errors first)."""
        v = self.v
        n = self.n
        e = {"t": list(v["t"]), "d": list(v["d"]), "s": v["s"], "sc": list(v["sc"])}
        if v["p"] == n + 1:
            e["pc"] = [list(c) for c in self.pc]
        else:
            e["p"] = v["p"] if v["p"] < n else -1
        for f in ("rb", "np", "gr"):
            if f in self.steps:
                e[f] = list(v[f]) if f == "np" else v[f]
        for f in self.steps[upto + 1 :] if upto is not None else ():
            if f in ("sc", "np"):
                e[f] = [0] * n
            elif f in ("rb", "gr"):
                e[f] = -1
        return e

    def step(self):
        return self.steps[self.k]

    def tag(self):
        """The round's name on the top row: a new round's "Round 2"; a
        round of the sheet (its review from the history, its edit) "R1 M2",
        round and match: every match has a round 1."""
        if self.idx < 0:
            return tr(lang.ROUND) % self.round
        return tr(lang.SK_AT) % (self.round, self.match)

    def _ink(self, fb, w):
        """The colour of the top row's first `w` pixels: an edit's (not
        its review from the history) reversed out of a filled bar."""
        p = self.app.pal
        if self.idx < 0 or self.view:
            return p.FG
        fb.fill_rect(0, 0, w, 8, p.FG)
        return p.BG

    def editable(self):
        """Sides A goes through on a count step: the last one of cards and
        denari is what is left."""
        f = self.step()
        return self.n - 1 if f in TOTAL else self.n

    def choices(self):
        f = self.step()
        n = self.n
        if f in ("s", "rb"):  # every card is taken: someone holds it
            # (a denaro, as the settebello and the re bello a sheet's rules
            # name: a side that took none is not offered)
            if f == "s" or 0 <= self.sh.rules.re_bello < 10:
                d = self.v["d"]
                ch = [i for i in range(n) if d[i]]
                if ch:
                    return ch
            return list(range(n))
        if f == "p":
            return list(range(n + 2))  # the sides, nobody, by the cards
        return list(range(n)) + [-1]  # the grande: split, nobody's

    def change(self, d):
        """UP (d = 1) or DOWN (-1) on the current value."""
        f = self.step()
        v = self.v
        n = self.n
        if f in ("t", "d", "sc"):
            hi = TOTAL.get(f, sheet.MAX_SCOPE)
            vals = v[f]
            was = vals[:] if f == "d" else None
            i = self.cur
            j = -1
            if f == "d" and d > 0 and vals[i] >= v["t"][i]:
                self._refuse()  # a side at its cards: none for one more denaro
                return
            if d < 0 and not vals[i]:
                return  # at 0: nothing changes (the last side kept as lowered)
            if f in TOTAL and n > 2:
                # the last side gets what is left (never below 0); itself at
                # most what the others leave
                hi = TOTAL[f] - sum(vals) + vals[i] + (vals[n - 1] if i < n - 1 else 0)
                if i < n - 1 or d > 0 and (f != "d" or vals[i] < v["t"][i]):
                    j = self._between(f, i, d, hi)
            if j >= 0:  # (a side between gives or takes the unit: _between)
                vals[i] += d
                vals[j] -= d
            else:
                vals[i] = max(0, min(hi, vals[i] + d))
                if f in TOTAL:
                    left = TOTAL[f]
                    if n == 2:
                        vals[1 - i] = left - vals[i]
                    elif i < n - 1:
                        vals[n - 1] = left - sum(vals[: n - 1])
            if was is not None and _past(vals, v["t"]) > _past(was, v["t"]):
                # the rest given back to the last side past its cards (it
                # was lowered): the one denaro alone moves instead, its one
                # more from what is left, its one fewer to the first side
                # with a card for it (the last side first); with none the
                # key does nothing, and says why
                vals[:] = was
                if d > 0:
                    vals[i] += 1  # (the last side's refill only passes its cards on a short sum)
                else:  # (vals[i] > 0: DOWN at 0 returned above)
                    j = _room(vals, v["t"], i)
                    if j < 0:
                        self._refuse()
                        return
                    vals[i] -= 1
                    vals[j] += 1
        elif f == "np":
            vals = v[f]
            j = NAPOLA_RUNS.index(vals[self.cur]) if vals[self.cur] in NAPOLA_RUNS else 0
            was = vals[self.cur]
            run = NAPOLA_RUNS[max(0, min(len(NAPOLA_RUNS) - 1, j + d))]
            if d > 0 and run > was and not self._napola_fits(run):
                # past the longest run the side's denari hold (past them,
                # or past its re bello's room): nothing, and why (what A says)
                self._refuse(lang.SK_CLASH)
                return
            vals[self.cur] = run
        else:
            ch = self.choices()
            if v[f] not in ch:  # the first pick (UNSET, or a side not offered)
                v[f] = ch[0] if d > 0 else ch[-1]
            else:
                v[f] = ch[(ch.index(v[f]) + d) % len(ch)]
        self._chose(f)

    def _napola_fits(self, run):
        """True when the side under the cursor's denari hold a napola of
        `run` or a longer one, by the sheet's check (sheet.Sheet.check_typed:
        a shorter run on the way may not fit, a run of 6 with the 7 of
        denari held). The napola is left as it was."""
        vals = self.v["np"]
        was = vals[self.cur]
        try:
            for r in NAPOLA_RUNS[NAPOLA_RUNS.index(run) :]:
                vals[self.cur] = r
                try:
                    self.sh.check_typed(self.entry(self.k))
                except sheet.EntryError as x:
                    if x.key == "np" and x.kind == sheet.CLASH and x.side == self.cur:
                        continue
                return True
            return False
        finally:
            vals[self.cur] = was

    def _refuse(self, sid=lang.SK_MORE):
        # a key that would give a side more denari than cards (or a napola
        # than denari): nothing changes (nor is the value the keeper's own
        # for it: _chose), and the band says why until the next key
        self.err = tr(sid)
        self.told = True

    def _between(self, f, i, d, hi):
        """With three sides or more, the side that gives side `i` its one
        more of count `f` (d = 1) where the last side has none left to give
        (`i` at `hi`, the most the others leave; `i` the last side itself,
        a denaro only where it has a card for it): the last side between `i`
        and the last with any, else the nearest before `i`; or that takes
        its one fewer (d = -1) of the denari where the last side has no
        card to hold it: the last side between with
        room for it, else the nearest before. -1: the last side's (what is
        left), or none. 26 / 14 / 0 cards, denari 4 / 6 / 0: UP on the
        first gives 5 / 5 / 0 (it stayed at 4), DOWN 3 / 7 / 0, DOWN on the
        second 5 / 5 / 0 (it gave the last side a denaro for no card)."""
        vals = self.v[f]
        t = self.v["t"]
        n = self.n
        # (vals[i] > 0 on DOWN: change returns at 0)
        if d > 0 and vals[i] < hi or d < 0 and (f != "d" or vals[n - 1] < t[n - 1]):
            return -1
        for j in list(range(n - 2, i, -1)) + list(range(i - 1, -1, -1)):
            if vals[j] > 0 if d > 0 else vals[j] < t[j]:
                return j
        return -1

    def _chose(self, f):
        """The keeper's own value for step `f`: no longer a suggestion."""
        if f not in self.given:
            self.given.append(f)
        self.err = ""

    def enter_step(self):
        """Defaults of the step just reached, only where the counts leave
        no doubt: the settebello and the re bello to the one side that took
        denari, the primiera to the one side that took cards or the one
        sure of every suit while the others lack one (_sure), and no more
        denari than cards (_fit), no more scope than half the cards nor
        than the side's plays (sheet.scope_cap; an edit's scope cut so says
        why: "Scope > cards/2", "Scope max 18").
        Otherwise nothing is chosen (UNSET): the
        keeper picks, and A objects until then. A side that took all ten
        denari has the run of ten (napola, piccola) and the grande. A value
        the keeper gave (an edited round's, or one typed before going back)
        stays, unless the counts typed since rule it out (_ruled_out): then
        the step opens as a new round's."""
        f = self.step()
        self.cur = 0
        self.cards = False
        if f in self.given:
            if not self._ruled_out(f):
                return
            self.given.remove(f)
        v = self.v
        d = v["d"]
        if f in ("s", "rb"):  # denari both: the one side that took any
            v[f] = _only(d)
        elif f == "p":
            v["p"] = _only(v["t"])
            if v["p"] == UNSET:
                v["p"] = self._sure()
        elif f == "d":
            _fit(d, v["t"], TOTAL["d"])
        elif f == "np":  # all ten denari: a run of ten (napola, piccola)
            v["np"] = [10 if x == 10 else 0 for x in d]
        elif f == "gr":  # the one side the denari leave it to, else nobody's
            v["gr"] = self._forced(f)
        elif f == "sc" and self.sh.rules.game != CIRULLA:
            # no more scope than half the cards (sheet: SCOPE) nor than the
            # side's plays (PLAYS); an edit's scope cut says why, the lower
            # bound of the first side cut
            sc = list(v["sc"])
            for i in range(len(sc)):
                most = sheet.scope_most(self.sh.rules, v["t"][i])
                if sc[i] > most:  # cut, and why the edit's scope changed
                    if sc == v["sc"]:  # (the first side cut)
                        if most == v["t"][i] // 2:
                            self.err = tr(lang.SK_SCOPE_CARDS)
                        else:
                            self.err = tr(lang.SK_SCOPE_PLAYS) % most
                        self.told = True
                    sc[i] = most
            v["sc"] = sc

    def _passing(self, f, choices):
        """The values of `choices` (a list) that step `f` may have by the
        sheet's check (_ruled_out); v[f] is left at the last one tried."""
        ok = []
        for c in choices:
            self.v[f] = c
            if not self._ruled_out(f):
                ok.append(c)
        return ok

    def _forced(self, f):
        """The one choice of step `f` (the grande) that the sheet's check
        lets pass, the later steps naming no card (entry): a side with all
        ten denari, or the side whose denari are the rest of those the
        others' piccola, settebello and re bello name (a piccola of 3, A 2
        3, all the other side took, leaves it the Fante, Cavallo and Re);
        -1 (nobody's) when more than one passes."""
        ok = self._passing(f, self.choices())
        return ok[0] if len(ok) == 1 else -1

    def _sure(self):
        """The primiera's side when the sheet's check (sheet.Sheet.check:
        a side without a suit has no primiera, pagat.com Scopa) lets one
        side alone win it and that side is sure of every suit (a denaro,
        and more than 20 of the 30 other cards, so at least one of each
        other suit), else UNSET. (Where a missing suit counts 0, the check
        lets every side with a card win it.)"""
        t = self.v["t"]
        d = self.v["d"]
        ok = self._passing("p", list(range(len(t))))
        if len(ok) == 1 and d[ok[0]] and t[ok[0]] - d[ok[0]] > 20:
            return ok[0]
        return UNSET

    def _ruled_out(self, f):
        """True when the sheet's check (sheet.Sheet.check) finds step `f`'s
        value wrong (sheet.Sheet.check_typed, the later steps naming no
        card: entry): an edited round's value, or one typed before going
        back, that the counts typed since rule out. The primiera "by the
        cards" only when a side's cards typed so far (none, some or all)
        are more than its counts hold (sheet.primiera_over): short of
        them, or naming a denaro the denari named elsewhere rule out, the
        step objects at A and names the side to fix."""
        try:
            self.sh.check_typed(self.entry(self.k))
        except sheet.EntryError as x:
            key = "p" if x.key == "pc" else x.key
            if key == "p" and self.v["p"] == self.n + 1:
                t = self.v["t"]
                d = self.v["d"]
                for i in range(self.n):
                    if sheet.primiera_over(self.pc[i], t[i], d[i]):
                        return f == "p"
                return False
            return key == f
        return False

    def objection(self):
        """What is wrong with the steps so far ("" when nothing)."""
        if self.v.get(self.step()) == UNSET:
            return tr(lang.SK_PICK)
        try:
            self.sh.check_typed(self.entry(self.k))
        except sheet.EntryError as x:
            key = "p" if x.key == "pc" else x.key
            if key in self.steps and self.steps.index(key) > self.k:
                return ""
            if x.side >= 0 and self.step() in ("t", "d", "sc", "np"):
                self.cur = x.side
            elif self.cards and x.side >= 0 and x.kind in (sheet.TWICE, sheet.COUNT):
                # on the card named twice (its second side's), or on the
                # first card of the side whose cards do not fit its counts
                self.cur = 4 * x.side + (x.got // 10 if x.kind == sheet.TWICE else 0)
            elif self.cards and x.kind == sheet.SEVEN:
                self.cur = 4 * x.got  # on the denari card that is not, or is, the 7D
            elif self.cards and x.kind == sheet.CLASH and key == "p" and x.side >= 0:
                # a denaro the denari named elsewhere rule out: on that
                # side's denaro, and whose ("BO: fix cards")
                self.cur = 4 * x.side
                return tr(lang.SK_CARDS_FIT) % self.sh.names[x.side]
            if x.kind == sheet.SUM:
                return tr(lang.SK_SUM) % (x.got, x.want)
            if x.kind == sheet.SEVEN:
                return tr(lang.SK_SEVEN) % self.sh.names[x.side]
            if x.kind == sheet.COUNT:  # whose: "ADA: fix cards" (the cursor on them)
                return tr(lang.SK_CARDS_FIT) % self.sh.names[x.side]
            if x.kind == sheet.ALL:
                return tr(lang.SK_ALL_CARDS) % self.sh.names[x.side]
            if x.kind == sheet.PLAYS:  # the most: "Scope max 18"
                return tr(lang.SK_SCOPE_PLAYS) % x.want
            if x.kind == sheet.SWEEPS:  # the sides' together: "Scope sum > 18"
                return tr(lang.SK_SCOPE_ALL) % x.want
            if x.kind == sheet.TWICE:  # which card: "7C twice"
                return tr(lang.SK_TWICE) % gfx.card_text(x.got, self.app.french())
            if (
                x.kind == sheet.CLASH
                and key == self.step()
                and key in ("rb", "gr")
                and x.side != self.v[key]
            ):
                # who holds it, by the denari named: "Held by ADA" (not the
                # side picked, whose denari named are then too many)
                return tr(lang.SK_HELD) % self.sh.names[x.side]
            if x.kind in ERRORS:
                return tr(ERRORS[x.kind])
            return str(x)[:16]
        return ""

    def forward(self):
        self.err = self.objection()
        if self.err:
            return
        self.k += 1
        if self.step() == REVIEW:
            self.review()
        else:
            self.enter_step()

    def typed(self):
        """True when the keeper typed a value: an edited round differs
        from the one it opened on (`e0`); a new round has a step the keeper
        chose (`given`; the defaults a step opens on, enter_step's, are
        none)."""
        if self.idx >= 0:
            return self.entry() != self.e0
        return bool(self.given)

    def back(self):
        self.err = ""
        if self.k == 0:
            if self.drop or not self.typed():
                self.leave()
            else:  # a mashed B does not lose what was typed: asked first
                self.drop = True
                self.err = tr(lang.SK_DROP)
            return
        self.k -= 1
        self.cur = 0
        self.cards = False
        if self.step() in ("t", "d", "sc", "np"):
            self.cur = self.editable() - 1  # the last side typed
        elif self.step() == "p" and self.v["p"] == self.n + 1:
            self.cards = True
            self.cur = 4 * self.n - 1

    def leave(self):
        app = self.app
        self.left = True
        app.keep_round(None)
        if self.idx >= 0:
            app.go("scorekeeper", "History", (self.sh, self.idx))
        else:
            app.go("scorekeeper", "Screen", self.sh)

    def review(self):
        """Work out the round's points and the match after it."""
        sh = self.sh
        e = self.entry()
        self.top = 0
        sc, after, winner, self.round = sh.preview(e, self.idx)
        self.rev = (sc, after, winner)

    def confirm(self):
        app = self.app
        sh = self.sh
        e = self.entry()
        moved = None  # an edit whose recount gives a match another winner: its note
        if self.idx >= 0:
            j = self.idx
            won = sh.winners()
            err = app.commit_sheet(sh, "edit", j, e)
            now = sh.winners()
            if not err and [w for w, _ in now] != [w for w, _ in won]:
                moved = _new_winner(sh, won, now)
        else:
            j = len(sh.rounds)
            err = app.commit_sheet(sh, "add", -1, e)
        self.left = True  # (App.commit_sheet dropped the draft once written)
        note = [tr(lang.NOT_SAVED)] if err else []
        rev = self.rev
        if rev is not None:
            sc, after, winner = rev
            won = " (%s wins)" % sh.names[winner] if winner is not None else ""
            print(
                "sheet: %s round %d: %s -> %s%s"
                % (
                    "edit" if self.idx >= 0 else "add",
                    j + 1,
                    " ".join(str(x) for x in sc.total),
                    " ".join(str(x) for x in after),
                    won,
                )
            )
        if moved:  # said, on the totals it changed
            app.go("scorekeeper", "Screen", (sh, moved))
        elif self.idx >= 0 and not note:
            app.go("scorekeeper", "History", (sh, self.idx))
        else:
            app.go("scorekeeper", "Screen", (sh, note))

    # Keys -----------------------------------------------------------------

    left = False  # confirmed or left: nothing to keep

    def press(self, k, ev):
        """A key, then the round as it now is kept (App.keep_round). Once
        the round is confirmed or left a key goes to the sheet (a
        MemoryError after the confirm's write stopped it short of
        leaving: A again would add the round twice)."""
        if self.left:
            self.app.go("scorekeeper", "Screen", self.sh)
            return
        self._press(k, ev)
        if not self.left and not self.view:
            self.app.keep_round(self.draft())

    def _press(self, k, ev):
        app = self.app
        rep = ev & keys.REPEAT
        app.dirty = True
        if self.drop and k != keys.B:
            # the round is not dropped: the key does what it does, the
            # question goes
            self.drop = False
            self.err = ""
        if self.told:  # (seen: the values are as they should be)
            self.told = False
            self.err = ""
        f = self.step()
        if f == REVIEW:
            self._key_review(k, rep)
        elif self.cards:
            self._key_cards(k, rep)
        elif k == keys.UP:
            self.change(1)
        elif k == keys.DOWN:
            self.change(-1)
        elif rep:
            return
        elif k in (keys.LEFT, keys.RIGHT):
            if f in ("t", "d", "sc", "np"):
                self.cur = (self.cur + (1 if k == keys.RIGHT else -1)) % self.n
            elif not 0 <= self.v[f] < self.n and (self.v[f] == UNSET or f != "p"):
                # the first pick, or from the grande's (or an old re bello's)
                # "nobody": the side on that hand (that can have it)
                ch = [c for c in self.choices() if 0 <= c < self.n]
                self.v[f] = ch[0] if k == keys.LEFT else ch[-1]
                self._chose(f)
            else:
                self.change(1 if k == keys.RIGHT else -1)
        elif k == keys.A:
            if f in ("t", "d", "sc", "np") and self.cur < self.editable() - 1:
                self.cur += 1
            elif f == "p" and self.v["p"] == self.n + 1:
                self.cards = True
                self.cur = 0
                self.err = ""
            else:
                self.forward()
        elif k == keys.B:
            if f in ("t", "d", "sc", "np") and self.cur > 0:
                self.cur -= 1
            else:
                self.back()

    def _key_review(self, k, rep):
        if k == keys.UP:
            self.top = max(0, self.top - 1)
        elif k == keys.DOWN:
            cats, vis = self._layout()[:2]
            self.top = max(0, min(len(cats) - vis, self.top + 1))
        elif rep:
            return
        elif k == keys.A:
            if self.view:
                self.view = False
                self.k = 0
                self.enter_step()
            else:
                self.confirm()
        elif k == keys.B:
            if self.view:
                self.leave()
            else:
                self.back()

    def _key_cards(self, k, rep):
        cells = 4 * self.n
        side, suit = divmod(self.cur, 4)
        if k in (keys.UP, keys.DOWN):
            c = self.pc[side][suit]
            val = c % 10 + 1 if c >= 0 else -1
            j = RANKS.index(val) + (1 if k == keys.UP else -1)
            val = RANKS[j % len(RANKS)]
            self.pc[side][suit] = -1 if val < 0 else suit * 10 + val - 1
            self.err = ""
        elif rep:
            return
        elif k in (keys.LEFT, keys.RIGHT):
            self.cur = (self.cur + (1 if k == keys.RIGHT else -1)) % cells
        elif k == keys.A:
            if self.cur < cells - 1:
                self.cur += 1
            else:
                self.forward()
        elif k == keys.B:
            if self.cur > 0:
                self.cur -= 1
            else:
                self.cards = False
                self.cur = 0
                self.err = ""

    # Drawing --------------------------------------------------------------

    def draw(self, fb):
        f = self.step()
        if f == REVIEW:
            self._draw_review(fb)
            return
        app = self.app
        p = app.pal
        label = LABELS[f]
        if f == "np" and self.sh.rules.game == CIRULLA:
            label = lang.PICCOLA
        top = self.err and self.cards  # the cards fill the screen: the objection on top
        if not top:
            c = self._ink(fb, app.w)
            t = self.tag()
            # (a round past 9 of a match past 99: "Primier R12 M100")
            gfx.text(fb, tr(label)[: app.w // 8 - 1 - len(t)], 0, 0, c)
            gfx.text(fb, t, app.w - 8 * len(t) - 1, 0, c)
        if self.cards:
            self._draw_cards(fb)
        elif f in ("t", "d", "sc", "np"):
            self._draw_counts(fb, self.v[f])
        else:
            self._draw_choice(fb)
        if self.err:
            y = 0 if top else app.h - 8
            fb.fill_rect(0, max(0, y - 1), app.w, 9, p.FG)
            gfx.centre(fb, self.err, y, p.BG, app.w)

    def _scale(self, cw):
        return max(1, min(cw // 10, (self.app.h - 31) // 5))

    def _names(self, fb, cw, lit):
        p = self.app.pal
        for i in range(self.n):
            name = self.sh.names[i]
            x = i * cw + (cw - 8 * len(name)) // 2
            if i == lit:
                fb.fill_rect(x - 2, 9, 8 * len(name) + 4, 10, p.FG)
            gfx.text(fb, name, x, 10, p.BG if i == lit else p.FG)

    def _draw_counts(self, fb, vals):
        app = self.app
        p = app.pal
        cw = app.w // self.n
        self._names(fb, cw, self.cur)
        s = self._scale(cw)
        for i in range(self.n):
            t = str(vals[i])
            tw = gfx.small_width(t, s)
            gfx.small(fb, t, i * cw + (cw - tw) // 2, 21, p.FG, s)

    def _draw_choice(self, fb):
        app = self.app
        p = app.pal
        n = self.n
        cw = app.w // n
        c = self.v[self.step()]
        # the step's default (the one side with denari, with cards) is a
        # suggestion until a key changes it: its "+1" in an outlined box,
        # its name not inverted; a side chosen: its name inverted and its
        # "+1" reversed out of a filled box; nothing chosen (UNSET): "Pick
        # with < >"
        chosen = self.step() in self.given
        self._names(fb, cw, c if 0 <= c < n and chosen else -1)
        s = self._scale(cw)
        if 0 <= c < n:
            x = c * cw + 4
            if chosen:
                fb.fill_rect(x, 19, cw - 8, 5 * s + 4, p.FG)
            else:
                fb.rect(x, 19, cw - 8, 5 * s + 4, p.FG)
            t = "+%d" % (scoring.GRANDE if self.step() == "gr" else 1)
            tw = gfx.small_width(t, s)
            gfx.small(fb, t, c * cw + (cw - tw) // 2, 21, p.BG if chosen else p.FG, s)
        elif not self.err:
            if c == UNSET:
                t = tr(lang.SK_PICK)
            else:
                t = tr(lang.SK_BY_CARDS if c == n + 1 else lang.SK_NOBODY)
            gfx.centre(fb, t, 21 + (5 * s - 8) // 2, p.FG, app.w)

    def _draw_cards(self, fb):
        app = self.app
        p = app.pal
        lay = app.lay
        s = lay.s
        r = self.sh.rules
        for i in range(self.n):
            y = 10 + i * (lay.ch + 2 * s)
            ty = y + (lay.ch - 8) // 2
            gfx.text(fb, self.sh.names[i], 0, ty, p.FG)
            x = 8 * 3 + 2
            for su in range(4):
                c = self.pc[i][su]
                lit = self.cur == 4 * i + su
                if c < 0:
                    gfx.card(fb, x, y, 0, p, s, gfx.GHOST)
                    gfx.suit(fb, su, x + 2 * s, y + 5 * s, p.FG, s, app.french())
                    if lit:
                        fb.rect(x, y, lay.cw, lay.ch, p.FG)
                else:
                    mode = gfx.LIT if lit else gfx.FACE
                    gfx.card(fb, x, y, c, p, s, mode, app.french())
                x += lay.cw + 2 * s
            tot = scoring.primiera([c for c in self.pc[i] if c >= 0], r.primiera_zero)[0]
            t = "-" if tot is None else str(tot)
            gfx.text(fb, t, app.w - 8 * len(t) - 1, ty, p.FG)

    def _layout(self):
        """The review's rows below the title: ``(categories, rows for
        them, key line shown, match's row shown)``. All the categories
        when they fit, else those that gave a point, then the round's
        total, the match's totals after it and the key line ("A:ok
        B:back", "A:edit B:back"). Where one row is short (128 x 64, five
        categories with a point) every category with a point stays, so
        that the rows add up to the total: a round of the history keeps
        its key line (its totals are the history's), a round typed its
        match's totals (A confirms it, as on every step). Past that two
        bonuses or more (re bello, napola, piccola, grande) are one row,
        ``OTHERS`` (as on the game's summary); six rows still (the five
        of every round and a bonus) take both lines' rows in a round typed,
        and scroll (UP / DOWN) under the key line in a round of the
        history, as more than that would beside all three."""
        sc = self.rev[0] if self.rev else None
        full = max(2, (self.app.h - 24) // 8)  # no key line
        if sc is None:
            return [], full - 1, True, True
        cats = sc.categories
        if len(cats) > full - 1:
            cats = [c for c in cats if max(getattr(sc, c)) > 0]
        if len(cats) > full and len([c for c in cats if c in _EXTRA]) > 1:
            cats = [c for c in cats if c not in _EXTRA] + [OTHERS]
        if len(cats) == full or len(cats) == full + 1 and self.view:
            return cats, full, self.view, not self.view
        if len(cats) == full + 1:
            return cats, full + 1, False, False
        return cats, full - 1, True, True

    def _row(self, sc, cat):
        """A review row's label and points per side (OTHERS: the
        variant's bonuses added up)."""
        if cat != OTHERS:
            return tr(CATEGORY_LABELS[cat]), getattr(sc, cat)
        return tr(lang.OTHERS), sc.others()

    def _draw_review(self, fb):
        app = self.app
        p = app.pal
        w = app.w
        h = app.h
        n = self.n
        if self.rev is None:
            return
        sc, after, winner = self.rev
        cw = 28 if n == 2 else 24  # two sides: a name of 3 and a gap
        cats, vis, keyline, match = self._layout()
        edge = 3 if len(cats) > vis else 1  # a pixel of margin, or clear of the scroll mark
        ends = [w - edge - (n - 1 - i) * cw for i in range(n)]
        t = self.tag()
        name = self.sh.names[0]
        # three sides: the first name in the 3 x 5 font where the round's
        # name would meet it, all names then (a name of 3 always is)
        small = 8 * len(t) + 3 > ends[0] - 8 * len(name)
        # (a gap of 3 px before a name in the 8 x 8 font, 1 before the 3 x 5
        # one's: "Round 10" beside three names of 3 and the scroll mark)
        if 8 * len(t) + (1 if small else 3) <= ends[0] - (
            gfx.small_width(name) if small else 8 * len(name)
        ):
            gfx.text(fb, t, 0, 0, self._ink(fb, 8 * len(t) + 1))
        for i, x in enumerate(ends):
            name = self.sh.names[i]
            if small or 8 * len(name) > cw - 4:  # three names of 3 ("NOIVOILOR"): the 3 x 5 font
                gfx.small(fb, name, x - gfx.small_width(name), 1, p.FG)
            else:
                gfx.text(fb, name, x - 8 * len(name), 0, p.FG)
        y = 8
        for j in range(self.top, min(len(cats), self.top + vis)):
            label, vals = self._row(sc, cats[j])
            gfx.text(fb, label, 0, y, p.FG)
            for i, x in enumerate(ends):
                t = str(vals[i])
                gfx.text(fb, t, x - 8 * len(t), y, p.FG)
            y += 8
        if len(cats) > vis:  # a scroll mark on the right edge
            bar = 8 * vis
            fb.vline(w - 1, 8 + bar * self.top // len(cats), bar * vis // len(cats), p.FG)
        y = h - 8 * (1 + match + keyline)  # (at the bottom: the total, the match's, the keys)
        for sid, vals in ((lang.TOTAL, sc.total), (lang.MATCH, after)):
            if sid == lang.MATCH and not match:
                continue
            gfx.text(fb, tr(sid), 0, y, p.FG)
            for i, x in enumerate(ends):
                t = str(vals[i])
                if sid == lang.MATCH and i == winner:
                    fb.fill_rect(x - 8 * len(t) - 1, y - 1, 8 * len(t) + 1, 9, p.FG)
                    gfx.text(fb, t, x - 8 * len(t), y, p.BG)
                else:
                    gfx.text(fb, t, x - 8 * len(t), y, p.FG)
            y += 8
        # what A and B do: a new round's or an edit's confirm, or an edit
        if keyline:
            gfx.centre(fb, tr(lang.SK_EDIT_KEYS if self.view else lang.OK_BACK), y, p.FG, w)
