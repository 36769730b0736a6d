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

Performance notes (measured here):

* each call of a kernel that takes arrays costs atomic reference-count updates
  on those arrays, which dominated a per-play helper (42M -> 170M plays/s once
  the write was inlined): pass arrays to helpers once per position, not once
  per play;
* Numba compiles int64 multiplication with undefined overflow: a hash must not
  rely on wrapping;
* two cached kernels that call each other recursively crashed when loaded from
  the cache (Numba 0.68): write searches with an explicit stack.
"""

import hashlib
import os
from pathlib import Path

import numba


def _cache_dir() -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ddz-tools", "numba-" + digest.hexdigest()[:16])


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = _cache_dir()

kernel = numba.njit(cache=True, nogil=True)


def interpreted(fn):
    """The plain Python function behind a kernel, for Python callers of a small
    kernel: a call from Python into compiled code costs about a microsecond of
    dispatch, more than a rule of a few lines takes interpreted.  The function
    itself when compiling is switched off (``NUMBA_DISABLE_JIT=1``)."""
    return getattr(fn, "py_func", fn)
