"""Botzone FightTheLandlord2 games into ``ddz-record/1`` (and a game out as a judge log).

Botzone numbers the cards 0-53 (``id // 4`` is the rank index for 0-51, 52
is the small joker, 53 the big one).  Seats 0, 1, 2 bid once each in that
order (0 = pass, otherwise higher than every earlier bid, 3 ends the
auction); if all pass, seat 0 becomes landlord with base 1 (no redeal).
The importer therefore builds records with ``bidding=single-round``,
``first_bidder`` 0 and ``all_pass="seat0"``, keeps every card id
(``hand_ids``, ``bottom_ids``, per-play ``ids``) and replays nothing
itself: :func:`ddz_tools.engines.records.replay_record` judges the moves.

Two inputs are read:

* :func:`import_judge_log` -- the judge's match log: a JSON object with
  ``initdata`` (``allocation``: three lists of 17 ids, ``publiccard``,
  ``seed``; possibly a JSON string) and ``log``, a list alternating judge
  entries ``{"output": {"command": "request" | "finish", "content": {seat:
  ...}, "display": ...}}`` and bot entries ``{seat: {"verdict": "OK",
  "response": ...}}``.  The ``finish`` entry's ``content`` (or ``display``)
  holds the final score per seat; it becomes the stored result's ``scores``
  and is checked on replay.
* :func:`import_transcript` -- a bot-side transcript: ``Judge: {...}``
  lines (a bot's whole input, ``{"requests": [...], "responses": [...]}``)
  each followed by a ``Bot k: {"response": ..., "debug": ...}`` line; other
  lines (the shell commands that ran the bots) are ignored.  The seat of a
  request is ``len(bid)`` for a bid and ``pos`` for a play; each play
  request's ``history`` is checked against the plays read so far.

A game that stops before anyone went out (a transcript cut short, a bot
that timed out) is imported as far as it goes; its replay status is
``incomplete``, and ``record.extra["botzone"]`` says why (``complete``,
``reason``).  A judge verdict other than
``OK`` (``INVALID_CARDTYPE``, ``MISSING_CARD``...) keeps the offending move
in the record so that the replay names the problem in our terms too.

:func:`judge_log_from_game` writes a finished :class:`~ddz_tools.engines.game.Game`
as a judge log (``data/botzone_sample_log.json`` was made with it).
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Iterable, Sequence

from ..core.cards import format_cards, pack_card_ids, rank_of_card_id
from ..core.errors import CardError, RecordError
from .game import Game
from .records import Record, replay_record
from ..core.rules import Rules
from ..variants.variant import variant_of

__all__ = ["sniff_text", "import_judge_log", "import_transcript", "import_file", "judge_log_from_game",
           "BOTZONE_RULES"]

#: Botzone's own bidding: one round from seat 0, all-pass makes seat 0 landlord.
BOTZONE_RULES = "standard,bidding=single-round"

_LINE = re.compile(r"^\s*(Judge|Bot\s+(\d+))\s*:\s*(.*?)\s*$")


def _rules(rules) -> Rules:
    r = Rules.parse(rules if rules is not None else "standard")
    if r.bidding != "single-round":
        r = dataclasses.replace(r, bidding="single-round")
    return r


def _card_ids(value, where: str) -> list:
    if not isinstance(value, list):
        raise RecordError(f"{where}: expected a list of card ids, got {value!r}")
    try:
        pack_card_ids(value)  # every id in 0..53, none twice
    except CardError as exc:
        raise RecordError(f"{where}: {exc}") from None
    return list(value)


def _text(ids: Sequence[int]) -> str:
    return format_cards(pack_card_ids(ids))


def _build(hand_ids: list, bottom_ids: "list | None", bids: list, plays: list, rules: Rules,
           landlord: "int | None", scores: "list | None", rid, source: str, note: "str | None",
           extra: dict) -> Record:
    """Assemble the record from what was read, filling one missing hand or the bottom."""
    known = [h for h in hand_ids if h is not None]
    unknown = [i for i, h in enumerate(hand_ids) if h is None]
    used = {c for h in known for c in h} | set(bottom_ids or [])
    rest = sorted(set(range(54)) - used)
    if bottom_ids is None and not unknown and len(rest) == 3:
        bottom_ids = rest
    elif len(unknown) == 1 and bottom_ids is not None and len(rest) == 17:
        hand_ids[unknown[0]] = rest
    if any(h is None for h in hand_ids) or bottom_ids is None:
        raise RecordError(f"{source}: the deal cannot be reconstructed (hands of seats "
                          f"{[i for i, h in enumerate(hand_ids) if h is None]} or the bottom are unknown)")
    for i, h in enumerate(hand_ids):
        if len(h) != 17:
            raise RecordError(f"{source}: seat {i} was dealt {len(h)} cards, not 17")
    try:
        pack_card_ids([c for h in hand_ids for c in h] + list(bottom_ids))
    except CardError as exc:
        raise RecordError(f"{source}: the deal repeats a card ({exc})") from None
    rec = Record(
        hands=tuple(pack_card_ids(h) for h in hand_ids), bottom=pack_card_ids(bottom_ids), rules=rules,
        first_bidder=0, bids=[(s, b) for s, b in bids], plays=[(s, _text(ids)) for s, ids in plays],
        landlord=landlord, result={"scores": list(scores)} if scores is not None else None, id=rid,
        hand_ids=[sorted(h) for h in hand_ids], bottom_ids=sorted(bottom_ids),
        play_ids=[sorted(ids) for _, ids in plays], all_pass="seat0", extra=extra)
    rep = replay_record(rec)
    complete = rep.status in ("ok", "mismatch")
    reason = note
    if rep.status == "incomplete" and reason is None:
        reason = rep.reason
    extra["botzone"].update(complete=complete, reason=reason)
    return rec


# The judge's match log ------------------------------------------------------------------------


def _maybe_json(value):
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _read_request(req: dict, seat: int, where: str, hand_ids: list, bottom_ids, landlord, finalbid) -> tuple:
    """What a request to ``seat`` tells, in either format: the seat's own cards
    and the bottom (kept from the first request that shows them, ``hand_ids``
    filled in place) and the landlord with the final bid (the latest).
    ``where`` starts the error messages.  Returns ``(bottom_ids, landlord, finalbid)``."""
    if "own" in req and hand_ids[seat] is None:
        hand_ids[seat] = _card_ids(req["own"], where + "own")
    if "publiccard" in req and bottom_ids is None:
        bottom_ids = _card_ids(req["publiccard"], where + "publiccard")
    if "landlord" in req:
        landlord, finalbid = req["landlord"], req.get("finalbid")
    return bottom_ids, landlord, finalbid


def import_judge_log(data, rules=None, id=None) -> Record:
    """Import a Botzone FightTheLandlord2 judge log (a dict or its JSON text).

    Raises :class:`~ddz_tools.core.errors.RecordError` when the log is not one.
    """
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except ValueError as exc:
            raise RecordError(f"judge log: malformed JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("log"), list):
        raise RecordError("judge log: expected an object with a 'log' list")
    rules = _rules(rules)
    init = _maybe_json(data.get("initdata")) or {}
    if not isinstance(init, dict):
        raise RecordError("judge log: initdata must be an object")
    hand_ids: list = [None, None, None]
    bottom_ids = None
    if init.get("allocation") is not None:
        alloc = init["allocation"]
        if not isinstance(alloc, list) or len(alloc) != 3:
            raise RecordError("judge log: initdata.allocation must be three lists of card ids")
        hand_ids = [_card_ids(a, f"initdata.allocation[{i}]") for i, a in enumerate(alloc)]
    if init.get("publiccard") is not None:
        bottom_ids = _card_ids(init["publiccard"], "initdata.publiccard")
    bids, plays = [], []
    landlord = finalbid = None
    scores = None
    note = None
    asked: dict = {}          # seat -> "bid" | "play" for the open requests
    for n, entry in enumerate(data["log"]):
        if not isinstance(entry, dict):
            raise RecordError(f"judge log: log[{n}] is not an object")
        if "output" in entry:
            out = entry["output"] or {}
            cmd = out.get("command")
            content = _maybe_json(out.get("content")) or {}
            if cmd == "finish":
                scores = _finish_scores(content, _maybe_json(out.get("display")))
                break
            if cmd != "request" or not isinstance(content, dict):
                continue
            asked = {}
            for key, req in content.items():
                seat = _seat_key(key, n)
                req = _maybe_json(req)
                if not isinstance(req, dict):
                    raise RecordError(f"judge log: log[{n}] request for seat {seat} is not an object")
                bottom_ids, landlord, finalbid = _read_request(req, seat, f"log[{n}].", hand_ids, bottom_ids,
                                                               landlord, finalbid)
                asked[seat] = "bid" if "bid" in req and "history" not in req else "play"
            continue
        for key, answer in entry.items():
            seat = _seat_key(key, n)
            if seat not in asked:
                raise RecordError(f"judge log: log[{n}] has an answer from seat {seat}, which was not asked")
            if not isinstance(answer, dict):
                raise RecordError(f"judge log: log[{n}] answer of seat {seat} is not an object")
            verdict = answer.get("verdict", "OK")
            response = _maybe_json(answer.get("response"))
            if verdict != "OK":
                note = f"the judge ended the game: seat {seat} {verdict} at log[{n}]"
            if asked[seat] == "bid":
                if isinstance(response, bool) or not isinstance(response, int):
                    if verdict == "OK":
                        raise RecordError(f"judge log: log[{n}] bid of seat {seat} is {response!r}")
                else:
                    bids.append((seat, response))
            elif isinstance(response, list):
                plays.append((seat, _card_ids(response, f"log[{n}] play of seat {seat}")))
            elif verdict == "OK":
                raise RecordError(f"judge log: log[{n}] play of seat {seat} is {response!r}")
        if note:
            break
    extra = {"botzone": {"format": "judge-log", "seed": init.get("seed"), "finalbid": finalbid}}
    rec = _build(hand_ids, bottom_ids, bids, plays, rules, landlord, scores, id, "judge log", note, extra)
    info = rec.extra["botzone"]
    if scores is None and info["complete"]:
        info["reason"] = "the log has no finish entry (no stored scores to check)"
    return rec


def _seat_key(key, n: int) -> int:
    try:
        seat = int(key)
    except (TypeError, ValueError):
        raise RecordError(f"judge log: log[{n}] has a non-seat key {key!r}") from None
    if not 0 <= seat <= 2:
        raise RecordError(f"judge log: log[{n}] names seat {seat}")
    return seat


def _finish_scores(content, display) -> "list | None":
    for source in (display, content):
        if isinstance(source, dict):
            try:
                vals = [source[str(s)] if str(s) in source else source[s] for s in range(3)]
            except (KeyError, TypeError):
                continue
            if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
                return [int(v) if float(v).is_integer() else v for v in vals]
    return None


# The bot-side transcript --------------------------------------------------------------------------


def import_transcript(text: str, rules=None, id=None, scores: "Sequence[int] | None" = None) -> Record:
    """Import a bot-side transcript (``Judge:`` / ``Bot k:`` lines).

    ``scores`` (e.g. from the judge's scores file) become the stored result's
    scores and are checked on replay.
    """
    if not isinstance(text, str):
        raise RecordError("transcript: expected text")
    rules = _rules(rules)
    pending = None                  # (line number, request, seat, kind)
    hand_ids: list = [None, None, None]
    bottom_ids = None
    landlord = finalbid = None
    bids, plays = [], []
    unanswered = None
    for lineno, line in enumerate(text.splitlines(), 1):
        m = _LINE.match(line)
        if not m:
            continue
        try:
            obj = json.loads(m.group(3))
        except ValueError as exc:
            raise RecordError(f"transcript line {lineno}: malformed JSON: {exc}") from None
        if m.group(1) == "Judge":
            if pending is not None:
                unanswered = pending[0]
            reqs = obj.get("requests") if isinstance(obj, dict) else None
            if not isinstance(reqs, list) or not reqs or not isinstance(reqs[-1], dict):
                raise RecordError(f"transcript line {lineno}: a Judge line holds {{\"requests\": [...]}}")
            req = reqs[-1]
            first_play = next((r for r in reqs if isinstance(r, dict) and "pos" in r), None)
            if "bid" in req and "history" not in req:
                seat, kind = len(req["bid"]), "bid"
                if not 0 <= seat <= 2 or req["bid"] != [b for _, b in bids][:seat]:
                    raise RecordError(f"transcript line {lineno}: bids {req['bid']} disagree with "
                                      f"the bids read so far {[b for _, b in bids]}")
            elif first_play is not None:
                seat, kind = first_play["pos"], "play"
                _check_history(req.get("history"), plays, lineno)
            else:
                raise RecordError(f"transcript line {lineno}: a request that is neither a bid nor a play")
            for r in reqs:
                if isinstance(r, dict):
                    bottom_ids, landlord, finalbid = _read_request(r, seat, f"transcript line {lineno}: ", hand_ids,
                                                                   bottom_ids, landlord, finalbid)
            pending = (lineno, req, seat, kind)
            unanswered = None
            continue
        # A bot line.
        if pending is None:
            raise RecordError(f"transcript line {lineno}: a Bot line without a Judge line before it")
        _, req, seat, kind = pending
        if int(m.group(2)) != seat:
            raise RecordError(f"transcript line {lineno}: Bot {m.group(2)} answers a request for seat {seat}")
        response = obj.get("response") if isinstance(obj, dict) else None
        if kind == "bid":
            if isinstance(response, bool) or not isinstance(response, int):
                raise RecordError(f"transcript line {lineno}: bid {response!r} is not a number")
            bids.append((seat, response))
        else:
            plays.append((seat, _card_ids(response, f"transcript line {lineno}: response")))
        pending = None
    if pending is not None:
        unanswered = pending[0]
    if bottom_ids is None and hand_ids.count(None) == 0:
        bottom_ids = sorted(set(range(54)) - {c for h in hand_ids for c in h})
    extra = {"botzone": {"format": "transcript", "finalbid": finalbid}}
    rec = _build(hand_ids, bottom_ids, bids, plays, rules, landlord,
                 list(scores) if scores is not None else None, id, "transcript", None, extra)
    if finalbid is not None:
        check = replay_record(rec)
        if check.landlord is not None and (check.landlord, check.base) != (landlord, finalbid):
            raise RecordError(f"transcript: the judge says landlord {landlord} with bid {finalbid}, "
                              f"the bids give landlord {check.landlord} with base {check.base}")
    info = rec.extra["botzone"]
    if not info["complete"] and unanswered is not None:
        info["reason"] = f"unanswered request at line {unanswered}; " + (info["reason"] or "")
    return rec


def _check_history(history, plays, lineno: int) -> None:
    """A play request's history is the two plays before it (two seats back, then the last)."""
    if history is None:
        return
    if not isinstance(history, list) or len(history) != 2:
        raise RecordError(f"transcript line {lineno}: history must be two lists")
    want = [[], []] + [ids for _, ids in plays]
    want = want[-2:]
    if [sorted(h) for h in history] != [sorted(h) for h in want]:
        raise RecordError(f"transcript line {lineno}: history {history} disagrees with the plays read "
                          f"so far (expected {want})")


def sniff_text(head: str) -> "str | None":
    """``"judge-log"``, ``"transcript"`` or None (not Botzone) from the start of a file."""
    first = next((ln.strip() for ln in head.splitlines() if ln.strip()), "")
    if first.startswith("{"):
        return "judge-log" if '"log"' in head and '"initdata"' in head else None
    if any(_LINE.match(ln) for ln in head.splitlines()[:200]):
        return "transcript"
    return None


def import_file(path: str, rules=None) -> "list[Record]":
    """Every game of a Botzone file (judge log JSON, JSON Lines of logs, or a transcript).

    A transcript's scores are read from a sibling ``*-scores.txt`` file when
    one exists (``x_game-log.txt`` -> ``x_game-scores.txt``).
    """
    import os
    name = os.path.basename(path)
    with open(path, encoding="utf-8-sig") as f:
        text = f.read()
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            return [import_judge_log(json.loads(text), rules, id=name)]
        except ValueError:
            out = []
            for i, line in enumerate(text.splitlines(), 1):
                if line.strip():
                    out.append(import_judge_log(line, rules, id=f"{name}:{i}"))
            return out
    scores = None
    if path.endswith("-log.txt"):
        spath = path[: -len("-log.txt")] + "-scores.txt"
        if os.path.exists(spath):
            with open(spath, encoding="utf-8") as f:
                scores = [int(x) for x in f.read().split()]
    return [import_transcript(text, rules, id=name, scores=scores)]


# A game out as a judge log --------------------------------------------------------------------------


def judge_log_from_game(game: Game, seed: "int | str | None" = None) -> dict:
    """A Botzone FightTheLandlord2 judge log of a game played under Botzone's
    bidding (first bidder 0, one round; all-pass makes seat 0 landlord).

    The game must carry card ids (a seeded deal or a deal given as ids).
    """
    why = variant_of(game.rules).supports("botzone")
    if why is not None:
        raise RecordError(why)
    if game.hand_ids is None:
        raise RecordError("the game has no card ids (deal it from a seed or from Botzone ids)")
    if game.first_bidder != 0 or game.rules.bidding != "single-round":
        raise RecordError("a Botzone game bids once round from seat 0 (first_bidder=0, bidding=single-round)")
    hands = [list(h) for h in game.hand_ids]
    bottom = list(game.bottom_ids)
    log: list = []
    bids_so_far: list = []
    for seat, b in game.bids:
        log.append({"output": {"command": "request",
                               "content": {str(seat): {"own": hands[seat], "bid": list(bids_so_far)}},
                               "display": {"event": {"player": seat}, "bid": list(bids_so_far)}}})
        log.append({str(seat): {"verdict": "OK", "response": b}})
        bids_so_far.append(b)
    if game.landlord is None:
        raise RecordError("the game has no landlord")
    remaining = [set(h) for h in hands]
    remaining[game.landlord] |= set(bottom)
    history: list = []
    first_seen = [False, False, False]
    for seat, p in game.plays:
        last_two = ([[], []] + history)[-2:]
        req = {"history": [list(h) for h in last_two]}
        if not first_seen[seat]:
            first_seen[seat] = True
            req = {"own": hands[seat], "history": req["history"], "publiccard": bottom,
                   "landlord": game.landlord, "pos": seat, "finalbid": game.base}
        ids = _pick_ids(remaining[seat], p.cards)
        remaining[seat] -= set(ids)
        log.append({"output": {"command": "request", "content": {str(seat): req},
                               "display": {"event": {"player": seat, "action": history[-1] if history else []}}}})
        log.append({str(seat): {"verdict": "OK", "response": ids}})
        history.append(ids)
    if game.result is not None:
        sc = {str(s): game.result.scores[s] for s in range(3)}
        log.append({"output": {"command": "finish", "content": dict(sc),
                               "display": {**sc, "event": {"player": game.result.winner_seat,
                                                           "action": history[-1] if history else []}}}})
    return {"initdata": {"allocation": hands, "publiccard": bottom, "seed": seed}, "log": log}


def _pick_ids(available: Iterable[int], cards: int) -> list:
    """The lowest card ids of ``available`` that make up the packed ``cards``."""
    out = []
    need = {r: (cards >> (4 * r)) & 15 for r in range(15)}
    for c in sorted(available):
        r = rank_of_card_id(c)
        if need.get(r, 0) > 0:
            out.append(c)
            need[r] -= 1
    if any(need.values()):
        raise RecordError(f"the hand lacks the cards {format_cards(cards)}")
    return out
