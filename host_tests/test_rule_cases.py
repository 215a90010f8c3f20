"""Every rule case of shared/rules (or of the folder named by SCOPA_CASES)
against the engine, on CPython and on the MicroPython unix port."""

import json
import os
from pathlib import Path

import pytest

import mpy
from rulecases import evaluate, normalise

SHARED = mpy.ROOT.parent / "shared" / "rules"


def cases_dir():
    return Path(os.environ.get("SCOPA_CASES") or SHARED)


def load_cases():
    folder = cases_dir()
    files = sorted(folder.glob("*.json"))
    if not files:
        raise RuntimeError("no rule cases (*.json) in %s" % folder)
    out = []
    for f in files:
        for case in json.loads(f.read_text()):
            out.append(pytest.param(case, id="%s:%s" % (f.stem, case["id"])))
    return out


CASES = load_cases()


def same(case, got):
    check = case["check"]
    return normalise(check, got) == normalise(check, case["expect"])


@pytest.mark.parametrize("case", CASES)
def test_case(case):
    got = evaluate(case)
    assert same(case, got), "%s (%s): engine says %r, the case %r\nsource: %s" % (
        case["id"],
        case.get("note", ""),
        got,
        case["expect"],
        case["source"],
    )


@pytest.mark.mpy
def test_cases_on_the_unix_port():
    """The same cases give the same answers on MicroPython."""
    cases = [p.values[0] for p in CASES]
    blob = json.dumps(cases)
    code = (
        "import json\n"
        "from rulecases import evaluate\n"
        "cases = json.loads(%r)\n"
        "print(json.dumps([evaluate(c) for c in cases]))\n" % blob
    )
    out = mpy.run_mpy(code, path=(mpy.FIRMWARE, mpy.ROOT / "host_tests"))
    answers = json.loads(out)
    bad = [c["id"] for c, a in zip(cases, answers) if not same(c, a)]
    assert not bad and len(answers) == len(cases)


def test_scopa_cases_env_replaces_the_folder(tmp_path, monkeypatch):
    """SCOPA_CASES names another folder of the same format: its cases, and
    only they, are loaded."""
    case = {
        "id": "X1",
        "check": "primiera",
        "rules": {"game": "scopa"},
        "pile": ["7D", "7C", "7S", "7B"],
        "expect": 84,
        "source": "test",
    }
    (tmp_path / "mine.json").write_text(json.dumps([case]))
    monkeypatch.setenv("SCOPA_CASES", str(tmp_path))
    loaded = load_cases()
    assert [p.values[0]["id"] for p in loaded] == ["X1"]
    assert same(case, evaluate(case))
    case["expect"] = 83
    assert not same(case, evaluate(case))
