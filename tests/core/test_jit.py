"""The kernel cache: where it lives, how the package knows a kernel is cached,
the first-run notice of the CLI, and the warm-up that compiles every kernel."""

from __future__ import annotations

import importlib
import io
import json
import os
import pkgutil
import subprocess
import sys

import pytest
from numba.core import event

import ddz_tools
from conftest import REPO
from ddz_tools.core import _jit

NOTICE = "compiling the move generator kernels (first run on this machine; "
CHECK = ("from ddz_tools.core._jit import is_cached, uncached\n"
         "from ddz_tools.moves.movegen import _gen\n"
         "print(is_cached(_gen), len(uncached(['movegen'])) < 4)\n")


def fresh_env(tmp_path) -> dict:
    """A subprocess environment whose kernel cache is empty (under XDG_CACHE_HOME)."""
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("DDZ_COMPILE_NOTICE", None)
    env.pop("NUMBA_DISABLE_JIT", None)
    return env


def run(args, env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=REPO,
                          timeout=900)


@pytest.mark.slow   # compiles the move generator from an empty cache (40 s; the CI budget)
def test_first_run_says_it_compiles_once(tmp_path):
    env = fresh_env(tmp_path)
    before = run(["-c", CHECK], env)
    assert before.stdout.split() == ["False", "False"], before.stderr
    first = run(["-m", "ddz_tools", "moves", "3456789TJQKA2XD"], env)
    assert first.returncode == 0, first.stderr
    lines = first.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(NOTICE), first.stderr
    # The cache is the package's folder under XDG_CACHE_HOME, keyed by the sources.
    folders = os.listdir(tmp_path / "ddz-tools")
    assert len(folders) == 1 and folders[0].startswith("numba-")
    again = run(["-m", "ddz_tools", "moves", "3456789TJQKA2XD"], env)
    assert again.returncode == 0 and again.stderr == "" and again.stdout == first.stdout
    after = run(["-c", CHECK], env)
    assert after.stdout.split() == ["True", "True"], after.stderr


def test_notice_is_one_line_per_module_and_skips_nested_compiles():
    import ddz_tools.engines.decompose  # noqa: F401  (registers its kernels and the move generator's)

    out = io.StringIO()
    notice = _jit._CompileNotice(out)
    by_module = {}
    for d in _jit.KERNELS:
        by_module.setdefault(_jit._short_module(d), []).append(d)
    (m1, (a, b, *_)), (m2, (c, *_)) = [(m, ks) for m, ks in by_module.items() if len(ks) >= 2][:2]

    def compile_of(d, nested=()):
        notice.notify(event.Event("numba:compile", event.EventStatus.START, data={"dispatcher": d}))
        for n in nested:
            compile_of(n)
        notice.notify(event.Event("numba:compile", event.EventStatus.END, data={"dispatcher": d}))

    compile_of(a, nested=[c])   # c compiles inside a: part of a's notice
    compile_of(b)               # same module as a: already announced
    assert out.getvalue().count("\n") == 1 and _jit._WHAT.get(m1, (m1,))[0] in out.getvalue()
    compile_of(c)               # a module of its own, compiled at top level
    assert out.getvalue().count("\n") == 2 and _jit._WHAT.get(m2, (m2,))[0] in out.getvalue()

    class Other:  # not a package kernel
        pass
    compile_of(Other())
    assert out.getvalue().count("\n") == 2


def test_notice_says_first_run_only_when_nothing_of_the_module_is_cached(monkeypatch):
    """``ddz bid`` compiles the bid evaluator's kernels for bids, ``--decide
    double`` others of the same module: each said "first run on this machine,
    once; ~125 s".  The second says it compiles more of them; and in one
    process, threads included, a module is announced once."""
    import threading

    import ddz_tools.engines.decompose  # noqa: F401  (registers its kernels and the move generator's)

    modules = {}
    for d in _jit.KERNELS:
        modules.setdefault(_jit._short_module(d), []).append(d)
    (m1, (a, b, *_)), (m2, (c, *_)) = [(m, ks) for m, ks in modules.items() if len(ks) >= 2][:2]
    cached = {id(b)}     # one kernel of m1 is in the disk cache, none of m2
    monkeypatch.setattr(_jit, "is_cached", lambda d: id(d) in cached)
    out = io.StringIO()
    notice = _jit._CompileNotice(out)

    def compile_of(d):
        notice.notify(event.Event("numba:compile", event.EventStatus.START, data={"dispatcher": d}))
        notice.notify(event.Event("numba:compile", event.EventStatus.END, data={"dispatcher": d}))

    threads = [threading.Thread(target=compile_of, args=(k,)) for k in (a, a, c, c)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    compile_of(a)
    lines = sorted(out.getvalue().splitlines())
    what1, what2 = (_jit._WHAT.get(m, (m, 20)) for m in (m1, m2))
    assert lines == sorted([
        f"compiling more of the {what1[0]} kernels (first use on this machine; up to ~{what1[1]} s)",
        f"compiling the {what2[0]} kernels (first run on this machine; ~{what2[1]} s)"])
    assert all("once" not in line for line in lines)


def test_before_first_kernel_runs_once_before_the_first_kernel_runs(tmp_path):
    """A function given to before_first_kernel runs at the first call of a
    kernel (before it is compiled or loaded), and only once; the laizi move
    generator is linked that way: importing the move generator links nothing."""
    (tmp_path / "hooked.py").write_text(
        "from ddz_tools.core import _jit\n"
        "ran = []\n"
        "_jit.before_first_kernel(lambda: ran.append(len(ran)))\n\n\n"
        "@_jit.kernel\n"
        "def k(x):\n"
        "    return x + 1\n")
    code = ("import hooked\n"
            "from ddz_tools.moves import movegen_laizi\n"
            "from ddz_tools.moves.movegen import generate\n"
            "from ddz_tools.core.rules import Rules\n"
            "print(hooked.ran, len(movegen_laizi._LINKED))\n"
            "print(hooked.k(1), hooked.ran, hooked.k(2), hooked.k(2.5), hooked.ran, len(movegen_laizi._LINKED))\n"
            "print(len(generate('3459', rules=Rules.parse('laizi').with_wild('9'))), len(generate('3459')))\n")
    # The kernels come from the shared cache (the hook runs before a kernel is
    # loaded as before one is compiled); hooked.k is cached under its own path.
    env = dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{REPO}")
    res = run(["-c", code], env)
    assert res.returncode == 0, res.stderr
    first, second, third = res.stdout.splitlines()
    assert (first, second) == ("[] 0", "2 [0] 3 3.5 [0] 1")
    laizi, classic = map(int, third.split())
    assert classic == 4 and laizi > classic


def test_threads_first_calling_kernels_at_once_wait_for_the_link(tmp_path):
    """Threads whose first kernel calls come at the same moment: none may load
    a kernel before the laizi generator's symbol is registered (a kernel
    loaded without it crashed the process: ddz simulate's workers did)."""
    code = ("import threading\n"
            "from ddz_tools.moves.movegen import generate\n"
            "from ddz_tools.core.rules import Rules\n"
            "r = Rules.parse('laizi').with_wild('9')\n"
            "start = threading.Barrier(4)\n"
            "out = []\n"
            "def work():\n"
            "    start.wait()\n"
            "    out.append(len(generate('34599', rules=r)))\n"
            "ts = [threading.Thread(target=work) for _ in range(4)]\n"
            "[t.start() for t in ts]\n"
            "[t.join() for t in ts]\n"
            "print(sorted(set(out)))\n")
    env = dict(os.environ)   # the shared cache, compiled by the warm-up (or by the first run here)
    first = run(["-c", code], env)
    assert first.returncode == 0, first.stderr
    for _ in range(4):  # loads from the cache: the race of the first calls
        res = run(["-c", code], env)
        assert res.returncode == 0, (res.returncode, res.stderr)
        assert res.stdout == first.stdout


def test_every_kernel_is_registered():
    for info in pkgutil.walk_packages(ddz_tools.__path__, "ddz_tools."):
        importlib.import_module(info.name)
    names = {f"{_jit._short_module(d)}.{d.py_func.__name__}" for d in _jit.KERNELS}
    assert {"movegen", "decompose", "solver", "policies", "selfplay", "records", "bid"} <= {
        n.partition(".")[0] for n in names}
    text = "".join(p.read_text(encoding="utf-8") for p in (REPO / "ddz_tools").rglob("*.py"))
    assert text.count("\n@kernel\n") + text.count("\n@flat_kernel\n") == len(_jit.KERNELS)


@pytest.mark.slow
def test_after_the_warm_up_no_command_compiles(tmp_path):
    env = fresh_env(tmp_path)
    res = run(["-m", "ddz_tools.warmup"], env)
    assert res.returncode == 0, res.stderr
    lines = res.stderr.splitlines()
    assert lines[-1].startswith("the kernels of every tool are compiled and cached")
    assert all(line.startswith("compiling the ") for line in lines[:-1])
    games = tmp_path / "games.jsonl"
    commands = [["moves", "3456789TJQKA2XD"], ["decompose", "3334445556667779XD"],
                ["solve", "--landlord", "3KK", "--farmer1", "44", "--farmer2", "A2", "--to-move", "landlord"],
                ["simulate", "-n", "5", "--out", str(games)], ["replay", "--fast", str(games)],
                ["replay", str(games)], ["bid", "3445567789TJQKA2D", "--samples", "50"],
                ["analyze", str(games), "--bids", "--bid-samples", "20"],
                ["classify", "333444-56"],
                # Enough positions that the solver's table doubles (its rehash kernel runs).
                ["solve", "--landlord", "3579JKA", "--farmer1", "468TQK2", "--farmer2", "3579JQA",
                 "--to-move", "landlord", "--tt-mb", "1"],
                ["solve", "--record", str(games), "--move", "3", "--node-limit", "2000"],
                ["advise", "--hand", "33JJQK2", "--unseen", "4455A"],
                ["advise", "--seat", "farmer2", "--hand", "KKA", "--counts", "4,5,3", "--after", "QQ",
                 "--by", "farmer1", "--samples", "16"],
                ["advise", "--record", str(games), "--move", "3", "--samples", "8"]]
    for args in commands:
        res = run(["-m", "ddz_tools", *args], env)
        assert res.returncode == 0, (args, res.stderr)
        assert "compiling the " not in res.stderr, (args, res.stderr)


def test_bit_scans_equal_their_python_stand_ins():
    """``low_bit`` and ``high_bit`` compiled into a kernel give what their
    plain-Python stand-ins give, on every one-bit word and on seeded random
    words of every length."""
    import random

    import numba

    @numba.njit
    def scan(x):
        return _jit.low_bit(x), _jit.high_bit(x)

    rng = random.Random(71)
    words = [1 << i for i in range(63)]
    words += [rng.randrange(1, 1 << rng.randint(1, 63)) for _ in range(3000)]
    for w in words:
        assert scan(w) == (_jit._low_bit_py(w), _jit._high_bit_py(w)), hex(w)
    assert _jit._low_bit_py(0b101000) == 3 and _jit._high_bit_py(0b101000) == 5


def test_a_kernel_called_with_constants_compiles_once_for_plain_types():
    """Calls between kernels with constant arguments share one version of the
    callee, compiled for plain int64; a callee that needs the constant (an
    index into a tuple of mixed types) still gets Numba's literal version."""
    import numba
    import numpy as np
    from numba import types

    def make(plain):
        def add(x, k):
            return x + k

        def pick(t, i):
            return t[i]

        add, pick = numba.njit(add), numba.njit(pick)
        if plain:
            _jit._plain_calls(add)
            _jit._plain_calls(pick)

        @numba.njit
        def caller(x):
            return add(x, 0) + add(x, 1) + add(x, x) + pick((x, 2.5), 1)

        return add, pick, caller

    add, pick, caller = make(plain=True)
    assert caller(np.int64(5)) == 5 + 6 + 10 + 2.5
    assert add.signatures == [(types.int64, types.int64)]
    assert [str(s[1]) for s in pick.signatures] == ["Literal[int](1)"]
    literal_add, _, literal_caller = make(plain=False)
    assert literal_caller(np.int64(5)) == caller(np.int64(5))
    assert len(literal_add.signatures) == 3   # Numba's own: one version per constant


def test_plain_arrays_are_typed_as_numba_types_them():
    """The array-typing shortcut gives Numba's own type for plain arrays of
    every dtype, dimension, layout and write flag, and leaves other arrays to
    Numba (a masked array is still refused)."""
    import numba
    import numpy as np
    from numba.core import errors
    from numba.core.typing.typeof import Purpose, _TypeofContext

    assert _jit._numba_typeof_ndarray is not None
    ctx = _TypeofContext(Purpose.argument)
    arrays = []
    for dtype in (np.int64, np.int32, np.uint64, np.float64, np.bool_, np.complex128):
        base = np.zeros((4, 6), dtype)
        arrays += [base, base[0], base[:, 1], base.T, base[::2, ::3], np.zeros(0, dtype), np.zeros((2, 2, 2), dtype)]
    frozen = np.arange(5)
    frozen.flags.writeable = False
    arrays.append(frozen)
    for a in arrays:
        assert numba.typeof(a) == _jit._numba_typeof_ndarray(a, ctx), (a.dtype, a.shape, a.strides)
    with pytest.raises(errors.NumbaTypeError):
        numba.typeof(np.ma.masked_array([1, 2]))


def test_a_solve_does_not_import_numpy_ma():
    """Typing the solver's arrays no longer imports ``numpy.ma`` (40 ms of start-up)."""
    code = ("import sys\n"
            "from ddz_tools.engines.solver import solve\n"
            "from ddz_tools.engines.position import Position\n"
            "print(solve(Position.two_player('33', '4')).result, 'numpy.ma' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=900)
    assert out.stdout.split() == ["win", "False"], out.stderr


def test_commands_load_cached_kernels_without_the_context_refresh(tmp_path):
    """A command loads its cached kernels without Numba's context refresh:
    run twice (the first run may compile), each command prints the same both
    times, and the second run never imported Numba's NumPy implementations
    (which the refresh imports).  Covers a kernel without reference counting
    (solve), kernels that allocate (decompose, bid) and a random generator
    (bid)."""
    code = ("import atexit, sys\n"
            "atexit.register(lambda: print('refreshed', 'numba.np.arraymath' in sys.modules, file=sys.stderr))\n"
            "from ddz_tools.cli import main\n"
            "main(sys.argv[1:])\n")
    commands = [["solve", "--me", "448999TJJQQAD", "--opponent", "336688TAA22X", "--format", "json"],
                ["decompose", "3334445556667779XD", "--format", "json"],
                ["bid", "3445567789TJQKA2D", "--samples", "40", "--seed", "3", "--format", "json"]]
    def result(out):
        obj = json.loads(out)
        for clock in ("seconds", "nodes_per_second"):
            obj.pop(clock, None)
        return obj

    for args in commands:
        first = run(["-c", code, *args], dict(os.environ))
        second = run(["-c", code, *args], dict(os.environ))
        assert first.returncode == 0 and second.returncode == 0, (args, first.stderr, second.stderr)
        assert result(first.stdout) == result(second.stdout), args
        assert second.stderr.strip().endswith("refreshed False"), (args, second.stderr)
