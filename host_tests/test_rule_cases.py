"""Every rule case of host_tests/rules (the project's own), and of
../shared/rules and the folder named by SCOPA_CASES when they exist,
against the engine, on CPython and on the MicroPython unix port."""

import json
import os
from pathlib import Path

import pytest

import mpy
from rulecases import evaluate, normalise

OWN = mpy.ROOT / "host_tests" / "rules"
SHARED = mpy.ROOT.parent / "shared" / "rules"


def case_folders():
    """The folders whose *.json cases run: ours first, then the optional ones
    that exist (../shared/rules, $SCOPA_CASES)."""
    extra = [SHARED]
    if os.environ.get("SCOPA_CASES"):
        extra.append(Path(os.environ["SCOPA_CASES"]))
    return [OWN] + [f for f in extra if f.is_dir()]


def load_folder(folder):
    """[(file stem, case)] of every *.json in `folder`, in file order."""
    return [
        (f.stem, case)
        for f in sorted(Path(folder).glob("*.json"))
        for case in json.loads(f.read_text())
    ]


def load_cases():
    """pytest params of every case; a case already loaded (same id, same
    content) from an earlier folder runs once. Raises RuntimeError when our
    own folder has no case (the test data went missing)."""
    own = load_folder(OWN)
    if not own:
        raise RuntimeError("no rule cases (*.json) in %s" % OWN)
    seen = {}
    out = []
    for folder in case_folders():
        for stem, case in own if folder == OWN else load_folder(folder):
            key = json.dumps(case, sort_keys=True)
            if seen.get(case["id"]) == key:
                continue
            seen[case["id"]] = key
            out.append(pytest.param(case, id="%s:%s" % (stem, case["id"])))
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


def test_own_cases_run_without_any_folder_beside_the_clone(monkeypatch, tmp_path):
    """A fresh clone has no ../shared and no SCOPA_CASES: our cases still run."""
    monkeypatch.delenv("SCOPA_CASES", raising=False)
    monkeypatch.setitem(globals(), "SHARED", tmp_path / "absent")
    loaded = load_cases()
    assert [p.values[0] for p in loaded] == [c for _, c in load_folder(OWN)]
    assert len(loaded) > 50


def test_scopa_cases_env_adds_its_cases(tmp_path, monkeypatch):
    """SCOPA_CASES names another folder of the same format: its cases are
    added to ours; one equal to ours runs once."""
    case = {
        "id": "X1",
        "check": "primiera",
        "rules": {"game": "scopa"},
        "pile": ["7D", "7C", "7S", "7B"],
        "expect": 84,
        "source": "test",
    }
    ours = [c for _, c in load_folder(OWN)]
    (tmp_path / "mine.json").write_text(json.dumps([case, ours[0]]))
    monkeypatch.setenv("SCOPA_CASES", str(tmp_path))
    monkeypatch.setitem(globals(), "SHARED", tmp_path / "absent")
    loaded = [p.values[0] for p in load_cases()]
    assert loaded == ours + [case]
    assert same(case, evaluate(case))
    case["expect"] = 83
    assert not same(case, evaluate(case))
