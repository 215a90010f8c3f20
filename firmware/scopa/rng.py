"""A small seeded random generator that gives the same numbers on CPython
and on MicroPython, using only small ints (every value stays below 2**30,
so a 32-bit board never allocates a long int for it).

It combines three multiplicative congruential generators (Wichmann and Hill,
Applied Statistics 31, 1982, algorithm AS 183) in integer form.
"""


class Rng:
    """Deterministic generator. `seed` is an int 0..2**30-1."""

    def __init__(self, seed=1):
        self.seed(seed)

    def seed(self, seed):
        """Restart the sequence of `seed` (int; only its low 30 bits count)."""
        seed &= 0x3FFFFFFF
        self.s1 = seed % 30268 + 1
        self.s2 = (seed >> 15) % 30306 + 1
        self.s3 = (seed % 30322 + (seed >> 10)) % 30322 + 1
        for _ in range(4):
            self.next()

    def next(self):
        """Next number, an int 0..30268."""
        self.s1 = 171 * self.s1 % 30269
        self.s2 = 172 * self.s2 % 30307
        self.s3 = 170 * self.s3 % 30323
        return (self.s1 + self.s2 + self.s3) % 30269

    def below(self, n):
        """An int 0..n-1 for 1 <= `n` <= 30269 (bias below n/30269)."""
        return self.next() % n

    def shuffle(self, buf, n=-1, start=0):
        """Shuffle the `n` items of `buf` (bytearray or list) from index
        `start` in place (all of them to the end when n < 0): Fisher-Yates.
        Allocates nothing (no slice or memoryview is needed for a part)."""
        if n < 0:
            n = len(buf) - start
        for i in range(n - 1, 0, -1):
            j = self.next() % (i + 1) + start
            k = start + i
            buf[k], buf[j] = buf[j], buf[k]

    def state(self):
        """The generator's state as a tuple of three ints (for saving)."""
        return (self.s1, self.s2, self.s3)

    def set_state(self, st):
        """Restore a `state()` tuple."""
        self.s1, self.s2, self.s3 = st
