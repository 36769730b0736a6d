"""Self-play runs from Python: :func:`simulate` (one ``ddz-record/1`` dict
a game) and :func:`selfplay_stats` (the figures of a run, no records), their
arguments checked alike, the games played by the kernels of
:mod:`~ddz_tools.engines.selfplay.kernel` in chunks (on threads with
``workers``), the records built from the kernels' arrays.
"""

from __future__ import annotations

from typing import Callable, Iterator

import numpy as np

from ...core.cards import format_cards
from ...core.errors import ArgumentError, RulesError
from ...core.gamerules import BIDDING_MODES, SPRING_MODES
from ...core.kinds import WILD_SHIFT, wild_of_flags
from ...core.rules import Play, Rules, format_wild
from ...variants import Variant, variant_of
from ..game import show_stage_text
from ..policies import POLICIES, policy_number
from ..records import play_text, rules_field as records_rules_field
from .kernel import (
    D_BOTTOM,
    D_IDS,
    DEAL_SIZE,
    I_ANTI_SPRING,
    I_BASE,
    I_BOMBS,
    I_DOUBLES,
    I_DRAWS,
    I_FIRST_BIDDER,
    I_LANDLORD,
    I_LANDLORD_WON,
    I_MULTIPLIER,
    I_N_BIDS,
    I_N_MOVES,
    I_N_SHOWS,
    I_SCORES,
    I_SHOW_MULTIPLE,
    I_SHOWS,
    I_SPRING,
    I_BONUS,
    I_WILD,
    INFO_SIZE,
    MAX_BIDS,
    STAKE_BUCKETS,
    STATS_SIZE,
    ST_DOUBLED,
    ST_MULTIPLIER,
    ST_SEAT_WINS,
    ST_SHOWED,
    ST_STAKES,
    max_moves,
    play_games,
    selfplay_batch,
)
from .summary import SelfplayStats

__all__ = ["simulate", "selfplay_stats", "CHUNK"]


def _game_options(rules: Rules) -> tuple[int, int, int]:
    """(first_mode, bidding, spring) kernel codes of a rule set."""
    if rules.bidding not in BIDDING_MODES:
        raise RulesError(f"self-play does not implement bidding={rules.bidding} "
                         f"(supported: {', '.join(BIDDING_MODES)})")
    first_mode = -1 if rules.first_bidder == "random" else 0
    return first_mode, BIDDING_MODES[rules.bidding], SPRING_MODES[rules.spring]


def _policies(policy, seats: int = 3) -> np.ndarray:
    """One policy number per seat, from one policy or one per seat."""
    if isinstance(policy, (list, tuple)):
        if len(policy) != seats:
            many = {3: "three", 4: "four"}.get(seats, str(seats))
            raise ArgumentError(f"give one policy or {many}, one per seat, not {len(policy)}", param="policy")
        return np.array([policy_number(p) for p in policy], np.int64)
    return np.full(seats, policy_number(policy), np.int64)


def _check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not -2**63 <= seed < 2**63:
        raise ArgumentError(f"seed must be an integer that fits in 64 bits, not {seed!r}", param="seed")
    return int(seed)


def _check_count(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ArgumentError(f"{name} must be a non-negative integer, not {value!r}", param=name)
    return int(value)


#: Games per kernel call of :func:`simulate` (and per task when it uses threads).
CHUNK = 256


def _chunk_arrays(count: int, rules=None):
    """The output arrays of :func:`~.kernel.play_games` for ``count`` games."""
    return (np.empty((count, DEAL_SIZE), np.int64), np.empty((count, MAX_BIDS, 2), np.int64),
            np.empty((count, max_moves(rules), 3), np.int64), np.empty((count, INFO_SIZE), np.int64))


def _workers(workers) -> int:
    if workers is None:
        return 1
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1:
        raise ArgumentError(f"workers must be a positive integer, not {workers!r}", param="workers")
    return int(workers)


def _run_args(games, policy, seed, rules, start, workers) -> tuple:
    """The checked arguments of a run (:func:`simulate`, :func:`selfplay_stats`), checked in this order:
    ``(variant, games, start, seed, workers, pols, first_mode, bidding, spring)``."""
    v = variant_of(rules)
    return (v, _check_count("games", games), _check_count("start", start), _check_seed(seed),
            _workers(workers), _policies(policy, v.seats), *_game_options(v.rules))


def simulate(games: int, policy="heuristic", seed: int = 0, rules=None,
             progress: "Callable[[int, int], None] | None" = None, start: int = 0,
             workers: "int | None" = None) -> Iterator[dict]:
    """Play ``games`` seeded self-play games; yield one ``ddz-record/1`` dict per game.

    ``policy`` is a name (``random``, ``heuristic``) or one name per seat
    (three, or four under four-player rules).  Game ``i`` (counting from ``start``) is played from
    :func:`game_seed` ``(seed, i)``, so any slice of a run is reproducible on
    its own and the records do not depend on ``workers`` (threads running the
    kernel, which releases the GIL, on chunks of :data:`CHUNK` games; records
    come out in game order).  ``progress(done, total)`` is called as games
    are done.

    Under rules with stake stages or no bottom a record also holds, only
    where the rules use them: ``show`` (``[{"seat", "stage"}]`` in the order
    shown; rules with ``show``), ``doubles`` (``[d0, d1, d2]``; ``doubling``),
    ``draws`` (``[{"from", "card"}]``; ``landlord_draw``), ``deal.hand_ids``
    and ``deal.bottom_ids`` (``bottom_bonus=table``: the suits tell a flush
    bottom); ``deal.bottom`` is ``""`` under ``notalon``.
    ``result.multiplier`` is the public multiple, and with stake stages
    ``result`` names its ``show_multiple`` and ``bottom_bonus``.  Under
    four-player rules a record has four hands of 25 cards, an 8-card bottom,
    four ``players`` and four ``scores``, and no card ids.

    >>> rec = next(simulate(1, "random", seed=7))
    >>> rec["schema"], len(rec["deal"]["hands"]), rec["result"]["winner"] in ("landlord", "farmers")
    ('ddz-record/1', 3, True)
    """
    v, games, start, seed, workers, pols, first_mode, bidding, spring = _run_args(
        games, policy, seed, rules, start, workers)
    rules = v.rules
    names = [next(name for name, num in POLICIES.items() if num == p) for p in pols.tolist()]
    rules_field = dict(records_rules_field(rules), bidding=rules.bidding)
    texts: dict = {}
    chunk = CHUNK if games > CHUNK or workers > 1 else max(games, 1)
    if workers > 1:
        chunk = min(CHUNK, max(1, -(-games // workers)))
    bounds = [(start + j, min(chunk, games - j)) for j in range(0, games, chunk)]

    def run(lo: int, count: int):
        arrays = _chunk_arrays(count, rules)
        play_games(np.int64(seed), np.int64(lo), np.int64(count), pols, v.params, first_mode, bidding, spring,
                   *arrays)
        return arrays

    def records(lo: int, count: int, arrays):
        deals, bids, plays, infos = arrays
        for j in range(count):
            n = int(infos[j, I_N_MOVES])
            yield _record(f"sim-{seed}-{lo + j}", v, rules_field, names, deals[j], bids[j], plays[j, :n],
                          infos[j], rules.flags | (int(infos[j, I_WILD]) << WILD_SHIFT), texts)

    done = 0
    if workers == 1:
        for lo, count in bounds:
            for rec in records(lo, count, run(lo, count)):
                done += 1
                yield rec
                if progress is not None:
                    progress(done, games)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending = []
        it = iter(bounds)
        for lo, count in it:
            pending.append((lo, count, pool.submit(run, lo, count)))
            if len(pending) >= 2 * workers:
                break
        while pending:
            lo, count, fut = pending.pop(0)
            arrays = fut.result()
            nxt = next(it, None)
            if nxt is not None:
                pending.append((nxt[0], nxt[1], pool.submit(run, *nxt)))
            for rec in records(lo, count, arrays):
                done += 1
                yield rec
                if progress is not None:
                    progress(done, games)


def _play_text(cards: int, kind: int, flags: int, cache: dict) -> str:
    """:func:`ddz_tools.engines.records.play_text`, memoised in ``cache``."""
    if kind == 0:
        return ""
    key = (cards, kind, flags)
    text = cache.get(key)
    if text is None:
        text = play_text(Play(cards, kind), flags)
        if len(cache) > 100_000:
            cache.clear()
        cache[key] = text
    return text


def _deal_field(deal: list, wild_code: int, v: Variant) -> dict:
    """The ``deal`` of a record: hands, bottom and, under Laizi rules, the wild
    ranks; under ``bottom_bonus=table`` the suited cards (``hand_ids``,
    ``bottom_ids``, sorted), which tell whether the bottom is a flush."""
    t = v.table
    d = {"hands": [format_cards(h) for h in deal[:t.seats]], "bottom": format_cards(deal[D_BOTTOM]),
         "hand_ids": None, "bottom_ids": None}
    if v.stake.bottom_bonus:
        n = t.hand_cards
        ids = deal[D_IDS:D_IDS + t.deck_size]
        d["hand_ids"] = [sorted(ids[n * s:n * s + n]) for s in range(t.seats)]
        d["bottom_ids"] = sorted(ids[t.seats * n:])
    if wild_code:
        d["wild"] = format_wild(wild_of_flags(wild_code << WILD_SHIFT))
    return d


def _record(gid, v: Variant, rules_field, names, deal, bids, plays, info, flags, cache) -> dict:
    d = deal.tolist()
    inf = info.tolist()
    ll = inf[I_LANDLORD]
    won = inf[I_LANDLORD_WON] == 1
    rec = {
        "schema": "ddz-record/1",
        "id": gid,
        "rules": dict(rules_field),
        "players": list(names),
        "deal": _deal_field(d, inf[I_WILD], v),
        "first_bidder": inf[I_FIRST_BIDDER],
        "bids": [{"seat": s, "bid": b} for s, b in bids[:inf[I_N_BIDS]].tolist()],
        "landlord": ll,
        "plays": [{"seat": s, "cards": _play_text(c, k, flags, cache)} for s, c, k in plays.tolist()],
    }
    if v.stake.shows:
        rec["show"] = [{"seat": inf[I_SHOWS + 2 * j], "stage": show_stage_text(inf[I_SHOWS + 2 * j + 1])}
                       for j in range(inf[I_N_SHOWS])]
    if v.stake.doubles:
        rec["doubles"] = inf[I_DOUBLES:I_DOUBLES + v.seats]
    if v.stake.draws:
        rec["draws"] = [{"from": (ll + 1 + k) % v.seats, "card": format_cards(inf[I_DRAWS + k])}
                        for k in range(2) if inf[I_DRAWS + k]]
    result = {"winner": "landlord" if won else "farmers", "base": inf[I_BASE],
              "multiplier": inf[I_MULTIPLIER], "bombs": inf[I_BOMBS],
              "spring": bool(inf[I_SPRING]), "anti_spring": bool(inf[I_ANTI_SPRING]),
              "scores": inf[I_SCORES:I_SCORES + v.seats]}
    if v.stake.multiplies:
        result["show_multiple"] = inf[I_SHOW_MULTIPLE]
        result["bottom_bonus"] = inf[I_BONUS]
    rec["result"] = result
    return rec


def selfplay_stats(games: int, policy="heuristic", seed: int = 0, rules=None, start: int = 0,
                   workers: "int | None" = None) -> SelfplayStats:
    """Play games ``start .. start+games-1`` of a seeded run in kernel calls and sum up.

    The same games as :func:`simulate` with the same arguments, without records;
    ``workers`` threads each run one kernel call on a share of the games (the
    sums do not depend on it).

    >>> s = selfplay_stats(20, "random", seed=1)
    >>> s.games, 0 <= s.landlord_wins <= 20
    (20, True)
    """
    v, games, start, seed, workers, pols, first_mode, bidding, spring = _run_args(
        games, policy, seed, rules, start, workers)

    def run(lo: int, count: int) -> np.ndarray:
        stats = np.zeros(STATS_SIZE, np.int64)
        selfplay_batch(np.int64(seed), np.int64(lo), np.int64(count), pols, v.params, first_mode, bidding, spring,
                       stats)
        return stats

    if workers == 1 or games < 2 * workers:
        stats = run(start, games)
    else:
        from concurrent.futures import ThreadPoolExecutor

        step = -(-games // workers)
        parts = [(start + j, min(step, games - j)) for j in range(0, games, step)]
        with ThreadPoolExecutor(max_workers=workers) as pool:
            stats = sum(pool.map(lambda p: run(*p), parts))
    s = stats.tolist()
    return SelfplayStats(games=s[0], landlord_wins=s[1], bombs=s[2], springs=s[3], anti_springs=s[4],
                         moves=s[5], landlord_score=s[6], redeals=s[7],
                         seat_wins=tuple(s[ST_SEAT_WINS:ST_SEAT_WINS + v.seats]),
                         doubled_games=s[ST_DOUBLED], multiplier_sum=s[ST_MULTIPLIER], show_games=s[ST_SHOWED],
                         stake_counts=tuple(s[ST_STAKES:ST_STAKES + STAKE_BUCKETS]))
