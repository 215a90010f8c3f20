"""The board catalogue: the folders of boards/ (board.py, manifest.json)."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .common import FlashError, say


@dataclass
class BoardConfig:
    """A folder `boards/NAME/`: its wiring (board.py) and its manifest."""

    name: str
    folder: Path
    description: str = ""
    libs: list[str] = field(default_factory=list)
    host: bool = False  # a simulator (manifest ``"host": true``), not for a device

    @property
    def board_py(self) -> Path:
        return self.folder / "board.py"


def _is_host(folder: Path) -> bool:
    """A host board (the simulator): its manifest says ``"host": true``."""
    try:
        return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["host"] is True
    except (OSError, ValueError, KeyError, TypeError):
        return False


def known_boards(boards_dir: Path, host: bool = False) -> list[str]:
    """The folders of `boards_dir` with a board.py: the real boards, and the
    host boards (simulators, which tests flash) too when `host`."""
    if not boards_dir.is_dir():
        return []
    return sorted(
        p.name
        for p in boards_dir.iterdir()
        if (p / "board.py").is_file() and (host or not _is_host(p))
    )


def board_name(boards_dir: Path, name: str) -> str:
    """`name` as a folder name of `boards_dir`: a path to one of its folders
    (``../boards/pico_ssd1306``, ``boards/pico_ssd1306/``) gives the folder's
    name. Raises FlashError for a path elsewhere or a name with no folder."""
    known = ", ".join(known_boards(boards_dir)) or "none"
    if "/" in name or os.sep in name or name in (".", ".."):
        path = Path(name).expanduser().resolve()
        home = boards_dir.resolve()
        if path.is_file() and path.parent.parent == home:
            path = path.parent  # (its board.py, its manifest.json: that board)
        if path.parent == home and path.is_dir():
            return path.name
        if path == home:
            raise FlashError(
                f"{name} is the boards folder, not one of its boards", f"pass one of: {known}"
            )
        if path.is_dir():
            raise FlashError(
                f"{name} is a folder outside {boards_dir}: the flash tool flashes its boards",
                f"add it to {boards_dir}, or pass one of: {known}",
            )
        what = "a file outside the boards' folders" if path.exists() else f"no folder {path}"
        raise FlashError(f"{what} (from --board {name})", f"pass one of: {known}")
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        raise FlashError(f"unknown board {name!r}", f"pass one of: {known}")
    if not (boards_dir / name).is_dir():
        raise FlashError(
            f"unknown board {name!r} (no folder {boards_dir / name})",
            f"pass one of: {known}",
        )
    return name


def load_board(boards_dir: Path, name: str) -> BoardConfig:
    """Read `boards_dir/name/` (board.py and manifest.json); `name` may be a
    path to that folder (see board_name)."""
    name = board_name(boards_dir, name)
    folder = boards_dir / name
    board = BoardConfig(name, folder)
    if not board.board_py.is_file():
        raise FlashError(
            f"board {name!r} has no board.py ({board.board_py})",
            "add the board's wiring file, see the other folders in boards/",
        )
    manifest = folder / "manifest.json"
    if not manifest.is_file():
        say(f"note: {manifest} is missing: assuming the board needs no libraries")
        return board
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except ValueError as e:
        raise FlashError(f"{manifest} is not valid JSON: {e}", "fix the file") from None
    libs = data.get("mip", []) if isinstance(data, dict) else None
    if not isinstance(libs, list) or not all(isinstance(x, str) and x for x in libs):
        raise FlashError(
            f'{manifest}: "mip" must be a list of package names',
            'e.g. {"name": "%s", "description": "...", "mip": ["ssd1306"]}' % name,
        )
    if data.get("name", name) != name:
        raise FlashError(
            f'{manifest}: "name" is {data.get("name")!r}, the folder is {name!r}',
            "make them the same",
        )
    board.description = str(data.get("description", ""))
    board.libs = list(libs)
    board.host = data.get("host") is True
    return board


def refuse_host_board(boards_dir: Path, board: BoardConfig) -> None:
    """FlashError for a host board (the simulator, the page): it runs on
    this computer, not on a device."""
    if board.host:
        known = ", ".join(known_boards(boards_dir)) or "none"
        play = "tools/web" if board.name == "web" else "tools/play"
        raise FlashError(
            f"{board.name} is a simulator board, not for a device: one of {known}",
            f"pass one of those with --board; {board.name} runs on this computer: {play}",
        )
