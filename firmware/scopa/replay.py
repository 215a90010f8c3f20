"""Replay codes: a game as a short text that rebuilds it on either
interpreter. Save/resume and bug reports use them.

Format: ``S1.<rules>.<seed>.<moves>.<check>``: rules is `Rules.code()`,
seed in base 36 (0-9a-z) and, when the first dealer is not the last
seat, its seat as a capital letter (A: seat 0), moves the index of each
move among the legal moves in engine order (5 bits a char, high digits
first marked), check two chars of a hash of the rest. Rounds follow each
other when the moves go on past a round's end.
"""

from micropython import const

from scopa import engine
from scopa.game import Game
from scopa.rules import DIGITS, Rules, digit

# A code is read and written a byte (an int) at a time, never a character
# (a str of its own), which MicroPython would keep as a name for good
# (ui.gfx). The seed's digits are the first 36 of DIGITS (base 36).
VERSION = "S1"
_SEED_MAX = const(0x3FFFFFFF)


class ReplayError(ValueError):
    """A replay code that cannot be read or replayed; the message says why."""


def _check(body):
    h = 0
    for b in body.encode():
        h = (h * 31 + b) % 4093
    return bytes((DIGITS[h >> 6], DIGITS[h & 63])).decode()


def _seed(n, first):
    # the seed `n` in base 36, then the first dealer's seat `first` as a
    # capital letter (-1: none)
    out = bytearray(7)  # 36**6 > 2**30: every seed
    end = 6
    if first >= 0:
        out[6] = DIGITS[36 + first]
        end = 7
    i = 6
    while True:
        i -= 1
        out[i] = DIGITS[n % 36]
        n //= 36
        if not n:
            return out[i:end].decode()


def each_index(history):
    """Yield the move indices (ints) stored in `history` (a Game's
    bytearray of 7-bit varints), one at a time."""
    v = 0
    sh = 0
    for b in history:
        v |= (b & 127) << sh
        sh += 7
        if b < 128:
            yield v
            v = 0
            sh = 0


def indices(game):
    """The move indices of `game` (list of ints) from its history."""
    return list(each_index(game.history))


def encode(game):
    """The replay code (str) of `game` as it is now. Writes the moves into
    one bytearray (at most 2 chars per history byte): no list of moves or
    of chars is built, since a long game's list would need a large free
    block on a fragmented heap."""
    first = game.first if game.first != game.rules.players - 1 else -1
    head = "%s.%s.%s." % (VERSION, game.rules.code(), _seed(game.seed, first))
    out = bytearray(2 * len(game.history))
    n = 0
    for v in each_index(game.history):
        while v >= 32:
            out[n] = DIGITS[32 + (v & 31)]
            n += 1
            v >>= 5
        out[n] = DIGITS[v]
        n += 1
    body = head + out[:n].decode()
    return body + "." + _check(body)


def decode(code):
    """The Game that `code` describes, rebuilt move by move.

    Raises ReplayError when the code is malformed, damaged (check), of an
    unknown version, or names a move that is not legal.
    """
    if not isinstance(code, str):
        raise ReplayError("a replay code is text")
    code = code.strip()
    try:
        plain = len(code.encode()) == len(code)
    except UnicodeError:  # (CPython: a lone surrogate, from a terminal's input)
        plain = False
    if not plain:
        raise ReplayError("replay code damaged: a character not of a code")
    parts = code.split(".")
    if len(parts) != 5:
        raise ReplayError("not a replay code: expected 5 parts separated by '.'")
    if parts[0] != VERSION:
        raise ReplayError("replay code version %r is not %s" % (parts[0], VERSION))
    body = code[: code.rfind(".")]
    if _check(body) != parts[4]:
        raise ReplayError("replay code damaged: the check does not match")
    try:
        rules = Rules.from_code(parts[1])
    except ValueError as e:
        raise ReplayError("replay code: " + str(e)) from None
    seed = 0
    digits = parts[2].encode()
    first = None
    if digits and 36 <= digit(digits[-1]) < 62:  # a capital letter: the first dealer
        first = digit(digits[-1]) - 36
        digits = digits[:-1]
        if first >= rules.players - 1:
            n = rules.players
            raise ReplayError(
                "replay code: bad first dealer %s (%s; the last seat is written as none)"
                % (parts[2][-1:], "A" if n == 2 else "A to " + "ABCDE"[n - 2 : n - 1])
            )
    for j in range(len(digits)):
        d = digit(digits[j])
        # the seed stays a small int (below 2**30) at every step
        if not 0 <= d < 36 or seed > (_SEED_MAX - d) // 36:
            raise ReplayError("replay code: bad seed")
        seed = seed * 36 + d
    if not digits:
        raise ReplayError("replay code: bad seed")
    g = Game(rules, seed, first)
    i = 0
    sh = 0
    k = 0
    moves = parts[3].encode()
    for j in range(len(moves)):
        d = digit(moves[j])
        if d < 0:
            raise ReplayError("replay code: bad move character %r" % parts[3][j : j + 1])
        if d >= 32:
            i |= (d - 32) << sh
            sh += 5
            if sh > 25:
                raise ReplayError("replay code: move index too large")
            continue
        i |= d << sh
        k += 1
        if g.round_over:
            if g.finished:
                raise ReplayError("replay code: move %d after the end of the game" % k)
            g.next_round()
        try:
            g.play_index(i)
        except engine.IllegalMove as e:
            raise ReplayError("replay code: move %d: %s" % (k, e)) from None
        i = 0
        sh = 0
    if sh:
        raise ReplayError("replay code: truncated move")
    return g
