"""Every int the firmware computes, checked against a 32-bit board's small
ints (CPython only).

A 32-bit MicroPython keeps an int in the object word only from -2**30 to
2**30-1; any other int is a heap object (or an OverflowError on a port
without long ints), whether a local variable holds it or it only lives
for the time of an expression: ``(t * 2654435 + k) & 0x3FFFFFFF``
allocates for the product even though its result is small, and
``os.stat(p)`` builds a tuple holding file times near 1.7e9.

`install()` makes every module under firmware/ import again, compiled from
an AST in which each arithmetic result (binary and unary operators,
augmented assignments), each call's result (ints in a returned tuple, list
or dict too, so the C functions' results are seen), each for-loop target
and each int constant is checked: the first int outside the range raises
`BigInt` where it was made. Meant for a forked child process (the modules
are replaced in ``sys.modules``); `board_time()` gives ``time`` the
``ticks_ms`` / ``ticks_diff`` of a board, so that the firmware runs its
board branch, not the CPython stand-ins.
"""

import ast
import importlib.abc
import importlib.util
import sys
import time
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
LIMIT = 1 << 30
_CHK = "_intcheck_"


class BigInt(AssertionError):
    """An int a 32-bit board would have to allocate."""


def _big(v):
    return v >= LIMIT or v < -LIMIT


def _deep(v, where, depth):
    if isinstance(v, int):
        if _big(v):
            raise BigInt("int %d at %s" % (v, where))
    elif depth < 4 and isinstance(v, (tuple, list)):
        for x in v:
            _deep(x, where, depth + 1)
    elif depth < 4 and isinstance(v, dict):
        for k in v:
            _deep(k, where, depth + 1)
            _deep(v[k], where, depth + 1)


def check(v, where):
    """`v` itself (for use inside expressions); raises BigInt when it is
    an int out of range or holds one (tuples, lists and dicts, 4 deep)."""
    if type(v) is int:
        if -LIMIT <= v < LIMIT:
            return v
        raise BigInt("int %d at %s" % (v, where))
    if isinstance(v, (int, tuple, list, dict)):
        _deep(v, where, 0)
    return v


class _Instrument(ast.NodeTransformer):
    def __init__(self, filename):
        self.filename = filename

    def _wrap(self, node):
        where = "%s:%d" % (self.filename, node.lineno)
        call = ast.Call(
            func=ast.Name(id=_CHK, ctx=ast.Load()),
            args=[node, ast.Constant(value=where)],
            keywords=[],
        )
        return ast.copy_location(call, node)

    def visit_BinOp(self, node):
        self.generic_visit(node)
        return self._wrap(node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return node
        return self._wrap(node)

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Name) and f.id in ("const", "super", "range"):
            return node  # const(): a constant, checked as such; range's arguments are
        return self._wrap(node)

    def visit_Constant(self, node):
        v = node.value
        if type(v) is int and _big(v):
            raise BigInt("int constant %d at %s:%d" % (v, self.filename, node.lineno))
        return node

    def _load(self, target):
        t = ast.parse(ast.unparse(target), mode="eval").body
        return ast.copy_location(t, target)

    def _after(self, target, stmt):
        chk = ast.Expr(value=self._wrap(self._load(target)))
        return [stmt, ast.copy_location(chk, stmt)]

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        return self._after(node.target, node)

    def visit_For(self, node):
        self.generic_visit(node)
        it = node.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range":
            return node  # its arguments are checked
        chk = ast.Expr(value=self._wrap(self._load(node.target)))
        node.body.insert(0, ast.copy_location(chk, node))
        return node


def instrument(source, filename):
    """Code object of `source` (firmware text) with the checks added."""
    tree = ast.parse(source, filename)
    tree = _Instrument(Path(filename).name).visit(tree)
    ast.fix_missing_locations(tree)
    return compile(tree, filename, "exec")


class _Loader(importlib.abc.Loader):
    def __init__(self, path):
        self.path = path

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        code = _CODE.get(self.path)
        if code is None:
            code = _CODE[self.path] = instrument(Path(self.path).read_text(), self.path)
        module.__dict__[_CHK] = check
        exec(code, module.__dict__)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        parts = name.split(".")
        base = FIRMWARE.joinpath(*parts)
        pkg = base / "__init__.py"
        mod = base.with_suffix(".py")
        if pkg.is_file():
            return importlib.util.spec_from_file_location(
                name, pkg, loader=_Loader(str(pkg)), submodule_search_locations=[str(base)]
            )
        if mod.is_file():
            return importlib.util.spec_from_file_location(name, mod, loader=_Loader(str(mod)))
        return None


_CODE = {}


def board_time():
    """``time.ticks_ms`` (wrapping at 2**30) and ``time.ticks_diff``, as
    MicroPython has them."""

    def ticks_ms():
        return (time.monotonic_ns() // 1000000) & (LIMIT - 1)

    def ticks_diff(a, b):
        return ((a - b + (LIMIT >> 1)) & (LIMIT - 1)) - (LIMIT >> 1)

    time.ticks_ms = ticks_ms  # type: ignore[attr-defined]
    time.ticks_diff = ticks_diff  # type: ignore[attr-defined]


def install(also=()):
    """From now on the firmware's modules import instrumented: the ones
    already imported, and the host modules named in `also` that hold
    references to them (e.g. "ui_fakeboard"), are dropped from sys.modules."""
    for name, m in list(sys.modules.items()):
        f = getattr(m, "__file__", None) or ""
        if f.startswith(str(FIRMWARE)) or name in also:
            del sys.modules[name]
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
    board_time()
