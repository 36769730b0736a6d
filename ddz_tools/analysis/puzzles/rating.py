"""Puzzle ratings measured by attempts: solvers of known strength try every
puzzle, and puzzles and solvers are rated together by Glicko-2.

A **solver** chooses the winning side's play at each of its turns.  It
*solves* a puzzle when it plays every ``solve`` move of the line (at the end
of a line that stops where several plays win, any of ``accepted``); the
defence and the forced moves are played from the line.  The population
(:data:`SOLVERS`), weakest first as built:

* ``random``: a legal play, uniformly;
* ``heuristic``: the heuristic policy (deterministic; it fails every puzzle
  at the first move, as a puzzle's natural play loses);
* ``model-T2``, ``model-T1``, ``model-T0.5``: a play drawn from the player
  model's probabilities (the softened heuristic fitted on self-play,
  :mod:`ddz_tools.engines.playermodel`) raised to ``1/T``: the lower the
  temperature, the nearer the heuristic;
* ``advisor-8``, ``advisor-32``: the advisor (:func:`~ddz_tools.analysis.advise.advise`)
  with the other hands hidden (:func:`puzzle_view`: the counts and the
  cards the others hold together; with two hands nothing is hidden) at 8
  or 32 sampled deals, a new seed each round;
* ``solver-100``, ``solver-1000``: the open-hand solver held to 100 or
  1,000 nodes a move: its winning play where it proves one within them,
  else the heuristic's play (a puzzle whose win takes a longer search is
  harder);
* ``solver``: the open-hand solver (1,000,000 nodes a move: it solves every
  puzzle, the top of the scale).

Every attempt is a game between the solver and the puzzle: the solver wins
when it solves it.  :func:`rate_puzzles` plays ``rounds`` rounds, each
solver attempting each puzzle once a round (a random solver with a new draw
each round), and each round is one Glicko-2 rating period for every player
at once (:func:`glicko2`, Glickman's published algorithm, ``tau`` 0.5, all
starting at 1500 with deviation 350 and volatility 0.06).
"""

from __future__ import annotations

import math
import os
import random
from typing import Callable, Iterable

from ...core.cards import card_count
from ...core.errors import ArgumentError
from ...core.rules import Play
from ...engines.playermodel import action_probs
from ...engines.position import Position
from ...engines.solver import solve
from ..advise import advise, counts_view, two_player_view
from .defence import legal_moves
from .find import natural_play, policy_view
from .format import Puzzle, read_puzzles

__all__ = ["SOLVERS", "START", "glicko2", "attempt", "puzzle_view", "rate_puzzles", "solve_rates", "rate_files"]

#: A player's rating, deviation and volatility before any game.
START = (1500.0, 350.0, 0.06)
_SCALE = 173.7178
TAU = 0.5


def glicko2(rating: float, deviation: float, volatility: float, games: Iterable[tuple],
            tau: float = TAU) -> tuple:
    """One Glicko-2 rating period of a player: ``games`` are ``(opponent's
    rating, opponent's deviation, score)``, the score 1, 0.5 or 0; returns
    the new ``(rating, deviation, volatility)``.  Without games only the
    deviation grows.  Glickman's worked example (1464.06, 151.52 and
    0.05999 in the paper, which rounds its intermediate values):

    >>> r, rd, v = glicko2(1500, 200, 0.06, [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    >>> round(r, 2), round(rd, 2), round(v, 6)
    (1464.05, 151.52, 0.059996)
    """
    mu, phi = (rating - 1500.0) / _SCALE, deviation / _SCALE
    games = list(games)
    if not games:
        return rating, min(math.sqrt(phi * phi + volatility * volatility) * _SCALE, START[1]), volatility
    inv_v = delta_sum = 0.0
    for r_j, rd_j, s in games:
        mu_j, phi_j = (r_j - 1500.0) / _SCALE, rd_j / _SCALE
        g = 1.0 / math.sqrt(1.0 + 3.0 * phi_j * phi_j / math.pi ** 2)
        e = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        inv_v += g * g * e * (1.0 - e)
        delta_sum += g * (s - e)
    v = 1.0 / inv_v
    delta = v * delta_sum
    sigma = _volatility(phi, v, delta, volatility, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return 1500.0 + _SCALE * mu_new, _SCALE * phi_new, sigma


def _volatility(phi: float, v: float, delta: float, sigma: float, tau: float) -> float:
    """The new volatility: the root of Glickman's ``f`` by the Illinois method."""
    a = math.log(sigma * sigma)

    def f(x):
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    lo = a
    if delta * delta > phi * phi + v:
        hi = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        hi = a - k * tau
    f_lo, f_hi = f(lo), f(hi)
    while abs(hi - lo) > 1e-6:
        mid = lo + (lo - hi) * f_lo / (f_hi - f_lo)
        f_mid = f(mid)
        if f_mid * f_hi <= 0:
            lo, f_lo = hi, f_hi
        else:
            f_lo /= 2.0
        hi, f_hi = mid, f_mid
    return math.exp(lo / 2.0)


# Solvers --------------------------------------------------------------------------------


def _random(position: Position, rng: random.Random) -> Play:
    return rng.choice(legal_moves(position))


def _heuristic(position: Position, rng: random.Random) -> Play:
    return natural_play(position)


def _model(temperature: float) -> Callable:
    def choose(position: Position, rng: random.Random) -> Play:
        hands, seat, by = policy_view(position)
        probs = action_probs(hands, seat, 0, position.last_play, by, position.rules)
        weights = [p ** (1.0 / temperature) for _, p in probs]
        return rng.choices([play for play, _ in probs], weights=weights)[0]
    return choose


def _solver(node_limit: int) -> Callable:
    def choose(position: Position, rng: random.Random) -> Play:
        r = solve(position, line=False, node_limit=node_limit)
        if r.result == "win" and r.winning_plays:
            return position.parse_play(r.winning_plays[0])
        return natural_play(position)
    return choose


def puzzle_view(position: Position):
    """What the side to move sees of a puzzle's position when the other hands
    are hidden (an :class:`~ddz_tools.analysis.advise.View`): its hand, every
    hand's count, the play to answer and the cards the others hold together;
    with two hands nothing is hidden (the two-player view)."""
    me = position.to_move
    unseen = "".join(position.hand(s) for s in position.seats if s != me)
    after = position.last_play.notation(position.rules) if position.last_play is not None else None
    if position.players == 2:
        return two_player_view(position.hand(me), unseen, after=after, rules=position.rules)
    counts = [card_count(position.packed(s)) for s in position.seats]
    return counts_view(position.hand(me), me, counts, after=after, by=position.last_by if after else None,
                       unseen=unseen, rules=position.rules)


def _advisor(samples: int) -> Callable:
    def choose(position: Position, rng: random.Random) -> Play:
        a = advise(puzzle_view(position), samples=samples, seed=rng.randrange(2 ** 31))
        return position.parse_play(a.recommendation)
    return choose


#: Solver name -> ``choose(position, rng)``, the play it makes.
SOLVERS = {"random": _random, "heuristic": _heuristic, "model-T2": _model(2.0), "model-T1": _model(1.0),
           "model-T0.5": _model(0.5), "advisor-8": _advisor(8), "advisor-32": _advisor(32),
           "solver-100": _solver(100), "solver-1000": _solver(1000), "solver": _solver(1_000_000)}
#: The solvers whose choice does not depend on the draw: one attempt serves every round.
_FIXED = ("heuristic", "solver-100", "solver-1000", "solver")


def attempt(z: Puzzle, choose: Callable, rng: random.Random) -> bool:
    """Whether ``choose`` solves ``z``: it makes every ``solve`` move of the
    line (any of ``accepted`` after a line that stops there); the other
    moves are the line's."""
    p = z.position
    for s in z.solution:
        play = p.parse_play(s.play)
        if s.role == "solve" and choose(p, rng) != play:
            return False
        p = p.push(play)
        if p.is_over:
            return True
    if z.accepted:
        return choose(p, rng) in {p.parse_play(a) for a in z.accepted}
    return True


def rate_puzzles(puzzles: list, rounds: int = 4, seed: int = 0, solvers: "dict | None" = None,
                 progress: "Callable[[int, int], None] | None" = None) -> dict:
    """Rate ``puzzles`` and the ``solvers`` (default :data:`SOLVERS`) together.

    Returns ``{"puzzles": [Puzzle with rating and rating_deviation],
    "solvers": {name: {"rating", "deviation", "solved", "attempts"}},
    "attempts": [(puzzle id, solver, round, solved)], "rounds": rounds,
    "seed": seed}``.  The same seed gives the same ratings.
    """
    if rounds < 1:
        raise ArgumentError("rounds must be 1 or more", param="rounds")
    solvers = SOLVERS if solvers is None else solvers
    ids = [z.id for z in puzzles]
    if len(set(ids)) != len(ids):
        raise ArgumentError("a puzzle id appears twice: rate each puzzle once")
    fixed = {}
    attempts = []
    done, total = 0, len(puzzles) * len(solvers) * rounds
    for k in range(rounds):
        for z in puzzles:
            for name, choose in solvers.items():
                if name in _FIXED and (z.id, name) in fixed:
                    ok = fixed[z.id, name]
                else:
                    ok = attempt(z, choose, random.Random(f"{seed}:{k}:{name}:{z.id}"))
                    fixed[z.id, name] = ok
                attempts.append((z.id, name, k, ok))
                done += 1
            if progress is not None:
                progress(done, total)
    ratings = {key: START for key in [*ids, *("solver:" + n for n in solvers)]}
    for k in range(rounds):
        games: dict = {key: [] for key in ratings}
        for zid, name, kk, ok in attempts:
            if kk != k:
                continue
            a, b = ratings[zid], ratings["solver:" + name]
            games[zid].append((b[0], b[1], 0.0 if ok else 1.0))
            games["solver:" + name].append((a[0], a[1], 1.0 if ok else 0.0))
        ratings = {key: glicko2(*ratings[key], games[key]) for key in ratings}
    rated = [Puzzle(**{**_fields(z), "rating": round(ratings[z.id][0], 1),
                       "rating_deviation": round(ratings[z.id][1], 1)}) for z in puzzles]
    out_solvers = {}
    for name in solvers:
        mine = [ok for _, n, _, ok in attempts if n == name]
        r = ratings["solver:" + name]
        out_solvers[name] = {"rating": round(r[0], 1), "deviation": round(r[1], 1), "solved": sum(mine),
                             "attempts": len(mine)}
    return {"puzzles": rated, "solvers": out_solvers, "attempts": attempts, "rounds": rounds, "seed": seed}


def _fields(z: Puzzle) -> dict:
    return {f: getattr(z, f) for f in z.__dataclass_fields__}


def solve_rates(result: dict, band: int = 200) -> list:
    """The solve rate by the puzzles' rating band: one row per band (lowest
    first) with the band, its puzzles, and per solver the share of its
    attempts that solved the puzzle."""
    band_of = {z.id: int(z.rating // band) * band for z in result["puzzles"]}
    names = list(result["solvers"])
    rows = []
    for low in sorted(set(band_of.values())):
        row = {"band": f"{low}–{low + band - 1}", "puzzles": sum(b == low for b in band_of.values())}
        for name in names:
            mine = [ok for zid, n, _, ok in result["attempts"] if n == name and band_of[zid] == low]
            row[name] = sum(mine) / len(mine) if mine else None
        rows.append(row)
    return rows


def rate_files(paths: list, *, out: "str | None" = None, in_place: bool = False, rounds: int = 4, seed: int = 0,
               progress: "Callable[[int, int], None] | None" = None) -> dict:
    """Rate the puzzles of the ``ddz-puzzle/1`` files ``paths`` together
    (:func:`rate_puzzles`) and write them with their ``rating`` and
    ``rating_deviation``: every file rewritten in place (``in_place``, in its
    order; comment lines are dropped) or all into ``out``.  Returns the
    figures: ``{"puzzles", "rules": {rules: puzzles}, "rounds", "seed",
    "solvers": {...}, "bands": solve_rates(...), "written": [paths]}``."""
    if (out is None) == (not in_place):
        raise ArgumentError("give out or in_place (one of them)", param=("out", "in_place"))
    by_file = [(path, list(read_puzzles(path))) for path in paths]
    result = rate_puzzles([z for _, zs in by_file for z in zs], rounds=rounds, seed=seed, progress=progress)
    rated = {z.id: z for z in result["puzzles"]}
    targets = [(path, [rated[z.id] for z in zs]) for path, zs in by_file] if in_place else \
        [(out, result["puzzles"])]
    for path, zs in targets:
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.writelines(z.to_json() + "\n" for z in zs)
        os.replace(tmp, path)
    rules: dict = {}
    for z in result["puzzles"]:
        rules[z.position.rules.describe()] = rules.get(z.position.rules.describe(), 0) + 1
    return {"puzzles": len(rated), "rules": rules, "rounds": rounds, "seed": seed, "solvers": result["solvers"],
            "bands": solve_rates(result), "written": [path for path, _ in targets]}
