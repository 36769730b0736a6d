"""Running the analysis: the items of the input files (:func:`iter_items`),
one chunk of them analysed in order (:func:`analyze_items`: replay and
validate, score, then the mistake search, the stake decisions' review and
the move review), and the whole run (:func:`analyze_files`: chunks read
ahead or streamed, run in this process, a process pool or on a Dask cluster,
results in input order, games already analysed skipped on ``--resume``).
"""

from __future__ import annotations

import collections
import contextlib
import functools
import gc
import itertools
import os
from typing import Callable, Iterable, Iterator, Sequence

from ...core.cards import card_count
from ...core.errors import ArgumentError, DdzError
from ...core.kinds import F_BOMBS_LADDER, F_BOMBS_SIX_PLUS, T_BOMB, T_ROCKET
from ...core.rules import Play, Rules, play_text_cards
from ...engines.sources import (
    FMT_BOTZONE_LOG,
    FMT_BOTZONE_TRANSCRIPT,
    FMT_DOUZERO,
    FMT_RECORD,
    Item,
    decode_item,
    parse_douzero_deal,
    read_items,
)
from ...variants import variant_of
from ..review import MODES as REVIEW_MODES, REVIEW_NODE_LIMIT, replay_states
from .mistakes import find_mistakes
from .model import (DEFAULT_NODE_LIMIT, STATUS_DEAL, STATUS_INCOMPLETE, STATUS_INVALID, STATUS_VALID, AnalyzeOptions,
                    GameAnalysis, player_names)


# Per-game analysis ---------------------------------------------------------------------


def _invalid(item: Item, reason: str, move: "int | None" = None, **kw) -> GameAnalysis:
    return GameAnalysis(item.file, item.line, item.fmt, STATUS_INVALID, reason=reason, move=move, **kw)


def _analyze_deal(item: Item, opts: AnalyzeOptions) -> GameAnalysis:
    from ...engines.decompose import min_plays

    try:
        info = parse_douzero_deal(item.data)
    except DdzError as exc:
        return _invalid(item, str(exc), rules=opts.rules.describe())
    info["min_plays"] = [min_plays(h, opts.rules) for h in info["hands"]]
    return GameAnalysis(item.file, item.line, item.fmt, STATUS_DEAL, id=f"deal-{item.line}",
                        rules=opts.rules.describe(), deal=info)


@contextlib.contextmanager
def gc_paused():
    """A context in which Python's cyclic garbage collector is paused: for
    building many small acyclic objects (parsed JSON, records), where its
    repeated passes over them cost a third of the validate-and-score time.
    Reference counting still frees them; the collector's state is restored
    on leaving.  :func:`analyze_items` and the chunked readers run in it."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def analyze_items(items: Sequence[Item], opts: AnalyzeOptions = AnalyzeOptions()) -> list[GameAnalysis]:
    """Analyse a chunk of items, in order: the unit of work of a worker."""
    with gc_paused():
        return _analyze_items(items, opts)


def _analyze_items(items: Sequence[Item], opts: AnalyzeOptions) -> list[GameAnalysis]:
    items = [decode_item(it) for it in items]
    out: list = [None] * len(items)
    games = []
    for i, item in enumerate(items):
        if item.error is not None:
            out[i] = _invalid(item, item.error)
        elif item.fmt == FMT_DOUZERO:
            out[i] = _analyze_deal(item, opts)
        else:
            games.append(i)
    if games:
        done = _analyze_games([items[i] for i in games], opts)
        for i, res in zip(games, done):
            out[i] = res
    return out


# Replay, score, search ------------------------------------------------------------------


def _strip_index(reason: str) -> str:
    """``plays[12]: seat 0 ...`` -> ``seat 0 ...`` (the move number is reported apart)."""
    if reason and reason.startswith(("plays[", "bids[")):
        head, sep, rest = reason.partition("]: ")
        if sep:
            return rest
    return reason


def _from_replay(item: Item, rec, rep) -> GameAnalysis:
    """A GameAnalysis from :func:`ddz_tools.engines.records.replay_record`'s verdict."""
    g = GameAnalysis(item.file, item.line, item.fmt, STATUS_VALID, id=_id(rec, item), rules=rep.rules,
                     players=list(rec.players) if rec.players else None, landlord=rep.landlord)
    if rep.status == "invalid":
        g.status, g.phase = STATUS_INVALID, rep.phase
        g.move = None if rep.index is None else rep.index + 1
        g.reason = _strip_index(rep.reason)
    elif rep.status == "incomplete":
        g.status, g.reason = STATUS_INCOMPLETE, rep.reason
        info = rec.extra.get("botzone") if isinstance(rec.extra, dict) else None
        if isinstance(info, dict) and info.get("reason"):
            g.notes.append(f"botzone: {info['reason']}")
    else:
        g.result = rep.result.to_dict()
        if rep.status == "mismatch":
            g.result_disagrees = list(rep.disagreements)
            g.stored_result = dict(rep.stored) if rep.stored else None
            g.reason = rep.reason
    return g


def _id(rec, item: Item):
    return None if rec.id is None else str(rec.id)


def _game_plays(rec):
    """Replay a valid record with the game engine: (hands at the lead, landlord, [(seat, Play)])."""
    states, end, plays = replay_states(rec)
    return list(states[0].hands if states else end.hands), end.landlord, plays


#: (play text, rule flags) -> is the play a bomb or a rocket (the four jokers with two decks).
_BOMB_TEXT: dict = {}


def _is_bomb_text(text: str, rules: Rules) -> bool:
    """Is a valid play's text a bomb or a rocket (as the engine reads it)?  Memoised."""
    key = (text, rules.flags)
    hit = _BOMB_TEXT.get(key)
    if hit is None:
        try:
            hit = Play.parse(text, rules).type in (T_BOMB, T_ROCKET)
        except DdzError:
            hit = False
        if len(_BOMB_TEXT) < 100_000:
            _BOMB_TEXT[key] = hit
    return hit


def bombs_played(rec, result: dict) -> int:
    """Every bomb and rocket played in a valid record whose replayed result is ``result``.

    ``result["bombs"]`` counts the bombs and rockets that raised the stake;
    that is every one of them except under four-player ``bomb_doubles=six-plus``
    or ``ladder``, where bombs of 4 or 5 cards leave the stake alone: only
    there are the plays read (each distinct text once)."""
    rules = rec.rules
    if not rules.flags & (F_BOMBS_SIX_PLUS | F_BOMBS_LADDER):
        return result.get("bombs") or 0
    return sum(1 for _, text in rec.plays if text and _is_bomb_text(text, rules))


def _reaches(rec, landlord: int, below: int) -> bool:
    """Does a valid game ever reach a moment when every hand holds at most ``below`` cards?

    Most games end before that, and then the mistake search has nothing to do:
    this cheap count spares them the full replay."""
    rules = rec.rules
    n = [rules.hand_cards] * rules.seats
    n[landlord] += rules.bottom_cards
    for seat, text in rec.plays:
        if max(n) <= below:
            return True
        if text:
            n[seat] -= card_count(play_text_cards(text, rules.decks))
    return False


def _guarded(review, rec, opts: AnalyzeOptions, what: str) -> tuple:
    """``review(rec, opts)``, its error as ``(None, "WHAT failed: ...")``: one
    game's review never loses the batch."""
    try:
        return review(rec, opts)
    except DdzError as exc:
        return None, f"{what} failed: {exc}"


def _deep(g: GameAnalysis, rec, opts: AnalyzeOptions) -> None:
    """Mistake search and bid review of a valid game, in place."""
    if opts.solve_below > 0 and _reaches(rec, g.landlord, opts.solve_below):
        try:
            hands, landlord, plays = _game_plays(rec)
            ms = find_mistakes(hands, landlord, plays, rec.rules, opts.solve_below, opts.node_limit,
                               opts.time_limit, rec.players)
        except DdzError as exc:  # never lose the batch to one game's search
            g.notes.append(f"mistake search failed: {exc}")
        else:
            g.mistakes, g.positions_solved, g.positions_unchecked = ms.mistakes, ms.solved, ms.unchecked
    if opts.bids:
        from ..bid import review_bids, review_doubles, review_shows

        stake = variant_of(rec.rules).stake
        g.bid_review, why = _guarded(review_bids, rec, opts, "bid review")
        if why:
            g.notes.append(why)
        elif rec.all_pass != "redeal":
            g.notes.append("bid review assumes a redeal when all pass (Botzone makes seat 0 landlord)")
        if stake.doubles:
            g.double_review, why = _guarded(review_doubles, rec, opts, "double review")
            if why:
                g.notes.append(why)
        if stake.shows:
            g.show_review, why = _guarded(review_shows, rec, opts, "show review")
            if why:
                g.notes.append(why)
    if opts.review:
        from ..review import review_record

        try:
            adv = {"seed": opts.seed, "inference": opts.review_inference}
            if opts.review_samples is not None:
                adv["samples"] = opts.review_samples
            g.review = review_record(rec, opts.review, node_limit=opts.review_nodes, time_limit=opts.time_limit,
                                     players=player_names(g), advisor_options=adv).to_dict()
        except DdzError as exc:
            g.notes.append(f"review failed: {exc}")


def _record_of(item: Item, opts: AnalyzeOptions):
    """(Record, None) or (None, GameAnalysis of a game that cannot be replayed)."""
    from ...engines.records import parse_record

    if item.fmt == FMT_RECORD:
        data = item.data
        if isinstance(data, dict) and "rules" not in data:
            data = dict(data, rules=opts.rules.describe())
        try:
            return parse_record(data), None
        except DdzError as exc:
            return None, _invalid(item, str(exc), rules=opts.rules.describe())
    if item.fmt in (FMT_BOTZONE_LOG, FMT_BOTZONE_TRANSCRIPT):
        return _botzone_record(item, opts)
    return None, _invalid(item, f"unknown input format {item.fmt!r}")


def _botzone_record(item: Item, opts: AnalyzeOptions):
    """Import a Botzone judge log or transcript as a record (card ids kept, so suits are checked)."""
    from ...engines import botzone

    try:
        if item.fmt == FMT_BOTZONE_LOG:
            rec = botzone.import_judge_log(item.data, rules=opts.rules)
        else:
            # import_file also reads the judge's sibling "*-scores.txt" file, when there is one.
            rec = botzone.import_file(item.file, rules=opts.rules)[0]
    except (DdzError, OSError) as exc:
        return None, _invalid(item, str(exc), rules=opts.rules.describe())
    return rec, None


def _analyze_games(items: Sequence[Item], opts: AnalyzeOptions) -> list[GameAnalysis]:
    """Replay (one kernel call for the whole chunk), score and search a chunk of games."""
    from ...engines.records import S_OK, replay_record, validate_batch

    out: list = [None] * len(items)
    fast, slow = [], []
    for i, item in enumerate(items):
        rec, bad = _record_of(item, opts)
        if bad is not None:
            out[i] = bad
        elif rec.hand_ids is not None or rec.play_ids is not None:
            slow.append((i, rec))      # card ids (suits) are checked by the full replay only
        else:
            fast.append((i, rec))
    deep = []
    if fast:
        res = validate_batch([r for _, r in fast])
        ok = ((res.status == S_OK) & (res.mismatch == 0)).tolist()
        results = res.results()
        described: dict = {}
        for k, (i, rec) in enumerate(fast):
            if not ok[k]:
                # Rare: the full replay gives the reason in words (and agrees with the kernel).
                slow.append((i, rec))
                continue
            item = items[i]
            desc = described.get(rec.rules)
            if desc is None:
                desc = described[rec.rules] = rec.rules.describe()
            result = results[k]
            g = GameAnalysis(item.file, item.line, item.fmt, STATUS_VALID,
                             None if rec.id is None else str(rec.id), desc, landlord=result.landlord,
                             players=list(rec.players) if rec.players else None, result=result.to_dict())
            g.bombs_played = bombs_played(rec, g.result)
            out[i] = g
            deep.append((g, rec))
    for i, rec in slow:
        g = _from_replay(items[i], rec, replay_record(rec))
        out[i] = g
        if g.status == STATUS_VALID:
            g.bombs_played = bombs_played(rec, g.result)
            deep.append((g, rec))
    if opts.solve_below > 0 or opts.bids or opts.review:
        for g, rec in deep:
            _deep(g, rec, opts)
    return out


# Reading and running ---------------------------------------------------------------------


def iter_items(paths: Iterable[str]) -> Iterator[Item]:
    """Every item of every file, in order; a file that cannot be read at all
    becomes one item with ``line`` 0 and ``error`` set.  JSON Lines stay
    undecoded here: the worker that analyses a line decodes it."""
    for path in paths:
        try:
            yield from read_items(path, decode=False)
        except (DdzError, OSError) as exc:
            reason = str(exc) if isinstance(exc, DdzError) else (exc.strerror or str(exc))
            norm = os.path.normpath(path)
            if reason.startswith(norm + ": "):
                reason = reason[len(norm) + 2:]
            yield Item(norm, 0, "unknown", None, reason)


def _chunks(seq: Sequence, size: int) -> list:
    return [seq[i:i + size] for i in range(0, len(seq), size)]


#: Items read before the analysis starts: an input up to this size is known
#: whole (progress shows its total); a larger one is read chunk by chunk.
READ_AHEAD = 20_000


def _read_chunks(stream: Iterator, size: int) -> Iterator[list]:
    """Lists of ``size`` items read from ``stream`` as they are needed."""
    while True:
        with gc_paused():
            chunk = list(itertools.islice(stream, size))
        if not chunk:
            return
        yield chunk


def _default_chunk(n: int, workers: int, opts: AnalyzeOptions) -> int:
    per = 1 if opts.review else 8 if opts.solve_below > 0 or opts.bids else 1024
    return max(1, min(per, -(-n // max(1, 4 * workers))))


def _run_ordered(submit: Callable, chunks: list, window: int) -> Iterator[list]:
    """Submit chunks with at most ``window`` in flight; yield results in order."""
    pending = collections.deque()
    it = iter(chunks)
    for chunk in it:
        pending.append(submit(chunk))
        if len(pending) >= window:
            break
    while pending:
        fut = pending.popleft()
        res = fut.result()
        nxt = next(it, None)
        if nxt is not None:
            pending.append(submit(nxt))
        yield res


def analyze_files(paths: Iterable[str], *, rules: "Rules | str | None" = None, solve_below: int = 10,
                  node_limit: "int | None" = DEFAULT_NODE_LIMIT, time_limit: "float | None" = None,
                  bids: bool = False, bid_samples: int = 200, seed: int = 0, review: "str | None" = None,
                  review_nodes: "int | None" = REVIEW_NODE_LIMIT, review_samples: "int | None" = None,
                  review_inference: bool = False, workers: int = 1,
                  scheduler: "str | object | None" = None, skip: Iterable[tuple] = (),
                  progress: "Callable[[int, int], None] | None" = None,
                  chunk_size: "int | None" = None) -> Iterator[GameAnalysis]:
    """Analyse every game of ``paths``; yields one :class:`GameAnalysis` per game, in input order.

    ``rules`` is used for games that do not name their own; ``solve_below``
    (0 = off) starts the mistake search once every hand holds at most that many
    cards, with ``node_limit`` / ``time_limit`` per position; ``bids`` adds the
    bid review (``bid_samples`` deals per evaluation, seeded by ``seed``);
    ``review`` (``open``, ``hidden`` or ``both``) reviews every move
    (:mod:`ddz_tools.analysis.review`, ``review_nodes`` solver nodes per position,
    ``review_samples`` advisor samples per move, seeded by ``seed``, and with
    ``review_inference`` the advisor's deals weighed by the other seats' actions).
    ``workers`` > 1 runs chunks of games in a process pool; ``scheduler`` (a
    ``dask.distributed`` address or ``Client``) runs them on a Dask cluster.
    Either way the results are the same as a single-worker run, in the same
    order (with a ``time_limit`` the solver's verdicts may depend on load).
    ``skip`` holds ``(file, line)`` keys already analysed (``--resume``);
    ``progress(done, total)`` is called as games complete.

    >>> import pickle, tempfile, os
    >>> deck = [r for r in range(3, 15) for _ in range(4)] + [17] * 4 + [20, 30]
    >>> deal = {"landlord": deck[:20], "landlord_down": deck[20:37],
    ...         "landlord_up": deck[37:], "three_landlord_cards": deck[17:20]}
    >>> path = os.path.join(tempfile.mkdtemp(), "deals.pkl")
    >>> with open(path, "wb") as f:
    ...     pickle.dump([deal, {"landlord": [3]}], f)
    >>> [(g.line, g.status, g.reason) for g in analyze_files([path])]
    [(1, 'deal', None), (2, 'invalid', 'DouZero deal lacks landlord_down, landlord_up, three_landlord_cards')]
    """
    opts = AnalyzeOptions(rules=Rules.parse(rules) if not isinstance(rules, Rules) else rules,
                          solve_below=int(solve_below), node_limit=node_limit, time_limit=time_limit,
                          bids=bool(bids), bid_samples=int(bid_samples), seed=int(seed), review=review or None,
                          review_nodes=review_nodes, review_samples=review_samples,
                          review_inference=bool(review_inference))
    if opts.solve_below < 0:
        raise ArgumentError("solve_below must be 0 (off) or a positive number of cards", param="solve_below")
    if opts.review is not None and opts.review not in REVIEW_MODES:
        raise ArgumentError(f"review must be one of {', '.join(REVIEW_MODES)}, not {opts.review!r}", param="review")
    skip = set(tuple(k) for k in skip)
    stream = (it for it in iter_items(paths) if it.key not in skip)
    workers = max(1, int(workers or 1))
    slots = workers if scheduler is None else 8
    # Read ahead up to a few chunks: a small input is then known whole (its
    # total is shown and its chunks are sized to keep every worker busy); a
    # large one is streamed chunk by chunk, so memory does not grow with it.
    per = chunk_size or _default_chunk(1 << 62, slots, opts)
    ahead = max(READ_AHEAD, 4 * slots * per)
    with gc_paused():
        head = list(itertools.islice(stream, ahead + 1))
    if len(head) <= ahead:
        total = len(head)
        size = chunk_size or _default_chunk(total, slots, opts)
        chunks = iter(_chunks(head, size))
        several = total > size
    else:
        total = None
        size = per
        chunks = itertools.chain(_chunks(head, size), _read_chunks(stream, size))
        several = True
    if progress:
        progress(0, total)
    if not head:
        return
    done = 0
    results = run_chunks(functools.partial(analyze_items, opts=opts), chunks,
                         workers=workers if several else 1, scheduler=scheduler)
    for res in results:
        for g in res:
            yield g
        done += len(res)
        if progress:
            progress(done, total)


def run_chunks(fn: Callable, chunks: Iterable, *, workers: int = 1,
               scheduler: "str | object | None" = None) -> Iterator:
    """``fn(chunk)`` for every chunk, results in chunk order, as
    :func:`analyze_files` runs its chunks: here, in a process pool of
    ``workers``, or on a Dask cluster (``scheduler``: an address or a
    ``Client``).  ``fn`` must be a module-level function (it is pickled).

    >>> list(run_chunks(len, [[1, 2], [3]]))
    [2, 1]
    """
    if scheduler is not None:
        try:
            from distributed import Client
        except ImportError:
            raise ArgumentError("scheduler needs dask.distributed: pip install 'ddz-tools[dask]'",
                                param="scheduler") from None
        own = not isinstance(scheduler, Client)
        client = Client(scheduler) if own else scheduler
        try:
            n = max(1, sum(client.nthreads().values()))
            yield from _run_ordered(lambda c: client.submit(fn, c, pure=False), chunks, 4 * n)
        finally:
            if own:
                client.close()
    elif workers > 1:
        import concurrent.futures
        import multiprocessing

        ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
            yield from _run_ordered(lambda c: pool.submit(fn, c), chunks, 4 * workers)
    else:
        for c in chunks:
            yield fn(c)
