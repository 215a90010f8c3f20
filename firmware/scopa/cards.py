"""Cards as small ints.

A card is an int 0..39: ``suit * 10 + value - 1``. Suits in order denari
(coins, diamonds), coppe (cups, hearts), spade (swords, spades), bastoni
(batons, clubs); value 1..10 is the capture value (8 Fante/Jack, 9 Cavallo/
Queen, 10 Re/King). The text form ``7D``, ``10C`` is the one of the rule
cases (host_tests/rules/FORMAT.md), for tests, logs and replay codes.

Tables that depend on the card are ``bytes`` indexed by value - 1 (the
primiera's is `scopa.rules.PRIMIERA`, in the module every game loads).
This module imports nothing of the firmware.
"""

from micropython import const

N_CARDS = const(40)
DENARI = const(0)
COPPE = const(1)
SPADE = const(2)
BASTONI = const(3)
SETTEBELLO = const(6)  # 7 of denari
RE_DENARI = const(9)  # King of denari
MATTA = const(16)  # 7 of coppe (Cirulla's wild card)

SUITS = "DCSB"


# Face names for display, by value - 1.
FACES_IT = ("A", "2", "3", "4", "5", "6", "7", "F", "C", "R")
FACES_FR = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
SUIT_NAMES_IT = ("denari", "coppe", "spade", "bastoni")
SUIT_NAMES_FR = ("diamonds", "hearts", "spades", "clubs")


def card(value, suit):
    """Return the card (int 0..39) of `value` 1..10 and `suit` 0..3."""
    return suit * 10 + value - 1


def value(c):
    """Capture value 1..10 of card `c`."""
    return c % 10 + 1


def suit(c):
    """Suit 0..3 of card `c` (DENARI, COPPE, SPADE, BASTONI)."""
    return c // 10


def name(c):
    """Text form of card `c`, e.g. ``7D``."""
    return str(c % 10 + 1) + SUITS[c // 10]


def parse(text):
    """Card of the text form `text` (``7D``, ``10c``).

    Raises ValueError naming the text when it is not a card.
    """
    t = text.strip().upper() if isinstance(text, str) else ""
    if len(t) < 2 or t[-1] not in SUITS or not t[:-1].isdigit():
        raise ValueError("not a card: %r (value 1-10 then D, C, S or B)" % (text,))
    v = int(t[:-1])
    if not 1 <= v <= 10:
        raise ValueError("not a card: %r (value must be 1-10)" % (text,))
    return SUITS.index(t[-1]) * 10 + v - 1


def parse_list(texts):
    """List of cards from an iterable of text forms; raises ValueError."""
    return [parse(t) for t in texts]


def names(cards):
    """Space-separated text of `cards`, e.g. ``7D 1C``."""
    return " ".join(name(c) for c in cards)


def face(c, french=False):
    """Short face for display: rank letter or digit and suit index, e.g.
    ``("R", 0)`` for the Re di denari (``("K", 0)`` with French faces)."""
    return (FACES_FR if french else FACES_IT)[c % 10], c // 10
