"""The board-side record of what the tool wrote, and the plan of an update."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable

from .common import PAUSED_MAIN, RECORD, TMP_SUFFIX, say
from .stage import Stage


@dataclass
class Record:
    """/.flash.json: the files the tool wrote, and the libraries it installed."""

    files: set[str] = field(default_factory=set)
    libs: dict[str, list[str]] = field(default_factory=dict)
    complete: bool = True
    unreadable: bool = False  # the board's record was there but damaged
    sources: set[str] = field(default_factory=set)  # libs installed as .py (--source)

    @classmethod
    def parse(cls, data: bytes | None) -> Record:
        """The record of the board's file `data` (None: no file). One that
        is not the tool's JSON (empty, not UTF-8, another shape) is said
        and read as empty, `unreadable` set."""
        if data is None:
            return cls()
        try:
            obj = json.loads(data.decode("utf-8"))
            files, libs = obj.get("files", []), obj.get("libs", {})
            sources = obj.get("sources", [])
            if not isinstance(files, list) or not isinstance(libs, dict):
                raise TypeError("not the tool's record")
            for v in [files, sources, *libs.values()]:
                if not isinstance(v, list) or not all(isinstance(f, str) for f in v):
                    raise TypeError("not the tool's record")
            return cls(
                set(files),
                {str(k): list(v) for k, v in libs.items()},
                bool(obj.get("complete", True)),
                sources=set(sources) & set(libs),
            )
        except (ValueError, AttributeError, TypeError):  # (UnicodeDecodeError: a ValueError)
            say(f"note: /{RECORD} on the board is unreadable: starting a new one")
            return cls(unreadable=True)

    def dump(self, board: str, version: str) -> bytes:
        data = {
            "tool": "scopa flash",
            "board": board,
            "version": version,
            "complete": self.complete,
            "files": sorted(self.files),
            "libs": {k: sorted(v) for k, v in sorted(self.libs.items())},
            "sources": sorted(self.sources & set(self.libs)),
        }
        return (json.dumps(data, indent=1) + "\n").encode()


def parents(path: str) -> list[str]:
    """'a/b/c.mpy' -> ['a', 'a/b']."""
    parts = path.split("/")[:-1]
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


def _dirs_of(paths: Iterable[str]) -> set[str]:
    dirs = {""}
    for p in paths:
        dirs.update(parents(p))
    return dirs


@dataclass
class Plan:
    copy: list[str]  # staged paths to write, main.py last
    same: list[str]
    remove: list[str]  # files to delete (stale, shadowing, leftovers)
    libs_install: list[str]  # mip specs to install online
    libs_keep: dict[str, list[str]]  # online specs already installed
    restore_main: bool  # main.py.flash-off holds the right stub
    notes: list[str]
    foreign: list[str] = field(default_factory=list)  # not the tool's, replaced or removed


def make_plan(
    stage: Stage,
    board_files: dict[str, tuple[int, str] | None],
    record: Record,
    sha256: bool,
    source: bool = False,
) -> Plan:
    """What a flash of `stage` (`source`: --source, its libraries as .py)
    does to a board holding `board_files` (path -> (size, sha256) or None)
    with `record`: a library installed before is kept when its files are
    there and it was installed as this flash installs it (a library named
    by its one file, ``github:o/r/x.py``, is that file either way)."""
    notes: list[str] = []
    files = {p: v for p, v in board_files.items() if v is not None}
    copy: list[str] = []
    same: list[str] = []
    restore_main = False
    for path in sorted(stage.files, key=lambda p: (p == "main.py", p)):
        have = files.get(path)
        if have and have[1] and have[1] == stage.sha(path):
            same.append(path)
            continue
        if path == "main.py" and not have:
            paused = files.get(PAUSED_MAIN)
            if paused and paused[1] == stage.sha(path):
                restore_main = True
                continue
        copy.append(path)
    if not sha256:
        notes.append("the board has no hashlib.sha256: every file is copied")

    libs_keep: dict[str, list[str]] = {}
    libs_install: list[str] = []
    for spec in stage.online_libs:
        old = record.libs.get(spec)
        one_file = spec.split("@", 1)[0].endswith((".py", ".mpy"))
        if (
            old
            and all(f in files for f in old)
            and (one_file or (spec in record.sources) == source)
        ):
            libs_keep[spec] = old
        else:
            libs_install.append(spec)

    wanted = set(stage.files) | {f for fs in libs_keep.values() for f in fs}
    remove = {f for f in record.files | {f for fs in record.libs.values() for f in fs}}
    remove = {f for f in remove if f not in wanted and f in files}
    for path in set(stage.files) | record.files | {RECORD}:  # (the record: 2 writes)
        if path + TMP_SUFFIX in files:
            remove.add(path + TMP_SUFFIX)
    if PAUSED_MAIN in files and not restore_main:
        remove.add(PAUSED_MAIN)
    owned = record.files | {f for fs in record.libs.values() for f in fs}
    foreign = {p for p in copy if p in files and p not in owned}
    for path in stage.files:  # MicroPython imports x.py before x.mpy
        if path.endswith(".mpy") and path[:-4] + ".py" in files:
            twin = path[:-4] + ".py"
            remove.add(twin)
            if twin not in owned:
                foreign.add(twin)
    return Plan(
        copy, same, sorted(remove), libs_install, libs_keep, restore_main, notes, sorted(foreign)
    )


def space_needed(
    plan: Plan, stage: Stage, board_files: dict[str, Any], block: int, wiped: Iterable[int] = ()
) -> tuple[int, int]:
    """(bytes the copies need, bytes the removals and replacements free);
    `wiped`: the sizes in bytes of files removed besides the plan's (--wipe)."""

    def blocks(n: int) -> int:
        return -(-n // block) * block if n else 0

    need = sum(blocks(stage.size(p)) for p in plan.copy) + 2 * block  # + the record
    freed = sum(blocks(board_files[p][0]) for p in plan.remove if board_files.get(p))
    freed += sum(blocks(n) for n in wiped)
    replaced = [blocks(board_files[p][0]) for p in plan.copy if board_files.get(p)]
    if replaced:  # the old file stays until its replacement is renamed over it
        freed += sum(replaced) - max(replaced)
    return need, freed
