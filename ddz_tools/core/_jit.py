"""The one place that sets how kernels are compiled.

Every kernel in the package is decorated with :data:`kernel`: nopython mode
and an on-disk cache, so only the first run on a machine pays for compiling.
Kernels take and return int64 scalars and int64 arrays only; cached kernels
freeze the globals they read, so every table they use is a module constant
that never changes or is passed in.

Cache location.  Numba checks a cached kernel only against its own source
file, so a kernel that calls the move generator would keep running an old
generator after ``movegen.py`` changed.  The cache therefore lives in a folder
named by a hash of every source file of the package
(``~/.cache/ddz-tools/numba-<hash>``, or ``$XDG_CACHE_HOME``): any edit starts a
fresh cache.  Setting ``NUMBA_CACHE_DIR`` yourself overrides this.

First run.  :func:`is_cached` tells from Numba's cache index whether a
kernel is compiled for the current sources; the CLI calls
:func:`announce_compiles`, which writes one line on stderr when a command is
about to compile a module's kernels (Numba's ``numba:compile`` event fires
only when the cache had nothing to load; ``DDZ_COMPILE_NOTICE=0`` silences it).  ``python -m ddz_tools.warmup``
compiles every kernel at once.

Performance notes (measured here):

* each call of a kernel that takes arrays costs atomic reference-count updates
  on those arrays, which dominated a per-play helper (42M -> 170M plays/s once
  the write was inlined): pass arrays to helpers once per position, not once
  per play;
* :func:`flat_kernel` removes those updates altogether from a kernel that
  allocates nothing, and from the kernels it calls;
* Numba compiles int64 multiplication with undefined overflow: a hash must not
  rely on wrapping;
* two cached kernels that call each other recursively crashed when loaded from
  the cache (Numba 0.68): write searches with an explicit stack.
"""

import hashlib
import os
import sys
import threading
from pathlib import Path

import numba
from llvmlite import ir
from numba import types
from numba.core import cgutils, event
from numba.extending import intrinsic


def _cache_dir() -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.parent.rglob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ddz-tools", "numba-" + digest.hexdigest()[:16])


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = _cache_dir()


def _type_plain_arrays_directly() -> None:
    """Let Numba type a plain ``numpy.ndarray`` argument without importing
    ``numpy.ma``.

    The first call of a kernel with an array argument asks Numba for the
    array's type, and Numba first rules out a masked array with
    ``isinstance(val, np.ma.MaskedArray)``: under NumPy 2 that imports
    ``numpy.ma`` (40 ms here, a sixteenth of a ``ddz solve`` call).  An object
    whose type is exactly ``ndarray`` is never a masked array (a subclass), so
    for those the type is built as Numba builds it, without the check; every
    other object, and any error, goes to Numba's own function.  Installed only
    when Numba's typing registry looks as expected."""
    import numpy as np
    try:
        from numba.core.typing.typeof import typeof_impl
        from numba.np import numpy_support
        numba_typeof = typeof_impl.dispatch(np.ndarray)
    except (ImportError, AttributeError):
        return

    def typeof_plain_array(val, c):
        if type(val) is np.ndarray:
            try:
                dtype = numpy_support.from_dtype(val.dtype)
                return types.Array(dtype, val.ndim, numpy_support.map_layout(val),
                                   readonly=not val.flags.writeable)
            except Exception:
                pass
        return numba_typeof(val, c)

    global _numba_typeof_ndarray
    _numba_typeof_ndarray = numba_typeof
    typeof_impl.register(np.ndarray)(typeof_plain_array)


#: Numba's own typing function of arrays, kept for the test of the shortcut.
_numba_typeof_ndarray = None


_type_plain_arrays_directly()

_njit = numba.njit(cache=True, nogil=True)
# Numba's option for code without reference counting (``_nrt``; present in
# every Numba this package supports).  It holds for every kernel compiled into
# such a kernel, so none of them may allocate.
_njit_flat = numba.njit(cache=True, nogil=True, _nrt=False)

#: Every kernel of the package, in the order the modules defined them.
KERNELS: list = []
_KERNEL_IDS: set = set()


#: Functions still to run before the next kernel is compiled or loaded
#: (:func:`before_first_kernel`).
_PENDING: list = []
_PENDING_LOCK = threading.Lock()


def before_first_kernel(fn):
    """Run ``fn()`` once in this process, before the first kernel defined
    after this call is compiled or loaded from the cache (a decorator).

    For what compiled code needs to find in the process when it is loaded,
    without paying for it in processes that never run a kernel: the laizi
    move generator registers the symbol the kernels call it by
    (:mod:`ddz_tools.moves.movegen_laizi`).  A kernel is compiled or loaded on its
    first call from Python with new argument types (Numba's
    ``_compile_for_args``, which :func:`kernel` wraps), or as a callee of one
    being compiled then; either way after the wrapper ran ``fn``."""
    with _PENDING_LOCK:
        _PENDING.append(fn)
    return fn


_RUNNING = threading.local()


def _run_pending() -> None:
    # A function leaves the list only once it has run: another thread that
    # finds the list not empty waits for the lock, and so does not load a
    # kernel before what it needs is there.  (A kernel first called while
    # this thread runs them, by one of them, does not wait for itself.)
    if _PENDING and not getattr(_RUNNING, "on", False):
        with _PENDING_LOCK:
            _RUNNING.on = True
            try:
                while _PENDING:
                    _PENDING[0]()
                    _PENDING.pop(0)
            finally:
                _RUNNING.on = False


def _plain_calls(dispatcher) -> None:
    """Compile ``dispatcher`` once for plain argument types when another kernel
    calls it with constants.

    Numba types a constant argument of a call between kernels as a literal
    (``Literal[int](0)``, not ``int64``) and compiles the callee once for each
    such set of literals: ``free(p, 0, ...)``, ``free(p, 1, ...)`` and
    ``free(p, seat, ...)`` were three full compiles of the same code, a third
    of the warm-up's compile time.  The callee is first compiled for the
    plain types (what a call from Python gets) and the call uses that
    version; only when the plain types do not compile (code that needs the
    constant, e.g. to index a tuple of mixed types) does it fall back to
    Numba's literal version.  The constants still reach the code where the
    callee is inlined."""
    get_call_template = dispatcher.get_call_template

    def _get_call_template(args, kws):
        plain = tuple(types.unliteral(a) for a in args)
        plain_kws = {k: types.unliteral(v) for k, v in kws.items()}
        if plain != tuple(args) or plain_kws != kws:
            try:
                return get_call_template(plain, plain_kws)
            except Exception:  # noqa: BLE001  (Numba's typing errors; the literal call reports its own)
                pass
        return get_call_template(args, kws)

    dispatcher.get_call_template = _get_call_template


def _register(dispatcher):
    """Register a new kernel in :data:`KERNELS`, make its first call run
    the functions of :func:`before_first_kernel` first, and its calls from
    other kernels use one version for plain argument types
    (:func:`_plain_calls`)."""
    KERNELS.append(dispatcher)
    _KERNEL_IDS.add(id(dispatcher))
    compile_for_args = getattr(dispatcher, "_compile_for_args", None)
    if compile_for_args is not None:  # not with NUMBA_DISABLE_JIT=1 (a plain function)
        def _compile_first(*args, **kws):
            _run_pending()
            return compile_for_args(*args, **kws)

        dispatcher._compile_for_args = _compile_first
        _plain_calls(dispatcher)
    return dispatcher


def kernel(fn):
    """Compile ``fn`` as a package kernel (nopython, cached on disk, GIL
    released) and register it in :data:`KERNELS`."""
    return _register(_njit(fn))


def flat_kernel(fn):
    """Compile ``fn`` like :func:`kernel`, but without reference counting.

    For a hot kernel that allocates nothing (no ``np.empty``, no
    ``ndarray.sort``; slices and views are fine) and calls only kernels that
    allocate nothing: Numba then drops the atomic reference-count updates of
    every array argument and view, in ``fn`` and in every kernel compiled into
    it (20-25% of the solver's time)."""
    return _register(_njit_flat(fn))


def _prefetch_py(arr, idx):
    """Plain-Python stand-in of :func:`prefetch` (JIT switched off)."""


if numba.config.DISABLE_JIT:
    prefetch = _prefetch_py
else:
    @intrinsic
    def prefetch(typingctx, arr, idx):
        """``prefetch(arr, i)`` in a kernel asks the processor to start loading
        ``arr[i]`` into the cache (LLVM's prefetch for reading: it never
        faults and changes nothing), so that a load of it soon after does not
        wait for memory.  Issued for several lines before they are read,
        their cache misses overlap."""
        sig = types.void(arr, idx)

        def codegen(context, builder, signature, args):
            aryty = signature.args[0]
            ary = context.make_array(aryty)(context, builder, args[0])
            ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
            i8p = builder.bitcast(ptr, ir.IntType(8).as_pointer())
            i32 = ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [i8p.type, i32, i32, i32])
            fn = builder.module.declare_intrinsic("llvm.prefetch", [i8p.type], fnty)
            # read, highest locality, data cache
            builder.call(fn, [i8p, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
            return context.get_dummy_value()
        return sig, codegen


def load_cached_kernels_directly() -> bool:
    """Load compiled kernels from the disk cache without first refreshing
    Numba's compiler context (for the command line; True when installed).

    Before loading a cached kernel Numba refreshes its target context, which
    imports and registers the implementations of every Python and NumPy
    feature it can compile: about 0.2 s, a quarter to a third of a warm
    ``ddz solve`` call.  Loading compiled code needs none of them, only the
    runtime's helper functions (for kernels that allocate), which are set up
    here instead.  A kernel that has to be compiled after all (no cached
    version) still refreshes the context first, as Numba's compiler always
    does.  Installed only when Numba has the methods this relies on; the
    warm-up test runs every command this way."""
    try:
        from numba.core.caching import Cache
        from numba.core.runtime import rtsys
        guard = Cache._guard_against_spurious_io_errors
        load = Cache._load_overload
    except (ImportError, AttributeError):
        return False
    if getattr(Cache.load_overload, "_ddz_direct", False):
        return True
    numba_load = Cache.load_overload

    def load_overload(self, sig, target_context):
        try:
            rtsys.initialize(target_context)
            with guard(self):
                return load(self, sig, target_context)
            # None when the guard swallowed an error: the kernel is compiled.
        except TypeError:
            # Not the methods this was written for: Numba's own way.
            return numba_load(self, sig, target_context)

    load_overload._ddz_direct = True
    Cache.load_overload = load_overload
    return True


def _low_bit_py(x):
    """Plain-Python stand-in of :func:`low_bit`."""
    return (x & -x).bit_length() - 1


def _high_bit_py(x):
    """Plain-Python stand-in of :func:`high_bit`."""
    return x.bit_length() - 1


if numba.config.DISABLE_JIT:
    low_bit = _low_bit_py
    high_bit = _high_bit_py
else:
    @intrinsic
    def low_bit(typingctx, x):
        """``low_bit(x)`` in a kernel: the index of the lowest set bit of an
        int64 ``x > 0`` (one instruction; 64 for 0)."""
        if not isinstance(x, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
        return types.int64(types.int64), codegen

    @intrinsic
    def high_bit(typingctx, x):
        """``high_bit(x)`` in a kernel: the index of the highest set bit of an
        int64 ``x > 0`` (one instruction; -1 for 0)."""
        if not isinstance(x, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            zeros = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
            return builder.sub(ir.Constant(ir.IntType(64), 63), zeros)
        return types.int64(types.int64), codegen


def interpreted(fn):
    """The plain Python function behind a kernel, for Python callers of a small
    kernel: a call from Python into compiled code costs about a microsecond of
    dispatch, more than a rule of a few lines takes interpreted.  The function
    itself when compiling is switched off (``NUMBA_DISABLE_JIT=1``)."""
    return getattr(fn, "py_func", fn)


def is_cached(dispatcher) -> bool:
    """True when the on-disk cache holds a compiled version of this kernel
    for the current sources, Numba version and machine, i.e. when calling it
    (with the argument types it was compiled for) loads instead of compiling.

    It reads the kernel's Numba cache index (``<name>-<line>.pyXY.nbi`` in
    the cache folder): the index is only valid for the source file's stamp it
    records, and each entry is keyed by signature, target machine and a hash
    of the function's bytecode; an entry matching the last two counts.  A
    kernel that JIT is disabled for (plain Python) counts as cached.
    """
    cache = getattr(dispatcher, "_cache", None)
    if cache is None or not hasattr(cache, "_cache_file"):
        return True
    try:
        overloads = cache._cache_file._load_index()
        codegen = dispatcher.targetctx.codegen()
        want = cache._index_key(None, codegen)[1:]
    except Exception:  # an unreadable or foreign index: Numba will recompile
        return False
    return any(key[1:] == want for key in overloads)


def uncached(modules=None) -> list:
    """The registered kernels (of ``modules``, names like ``"movegen"`` as
    :func:`_short_module` gives them, or of every module imported so far)
    that are not in the on-disk cache."""
    return [d for d in KERNELS
            if (modules is None or _short_module(d) in modules) and not is_cached(d)]


def _short_module(dispatcher) -> str:
    """The part of the package a kernel belongs to: its module's name below
    the layer's folder (``"movegen"`` for ``ddz_tools.moves.movegen``), the
    subpackage's for a module of one (``"solver"`` for
    ``ddz_tools.engines.solver.search``)."""
    name = getattr(dispatcher, "py_func", dispatcher).__module__
    parts = name.split(".")
    if parts[0] == __name__.partition(".")[0] and len(parts) > 1:
        part = parts[2] if len(parts) > 2 else parts[1]
    else:
        part = parts[-1]
    return _PART_OF.get(part, part)


#: Modules whose kernels count as another's (the laizi generator is the move
#: generator's, compiled with it).
_PART_OF = {"movegen_laizi": "movegen"}


# First-run notice ----------------------------------------------------------------------------

#: What the kernels of each module do, and roughly how long compiling them
#: takes on a machine where nothing is cached yet (seconds; the kernels they
#: call included, measured on a 2-core machine).
_WHAT = {
    "movegen": ("move generator", 30),
    "decompose": ("hand decomposer", 65),
    "solver": ("endgame solver", 125),
    "policies": ("self-play policy", 90),
    "selfplay": ("self-play", 115),
    "records": ("record validator", 35),
    "bid": ("bid evaluator", 125),
    "advise": ("advisor", 150),
    "playermodel": ("player model", 120),
    "gamerules": ("game rule", 5),
    "cards": ("packed-hand", 3),
}


class _CompileNotice(event.Listener):
    """Writes one line to ``stream`` (``None``: the current ``sys.stderr``) the
    first time a kernel of each module starts compiling in this process
    (compiles nested in another one are part of it and not announced).

    A module's kernels are compiled as the commands need them: ``ddz bid``
    compiles the bid evaluator's kernels for bids, ``ddz bid --decide double``
    those for doubles.  So the line claims "first run" (and the module's
    whole time) only when none of the module's kernels is cached yet;
    otherwise it says that more of them are compiled, taking at most that
    long.  Never "once": the next decision may compile more."""

    def __init__(self, stream):
        self.stream = stream
        self.announced: set = set()
        self.lock = threading.Lock()
        self.depth = threading.local()

    def on_start(self, ev):
        depth = getattr(self.depth, "n", 0)
        self.depth.n = depth + 1
        dispatcher = ev.data.get("dispatcher") if isinstance(ev.data, dict) else None
        if depth or id(dispatcher) not in _KERNEL_IDS:
            return
        module = _short_module(dispatcher)
        with self.lock:
            if module in self.announced:
                return
            self.announced.add(module)
        stream = self.stream or sys.stderr
        stream.write(notice_text(module, _some_cached(module)) + "\n")
        stream.flush()

    def on_end(self, ev):
        self.depth.n = max(0, getattr(self.depth, "n", 1) - 1)


def notice_text(module: str, some_cached: bool) -> str:
    """The line announcing that kernels of ``module`` (a :func:`_short_module`
    name) are compiled: the first of them on this machine, or more of them
    when ``some_cached`` (others are in the disk cache already)."""
    what, seconds = _WHAT.get(module, (module, 20))
    if some_cached:
        return f"compiling more of the {what} kernels (first use on this machine; up to ~{seconds} s)"
    return f"compiling the {what} kernels (first run on this machine; ~{seconds} s)"


def _some_cached(module: str) -> bool:
    """Does the disk cache hold a compiled kernel of ``module`` already?"""
    return any(_short_module(d) == module and is_cached(d) for d in KERNELS)


_notice = None


def announce_compiles(stream=None) -> None:
    """From now on, say on ``stream`` (default stderr) in one line when this
    process is about to compile package kernels that are not cached yet (the
    first run on a machine, or after an upgrade).  Called by the CLI; the
    environment variable ``DDZ_COMPILE_NOTICE=0`` turns the notice off (the
    tests do, so that their output does not depend on the cache)."""
    global _notice
    if os.environ.get("DDZ_COMPILE_NOTICE") == "0":
        return
    if _notice is None:
        _notice = _CompileNotice(stream)
        event.register("numba:compile", _notice)
    else:
        _notice.stream = stream
