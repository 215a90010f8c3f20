"""The firmware's layout: no import cycle inside firmware/, no screen
(firmware/ui) that imports the app, and every module of firmware/ and
tools/ named in the README's layout table.

The import graph is read from the source with `ast`: every ``import`` and
``from ... import`` of a firmware module, those inside functions too (a
cycle of imports made on demand is a cycle all the same), but not those
under ``if TYPE_CHECKING:`` (pyright's only; MicroPython compiles no block
under it). Importing ``a.b`` also runs package ``a``: an edge to it too.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"


def modules(root=FIRMWARE):
    """{module name: its .py path} of the firmware ("ui.table", "scopa" for
    scopa/__init__.py, "main")."""
    out = {}
    for p in sorted(root.rglob("*.py")):
        parts = list(p.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts:
            out[".".join(parts)] = p
    return out


def _type_checking(node):
    t = node.test
    return isinstance(t, ast.Name) and t.id == "TYPE_CHECKING"


def _imports(tree):
    """The import statements of `tree`, at any depth, skipping the bodies
    of ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _with_packages(name, known):
    """`name` and the packages above it that are firmware modules."""
    parts = name.split(".")
    return [n for n in (".".join(parts[: i + 1]) for i in range(len(parts))) if n in known]


def imported(name, path, known):
    """The firmware modules module `name` (at `path`) imports (a set)."""
    is_pkg = path.name == "__init__.py"
    out = set()
    for node in _imports(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for a in node.names:
                out.update(_with_packages(a.name, known))
            continue
        base = node.module or ""
        if node.level:
            pkg = name.split(".") if is_pkg else name.split(".")[:-1]
            if node.level > 1:
                pkg = pkg[: len(pkg) - (node.level - 1)]
            base = ".".join(pkg + ([base] if base else []))
        out.update(_with_packages(base, known))
        for a in node.names:
            sub = base + "." + a.name if base else a.name
            if sub in known:
                out.add(sub)
    out.discard(name)
    return out


def graph(root=FIRMWARE):
    """{module: set of firmware modules it imports}."""
    mods = modules(root)
    return {n: imported(n, p, mods) for n, p in mods.items()}


def cycles(g):
    """The import cycles of graph `g`: a list of the strongly connected
    components with more than one module (Tarjan), each sorted."""
    index = {}
    low = {}
    on = set()
    stack = []
    out = []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_the_graph_sees_imports_in_functions_and_skips_type_checking(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("def f():\n    from pkg import b\n")
    (tmp_path / "pkg" / "b.py").write_text("from . import c\n")
    (tmp_path / "pkg" / "c.py").write_text("import pkg.a as x\n")
    (tmp_path / "d.py").write_text("if TYPE_CHECKING:\n    import e\nimport os\n")
    (tmp_path / "e.py").write_text("import d\n")
    g = graph(tmp_path)
    assert g["pkg.a"] == {"pkg", "pkg.b"}
    assert g["pkg.b"] == {"pkg", "pkg.c"}
    assert g["pkg.c"] == {"pkg", "pkg.a"}
    assert g["d"] == set()  # TYPE_CHECKING's import is pyright's; os is no firmware module
    assert cycles(g) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_no_import_cycle_in_the_firmware():
    g = graph()
    assert "app" in g and "ui.table" in g and "scopa.engine" in g
    assert "config" in g["app"] and "consts" in g["config"]
    assert cycles(g) == []


def test_no_screen_imports_the_app():
    g = graph()
    screens = [n for n in g if n.startswith("ui.")]
    assert "ui.table" in screens and "ui.menu" in screens
    assert [n for n in screens if "app" in g[n]] == []


def test_the_readme_names_every_module():
    text = (ROOT / "README.md").read_text()
    paths = [
        p.relative_to(ROOT).as_posix()
        for d in (FIRMWARE, ROOT / "tools")
        for p in sorted(d.rglob("*.py"))
        if "node_modules" not in p.parts
    ]
    assert "firmware/app.py" in paths and "tools/sim.py" in paths
    assert [p for p in paths if "`%s`" % p not in text] == []


def _ints(path):
    """{name: value} of the module-level ``NAME = const(n)`` and ``NAME = n``
    (int n) of the file at `path`."""
    out = {}
    for node in ast.parse(path.read_text()).body:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        t, v = node.targets[0], node.value
        if isinstance(v, ast.Call) and getattr(v.func, "id", "") == "const" and v.args:
            v = v.args[0]
        if isinstance(t, ast.Name) and isinstance(v, ast.Constant) and type(v.value) is int:
            out[t.id] = v.value
    return out


def test_the_copies_of_shared_numbers_agree():
    # a screen does not import the app or turns.py (nor consts.py, which
    # the app drops), so it keeps copies of the few numbers it shares
    consts = _ints(FIRMWARE / "consts.py")
    app = _ints(FIRMWARE / "app.py")
    turns = _ints(FIRMWARE / "turns.py")
    table = _ints(FIRMWARE / "ui" / "table.py")
    summary = _ints(FIRMWARE / "ui" / "summary.py")
    assert table["HUMAN"] == summary["HUMAN"] == consts["HUMAN"]
    for k in ("PICK", "COVER", "COMPUTER", "OVER"):
        assert table["_TURN_" + k] == turns["_" + k]
    for k in ("_SUMMARY", "_HINT", "_NO_ROOM", "_SAVED"):
        assert turns[k] == app[k], k
