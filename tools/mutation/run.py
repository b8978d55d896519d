"""Mutation testing of the four engines: break one rule at a time and see whether a test fails.

    .venv/bin/python tools/mutation/run.py                 # every engine, every mutant
    .venv/bin/python tools/mutation/run.py rings cards     # some engines
    .venv/bin/python tools/mutation/run.py rings --sample 50 --seed 1   # a quick look
    .venv/bin/python tools/mutation/run.py --all-survivors # also list the known equivalents
    .venv/bin/python tools/mutation/run.py --rerun LOG     # only the survivors LOG printed
    .venv/bin/python tools/mutation/run.py --report LOG... # score -v LOGs again (equivalents)
    .venv/bin/python tools/mutation/run.py --examples 20   # Hypothesis tests capped at 20
    .venv/bin/python tools/mutation/run.py rings --only _play --only _Turn  # some defs only

It prints, per engine, the mutants, how many the engine's own tests killed, how many survived
that ``equivalent.txt`` (beside this file) explains as unable to change behaviour, and every
other survivor with the key to paste into that file. It exits 1 when a survivor is new.

Why a small runner and not ``mutmut``: mutmut 3 copies the tree into ``mutants/``, rewrites
every function into a trampoline and needs the tests to import the copy; here the tests
import ``companion`` from the editable install, the CLI tests load bundled data through
``importlib.resources`` and the whole-suite run it starts would take hours on this machine.
This runner instead makes single-point mutants from the AST (comparisons flipped, integer
constants +-1, ``True``/``False`` swapped, conditions negated, ``not`` removed, ``and``/``or``
and arithmetic operators swapped, a statement or a loop removed, a returned value replaced by
``None``; not in annotations, docstrings or decorators, whose ``frozen=``/``slots=`` and cache
sizes guard against misuse or time but do not change behaviour), and runs, for each, only
the tests of that engine that call the function holding it (a map of the engine functions
each test calls is traced once, first), fastest first, stopping at the first failure:

- a mutant inside a function is applied by swapping that function's code object in a
  forked copy of one pytest session that has already imported and collected everything, so
  a mutant costs a fork plus the tests that cover it;
- a mutant at module level (a constant table, a dataclass field's default), or in a def
  that no test calls (it may still run while the module is imported), runs all the
  engine's tests in a fresh interpreter that imports the mutated module in its place.

Hypothesis runs derandomized and without its example database, so a run is repeatable and the
call map matches what each mutant's tests execute. Each mutant has a timeout (ten times what
its tests took, at least 20 s), and in a forked copy each test a CPU limit (ten times what it
took, at least 5 s), so a mutant that loops for ever stops in seconds; a mutant that hangs
counts as killed, as the suite's own timeout would fail it. The runner lowers its own
priority (``nice 15``) and uses one worker.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
EQUIVALENT = HERE / "equivalent.txt"

#: Engine name -> (its source files, its own test files), relative to the repository.
ENGINES: dict[str, tuple[tuple[str, ...], str]] = {
    "rings": (("companion/games/rings.py",), "tests/games/test_rings_*.py"),
    "icehouse": (("companion/games/icehouse.py",), "tests/games/test_icehouse_*.py"),
    "cards": (
        tuple(
            f"companion/games/cards/{n}.py"
            for n in ("__init__", "model", "record", "rules", "sheet", "views")
        ),
        "tests/games/test_cards_*.py",
    ),
    "stones": (
        tuple(
            f"companion/games/stones/{n}.py"
            for n in ("__init__", "datafile", "engine", "generate", "pieces")
        ),
        "tests/games/test_stones_*.py",
    ),
}

COMPARE_SWAP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
BINOP_SWAP: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.BitAnd: ast.BitOr,
    ast.BitOr: ast.BitAnd,
    ast.BitXor: ast.BitAnd,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
}


@dataclass(frozen=True)
class Mutant:
    """One single-point change to one engine file."""

    engine: str
    path: str  # relative to the repository
    index: int  # its place among the mutants of that file
    line: int
    code: str  # the qualified name of the code object that holds it (its innermost def)
    function: str  # the qualified name of the top-level def that holds it, or ""
    scope: str  # the innermost def or class, for the key
    description: str
    key: str = ""


@dataclass
class Outcome:
    """What the tests made of one mutant."""

    mutant: Mutant
    status: str  # "killed", "timeout", "survived", "uncovered"
    seconds: float
    tests: int = 0


# --- making mutants -------------------------------------------------------------------------


def _short(node: ast.AST, limit: int = 70) -> str:
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass
class _Site:
    node: ast.AST
    apply: Callable[[ast.AST], ast.AST | None]  # returns the replacement for the node
    description: str
    stmt: ast.stmt
    scopes: tuple[ast.AST, ...]


def _sites(tree: ast.Module) -> list[_Site]:
    """List every mutation point of a module, in a fixed order."""
    found: list[_Site] = []

    def skip_expr(node: ast.AST) -> bool:
        return isinstance(node, ast.JoinedStr)

    def visit(node: ast.AST, stmt: ast.stmt | None, scopes: tuple[ast.AST, ...]) -> None:
        if isinstance(node, ast.stmt):
            stmt = node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            scopes = (*scopes, node)
        in_function = any(isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) for s in scopes)
        if stmt is not None and not skip_expr(node):
            found.extend(_node_sites(node, stmt, scopes, in_function))
        for name, value in ast.iter_fields(node):
            if name in ("annotation", "returns", "type_comment", "decorator_list"):
                continue
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if _is_docstring(node, name, i):
                        continue
                    if isinstance(item, ast.AST):
                        visit(item, stmt, scopes)
            elif isinstance(value, ast.AST):
                visit(value, stmt, scopes)

    visit(tree, None, ())
    return found


def _is_docstring(parent: ast.AST, name: str, i: int) -> bool:
    if name != "body" or i != 0:
        return False
    if not isinstance(parent, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    first = parent.body[0]
    return (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    )


def _node_sites(
    node: ast.AST, stmt: ast.stmt, scopes: tuple[ast.AST, ...], in_function: bool
) -> Iterator[_Site]:
    def site(apply: Callable[[ast.AST], ast.AST | None], what: str) -> _Site:
        return _Site(node, apply, what, stmt, scopes)

    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            swap = COMPARE_SWAP.get(type(op))
            if swap is None:
                continue

            def flip(n: ast.AST, i: int = i, swap: type[ast.cmpop] = swap) -> ast.AST:
                assert isinstance(n, ast.Compare)
                n.ops[i] = swap()
                return n

            yield site(flip, f"comparison {type(op).__name__} -> {swap.__name__}")
    elif isinstance(node, ast.BinOp | ast.AugAssign):
        swap_op = BINOP_SWAP.get(type(node.op))
        if swap_op is not None and not (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Mod)
            and isinstance(node.left, ast.Constant)
        ):

            def arith(n: ast.AST, swap: type[ast.operator] = swap_op) -> ast.AST:
                assert isinstance(n, ast.BinOp | ast.AugAssign)
                n.op = swap()
                return n

            yield site(arith, f"operator {type(node.op).__name__} -> {swap_op.__name__}")
    elif isinstance(node, ast.BoolOp):
        other = ast.Or if isinstance(node.op, ast.And) else ast.And

        def boolop(n: ast.AST, other: type[ast.boolop] = other) -> ast.AST:
            assert isinstance(n, ast.BoolOp)
            n.op = other()
            return n

        yield site(boolop, f"{type(node.op).__name__.lower()} -> {other.__name__.lower()}")
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):
        yield site(lambda n: n.operand if isinstance(n, ast.UnaryOp) else n, "unary removed")
    elif isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            yield site(lambda n: ast.Constant(not value), f"constant {value} -> {not value}")
        elif isinstance(value, int):
            yield site(lambda n: ast.Constant(value + 1), f"constant {value} -> {value + 1}")
            yield site(lambda n: ast.Constant(value - 1), f"constant {value} -> {value - 1}")
    if isinstance(node, ast.If | ast.While | ast.IfExp):

        def negate(n: ast.AST) -> ast.AST:
            assert isinstance(n, ast.If | ast.While | ast.IfExp)
            n.test = ast.UnaryOp(ast.Not(), n.test)
            return n

        yield site(negate, "condition negated")
    if isinstance(node, ast.comprehension):
        for i in range(len(node.ifs)):

            def negate_if(n: ast.AST, i: int = i) -> ast.AST:
                assert isinstance(n, ast.comprehension)
                n.ifs[i] = ast.UnaryOp(ast.Not(), n.ifs[i])
                return n

            yield site(negate_if, "comprehension condition negated")
    if in_function and isinstance(node, ast.stmt):
        if isinstance(node, ast.Return) and node.value is not None:
            if not (isinstance(node.value, ast.Constant) and node.value.value is None):
                yield site(lambda n: ast.Return(ast.Constant(None)), "return None")
        elif isinstance(node, ast.Continue):
            yield site(lambda n: ast.Break(), "continue -> break")
        elif isinstance(node, ast.Break):
            yield site(lambda n: ast.Continue(), "break -> continue")
        elif isinstance(
            node, ast.Expr | ast.Assign | ast.AugAssign | ast.Raise | ast.For | ast.While
        ) and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            yield site(lambda n: ast.Pass(), f"statement removed ({type(node).__name__})")


def _qualname(scopes: tuple[ast.AST, ...]) -> str:
    """Return ``co_qualname`` of the innermost def among ``scopes`` ("" outside any def)."""
    parts: list[str] = []
    innermost = ""
    for scope in scopes:
        parts.append(getattr(scope, "name", ""))
        if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
            innermost = ".".join(parts)
            parts.append("<locals>")
    return innermost


def _import_time_names(tree: ast.Module) -> set[str]:
    """Names the module's own top-level code reads while it is imported (not in defs).

    A def called there (``STACK_SPACES = tuple(c for c in ALL_CELLS if is_stack_space(c))``)
    builds a table once; swapping its code later would change nothing, so its mutants run
    from source, where the table is built with the mutant.
    """
    names: set[str] = set()
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        stmt = pending.pop()
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if isinstance(stmt, ast.ClassDef):
            pending.extend(stmt.body)
            continue
        names.update(
            n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
        )
    return names


def mutants_of(engine: str, path: str) -> list[Mutant]:
    """Describe every mutant of one engine file."""
    source = (ROOT / path).read_text(encoding="utf-8")
    tree = ast.parse(source)
    sites = _sites(tree)
    at_import = _import_time_names(tree)
    lines = source.splitlines()
    result: list[Mutant] = []
    seen: dict[str, int] = {}
    for index, s in enumerate(sites):
        defs = [x for x in s.scopes if isinstance(x, ast.FunctionDef | ast.AsyncFunctionDef)]
        function = ""
        if defs:
            outer = s.scopes[: s.scopes.index(defs[0]) + 1]
            if all(isinstance(x, ast.ClassDef) for x in outer[:-1]):
                function = ".".join(getattr(x, "name", "") for x in outer)
        if function in at_import:  # a plain def (a method's name has a dot)
            function = ""  # the module calls it while it is imported: run it from source
        scope = ".".join(getattr(x, "name", "") for x in s.scopes) or "<module>"
        line = getattr(s.node, "lineno", s.stmt.lineno)
        text = " ".join(lines[line - 1].split())[:80].rstrip()
        if isinstance(s.node, ast.stmt) and s.description.startswith(("statement", "return")):
            text = _short(s.node)
        key = f"{path} | {scope} | {s.description} | {text}"
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            key += f" | #{seen[key]}"
        result.append(
            Mutant(
                engine,
                path,
                index,
                line,
                _qualname(s.scopes),
                function,
                scope,
                s.description,
                key,
            )
        )
    return result


def mutated_tree(mutant: Mutant) -> ast.Module:
    """Parse the mutant's file and apply its one change."""
    tree = ast.parse((ROOT / mutant.path).read_text(encoding="utf-8"))
    site = _sites(tree)[mutant.index]
    replacement = site.apply(site.node)
    _replace(tree, site.node, replacement)
    ast.fix_missing_locations(tree)
    return tree


def _replace(tree: ast.AST, old: ast.AST, new: ast.AST | None) -> None:
    if new is old:
        return
    assert new is not None
    ast.copy_location(new, old)
    for parent in ast.walk(tree):
        for name, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, name, new)
                return
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if item is old:
                        value[i] = new
                        return
    raise AssertionError("mutation site not found")


def module_name(path: str) -> str:
    """Return the dotted module name of a repository file."""
    parts = list(Path(path).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


# --- running the tests on a mutant -----------------------------------------------------------


def _find_code(code: types.CodeType, qualname: str, firstline: int) -> types.CodeType | None:
    if code.co_qualname == qualname and code.co_firstlineno == firstline:
        return code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            hit = _find_code(const, qualname, firstline)
            if hit is not None:
                return hit
    return None


def _live_functions(module: types.ModuleType, qualname: str) -> list[types.FunctionType]:
    """Return the function objects a qualified name may stand for (getter, setter, wrapped)."""
    obj: object = module
    for part in qualname.split("."):
        namespace = vars(obj) if isinstance(obj, type | types.ModuleType) else {}
        if part not in namespace:
            return []
        obj = namespace[part]
    found: list[types.FunctionType] = []
    pending = [obj]
    while pending:
        item = pending.pop()
        if isinstance(item, types.FunctionType):
            found.append(item)
        for attr in ("__func__", "fget", "fset", "fdel", "func", "__wrapped__"):
            inner = getattr(item, attr, None)
            if inner is not None and inner is not item:
                pending.append(inner)
    return found


def swap_code(mutant: Mutant) -> bool:
    """Put the mutant's code into the live function; False when it must be run from source."""
    if not mutant.function:
        return False
    module = sys.modules.get(module_name(mutant.path))
    if module is None:
        return False
    code = compile(mutated_tree(mutant), str(ROOT / mutant.path), "exec")
    swapped = False
    for function in _live_functions(module, mutant.function):
        new = _find_code(code, function.__code__.co_qualname, function.__code__.co_firstlineno)
        if new is None or new.co_freevars != function.__code__.co_freevars:
            continue
        function.__code__ = new
        swapped = True
    return swapped


def clear_caches() -> None:
    """Forget what the engines' caches computed with the unmutated code."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("companion.games") or module is None:
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


#: A forked child's exit status when one test ran past its CPU limit (see :func:`run_items`).
HUNG = 5


def _hung(signum: int, frame: types.FrameType | None) -> None:
    os._exit(HUNG)


def run_items(items: list[pytest.Item], limits: Sequence[float] = ()) -> bool:
    """Run pytest items in order; True when all passed.

    ``limits`` gives each item's CPU seconds: an item that spends more has hung (a mutant
    that loops for ever), and the forked child exits at once with :data:`HUNG` instead of
    waiting for the whole run's deadline. CPU time, not wall time: the machine is shared.
    """
    from _pytest.runner import runtestprotocol

    if limits:
        signal.signal(signal.SIGVTALRM, _hung)
    for i, item in enumerate(items):
        nextitem = items[i + 1] if i + 1 < len(items) else None
        if limits:
            signal.setitimer(signal.ITIMER_VIRTUAL, limits[i])
        reports = runtestprotocol(item, nextitem=nextitem, log=False)
        if limits:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        if any(r.failed for r in reports):
            return False
    return True


def _die_with_parent() -> None:
    """Ask Linux to kill this forked child when the runner ends (PR_SET_PDEATHSIG)."""
    import ctypes

    ctypes.CDLL(None).prctl(1, signal.SIGKILL)


def _silence() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)


def in_fork(work: Callable[[], int], timeout: float) -> tuple[int | None, float]:
    """Run ``work`` in a forked child; its exit status (None on timeout) and the time taken."""
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        status = 3
        try:
            _die_with_parent()
            _silence()
            status = work()
        finally:
            os._exit(status)
    deadline = start + timeout
    while True:
        done, wait_status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(wait_status), time.monotonic() - start
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None, time.monotonic() - start
        time.sleep(0.005)


def run_from_source(
    mutant: Mutant, nodeids: list[str], timeout: float, examples: int
) -> int | None:
    """Run tests in a fresh interpreter that imports the mutated module; its exit status."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as out:
        out.write(ast.unparse(mutated_tree(mutant)))
    command = [
        sys.executable,
        __file__,
        "--child",
        module_name(mutant.path),
        out.name,
        str(ROOT / mutant.path),
        *nodeids,
    ]
    try:
        done = subprocess.run(
            command,
            cwd=ROOT,
            env={**os.environ, "MUTATION_EXAMPLES": str(examples)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None
    finally:
        os.unlink(out.name)
    return done.returncode


def child(module: str, source: str, original: str, args: list[str]) -> int:
    """Import ``source`` as ``module`` (keeping its file name) and run pytest on ``args``."""
    import importlib.abc
    import importlib.machinery
    import importlib.util

    class Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        def find_spec(
            self,
            name: str,
            path: Sequence[str] | None,
            target: types.ModuleType | None = None,
        ) -> importlib.machinery.ModuleSpec | None:
            if name != module:
                return None
            is_package = original.endswith("__init__.py")
            return importlib.util.spec_from_loader(
                name, self, origin=original, is_package=is_package
            )

        def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
            return None

        def exec_module(self, mod: types.ModuleType) -> None:
            mod.__file__ = original
            if original.endswith("__init__.py"):
                mod.__path__ = [str(Path(original).parent)]
            text = Path(source).read_text(encoding="utf-8")
            exec(compile(text, original, "exec"), vars(mod))

    sys.meta_path.insert(0, Finder())
    _hypothesis_profile()
    most = int(os.environ.get("MUTATION_EXAMPLES", "0"))

    class Cap:
        def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
            if most:
                cap_examples(items, most)

    return int(pytest.main(["-x", "-q", "-p", "no:cacheprovider", *args], plugins=[Cap()]))


def _hypothesis_profile() -> None:
    from hypothesis import HealthCheck, Phase, settings

    # No shrinking: a mutant is killed by the first failing example; shrinking it (up to
    # minutes under load) would only make a better report of a failure nobody reads.
    settings.register_profile(
        "mutation",
        phases=(Phase.explicit, Phase.reuse, Phase.generate),
        derandomize=True,
        database=None,
        deadline=None,
        print_blob=False,
        suppress_health_check=list(HealthCheck),
    )
    os.environ["HYPOTHESIS_PROFILE"] = "mutation"


# --- the session ----------------------------------------------------------------------------


class _Tracer:
    """Record, per test, the engine functions it called (call events only: cheap enough)."""

    def __init__(self, files: set[str]) -> None:
        self.files = files
        self.called: set[tuple[str, str]] = set()

    def __call__(self, frame: types.FrameType, event: str, arg: object) -> None:
        code = frame.f_code
        if event == "call" and code.co_filename in self.files:
            self.called.add((code.co_filename, code.co_qualname))


def call_map(items: list[pytest.Item], files: set[str]) -> dict[str, Any]:
    """Run every item once under a tracer; per test, the functions it called and its time."""
    import threading

    from _pytest.runner import runtestprotocol

    result: dict[str, Any] = {}
    for i, item in enumerate(items):
        tracer = _Tracer(files)
        sys.settrace(tracer)
        threading.settrace(tracer)
        start = time.monotonic()
        nextitem = items[i + 1] if i + 1 < len(items) else None
        reports = runtestprotocol(item, nextitem=nextitem, log=False)
        sys.settrace(None)
        threading.settrace(None)
        result[item.nodeid] = {
            "seconds": time.monotonic() - start,
            "passed": not any(r.failed for r in reports),
            "called": sorted(f"{f}:{q}" for f, q in tracer.called),
        }
    return result


def cap_examples(items: list[pytest.Item], most: int) -> None:
    """Let every Hypothesis test try at most ``most`` examples (0: as the test says)."""
    from hypothesis import settings

    for item in items:
        test = getattr(item, "obj", None)
        current = getattr(test, "_hypothesis_internal_use_settings", None)
        if isinstance(current, settings) and current.max_examples > most:
            capped = settings(current, max_examples=most)
            test._hypothesis_internal_use_settings = capped  # type: ignore[union-attr]


class Plugin:
    """Take over pytest's run loop: trace once, then test every mutant."""

    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options
        self.status = 0

    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        items: list[pytest.Item] = list(session.items)
        if self.options.examples:
            cap_examples(items, self.options.examples)
        engines = self.options.engines or list(ENGINES)
        all_files = {str(ROOT / p) for e in engines for p in ENGINES[e][0]}
        cache = ROOT / ".mutation-calls.json"
        digest = _digest(engines) + f"-{self.options.examples}"
        lines: dict[str, dict[str, Any]]
        if cache.exists() and json.loads(cache.read_text()).get("digest") == digest:
            lines = json.loads(cache.read_text())["tests"]
        else:
            print(f"mutation: tracing {len(items)} tests once ...", flush=True)
            out = tempfile.NamedTemporaryFile(suffix=".json", delete=False)  # noqa: SIM115
            out.close()

            def trace() -> int:
                Path(out.name).write_text(json.dumps(call_map(items, all_files)))
                return 0

            status, seconds = in_fork(trace, 3600)
            if status != 0:
                print("mutation: tracing the tests failed", file=sys.stderr)
                self.status = 2
                return True
            lines = json.loads(Path(out.name).read_text())
            os.unlink(out.name)
            cache.write_text(json.dumps({"digest": digest, "tests": lines}))
            print(f"mutation: traced in {seconds:.0f} s", flush=True)
        failing = [n for n, t in lines.items() if not t["passed"]]
        if failing:
            print(f"mutation: tests fail before any mutation: {failing}", file=sys.stderr)
            self.status = 2
            return True
        equivalent = _read_equivalent()
        totals: list[str] = []
        new_survivors = 0
        started = time.monotonic()
        for engine in engines:
            outcomes = self.run_engine(engine, items, lines)
            killed = sum(o.status in ("killed", "timeout") for o in outcomes)
            alive = [o for o in outcomes if o.status in ("survived", "uncovered")]
            known = [o for o in alive if same_key(o.mutant.key) in equivalent]
            new = [o for o in alive if same_key(o.mutant.key) not in equivalent]
            new_survivors += len(new)
            can_change = len(outcomes) - len(known)
            score = 100.0 * killed / can_change if can_change else 100.0
            totals.append(
                f"{engine}: {len(outcomes)} mutants, {killed} killed, {len(known)} equivalent, "
                f"{len(new)} survived; score {score:.1f}% of the {can_change} that can "
                "change behaviour"
            )
            shown = alive if self.options.all_survivors else new
            for o in sorted(shown, key=lambda o: (o.mutant.path, o.mutant.line)):
                mark = " (no test runs it)" if o.status == "uncovered" else ""
                note = "  [equivalent]" if same_key(o.mutant.key) in equivalent else ""
                print(f"SURVIVED{mark}: {o.mutant.path}:{o.mutant.line}{note}\n    {o.mutant.key}")
            print(totals[-1], flush=True)
        print(f"\nmutation: {time.monotonic() - started:.0f} s")
        for line in totals:
            print(line)
        self.status = 1 if new_survivors else 0
        return True

    def run_engine(
        self, engine: str, items: list[pytest.Item], lines: dict[str, dict[str, Any]]
    ) -> list[Outcome]:
        paths, pattern = ENGINES[engine]
        own_files = {str(p) for p in ROOT.glob(pattern)}
        own = [i for i in items if str(i.path) in own_files]
        by_id = {i.nodeid: i for i in own}
        mutants = [m for p in paths for m in mutants_of(engine, p)]
        if self.options.rerun:
            wanted = {
                same_key(line.removeprefix("SURVIVED: "))
                for line in Path(self.options.rerun).read_text(encoding="utf-8").splitlines()
                if line.startswith(("    ", "SURVIVED: "))
            }
            mutants = [m for m in mutants if same_key(m.key) in wanted]
        if self.options.only:
            mutants = [m for m in mutants if _in_defs(m, self.options.only)]
        if self.options.sample and len(mutants) > self.options.sample:
            mutants = random.Random(self.options.seed).sample(mutants, self.options.sample)
        covering: dict[tuple[str, str], list[str]] = {}
        for nodeid in by_id:
            for entry in lines[nodeid]["called"]:
                filename, _, qualname = str(entry).partition(":")
                covering.setdefault((filename, qualname), []).append(nodeid)

        def seconds(nodeid: str) -> float:
            return float(lines[nodeid]["seconds"])

        everything = sorted(by_id, key=seconds)
        print(f"mutation: {engine}: {len(mutants)} mutants, {len(own)} tests", flush=True)
        outcomes: list[Outcome] = []
        for n, mutant in enumerate(mutants, 1):
            filename = str(ROOT / mutant.path)
            ids = set(covering.get((filename, mutant.code), ()))
            # A def no test calls may still run while its module is imported (a table
            # built at module level): such a mutant runs every test, from source.
            from_source = not mutant.function or not ids
            chosen = everything if from_source else sorted(ids, key=seconds)
            budget = max(20.0, 10 * sum(seconds(i) for i in chosen))
            status: int | None

            def work(chosen: list[str] = chosen, mutant: Mutant = mutant) -> int:
                if not swap_code(mutant):
                    return 4
                clear_caches()
                limits = [max(5.0, 10 * seconds(i)) for i in chosen]
                return 0 if run_items([by_id[i] for i in chosen], limits) else 1

            status, took = (4, 0.0) if from_source else in_fork(work, budget)
            if status == 4:
                start = time.monotonic()
                status = run_from_source(mutant, chosen, budget + 30, self.options.examples)
                took = time.monotonic() - start
            hung = status is None or status == HUNG
            verdict = "timeout" if hung else "survived" if status == 0 else "killed"
            if verdict == "survived" and not ids and mutant.function:
                verdict = "uncovered"
            outcomes.append(Outcome(mutant, verdict, took, len(chosen)))
            if self.options.verbose:
                print(f"  {n}/{len(mutants)} {verdict:8} {took:5.1f}s {mutant.key}", flush=True)
        return outcomes


def _in_defs(mutant: Mutant, names: Sequence[str]) -> bool:
    """Whether ``mutant`` is inside one of the defs or classes ``names`` (qualified names)."""
    return any(mutant.code == n or mutant.code.startswith(n + ".") for n in names)


def _digest(engines: list[str]) -> str:
    h = hashlib.sha256()
    for e in engines:
        paths, pattern = ENGINES[e]
        for p in sorted([*(ROOT / x for x in paths), *ROOT.glob(pattern)]):
            h.update(str(p).encode() + p.read_bytes())
    for p in [*sorted((ROOT / "tests/games").glob("*.py")), ROOT / "tests/conftest.py"]:
        h.update(p.read_bytes())
    return h.hexdigest()


def _read_equivalent() -> dict[str, str]:
    """Read ``equivalent.txt``: a key, then `` -- `` and why it cannot change behaviour."""
    result: dict[str, str] = {}
    if EQUIVALENT.exists():
        for raw in EQUIVALENT.read_text(encoding="utf-8").splitlines():
            if not raw.strip() or raw.startswith("#"):
                continue
            key, _, why = raw.partition(" -- ")
            result[same_key(key)] = why.strip()
    return result


def same_key(key: str) -> str:
    """Return a key with its white space collapsed, as it is compared."""
    return " ".join(key.split())


def _verdicts(logs: Sequence[str]) -> dict[str, str]:
    """Read ``-v`` logs: each mutant's key and verdict, a later log's verdict winning."""
    verdicts: dict[str, str] = {}
    for log in logs:
        for raw in Path(log).read_text(encoding="utf-8").splitlines():
            line = re.fullmatch(r"\s+\d+/\d+ (\w+)\s+[\d.]+s (.*)", raw)
            if line is not None:
                verdicts[same_key(line[2])] = line[1]
    return verdicts


def report(logs: Sequence[str]) -> int:
    """Score ``-v`` logs again with today's ``equivalent.txt``; 1 if a survivor is new.

    With several logs (a full run, then ``--rerun`` or ``--only`` runs after tests or a
    refactor) a later log's verdict wins, and only the mutants the engines' code has today
    are counted; one that no log ran is listed as ``NOT RUN``.
    """
    equivalent = _read_equivalent()
    verdicts = _verdicts(logs)
    engines = {
        e for key in verdicts for e, (paths, _) in ENGINES.items() if key.split(" | ")[0] in paths
    }
    new: list[str] = []
    for engine in [e for e in ENGINES if e in engines]:
        keys = [same_key(m.key) for p in ENGINES[engine][0] for m in mutants_of(engine, p)]
        counts = [0, 0, 0]  # killed, equivalent, alive
        for key in keys:
            verdict = verdicts.get(key)
            if verdict is None:
                print(f"NOT RUN: {key}")
                new.append(key)
                counts[2] += 1
            elif verdict in ("killed", "timeout"):
                counts[0] += 1
            elif key in equivalent:
                counts[1] += 1
            else:
                print(f"SURVIVED: {key}")
                new.append(key)
                counts[2] += 1
        killed, known, alive = counts
        can_change = len(keys) - known
        score = 100.0 * killed / can_change if can_change else 100.0
        print(
            f"{engine}: {len(keys)} mutants, {killed} killed, {known} equivalent, "
            f"{alive} survived; score {score:.1f}% of the {can_change} that can change behaviour"
        )
    return 1 if new else 0


def main(argv: list[str]) -> int:
    """Run the mutation test and print the figures."""
    if argv[:1] == ["--child"]:
        return child(argv[1], argv[2], argv[3], argv[4:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("engines", nargs="*", metavar="ENGINE", help=", ".join(ENGINES))
    parser.add_argument("--sample", type=int, default=0, help="test only N random mutants")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--all-survivors", action="store_true")
    parser.add_argument("--rerun", metavar="LOG", help="test only the survivors a run printed")
    parser.add_argument(
        "--examples",
        type=int,
        default=0,
        metavar="N",
        help="at most N examples per Hypothesis test (quicker; rerun survivors without it)",
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="DEF",
        help="test only the mutants inside this def or class (repeatable): after a refactor,"
        " the mutants of the defs it left alone have the outcome the last full run gave them",
    )
    parser.add_argument("--verbose", "-v", action="store_true")
    parser.add_argument("--list", action="store_true", help="print the mutants and stop")
    parser.add_argument(
        "--report",
        metavar="LOG",
        nargs="+",
        help="score -v runs' LOGs again (a later LOG's verdict wins) and stop",
    )
    options = parser.parse_args(argv)
    if options.report:
        return report(options.report)
    unknown = [e for e in options.engines if e not in ENGINES]
    if unknown:
        parser.error(f"unknown engine {unknown[0]!r}; one of {', '.join(ENGINES)}")
    engines = options.engines or list(ENGINES)
    if options.list:
        for e in engines:
            for p in ENGINES[e][0]:
                for m in mutants_of(e, p):
                    print(f"{m.path}:{m.line} {'fn' if m.function else 'module'} {m.key}")
        return 0
    os.nice(15)
    os.chdir(ROOT)
    _hypothesis_profile()
    plugin = Plugin(options)
    tests = sorted({str(p) for e in engines for p in ROOT.glob(ENGINES[e][1])})
    pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:randomly", *tests], plugins=[plugin])
    return plugin.status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
