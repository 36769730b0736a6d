"""Fit the player model, or print its figures on fresh self-play.

    python -m ddz_tools.engines.playermodel --fit --games 1000 --seed 1
    python -m ddz_tools.engines.playermodel --evaluate --games 300 --seed 2 --rules standard

``--fit`` fits every variant the advisor serves (or those of ``--rules``)
on ``--games`` self-play games from ``--seed`` (:func:`~.train.fit_model`)
and writes them into the weights file (``--out``, default the package's
``weights.json``, whose other variants are kept).  ``--evaluate`` prints
the figures (:func:`~.train.heldout`) of the weights file's models on
``--games`` games of heuristic self-play from ``--seed``: keep that seed
apart from the fit's.
"""

from __future__ import annotations

import argparse
import sys
import time

from ...variants import VARIANTS
from .train import EPS, LAM, PRIOR, fit_model, heldout
from .weights import load_model, write_weights


def _rows(figures: dict) -> list:
    out = []
    for kind, f in figures.items():
        cells = [f"{kind:7s} {f['n']:7d}", "model {:7.3f} {:6.1%}".format(*f["model"])]
        cells += ["{} {:7.3f} {:6.1%}".format(name, *v) for name, v in zip(("heuristic-type", "generic-type"),
                                                                             f["types"])]
        cells += ["uniform {:7.3f} {:6.1%}".format(*f["uniform"]), "heuristic+eps {:7.3f} {:6.1%}".format(
            *f["heuristic"])]
        out.append("  ".join(cells))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ddz_tools.engines.playermodel", description=__doc__.split("\n")[0])
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("--fit", action="store_true", help="fit the weights and write them")
    what.add_argument("--evaluate", action="store_true", help="print the figures on fresh heuristic self-play")
    ap.add_argument("--rules", action="append", help="a variant (repeat; default every variant the advisor serves)")
    ap.add_argument("--games", type=int, default=None, help="games (fit: 1000; evaluate: 300)")
    ap.add_argument("--seed", type=int, default=None, help="run seed (fit: 1; evaluate: 2)")
    ap.add_argument("--lam", type=float, default=LAM, help=f"the fit's penalty (default {LAM})")
    ap.add_argument("--eps", type=float, default=EPS, help=f"the floor (default {EPS})")
    ap.add_argument("--prior", type=float, default=PRIOR, help=f"the heuristic type's prior (default {PRIOR})")
    ap.add_argument("--out", default=None, help="weights file to write (default: the package's)")
    ap.add_argument("--workers", type=int, default=None, help="threads playing the self-play games")
    a = ap.parse_args(argv)
    names = a.rules or [n for n, v in VARIANTS.items() if v.supports("advise") is None]
    for name in names:
        t0 = time.perf_counter()
        if a.fit:
            games, seed = a.games or 1000, 1 if a.seed is None else a.seed
            model = fit_model(name, games, seed, a.lam, a.eps, a.prior, workers=a.workers)
            path = write_weights({model.variant: model}, a.out)
            print(f"{name}: fitted on {games} games from seed {seed} in {time.perf_counter() - t0:.0f} s -> {path}")
            for t in model.types:
                print("  " + t["name"] + ": " + " ".join(f"{w:+.2f}" for w in t["play"])
                      + "  " + " ".join(f"{d} {t[d][0]:+.2f},{t[d][1]:+.2f}"
                                        for d in ("bid", "call", "double", "show")))
        else:
            games, seed = a.games or 300, 2 if a.seed is None else a.seed
            figures = heldout(load_model(name, a.out), name, games, seed, workers=a.workers)
            print(f"{name}: {games} games of heuristic self-play from seed {seed} "
                  f"({time.perf_counter() - t0:.0f} s); log-likelihood per action (nats), top-1")
            for row in _rows(figures):
                print("  " + row)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
