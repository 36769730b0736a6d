"""Compile every kernel now: ``python -m ddz_tools.warmup``.

The kernels are compiled on first use and cached on disk (see
:mod:`ddz_tools.core._jit`), so the first command of each kind on a machine waits
for the compiler.  :func:`warm_up` runs every tool once on a small input
instead, which leaves every kernel in the cache; ``make run`` starts with it.
It also compiles the public kernels of :mod:`ddz_tools.engines.kernels` that no tool
calls from Python (a user's code may), and grows a solver's table once (the
rehash a large ``ddz solve`` needs).  It says which kernels it compiles (one
line per module, on stderr) and returns the kernels still not cached: private
helpers kept for the tests, which no command will compile either.
"""

from __future__ import annotations

import os
import sys
import tempfile

__all__ = ["warm_up", "main"]


#: The parts of the work, in order: each compiles what its tools call, and
#: :func:`main` with ``--jobs 2`` runs the first two in two processes at once
#: (about the same time each), then the third, which finds almost everything
#: it calls already cached by them.  Both first parts need the move generator
#: and the decomposer (each compiles them); past those, ``core`` compiles the
#: solver while ``play`` compiles the policies and the playout, so that by the
#: time ``core`` reaches the stake evaluators and the advisor (which call
#: both) the policies are cached, and ``play`` ends with the player model
#: (which calls the policies).
PARTS = ("core", "play", "rest")


def warm_up(part: "str | None" = None) -> list[str]:
    """Run each tool once on a small input so that every kernel is compiled
    and cached; the names of the kernels still not cached afterwards.
    ``part`` (one of :data:`PARTS`) runs one part of the work only: ``core``
    the move generator, the decomposer, the solver, the call, doubling and
    show evaluators and the advisor; ``play`` the policies, the bid
    evaluator, self-play, records and the player model; ``rest`` batch
    analysis and the public kernels no tool calls from Python."""
    from .core._jit import uncached

    if part is not None and part not in PARTS:
        raise ValueError(f"part must be one of {', '.join(PARTS)}, not {part!r}")
    if part in (None, "core"):
        _core()
    if part in (None, "play"):
        _play()
    if part in (None, "rest"):
        _rest()
    return [f"{d.py_func.__module__}.{d.py_func.__name__}" for d in uncached()]


def _core() -> None:
    """The move generator, the decomposer, the solver, the stake evaluators and
    the advisor."""
    import numpy as np

    from .core.cards import parse_cards
    from .engines.decompose import decompose, min_plays
    from .moves.movegen import count_batch, generate
    from .engines.kernels import min_plays_fresh
    from .engines.position import Position
    from .engines.solver import Solver, solve
    from .core.rules import Rules

    for rules in ("standard", "douzero"):
        generate("3334445556667779XD", rules=rules)
        generate("3456789TJQKA2XD", after="34567", rules=rules)
        count_batch(np.array([parse_cards("33445566778899TTJQKA")], np.int64), rules)
        min_plays("3334445556667779XD", rules)
        decompose("3334445556667779XD", rules, all_splits=True)
    solve(Position.two_player("33JJQK2", "4455A"), all_plays=True, strategy=True)
    solve(Position.three_player("3KK", "44", "A2", to_move="landlord"), all_plays=True)
    # A few thousand positions: more than half of the first table, which then doubles.
    Solver(tt_mb=1).solve(Position.three_player("3579JKA", "468TQK2", "3579JQA", to_move="landlord"))
    min_plays_fresh(parse_cards("3334445556667779XD"), Rules().flags)
    # The call, doubling and show evaluators (Happy Dou Dizhu) and the advisor come after the
    # solver, so that the policies and the playout they call are cached by ``play`` by then, and
    # the two processes of --jobs 2 take about as long.
    from .analysis.bid import evaluate_call, evaluate_double, evaluate_show

    evaluate_call("3345566789TJQKA2D", "first", samples=20, seed=1, workers=1, early_stop=False, rules="happy")
    evaluate_double("3345566789TJQKA2D", "22X", samples=20, seed=1, workers=1, early_stop=False, rules="happy")
    evaluate_show("3345566789", "deal", samples=20, seed=1, workers=1, early_stop=False, rules="happy")
    _advisor()


def _advisor() -> None:
    """The advisor on an open position, on counts and on a recorded game's view."""
    from .analysis.advise import advise, counts_view, two_player_view, view_from_record

    advise(two_player_view("33JJQK2", "4455A"))
    advise(counts_view("3456789TJQKA2", "farmer1", (20, 13, 17)), samples=16, seed=1, early_stop=False)
    # A recorded game's view knows the bids: its deals are conditioned on the auction.
    advise(view_from_record(_games()[0], 3), samples=8, seed=1, early_stop=False)


def _games() -> list:
    """A few self-play records (heuristic, and mixed policies)."""
    from .engines.selfplay import simulate

    records = list(simulate(4, "heuristic", seed=1, workers=1))
    records += list(simulate(2, "random,heuristic,random".split(","), seed=2, workers=1))
    return records


def _play() -> None:
    """The policies, the bid evaluator, self-play, the record validator and the
    player model."""
    from .analysis.bid import evaluate_bid
    from .engines.playermodel import action_probs, decision_probs, history_loglik
    from .engines.policies import bid_rule, choose
    from .engines.records import validate_batch
    from .engines.selfplay import deal_cards, game_seed, selfplay_stats

    choose(["34567D", "56789T", "4AA"], 0, 0)
    choose(["3456789TJQKA", "8", "6KKQQ"], 2, 0, prev="5", prev_seat=1, policy="random", seed=1)
    bid_rule("3456789TJQKA222XD")
    bid_rule("3456789TJQKA222XD", policy="random", seed=1)
    # The bid evaluator compiles the playout that ``core``'s stake evaluators call.
    evaluate_bid("3445567789TJQKA2D", samples=40, seed=1, workers=1, early_stop=False)
    records = _games()
    selfplay_stats(2, "heuristic", seed=3)
    deal_cards(game_seed(1, 0))
    validate_batch(records)
    history_loglik(records[0])
    action_probs(["3456789TJQKA2XD55", "69K2", "3344"], 1, 0, prev="5", prev_seat=0)
    decision_probs("bid", "3456789TJQKA222XD")


def _rest() -> None:
    """Batch analysis, and the public kernels that the tools call only from
    other kernels."""
    import numpy as np

    from .analysis.analyze import analyze_files
    from .core.cards import parse_cards
    from .core.gamerules import AUCTION_SIZE, auction_seats, auction_start, bid_error
    from .engines.kernels import packed_valid, packed_valid_decks
    from .engines.records import read_records, write_record

    records = _games()
    packed_valid(parse_cards("33"))
    packed_valid_decks(parse_cards("33"), 2)
    auction = np.zeros(AUCTION_SIZE, np.int64)
    auction_start(auction, 0, 0, 0)
    auction_seats(auction, 4)
    bid_error(auction, 0, 1)
    with tempfile.TemporaryDirectory(prefix="ddz-warmup-") as tmp:
        path = os.path.join(tmp, "games.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for rec in records:
                write_record(f, rec)
        for _ in read_records(path):
            pass
        for _ in analyze_files([path], solve_below=12, bids=True, bid_samples=20, workers=1):
            pass


def main(argv=None) -> int:
    """``python -m ddz_tools.warmup [--jobs N]``: compile every kernel the
    tools call; with ``--jobs 2`` (or more) the parts ``core`` and ``play``
    compile in two processes at once, then ``rest`` in this one (on two
    cores about two fifths less time than one process)."""
    import argparse
    import subprocess

    from .core._jit import announce_compiles

    ap = argparse.ArgumentParser(prog="python -m ddz_tools.warmup", description=main.__doc__.split(";")[0])
    ap.add_argument("--jobs", type=int, default=1, help="processes compiling at once (1, or 2 and more)")
    ap.add_argument("--part", choices=PARTS, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.jobs < 1:
        print(f"error: --jobs must be at least 1, not {args.jobs}", file=sys.stderr)
        return 2
    announce_compiles()
    if args.part is not None:
        warm_up(args.part)
        return 0
    if args.jobs == 1:
        left = warm_up()
    else:
        children = [subprocess.Popen([sys.executable, "-m", "ddz_tools.warmup", "--part", part])
                    for part in PARTS[:2]]
        codes = [c.wait() for c in children]
        if any(codes):
            print(f"error: a warm-up process failed (exit codes {codes})", file=sys.stderr)
            return 1
        left = warm_up("rest")
    print("the kernels of every tool are compiled and cached"
          + (f" (not called by any tool, so not compiled: {', '.join(left)})" if left else ""), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
