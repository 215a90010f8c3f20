"""The polled debouncer (firmware/ui/buttons.py) on synthetic button traces.

A trace is a function of the time (ms) giving the raw mask; `drive` polls
the debouncer every `step` ms, drains each poll and logs (time, event name).
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ui import buttons
from ui.buttons import (
    DOWN,
    LEFT,
    LONG,
    PRESS,
    RELEASE,
    REPEAT,
    RIGHT,
    UP,
    A,
    B,
    Debouncer,
    button,
    kind,
    name,
    ticks_diff,
)
from ui.clock import VirtualClock
from ui.pins import PinButtons


def drive(deb, raw_at, until, step=10, start=0):
    """Poll `deb` from `start` to `until` ms; return [(t, 'KIND BUTTON')]."""
    log = []
    t = start
    while t <= start + until:
        raw = raw_at(t - start)
        ev = deb.poll(raw, t & 0x3FFFFFFF)
        while ev:
            log.append((t - start, name(ev)))
            ev = deb.poll(raw, t & 0x3FFFFFFF)
        t += step
    return log


def held(*spans):
    """Raw trace: (mask, start, end) spans, held for start <= t < end."""

    def raw_at(t):
        m = 0
        for mask, a, b in spans:
            if a <= t < b:
                m |= mask
        return m

    return raw_at


def names(log):
    return [n for _, n in log]


def test_event_encoding():
    assert PRESS == 0
    assert A == PRESS | A and name(A) == "PRESS A"
    assert name(B | LONG) == "LONG B"
    assert name(UP | REPEAT) == "REPEAT UP"
    assert name(RIGHT | RELEASE) == "RELEASE RIGHT"
    assert name(0) == ""
    for ev in (UP, B | LONG, LEFT | REPEAT, A | RELEASE):
        assert button(ev) in (UP, DOWN, LEFT, RIGHT, A, B)
        assert kind(ev) | button(ev) == ev
    assert len({UP, DOWN, LEFT, RIGHT, A, B}) == 6
    assert UP | DOWN | LEFT | RIGHT | A | B == buttons.ALL == 63


def test_press_and_release():
    deb = Debouncer(releases=True)
    log = drive(deb, held((A, 100, 300)), 500)
    assert log == [(120, "PRESS A"), (320, "RELEASE A")]
    assert deb.held == 0


def test_no_release_events_by_default():
    assert names(drive(Debouncer(), held((A, 100, 300), (UP, 400, 500)), 700)) == [
        "PRESS A",
        "PRESS UP",
    ]


def test_bounce_gives_one_press():
    # Contact bounce: 1 ms toggles for 15 ms on press and on release.
    def raw_at(t):
        if 100 <= t < 115 or 400 <= t < 415:
            return A if t % 2 else 0
        return A if 115 <= t < 400 else 0

    log = drive(Debouncer(releases=True), raw_at, 600, step=1)
    assert log == [(135, "PRESS A"), (434, "RELEASE A")]  # last bounce at 414


def test_glitch_shorter_than_debounce_is_ignored():
    deb = Debouncer(releases=True)
    assert drive(deb, held((A, 100, 115), (B, 200, 210)), 400, step=1) == []
    # and a drop-out shorter than debounce while held changes nothing
    log = drive(deb, held((A, 100, 250), (A, 260, 400)), 600, step=1)
    assert names(log) == ["PRESS A", "RELEASE A"]


def test_b_short_is_press_at_release():
    log = drive(Debouncer(releases=True), held((B, 100, 300)), 500)
    assert log == [(320, "PRESS B"), (320, "RELEASE B")]


def test_b_long_is_hint_and_no_press():
    log = drive(Debouncer(releases=True), held((B, 100, 1500)), 1700)
    assert log == [(720, "LONG B"), (1520, "RELEASE B")]


def test_b_just_under_long_is_press():
    log = drive(Debouncer(), held((B, 100, 680)), 900)
    assert names(log) == ["PRESS B"]


@pytest.mark.parametrize("caught_long,said", [(True, "LONG B"), (False, "PRESS B")])
def test_b_released_while_nobody_polled_is_as_its_reader_timed_it(caught_long, said):
    # the press seen, then no poll until after the release (the app busy):
    # the reader's edges say whether B was held LONG_MS (the hint, not
    # back or the menu); the time between two polls cannot tell that
    deb = Debouncer()
    assert deb.poll(0, 0) == 0
    assert deb.poll(B, 10) == 0
    assert deb.poll(B, 40) == 0 and deb.held == B
    raw = (B << buttons.CAUGHT_LONG) if caught_long else 0
    assert deb.poll(raw, 750) == 0  # released: debounced at a later poll
    assert name(deb.poll(0, 780)) == said
    assert deb.poll(0, 790) == 0


def test_a_reads_caught_tap_counts_once():
    # poll's contract: again with raw & ALL drains the queue; the same raw
    # with its CAUGHT bits again is another tap (App.step looped forever)
    deb = Debouncer()
    raw = A << buttons.CAUGHT
    assert deb.poll(raw, 100) == 0  # a tap once it has read released 20 ms
    assert name(deb.poll(raw & buttons.ALL, 120)) == "PRESS A"
    assert deb.poll(raw & buttons.ALL, 120) == 0
    assert deb.poll(raw, 130) == 0  # a new read that caught A again
    assert name(deb.poll(0, 150)) == "PRESS A"
    assert deb.poll(0, 160) == 0


def test_caught_press_let_go_before_its_debounce_is_a_tap():
    # one poll sees A held 5 ms after its caught press; the next comes
    # after the release (the app busy): a tap, not lost
    deb = Debouncer()
    assert deb.poll(A | (A << buttons.CAUGHT), 100) == 0
    assert deb.poll(0, 400) == 0  # released: a tap once it stays so
    assert deb.poll(0, 410) == 0
    assert name(deb.poll(0, 420)) == "PRESS A"
    assert deb.poll(0, 430) == 0
    # seen held without an edge (a reader with no interrupts): a glitch
    assert deb.poll(A, 500) == 0
    assert deb.poll(0, 510) == 0
    # caught, then held past the debounce: one PRESS, at the debounce
    assert deb.poll(A | (A << buttons.CAUGHT), 600) == 0
    assert name(deb.poll(A, 620)) == "PRESS A"
    assert deb.poll(0, 700) == 0 and deb.poll(0, 720) == 0


@pytest.mark.parametrize("bit,said", [(A, ["PRESS A"]), (B, ["LONG B"])])
def test_a_poll_that_reads_a_caught_press_mid_bounce_gives_it_once(bit, said):
    # the edge caught the press, a poll saw it held, the next read it open
    # mid-bounce: that was taken for a whole tap, then the settled press
    # gave a second PRESS (a B held for the hint: a "back" first)
    deb = Debouncer()
    log = []
    for t, raw in (
        [(2, bit | (bit << buttons.CAUGHT)), (12, 0)]
        + [(t, bit) for t in range(22, 1000, 10)]
        + [(t, 0) for t in range(1000, 1100, 10)]
    ):
        ev = deb.poll(raw, t)
        while ev:
            log.append(name(ev))
            ev = deb.next()
    assert log == said


def test_a_held_long_gives_one_press_only():
    log = drive(Debouncer(), held((A, 100, 2000)), 2200)
    assert log == [(120, "PRESS A")]


def test_direction_auto_repeat():
    deb = Debouncer(releases=True)
    log = drive(deb, held((RIGHT, 100, 1100)), 1300)
    # PRESS at 120, REPEAT at 520 (400 ms), then every 120 ms while held.
    assert log == [
        (120, "PRESS RIGHT"),
        (520, "REPEAT RIGHT"),
        (640, "REPEAT RIGHT"),
        (760, "REPEAT RIGHT"),
        (880, "REPEAT RIGHT"),
        (1000, "REPEAT RIGHT"),
        (1120, "RELEASE RIGHT"),
    ]


def test_repeat_after_late_poll_does_not_burst():
    deb = Debouncer()
    assert deb.poll(UP, 0) == 0
    assert deb.poll(UP, 20) == UP
    assert deb.poll(UP, 1000) == UP | REPEAT  # polled very late: one REPEAT
    assert deb.poll(UP, 1010) == 0
    assert deb.poll(UP, 1120) == UP | REPEAT


def test_timings_are_parameters():
    deb = Debouncer(debounce_ms=5, long_ms=100, repeat_delay_ms=50, repeat_ms=10)
    log = drive(deb, held((B, 0, 200), (DOWN, 300, 375)), 400, step=5)
    assert log == [
        (105, "LONG B"),
        (305, "PRESS DOWN"),
        (355, "REPEAT DOWN"),
        (365, "REPEAT DOWN"),
    ]  # at 375 DOWN is already up (raw): no REPEAT


def test_simultaneous_presses_queue_in_bit_order():
    deb = Debouncer(releases=True)
    both = held((UP | A | RIGHT, 100, 200))
    log = drive(deb, both, 400)
    assert log == [
        (120, "PRESS UP"),
        (120, "PRESS RIGHT"),
        (120, "PRESS A"),
        (220, "RELEASE UP"),
        (220, "RELEASE RIGHT"),
        (220, "RELEASE A"),
    ]


def test_queued_events_come_out_one_per_poll():
    deb = Debouncer()
    deb.poll(UP | DOWN, 0)
    assert deb.poll(UP | DOWN, 20) == UP
    assert deb.poll(UP | DOWN, 20) == DOWN
    assert deb.poll(UP | DOWN, 20) == 0
    deb.poll(LEFT | RIGHT, 30)
    deb.poll(LEFT | RIGHT, 50)
    deb.clear()
    assert deb.poll(LEFT | RIGHT, 50) == 0


def test_buttons_debounce_independently():
    # A bounces while UP is held steadily: UP is unaffected.
    def raw_at(t):
        m = UP if 100 <= t < 600 else 0
        if 300 <= t < 330:
            m |= A if t % 3 else 0
        elif 330 <= t < 450:
            m |= A
        return m

    log = drive(Debouncer(releases=True), raw_at, 800, step=1)
    assert ("PRESS UP") in names(log)
    assert names(log).count("PRESS A") == 1
    assert names(log).count("RELEASE A") == 1
    assert (120, "PRESS UP") in log
    assert (620, "RELEASE UP") in log


def test_mashing():
    # Fast mashing: 40 ms down, 40 ms up, 10 times: ten presses.
    spans = [(A, 100 + 80 * i, 140 + 80 * i) for i in range(10)]
    log = drive(Debouncer(releases=True), held(*spans), 1200, step=5)
    assert names(log) == ["PRESS A", "RELEASE A"] * 10
    # Mashing faster than the debounce time is taken as bounce: nothing.
    spans = [(A, 100 + 20 * i, 110 + 20 * i) for i in range(10)]
    assert drive(Debouncer(releases=True), held(*spans), 400, step=1) == []


def test_random_mashing_of_everything_is_well_formed():
    rng = random.Random(1234)
    deb = Debouncer(releases=True)
    raw = 0
    log = []
    for t in range(0, 20000, 3):
        if rng.random() < 0.1:
            raw ^= 1 << rng.randrange(6)
        ev = deb.poll(raw, t)
        while ev:
            log.append(ev)
            ev = deb.poll(raw, t)
    _check_well_formed(log)
    assert len(log) > 100


def _check_well_formed(log):
    """Per button: down-events (PRESS, LONG) and RELEASE alternate; REPEAT
    only between a direction's PRESS and RELEASE; B: LONG xor PRESS."""
    down = {}
    for ev in log:
        b, k = button(ev), kind(ev)
        state = down.get(b)
        if k == RELEASE:
            assert state is not None, name(ev)
            if b == B:
                assert state in ("PRESS", "LONG")
            down[b] = None
        elif k == REPEAT:
            assert b in (UP, DOWN, LEFT, RIGHT) and state == "PRESS", name(ev)
        elif k == LONG:
            assert b == B and state is None, name(ev)
            down[b] = "LONG"
        else:  # PRESS
            if b == B:
                assert state is None
                down[b] = "PRESS"  # given at the release: RELEASE follows at once
            else:
                assert state is None, name(ev)
                down[b] = "PRESS"


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 63), st.integers(1, 300)),
        min_size=1,
        max_size=40,
    )
)
def test_any_trace_is_well_formed(trace):
    deb = Debouncer(releases=True)
    t = 0
    log = []
    for mask, dur in trace + [(0, 100)]:
        for _ in range(0, dur, 7):
            ev = deb.poll(mask, t)
            while ev:
                log.append(ev)
                ev = deb.poll(mask, t)
            t += 7
    _check_well_formed(log)
    assert deb.held == 0


def test_ticks_wrap():
    start = (1 << 30) - 300  # ticks_ms wraps at 2**30 on a 32-bit board
    log = drive(Debouncer(releases=True), held((UP, 100, 900), (B, 1000, 1700)), 2000, start=start)
    assert log == [
        (120, "PRESS UP"),
        (520, "REPEAT UP"),
        (640, "REPEAT UP"),
        (760, "REPEAT UP"),
        (880, "REPEAT UP"),
        (920, "RELEASE UP"),
        (1620, "LONG B"),
        (1720, "RELEASE B"),
    ]
    assert ticks_diff(5, (1 << 30) - 5) == 10
    assert ticks_diff((1 << 30) - 5, 5) == -10


def test_virtual_clock():
    clk = VirtualClock(start_ms=(1 << 30) - 10)
    t0 = clk.ticks_ms()
    clk.sleep_ms(25)
    assert clk.ticks_ms() == 15
    assert clk.ticks_diff(clk.ticks_ms(), t0) == 25
    assert clk.ticks_add(t0, 25) == 15
    assert clk.elapsed == 25


class FakePin:
    def __init__(self, v=1):
        self.v = v

    def value(self):
        return self.v


def test_pin_buttons_active_low():
    pins = {bit: FakePin() for bit in (UP, DOWN, LEFT, RIGHT, A, B)}
    extra_a = FakePin()
    pb = PinButtons([(bit, p) for bit, p in pins.items()] + [(A, extra_a)])
    assert pb.read() == 0
    pins[LEFT].v = 0
    pins[B].v = 0
    assert pb.read() == LEFT | B
    pins[LEFT].v = pins[B].v = 1
    extra_a.v = 0
    assert pb.read() == A
    assert PinButtons([(UP, FakePin(1))], active_low=False).read() == UP


@pytest.mark.mpy
def test_same_events_on_the_unix_port(run_mpy):
    code = """
from ui.buttons import Debouncer, name, UP, A, B
deb = Debouncer(releases=True)
spans = ((UP, 100, 700), (A, 150, 160), (A, 200, 300), (B, 800, 1600))
for t in range(0, 1800, 10):
    raw = 0
    for m, a, b in spans:
        if a <= t < b:
            raw |= m
    ev = deb.poll(raw, t)
    while ev:
        print(t, name(ev))
        ev = deb.poll(raw, t)
"""
    out = run_mpy(code).splitlines()
    deb = Debouncer(releases=True)
    expected = [
        f"{t} {n}"
        for t, n in drive(
            deb, held((UP, 100, 700), (A, 150, 160), (A, 200, 300), (B, 800, 1600)), 1790
        )
    ]
    assert out == expected
    assert "1420 LONG B" in out
