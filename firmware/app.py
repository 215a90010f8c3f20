"""The Scopa handheld app: reads the board config, then runs the screens.

On the device `board.json` (written by the flash tool) names the board, and
`board.py` is that board's wiring (copied from `boards/<name>/board.py`).
"""

VERSION = "0.1.0"
CONFIG = "board.json"


def board_name(path=CONFIG):
    """Return the board name from the config file at `path` (str).

    Raises OSError when the file is missing and ValueError when it is not a
    JSON object with a "board" string.
    """
    import json

    with open(path) as f:
        cfg = json.load(f)
    if not isinstance(cfg, dict) or not isinstance(cfg.get("board"), str):
        raise ValueError("board.json: no board name")
    return cfg["board"]


def main():
    """Boot: print the boot line `Scopa <version> on <board>` and run."""
    try:
        name = board_name()
    except (OSError, ValueError) as e:
        print("Scopa", VERSION, "no board config:", e)
        return
    print("Scopa", VERSION, "on", name)
