"""The firmware as a mip package: its files, its version, package.json."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

from .common import FIRMWARE, REPO, FlashError


def firmware_files(fw_dir: Path) -> list[str]:
    """Every file of the firmware, as a POSIX path relative to `fw_dir`."""
    out: list[str] = []
    for path in sorted(fw_dir.rglob("*")):
        rel = path.relative_to(fw_dir)
        if any(part == "__pycache__" or part.startswith(".") for part in rel.parts):
            continue
        if path.is_file() and not path.name.endswith((".pyc", "~")):
            out.append(rel.as_posix())
    return out


def app_version(fw_dir: Path) -> str:
    """The `VERSION = "..."` string of the firmware in `fw_dir`: of
    consts.py (the app's constants, app.VERSION), or of app.py in a
    firmware without consts.py."""
    app = fw_dir / "consts.py"
    if not app.is_file():
        app = fw_dir / "app.py"
    try:
        tree = ast.parse(app.read_text(encoding="utf-8"))
    except (OSError, SyntaxError) as e:
        raise FlashError(f"cannot read the app version from {app}: {e}") from None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "VERSION" for t in node.targets
        ):
            if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                return node.value.value
    raise FlashError(f'{app} has no VERSION = "..." line')


def package_json(fw_dir: Path = FIRMWARE, repo: Path = REPO) -> dict[str, Any]:
    """The mip package of the firmware: device path -> repository path."""
    prefix = fw_dir.resolve().relative_to(repo.resolve()).as_posix()
    return {
        "urls": [[rel, f"{prefix}/{rel}"] for rel in firmware_files(fw_dir)],
        "deps": [],
        "version": app_version(fw_dir),
    }


def render_package_json(data: dict[str, Any]) -> str:
    """package.json text: one [device path, source] pair a line."""
    urls = ",\n".join("    " + json.dumps(pair) for pair in data["urls"])
    return (
        "{\n"
        f'  "urls": [\n{urls}\n  ],\n'
        f'  "deps": {json.dumps(data["deps"])},\n'
        f'  "version": {json.dumps(data["version"])}\n'
        "}\n"
    )


def check_output_file(path: Path) -> None:
    """Refuse `path` as a file to write: a folder, or in no folder. Raises
    FlashError (what: why, todo: what to do)."""
    if path.is_dir():
        raise FlashError(f"{path} is a folder", f"name a file, e.g. {path / 'package.json'}")
    folder = path.parent
    if not folder.is_dir():
        what = "is a file, not a folder" if folder.exists() else "does not exist"
        raise FlashError(f"{path}: the folder {folder} {what}", "name a file in a folder")


def write_package_json(path: Path, fw_dir: Path = FIRMWARE) -> None:
    """Write the mip package of the firmware in `fw_dir` to `path`. Raises
    FlashError for a path it cannot write (check_output_file; or the write
    fails)."""
    check_output_file(path)
    try:
        path.write_text(render_package_json(package_json(fw_dir)), encoding="utf-8")
    except OSError as e:
        raise FlashError(f"cannot write {path}: {e.strerror or e}") from None
