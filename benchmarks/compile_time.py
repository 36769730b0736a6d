"""Where the kernels' compile time goes: the warm-up from an empty kernel cache, timed per kernel.

Runs :func:`ddz_tools.warmup.warm_up` for each ``--part`` in this one process, in a fresh
kernel cache (a temporary folder unless ``--cache-dir`` names one), and listens to Numba's
``numba:compile`` events.  A kernel compiled inside another (a callee) sends its events
inside the caller's, so each kernel gets

* ``own s``: the seconds of its own compiles, its callees' compiles taken out;
* ``top s``: the seconds of its compiles started from Python (callees included), which add
  up to the whole compile time;
* ``sigs``: how many type signatures it was compiled for (each one a full compile).

Also printed: the seconds spent holding Numba's LLVM lock (LLVM's optimisation and code
generation; the rest is Numba's typing and lowering), the process's CPU seconds and the
wall seconds of each part.

Usage: ``python benchmarks/compile_time.py [--part core --part play ...] [--top 25]
[--format json] [--cache-dir DIR]``.  Numba's ``NUMBA_OPT``, ``NUMBA_LOOP_VECTORIZE`` and
``NUMBA_SLP_VECTORIZE`` apply as usual (to compare LLVM settings).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sys
import tempfile
import time


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def measure(parts, cache_dir: "str | None" = None) -> dict:
    """Run the warm-up ``parts`` in a fresh kernel cache; per-kernel compile times and totals.
    Must run before anything imports the package's kernels (the cache folder is set here)."""
    made = cache_dir is None
    cache_dir = cache_dir or tempfile.mkdtemp(prefix="ddz-compile-")
    os.environ["NUMBA_CACHE_DIR"] = cache_dir
    os.environ.setdefault("DDZ_COMPILE_NOTICE", "0")
    from numba.core import event

    stack: list = []         # [name, start, seconds of nested compiles]
    kernels: dict = {}
    llvm = [0.0]

    class Compiles(event.Listener):
        def on_start(self, ev):
            func = getattr(ev.data["dispatcher"], "py_func", None)
            name = f"{func.__module__}.{func.__qualname__}" if func else repr(ev.data["dispatcher"])
            stack.append([name, time.perf_counter(), 0.0, str(ev.data.get("args"))])

        def on_end(self, ev):
            name, start, nested, args = stack.pop()
            took = time.perf_counter() - start
            if stack:
                stack[-1][2] += took
            row = kernels.setdefault(name, {"own": 0.0, "top": 0.0, "compiles": 0, "sigs": set()})
            row["own"] += took - nested
            row["compiles"] += 1
            row["sigs"].add(args)
            if not stack:
                row["top"] += took

    class Lock(event.Listener):
        def on_start(self, ev):
            self.start = time.perf_counter()

        def on_end(self, ev):
            llvm[0] += time.perf_counter() - self.start

    event.register("numba:compile", Compiles())
    event.register("numba:llvm_lock", Lock())
    from ddz_tools.warmup import warm_up

    walls = {}
    cpu0 = _cpu()
    try:
        for part in parts:
            t0 = time.perf_counter()
            warm_up(part)
            walls[part] = time.perf_counter() - t0
    finally:
        if made:
            shutil.rmtree(cache_dir, ignore_errors=True)
    rows = [{"kernel": k, "own_s": v["own"], "top_s": v["top"], "compiles": v["compiles"], "sigs": len(v["sigs"])}
            for k, v in kernels.items()]
    rows.sort(key=lambda r: -r["own_s"])
    return {"parts": walls, "cpu_s": _cpu() - cpu0, "compile_s": sum(r["top_s"] for r in rows),
            "llvm_lock_s": llvm[0], "kernels": rows}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--part", action="append", choices=("core", "play", "rest"),
                    help="a warm-up part (repeatable; default all three, in order)")
    ap.add_argument("--top", type=int, default=25, help="kernels to list (by own seconds)")
    ap.add_argument("--format", choices=("table", "json"), default="table")
    ap.add_argument("--cache-dir", default=None, help="kernel cache folder (default: a fresh temporary one)")
    args = ap.parse_args(argv)
    result = measure(args.part or ["core", "play", "rest"], args.cache_dir)
    if args.format == "json":
        print(json.dumps(result, indent=1))
        return 0
    from tabulate import tabulate

    rows = result["kernels"][:args.top]
    print(tabulate([[r["kernel"].replace("ddz_tools.", ""), f"{r['own_s']:.1f}", f"{r['top_s']:.1f}", r["compiles"],
                     r["sigs"]] for r in rows], headers=["kernel", "own s", "top s", "compiles", "sigs"]))
    multi = [r for r in result["kernels"] if r["sigs"] > 1]
    print(f"\nkernels compiled: {len(result['kernels'])}; with more than one signature: {len(multi)} "
          f"({sum(r['own_s'] for r in multi):.1f} s of own time)")
    print(f"compile {result['compile_s']:.1f} s (LLVM lock {result['llvm_lock_s']:.1f} s), "
          f"CPU {result['cpu_s']:.1f} s; wall by part: "
          + ", ".join(f"{p} {s:.1f} s" for p, s in result["parts"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
