"""Game records (``ddz-record/1``): reading, writing, replaying and fast validation.

Format
------
A ``ddz-record/1`` file is JSON Lines: one game per line, one JSON object::

    {"schema": "ddz-record/1", "id": "g1", "rules": {"preset": "standard"},
     "players": ["ann", "bo", "cy"],
     "deal": {"hands": ["34567899TJQQQKAAD", "34566779TTTJA222X", "33445578889JJQKA2"],
              "bottom": "6KK", "hand_ids": null, "bottom_ids": null},
     "first_bidder": 0, "bids": [{"seat": 0, "bid": 3}], "landlord": 0,
     "plays": [{"seat": 0, "cards": "3456789T"}, {"seat": 1, "cards": ""}, ...],
     "result": {"winner": "landlord", "base": 3, "multiplier": 1, "bombs": 0,
                "spring": false, "anti_spring": false, "scores": [6, -3, -3]}}

``data/ddz-record-1.schema.json`` is its JSON Schema.  Seats are absolute
(0-2).  ``hands`` are the three 17-card deals and the landlord's 20 cards are
``hands[landlord] + bottom``.  Under four-player rules (preset ``four``) the
seats are 0-3, ``hands`` the four 25-card deals of two decks and the bottom
8 cards (the landlord's 33 are ``hands[landlord] + bottom``), ``players`` and
``result.scores`` have four entries, and there are no card ids.  ``plays`` run in turn order from the
landlord's lead; ``""`` is a pass; a play may be written in body-kicker
notation (``333444555-666``) to fix its reading, otherwise the reading is
chosen as :mod:`ddz_tools.game` documents.  Optional: ``id``, ``players``,
``hand_ids``/``bottom_ids`` and per-play ``ids`` (Botzone card ids 0-53;
suits never change a result), ``all_pass`` (``"redeal"``, the default, or
``"seat0"``: Botzone's rule that seat 0 becomes landlord with base 1 when
everyone passes).  Under Laizi rules (presets ``laizi`` and ``tiandi``)
``deal.wild`` is the deal's wild rank(s) (``"9"``; ``"5,9"``, 天 then 地),
and a play may pin what its laizi stand for (``34569=34567``).  Unknown keys
are kept and ignored.

Reading never trusts a stored value: :func:`replay_record` replays every bid
and play through :class:`~ddz_tools.game.Game`, recomputes the result and
lists the stored fields that disagree.  A replay has one of four statuses:

* ``ok``: a finished game whose stored result (if any) agrees;
* ``mismatch``: a finished game whose stored result or landlord disagrees;
* ``invalid``: an illegal bid or play (``phase``, ``index`` into ``bids`` or
  ``plays``, an error ``code`` and a ``reason``);
* ``incomplete``: every action is legal but nobody went out (or the bidding
  is unfinished, or everyone passed and the deal is void).

The fast path, :func:`validate_batch`, does the play phase of many games in
one Numba kernel (``_validate_games``), with the same statuses and codes;
a batch may mix three- and four-seat games.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from typing import IO, Iterable, Iterator

import numpy as np

from ._jit import interpreted, kernel
from .cards import (
    card_count,
    format_cards,
    full_deck,
    is_valid_packed,
    pack_card_ids,
    packed_contains,
    parse_cards,
    rank_of_card_id,
)
from .errors import CardError, DdzError, PlayError, RecordError, RulesError, StageError
from .game import (
    ALL_PASS_OPTIONS,
    BIDDING,
    DOUBLING,
    DRAWING,
    E_BAD_DOUBLE,
    E_BAD_DRAW,
    E_BAD_SHOW,
    PLAYING,
    show_stage_code,
    show_stage_text,
    E_BAD_BID,
    E_BAD_CARDS,
    E_DOES_NOT_BEAT,
    E_FINISHED,
    E_NOT_A_COMBINATION,
    E_NOT_BIDDING,
    E_NOT_IN_HAND,
    E_NOT_PLAYING,
    E_PASS_ON_LEAD,
    E_WRONG_TURN,
    FINISHED,
    REDEAL,
    Game,
    IllegalAction,
    Result,
    deck_problem,
)
from .gamerules import (
    A_BASE,
    A_LANDLORD,
    A_OUTCOME,
    AUCTION_SIZE,
    AUCTION_WON,
    BID_BAD,
    BID_OK,
    BID_OVER,
    BID_WRONG_TURN,
    BIDDING_MODES,
    DOUBLING_MODES,
    auction_bid,
    auction_seats,
    auction_start,
    bid_error,
    stake_doublings,
    may_pass,
    multiplier,
    next_seat,
    seat_score,
    settle_doubled,
    spring_silent,
    trick_after,
)
from .kinds import TIER_SHIFT, WILD_MASK
from .movegen import gen_all, gen_into
from .rules import Play, Rules, has_fixed_reading, play_text_cards, readings

__all__ = [
    "SCHEMA", "Record", "ReplayResult", "LineResult", "parse_record", "record_to_dict",
    "record_from_game", "write_record", "read_records", "record_lines", "replay_record", "play_text", "rules_field",
    "GameBatch", "BatchResult", "pack_games", "validate_batch", "STATUS_NAMES",
]

SCHEMA = "ddz-record/1"
RESULT_FIELDS = ("winner", "base", "multiplier", "bombs", "spring", "anti_spring", "scores", "show_multiple",
                 "bottom_bonus")


# The record ------------------------------------------------------------------------------


@dataclasses.dataclass
class Record:
    """One parsed ``ddz-record/1`` game (structure checked, moves not yet replayed).

    ``hands`` and ``bottom`` are packed ints; ``bids`` are ``(seat, bid)``;
    ``plays`` are ``(seat, text)`` with the text as written (``""`` = pass);
    ``landlord`` and ``result`` are the *stored* values, never trusted.
    """

    hands: tuple
    bottom: int
    rules: Rules = dataclasses.field(default_factory=Rules)
    first_bidder: int = 0
    bids: list = dataclasses.field(default_factory=list)
    plays: list = dataclasses.field(default_factory=list)
    landlord: "int | None" = None
    result: "dict | None" = None
    id: "str | int | None" = None
    players: "list | None" = None
    hand_ids: "list | None" = None
    bottom_ids: "list | None" = None
    play_ids: "list | None" = None        # per play: list of ids or None
    all_pass: str = "redeal"
    extra: dict = dataclasses.field(default_factory=dict)
    #: Happy Dou Dizhu: ``(seat, stage text)`` shows in order, the seats'
    #: doubles by seat (None when not recorded), the landlord's draws
    #: ``(farmer seat, packed card)`` under ``landlord_draw``.
    shows: list = dataclasses.field(default_factory=list)
    doubles: "list | None" = None
    draws: list = dataclasses.field(default_factory=list)


def _seat(value, where: str, seats: int = 3) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        names = "0, 1 or 2" if seats == 3 else ", ".join(str(s) for s in range(seats - 1)) + f" or {seats - 1}"
        raise RecordError(f"{where} must be a seat {names}, not {value!r}")
    return value


def _ids(value, n: int, where: str) -> list:
    if not isinstance(value, list) or len(value) != n:
        raise RecordError(f"{where} must be a list of {n} card ids")
    for c in value:
        try:
            rank_of_card_id(c)
        except CardError as exc:
            raise RecordError(f"{where}: {exc}") from None
    return list(value)


_RULES_CACHE: dict = {}


def _rules_of(spec) -> Rules:
    """Rules.from_dict, memoised (a file usually repeats one rules field)."""
    key = json.dumps(spec, sort_keys=True) if isinstance(spec, dict) else spec
    hit = _RULES_CACHE.get(key)
    if hit is None:
        hit = Rules.from_dict(spec)
        if len(_RULES_CACHE) < 1000:
            _RULES_CACHE[key] = hit
    return hit


_KNOWN = {"schema", "id", "rules", "players", "deal", "first_bidder", "bids", "landlord", "plays",
          "result", "all_pass", "show", "doubles", "draws"}


def parse_record(obj) -> Record:
    """Check the structure of one record (a dict or a JSON line) and build a :class:`Record`.

    Raises :class:`~ddz_tools.errors.RecordError` naming the first problem.
    Moves are not judged here; :func:`replay_record` does that.
    """
    if isinstance(obj, (str, bytes)):
        try:
            obj = json.loads(obj.strip() if isinstance(obj, str) else obj)
        except ValueError as exc:
            raise RecordError(f"malformed JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise RecordError(f"a record is a JSON object, not {type(obj).__name__}")
    if obj.get("schema") != SCHEMA:
        raise RecordError(f"schema must be {SCHEMA!r}, not {obj.get('schema')!r}")
    try:
        rules = _rules_of(obj.get("rules"))
    except RulesError as exc:
        raise RecordError(f"rules: {exc}") from None
    all_pass = obj.get("all_pass", "redeal")
    if all_pass not in ALL_PASS_OPTIONS:
        raise RecordError(f"all_pass must be one of {', '.join(ALL_PASS_OPTIONS)}, not {all_pass!r}")
    deal = obj.get("deal")
    if not isinstance(deal, dict):
        raise RecordError("deal is missing (an object with hands and bottom)")
    seats, decks = rules.seats, rules.decks
    hands_t = deal.get("hands")
    if not isinstance(hands_t, list) or len(hands_t) != seats or not all(isinstance(h, str) for h in hands_t):
        raise RecordError(f"deal.hands must be a list of {seats} card strings"
                          + (f" (rules {rules.preset}: {seats} seats)" if seats != 3 else ""))
    if not isinstance(deal.get("bottom"), str):
        raise RecordError("deal.bottom must be a card string")
    try:
        hands = tuple(parse_cards(h, decks) for h in hands_t)
        bottom = parse_cards(deal["bottom"], decks)
    except CardError as exc:
        raise RecordError(f"deal: {exc}") from None
    n, nb = rules.hand_cards, rules.bottom_cards
    for i, h in enumerate(hands):
        if card_count(h) != n:
            raise RecordError(f"deal.hands[{i}] has {card_count(h)} cards, not {n}")
    if card_count(bottom) != nb:
        raise RecordError(f"deal.bottom has {card_count(bottom)} cards, not {nb}"
                          + (f" (no bottom under rules {rules.preset})" if nb == 0 else ""))
    if decks == 1:
        if sum(hands) + bottom != full_deck(1):
            raise RecordError("deal: the hands and the bottom are not one 54-card deck")
    else:
        problem = deck_problem(hands + (bottom,), decks)
        if problem:
            raise RecordError(f"deal: not {decks} decks of {rules.deck_size} cards: {problem}")
    wild = deal.get("wild")
    if wild is not None and not isinstance(wild, str):
        raise RecordError(f"deal.wild must be rank text such as \"9\" or \"5,9\", not {type(wild).__name__}")
    try:
        rules = rules.with_wild(wild)
    except RulesError as exc:
        raise RecordError(f"deal.wild: {exc}") from None
    if len(rules.wild) != rules.wild_ranks:
        raise RecordError(f"deal.wild: a {rules.preset} deal has {rules.wild_ranks} wild rank"
                          f"{'s' if rules.wild_ranks > 1 else ''}, the record gives {len(rules.wild)}")
    hand_ids = bottom_ids = None
    if deal.get("hand_ids") is not None or deal.get("bottom_ids") is not None:
        if decks != 1:
            raise RecordError(f"deal.hand_ids: card ids name the cards of one deck, and rules {rules.preset} "
                              f"deal {decks} decks (leave hand_ids and bottom_ids null)")
        if not isinstance(deal.get("hand_ids"), list) or len(deal["hand_ids"]) != 3:
            raise RecordError(f"deal.hand_ids must be 3 lists of {n} card ids (or null)")
        hand_ids = [_ids(h, n, f"deal.hand_ids[{i}]") for i, h in enumerate(deal["hand_ids"])]
        bottom_ids = _ids(deal.get("bottom_ids") if nb else (deal.get("bottom_ids") or []), nb, "deal.bottom_ids")
        try:
            pack_card_ids([c for h in hand_ids for c in h] + bottom_ids)
        except CardError as exc:
            raise RecordError(f"deal ids: {exc}") from None
        for i in range(3):
            if pack_card_ids(hand_ids[i]) != hands[i]:
                raise RecordError(f"deal.hand_ids[{i}] are not the cards of deal.hands[{i}]")
        if pack_card_ids(bottom_ids) != bottom:
            raise RecordError("deal.bottom_ids are not the cards of deal.bottom")
    first_bidder = _seat(obj.get("first_bidder"), "first_bidder", seats)
    bids_raw = obj.get("bids")
    if not isinstance(bids_raw, list):
        raise RecordError("bids must be a list of {seat, bid} objects")
    bids = []
    for i, b in enumerate(bids_raw):
        if not isinstance(b, dict) or "bid" not in b:
            raise RecordError(f"bids[{i}] must be an object with seat and bid")
        bid = b["bid"]
        if isinstance(bid, bool) or not isinstance(bid, int):
            raise RecordError(f"bids[{i}].bid must be an integer, not {bid!r}")
        bids.append((_seat(b.get("seat"), f"bids[{i}].seat", seats), bid))
    plays_raw = obj.get("plays")
    if not isinstance(plays_raw, list):
        raise RecordError("plays must be a list of {seat, cards} objects")
    plays, play_ids = [], None
    append = plays.append
    for i, p in enumerate(plays_raw):
        if type(p) is not dict or type(p.get("cards")) is not str:
            raise RecordError(f"plays[{i}] must be an object with seat and cards (a string, \"\" to pass)")
        seat = p.get("seat")
        if type(seat) is not int or not 0 <= seat < seats:
            _seat(seat, f"plays[{i}].seat", seats)
        append((seat, p["cards"]))
        if len(p) > 2 and p.get("ids") is not None:
            if decks != 1:
                raise RecordError(f"plays[{i}].ids: card ids name the cards of one deck, and rules "
                                  f"{rules.preset} deal {decks} decks")
            if play_ids is None:
                play_ids = [None] * len(plays_raw)
            ids = p["ids"]
            if not isinstance(ids, list):
                raise RecordError(f"plays[{i}].ids must be a list of card ids")
            play_ids[i] = _ids(ids, len(ids), f"plays[{i}].ids")
    landlord = obj.get("landlord")
    if landlord is not None:
        landlord = _seat(landlord, "landlord", seats)
    result = obj.get("result")
    if result is not None and not isinstance(result, dict):
        raise RecordError("result must be an object or null")
    players = obj.get("players")
    if players is not None and (not isinstance(players, list) or len(players) != seats):
        raise RecordError(f"players must be a list of {seats} names")
    rid = obj.get("id")
    extra = {k: v for k, v in obj.items() if k not in _KNOWN}
    shows, doubles, draws = _parse_stages(obj, seats)
    return Record(hands, bottom, rules, first_bidder, bids, plays, landlord, result, rid, players,
                  hand_ids, bottom_ids, play_ids, all_pass, extra, shows, doubles, draws)


def _objects(obj: dict, field: str, key: str, what: str) -> list:
    """``(index, object)`` of a record's list-of-objects field (none when
    absent), each object checked to hold the string ``key``."""
    raw = obj.get(field)
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise RecordError(f"{field} must be a list of {{{what}}} objects")
    for i, x in enumerate(raw):
        if not isinstance(x, dict) or not isinstance(x.get(key), str):
            raise RecordError(f"{field}[{i}] must be an object with {what}")
    return list(enumerate(raw))


def _parse_stages(obj: dict, seats: int = 3) -> tuple:
    """The structure of the ``show``, ``doubles`` and ``draws`` fields (their
    legality is the replay's) at a table of ``seats``."""
    shows = []
    for i, x in _objects(obj, "show", "stage", "seat, stage"):
        if show_stage_code(x["stage"]) < 0:
            raise RecordError(f"show[{i}].stage {x['stage']!r} is not before-deal, deal:N or first-play")
        shows.append((_seat(x.get("seat"), f"show[{i}].seat", seats), x["stage"].strip().lower()))
    doubles = obj.get("doubles")
    if doubles is not None:
        if (not isinstance(doubles, list) or len(doubles) != seats
                or any(isinstance(d, bool) or not isinstance(d, int) for d in doubles)):
            raise RecordError(f"doubles must be a list of {seats} factors by seat (1, 2 or 4), not {doubles!r}")
        doubles = list(doubles)
    draws = []
    for i, x in _objects(obj, "draws", "card", "from, card"):
        try:
            card = parse_cards(x["card"])
        except CardError as exc:
            raise RecordError(f"draws[{i}].card: {exc}") from None
        if card_count(card) != 1:
            raise RecordError(f"draws[{i}].card must be one card, not {x['card']!r}")
        draws.append((_seat(x.get("from"), f"draws[{i}].from", seats), card))
    return shows, doubles, draws


def play_text(play: Play, rules: "Rules | int") -> str:
    """How a record writes a play: ``""`` for a pass, the bare cards when they
    have one reading, body-kicker notation when they have several
    (``rules``: a :class:`Rules` or its ``flags``).

    >>> play_text(Play.parse("333444555-666", "douzero"), Rules.parse("douzero"))
    '333444555-666'
    >>> play_text(Play.parse("33344456"), Rules.parse("standard"))
    '33344456'
    """
    if play.is_pass:
        return ""
    flags = rules if isinstance(rules, int) else rules.flags
    if len(readings(play.cards, flags)) > 1:
        return play.notation(flags)
    return format_cards(play.cards)


def rules_field(rules: Rules) -> dict:
    """The ``rules`` object of a record: the preset and the options that differ from it.

    >>> rules_field(Rules.parse("douzero,spring=any-player"))
    {'preset': 'douzero', 'spring': 'any-player'}
    """
    d = {"preset": rules.preset}
    for k, v in rules.overrides().items():
        d[k] = ("on" if v else "off") if isinstance(v, bool) else v
    return d


def record_to_dict(rec: Record) -> dict:
    """The JSON object of a record (stored fields as they are)."""
    d = {"schema": SCHEMA}
    if rec.id is not None:
        d["id"] = rec.id
    d["rules"] = rules_field(rec.rules)
    if rec.all_pass != "redeal":
        d["all_pass"] = rec.all_pass
    if rec.players is not None:
        d["players"] = list(rec.players)
    d["deal"] = {"hands": [format_cards(h) for h in rec.hands], "bottom": format_cards(rec.bottom),
                 "hand_ids": rec.hand_ids, "bottom_ids": rec.bottom_ids}
    if rec.rules.is_laizi:
        d["deal"]["wild"] = rec.rules.wild_text()
    d["first_bidder"] = rec.first_bidder
    d["bids"] = [{"seat": s, "bid": b} for s, b in rec.bids]
    d["landlord"] = rec.landlord
    plays = []
    for i, (s, t) in enumerate(rec.plays):
        p = {"seat": s, "cards": t}
        if rec.play_ids is not None and rec.play_ids[i] is not None:
            p["ids"] = rec.play_ids[i]
        plays.append(p)
    d["plays"] = plays
    if rec.rules.show != "off" or rec.shows:
        d["show"] = [{"seat": seat, "stage": stage} for seat, stage in rec.shows]
    if rec.doubles is not None:
        d["doubles"] = list(rec.doubles)
    if rec.rules.landlord_draw or rec.draws:
        d["draws"] = [{"from": seat, "card": format_cards(c)} for seat, c in rec.draws]
    d["result"] = rec.result
    d.update(rec.extra)
    return d


def record_from_game(game: Game, id=None, players=None, play_ids=None) -> Record:
    """The record of a game (finished or not), with its computed result."""
    rules = game.base_rules.with_wild(game.wild)
    return Record(
        hands=tuple(game.dealt), bottom=game.bottom, rules=rules, first_bidder=game.first_bidder,
        bids=list(game.bids), plays=[(s, play_text(p, rules)) for s, p in game.plays],
        landlord=game.landlord, result=game.result.to_dict() if game.result else None, id=id,
        players=list(players) if players is not None else None,
        hand_ids=[list(h) for h in game.hand_ids] if game.hand_ids else None,
        bottom_ids=list(game.bottom_ids) if game.bottom_ids is not None else None,
        play_ids=play_ids, all_pass=game.all_pass,
        shows=[(seat, show_stage_text(code)) for seat, code in game.shows],
        doubles=list(game.doubles) if all(d is not None for d in game.doubles) else None,
        draws=list(game.draws))


def write_record(out: "str | os.PathLike | IO[str]", record: "Record | Game | dict") -> None:
    """Append one record as a JSON line to a path or an open text file."""
    if isinstance(record, Game):
        record = record_from_game(record)
    d = record_to_dict(record) if isinstance(record, Record) else record
    line = json.dumps(d, separators=(",", ":"), ensure_ascii=False) + "\n"
    if isinstance(out, (str, os.PathLike)):
        with open(out, "a", encoding="utf-8") as f:
            f.write(line)
    else:
        out.write(line)


# Replay -------------------------------------------------------------------------------------


@dataclasses.dataclass
class ReplayResult:
    """What replaying one record found (see the module doc for ``status``)."""

    id: "str | int | None"
    status: str
    rules: str
    reason: "str | None" = None
    code: "str | None" = None
    phase: "str | None" = None       # "bid" or "play" for an invalid record
    index: "int | None" = None       # index into bids or plays
    landlord: "int | None" = None
    base: int = 0
    result: "Result | None" = None
    stored: "dict | None" = None
    disagreements: tuple = ()
    n_plays: int = 0

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_dict(self) -> dict:
        d = {"id": self.id, "status": self.status, "rules": self.rules, "reason": self.reason,
             "code": self.code, "phase": self.phase, "index": self.index, "landlord": self.landlord,
             "base": self.base, "plays": self.n_plays,
             "result": self.result.to_dict() if self.result else None,
             "disagreements": list(self.disagreements)}
        if self.result is not None and self.result.staged:
            d["doubles"] = list(self.result.doubles)
        return d


def replay_record(record: "Record | dict | str") -> ReplayResult:
    """Replay every bid and play of a record and recompute its result.

    Never trusts the stored ``landlord`` or ``result``: it reports the stored
    fields that disagree in ``disagreements`` (status ``mismatch``).

    >>> r = replay_record(record_from_game(__import__("ddz_tools.game").game.random_game(1)))
    >>> r.status, sum(r.result.scores)
    ('ok', 0)
    """
    rec = record if isinstance(record, Record) else parse_record(record)
    desc = rec.rules.describe()
    out = ReplayResult(rec.id, "ok", desc, stored=rec.result, n_plays=len(rec.plays))
    try:
        g = game_before_play(rec)
    except StageError as exc:
        out.status, out.code, out.phase, out.index = exc.status, exc.code, exc.phase, exc.index
        out.reason = str(exc)
        out.landlord, out.base = exc.game.landlord, exc.game.base
        return out
    out.landlord, out.base = g.landlord, g.base
    remaining = None
    if rec.hand_ids is not None and not rec.draws:     # a draw names a rank, not a card id
        remaining = [set(h) for h in rec.hand_ids]
        if g.landlord is not None:
            remaining[g.landlord] |= set(rec.bottom_ids)
    for i, (seat, text) in enumerate(rec.plays):
        try:
            p = g.play(text, seat)
        except IllegalAction as exc:
            out.status, out.code, out.phase, out.index = "invalid", exc.code, "play", i
            out.reason = f"plays[{i}]: {exc}"
            return out
        ids = rec.play_ids[i] if rec.play_ids is not None else None
        if ids is not None:
            if pack_card_ids(ids) != p.cards:
                return _invalid_ids(out, i, f"ids {ids} are not the cards {format_cards(p.cards)}")
            if remaining is not None:
                missing = [c for c in ids if c not in remaining[seat]]
                if missing:
                    return _invalid_ids(out, i, f"seat {seat} does not hold card ids {missing}")
                remaining[seat] -= set(ids)
    if g.phase == BIDDING:
        out.status, out.reason = "incomplete", "the bidding is unfinished"
    elif g.phase == REDEAL:
        out.status, out.reason = "incomplete", "every seat passed: the deal is void (redeal)"
    elif g.phase != FINISHED:
        left = ", ".join(f"seat {s} holds {len(g.hand(s))}" for s in range(g.seats))
        out.status, out.reason = "incomplete", f"nobody went out after {len(rec.plays)} plays ({left})"
    else:
        out.result = g.result
        stored, mine = {}, g.result.to_dict()
        if rec.landlord is not None:
            stored["landlord"], mine["landlord"] = rec.landlord, g.landlord
        if rec.result is not None:
            # Only the fields a stored result has are compared (an import may
            # carry just the scores); the schema requires all of them in a record.
            stored.update({k: rec.result[k] for k in RESULT_FIELDS if k in rec.result})
        bad = [k for k in stored if stored[k] != mine.get(k)]
        if bad:
            out.status, out.disagreements = "mismatch", tuple(bad)
            out.reason = "; ".join(f"stored {k} {stored[k]!r}, replayed {mine.get(k)!r}" for k in bad)
    return out


def game_before_play(rec: Record) -> Game:
    """The :class:`~ddz_tools.game.Game` of a record with every stage before
    the first play replayed: the shows before the deal's end, the bids, the
    landlord's draws, the doubles (farmers from the landlord's left, then the
    landlord) and the landlord's show at his first play.  Raises
    :class:`StageError` at the first stage that does not replay."""
    ids = rec.hand_ids is not None
    g = Game(hands=list(rec.hand_ids if ids else rec.hands), bottom=rec.bottom_ids if ids else rec.bottom,
             rules=rec.rules, first_bidder=rec.first_bidder, all_pass=rec.all_pass)

    fields = {"show": "show", "bid": "bids", "draw": "draws", "double": "doubles"}

    def fail(phase, i, exc):
        field = fields[phase]
        raise StageError(f"{field}[{i}]: {exc}" if i is not None else f"{field}: {exc}", "invalid", phase, i,
                         getattr(exc, "code", None), g) from None

    late = []
    for i, (seat, stage) in enumerate(rec.shows):
        if stage == "first-play":
            late.append(i)
            continue
        try:
            g.show(stage, seat)
        except IllegalAction as exc:
            fail("show", i, exc)
    for i, (seat, bid) in enumerate(rec.bids):
        try:
            g.bid(bid, seat)
        except IllegalAction as exc:
            fail("bid", i, exc)
    if rec.draws and g.phase != DRAWING:
        fail("draw", 0, IllegalAction(E_BAD_DRAW, f"a draw in the {g.phase} phase (draws come under "
                                                   f"landlord_draw=on, after the auction)"))
    for i, (farmer, card) in enumerate(rec.draws):
        try:
            g.draw(card, farmer)
        except IllegalAction as exc:
            fail("draw", i, exc)
    if g.phase == DRAWING:
        raise StageError("the landlord's draws are missing (landlord_draw=on)", "incomplete", "draw", None,
                         None, g)
    if rec.doubles is not None and g.phase != DOUBLING and any(d != 1 for d in rec.doubles):
        if g.base_rules.doubling == "off":
            fail("double", None, IllegalAction(E_BAD_DOUBLE, f"{rec.doubles} under doubling=off"))
    if g.phase == DOUBLING:
        if rec.doubles is None:
            fail("double", None, IllegalAction(E_BAD_DOUBLE, f"missing: the rules have doubling="
                                                              f"{g.base_rules.doubling}"))
        while g.phase == DOUBLING:
            seat = g.turn
            try:
                g.double(rec.doubles[seat], seat)
            except IllegalAction as exc:
                fail("double", seat, exc)
    for i in late:
        seat = rec.shows[i][0]
        if g.phase != PLAYING:
            fail("show", i, IllegalAction(E_BAD_SHOW, f"seat {seat} showed at first-play, but no play "
                                                      f"phase was reached"))
        try:
            g.show("first-play", seat)
        except IllegalAction as exc:
            fail("show", i, exc)
    return g


def _invalid_ids(out: ReplayResult, i: int, why: str) -> ReplayResult:
    out.status, out.code, out.phase, out.index = "invalid", "card_ids", "play", i
    out.reason = f"plays[{i}]: {why}"
    return out


@dataclasses.dataclass
class LineResult:
    """One line of a record file: the parsed record and its replay, or an error."""

    path: str
    line: int
    record: "Record | None" = None
    replay: "ReplayResult | None" = None
    error: "str | None" = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.replay is not None and self.replay.ok


def record_lines(path: "str | os.PathLike | IO[str]") -> Iterator[tuple]:
    """``(line number, text, error)`` of every non-blank line of a record
    file (``-`` is stdin, or an open text stream): ``error`` is None, or why
    the line is not text (``not UTF-8 text ...``; ``text`` is then None).

    A file is read as bytes and decoded line by line, so that a stray byte
    costs its own line only.  A file that cannot be opened or read raises
    ``OSError``."""
    if not isinstance(path, (str, os.PathLike)):
        stream, close = path, False
    elif os.fspath(path) == "-":
        stream, close = getattr(sys.stdin, "buffer", sys.stdin), False
    else:
        stream, close = open(path, "rb"), True
    try:
        for lineno, line in enumerate(stream, 1):
            if isinstance(line, bytes):
                try:
                    line = line.decode("utf-8")
                except UnicodeDecodeError as exc:
                    yield lineno, None, (f"not UTF-8 text (byte 0x{line[exc.start]:02x} at column "
                                         f"{exc.start + 1})")
                    continue
            if line.strip():
                yield lineno, line, None
    finally:
        if close:
            stream.close()


def read_records(path: "str | os.PathLike | IO[str]", replay: bool = True) -> Iterator[LineResult]:
    """Yield one :class:`LineResult` per non-blank line of a ``ddz-record/1`` file.

    A line that is not a well-formed record (nor UTF-8 text) gets ``error``
    (the reason) and the reading goes on; with ``replay`` every record is
    replayed.  A file that cannot be read raises ``OSError``.
    """
    name = os.fspath(path) if isinstance(path, (str, os.PathLike)) else getattr(path, "name", "<stream>")
    for lineno, line, error in record_lines(path):
        if error is None:
            try:
                rec = parse_record(line)
            except DdzError as exc:
                error = str(exc)
        if error is not None:
            yield LineResult(name, lineno, error=error)
            continue
        yield LineResult(name, lineno, rec, replay_record(rec) if replay else None)


# The fast path: one kernel validates and scores the play phase of many games ------------------

#: Status codes of the kernel, by index (the same names as the Game's error codes).
STATUS_NAMES = ("ok", "incomplete", E_WRONG_TURN, E_PASS_ON_LEAD, E_NOT_IN_HAND, E_NOT_A_COMBINATION,
                E_DOES_NOT_BEAT, E_FINISHED, E_BAD_CARDS, E_BAD_BID, E_NOT_BIDDING, E_NOT_PLAYING,
                E_BAD_SHOW, E_BAD_DRAW, E_BAD_DOUBLE)
S_OK, S_INCOMPLETE, S_WRONG_TURN, S_PASS_ON_LEAD, S_NOT_IN_HAND, S_NOT_A_COMBINATION, S_DOES_NOT_BEAT, \
    S_FINISHED, S_BAD_CARDS, S_BAD_BID, S_NOT_BIDDING, S_NOT_PLAYING, S_BAD_SHOW, S_BAD_DRAW, \
    S_BAD_DOUBLE = range(len(STATUS_NAMES))
#: Where a game stopped before its play phase (``GameBatch.phase_bid``).
PHASE_PLAY, PHASE_BID, PHASE_SHOW, PHASE_DRAW, PHASE_DOUBLE = range(5)
_PHASE_NAMES = ("play", "bid", "show", "draw", "double")
_STATUS_OF = {name: i for i, name in enumerate(STATUS_NAMES)}
_BID_STATUS = {BID_OVER: S_NOT_BIDDING, BID_WRONG_TURN: S_WRONG_TURN, BID_BAD: S_BAD_BID}
_auction_start = interpreted(auction_start)
_auction_seats = interpreted(auction_seats)
_auction_bid = interpreted(auction_bid)
_bid_error = interpreted(bid_error)

_CAPACITY = 1024
#: Columns of the kernel's output rows.
OUT_STATUS, OUT_INDEX, OUT_WINNER, OUT_BOMBS, OUT_SPRING, OUT_ANTI, OUT_MULT, OUT_S0 = range(8)
#: Seats a batch row has room for (scores ``OUT_S0 .. OUT_S0 + MAX_SEATS - 1``).
MAX_SEATS = 4
_OUT_COLS = OUT_S0 + MAX_SEATS


@kernel
def _reading(cards, fixed, prev_kind, flags, buf_cards, buf_kinds, self_kinds):
    """The kind a play takes here, or a negative status.

    Runs the shared generator on the play's own cards: its entries whose
    cards are the whole play are exactly the readings of the play that are
    legal here (all of them for a lead).  ``fixed`` > 0 asks for that reading;
    0 takes the largest legal kind (see ddz_tools.game), with wild ranks in
    ``flags`` the largest of those that read every card as itself first.
    """
    wild = (flags & WILD_MASK) != 0
    n_self = 0
    if wild and fixed <= 0:
        # The readings of the cards each as itself: the classic ones (a bomb's tier aside).
        n = gen_into(cards, flags & ~WILD_MASK, 0, buf_cards, buf_kinds)
        if n > buf_cards.shape[0]:
            n, buf_cards, buf_kinds = gen_all(cards, flags & ~WILD_MASK, 0, buf_cards, buf_kinds)
        for j in range(n):
            if buf_cards[j] == cards and n_self < 8:
                self_kinds[n_self] = buf_kinds[j]
                n_self += 1
    n = gen_into(cards, flags, prev_kind, buf_cards, buf_kinds)
    if n > buf_cards.shape[0]:     # rare; gen_all's arrays cost reference counting on every call
        n, buf_cards, buf_kinds = gen_all(cards, flags, prev_kind, buf_cards, buf_kinds)
    best = -1
    best_self = -1
    for j in range(n):
        if buf_cards[j] == cards:
            k = buf_kinds[j]
            if fixed > 0:
                if k == fixed:
                    return k
            else:
                if k > best:
                    best = k
                for q in range(n_self):
                    if self_kinds[q] == (k & ~(3 << TIER_SHIFT)) and k > best_self:
                        best_self = k
    if best_self >= 0:
        return best_self
    if best >= 0:
        return best
    if fixed > 0:
        return -S_DOES_NOT_BEAT  # a reading of these cards (checked when packed), but not legal here
    if prev_kind == 0:
        return -S_NOT_A_COMBINATION
    # Is it a combination at all?  Ask for every lead of the play's cards.
    n = gen_into(cards, flags, 0, buf_cards, buf_kinds)
    if n > buf_cards.shape[0]:
        n, buf_cards, buf_kinds = gen_all(cards, flags, 0, buf_cards, buf_kinds)
    for j in range(n):
        if buf_cards[j] == cards:
            return -S_DOES_NOT_BEAT
    return -S_NOT_A_COMBINATION


@kernel
def _validate_one(hand_row, nseats, landlord, base, flags, spring_any, seats, cards, kinds, lo, hi,
                  pre_status, pre_index, buf_cards, buf_kinds, out, stages, hands, played, self_kinds):
    """Validate and score the plays ``lo..hi-1`` of one game at a table of
    ``nseats`` (``hand_row``: its hands by seat) into ``out`` (one row);
    ``stages``: the public multiple of the stages before the play (shows and
    bottom bonus), the three seats' doubles and the ``doubling`` code (three
    players only).  ``hands``, ``played`` and ``self_kinds`` are scratch."""
    for s in range(nseats):
        hands[s] = hand_row[s]
        played[s] = 0
    turn = landlord
    last_kind = 0          # 0: the seat to move leads
    last_seat = landlord
    bombs = 0
    doublings = 0
    winner = -1
    out[OUT_STATUS] = S_INCOMPLETE
    out[OUT_INDEX] = -1
    out[OUT_WINNER] = -1
    for i in range(lo, hi):
        idx = i - lo
        s = seats[i]
        c = cards[i]
        if winner >= 0:
            out[OUT_STATUS] = S_FINISHED
            out[OUT_INDEX] = idx
            return
        if s != turn:
            out[OUT_STATUS] = S_WRONG_TURN
            out[OUT_INDEX] = idx
            return
        if idx == pre_index and pre_status == S_BAD_CARDS:
            out[OUT_STATUS] = pre_status
            out[OUT_INDEX] = idx
            return
        if c == 0:
            if not may_pass(last_kind):
                out[OUT_STATUS] = S_PASS_ON_LEAD
                out[OUT_INDEX] = idx
                return
            last_kind, last_seat = trick_after(0, s, last_kind, last_seat, nseats)
            turn = next_seat(s, nseats)
            continue
        if not packed_contains(hands[s], c):
            out[OUT_STATUS] = S_NOT_IN_HAND
            out[OUT_INDEX] = idx
            return
        if idx == pre_index:
            out[OUT_STATUS] = pre_status
            out[OUT_INDEX] = idx
            return
        k = _reading(c, kinds[i], last_kind, flags, buf_cards, buf_kinds, self_kinds)
        if k < 0:
            out[OUT_STATUS] = -k
            out[OUT_INDEX] = idx
            return
        hands[s] -= c
        played[s] += 1
        d = stake_doublings(k, flags)
        if d:
            bombs += 1
            doublings += d
        last_kind, last_seat = trick_after(k, s, last_kind, last_seat, nseats)
        if hands[s] == 0:
            winner = s
        turn = next_seat(s, nseats)
    if winner < 0:
        return
    # Scoring.
    won = 1 if winner == landlord else 0
    silent = 0
    for f in range(nseats):
        if f != landlord and played[f] == 0:
            silent += 1
    spring, anti = spring_silent(won, played[landlord], silent, nseats - 1, spring_any)
    mult = stages[0] * multiplier(doublings, spring, anti)
    if nseats == 3:
        s0, s1, s2 = settle_doubled(landlord, won, base * mult, stages[1], stages[2], stages[3], stages[4])
        out[OUT_S0] = s0
        out[OUT_S0 + 1] = s1
        out[OUT_S0 + 2] = s2
    else:
        for f in range(nseats):
            out[OUT_S0 + f] = seat_score(f, landlord, won, base * mult, nseats)
    out[OUT_STATUS] = S_OK
    out[OUT_WINNER] = winner
    out[OUT_BOMBS] = bombs
    out[OUT_SPRING] = spring
    out[OUT_ANTI] = anti
    out[OUT_MULT] = mult


@kernel
def _validate_games(hands, nseats, landlord, base, flags, spring_any, start, seats, cards, kinds,
                    pre_status, pre_index, skip, out, stages):
    """Validate every game of a batch (see :func:`validate_batch`)."""
    buf_cards = np.empty(_CAPACITY, np.int64)
    buf_kinds = np.empty(_CAPACITY, np.int64)
    hand_now = np.empty(MAX_SEATS, np.int64)
    played = np.empty(MAX_SEATS, np.int64)
    self_kinds = np.empty(8, np.int64)
    for g in range(hands.shape[0]):
        if skip[g] != 0:
            continue
        _validate_one(hands[g], nseats[g], landlord[g], base[g], flags[g], spring_any[g],
                      seats, cards, kinds, start[g], start[g + 1], pre_status[g], pre_index[g],
                      buf_cards, buf_kinds, out[g], stages[g], hand_now, played, self_kinds)


@dataclasses.dataclass
class GameBatch:
    """Games packed as int64 arrays for :func:`validate_batch`.

    Per game ``g``: ``hands[g]`` (:data:`MAX_SEATS` packed hands, the
    landlord's with the bottom; ``nseats[g]`` of them are the table's: 3, or
    4 under four-player rules), ``landlord``, ``base``, ``flags`` (``Rules.flags``),
    ``spring_any`` (1 for ``spring=any-player``), plays ``start[g] ..
    start[g+1]-1`` of ``seats``/``cards``/``kinds`` (``cards`` 0 = pass;
    ``kinds`` the reading fixed by body-kicker notation, 0 = choose), and a
    problem found while packing: ``pre_status``/``pre_index`` (a play whose
    text is no cards, or whose notation is no reading) or ``skip`` with a
    bidding outcome already in ``out``.
    """

    hands: np.ndarray
    landlord: np.ndarray
    base: np.ndarray
    flags: np.ndarray
    spring_any: np.ndarray
    start: np.ndarray
    seats: np.ndarray
    cards: np.ndarray
    kinds: np.ndarray
    pre_status: np.ndarray
    pre_index: np.ndarray
    skip: np.ndarray
    out: np.ndarray          # preset rows for skipped games
    phase_bid: np.ndarray    # where a skipped game failed before the play: PHASE_BID, PHASE_SHOW, ...
    stored: np.ndarray       # has, landlord, winner(1 landlord/0 farmers), base, mult, bombs, spring, anti,
                             # s0, s1, s2, s3, show multiple, bottom bonus
    ids: list
    #: Per game: the stages' public multiple (shows times bottom bonus), the
    #: three seats' doubles and the ``doubling`` code (1, 1, 1, 1, 0 classic).
    stages: "np.ndarray | None" = None
    #: Per game: (show multiple, bottom bonus, staged) for the results.
    stage_parts: "list | None" = None
    #: Per game: the seats at its table (3 when None).
    nseats: "np.ndarray | None" = None

    def __len__(self) -> int:
        return self.hands.shape[0]


_TEXT_CACHE: dict = {}
#: A stored field that is absent (not compared).
_NOCMP = -(1 << 40)


def _parse_play_text(text: str, rules: Rules, flags: int):
    """(cards, fixed kind, pre status) of a play's text, memoised per rule
    flags (which tell the number of decks too: ``F_FOUR``)."""
    key = (text, flags)
    hit = _TEXT_CACHE.get(key)
    if hit is not None:
        return hit
    t = text.strip()
    if t in ("", "-") or t.lower() in ("pass", "p"):
        res = (0, 0, 0)
    else:
        try:
            if has_fixed_reading(t):
                try:
                    cards = play_text_cards(t, rules.decks)
                except PlayError:
                    raise CardError(t) from None
                try:
                    res = (cards, Play.parse(t, rules).kind, 0)
                except (PlayError, CardError):
                    res = (cards, 0, S_BAD_CARDS if not is_valid_packed(cards, rules.decks) else S_NOT_A_COMBINATION)
            else:
                res = (parse_cards(t, rules.decks), 0, 0)
        except CardError:
            res = (0, 0, S_BAD_CARDS)
    if len(_TEXT_CACHE) < 200_000:
        _TEXT_CACHE[key] = res
    return res


def _no_landlord(row: np.ndarray, has_plays: bool) -> None:
    """The output row of a game whose auction made no landlord: its plays come
    outside a play phase (an error at play 0), or it is unfinished."""
    row[OUT_STATUS], row[OUT_INDEX] = (S_NOT_PLAYING, 0) if has_plays else (S_INCOMPLETE, -1)


def pack_games(records: Iterable["Record | dict | str"]) -> GameBatch:
    """Pack records into a :class:`GameBatch`: bidding is replayed here (in
    Python, it is a handful of actions), plays are converted to ints."""
    recs = [r if isinstance(r, Record) else parse_record(r) for r in records]
    n = len(recs)
    total = sum(len(r.plays) for r in recs)
    hands = np.zeros((n, MAX_SEATS), np.int64)
    nseats = np.array([r.rules.seats for r in recs], np.int64).reshape(n)
    landlord = np.full(n, -1, np.int64)
    base = np.zeros(n, np.int64)
    flags = np.zeros(n, np.int64)
    spring_any = np.zeros(n, np.int64)
    start = np.zeros(n + 1, np.int64)
    seats = np.zeros(total, np.int64)
    cards = np.zeros(total, np.int64)
    kinds = np.zeros(total, np.int64)
    pre_status = np.zeros(n, np.int64)
    pre_index = np.full(n, -1, np.int64)
    skip = np.zeros(n, np.int64)
    out = np.zeros((n, _OUT_COLS), np.int64)
    out[:, OUT_WINNER] = -1
    phase_bid = np.zeros(n, np.int64)
    stored = np.zeros((n, 14), np.int64)
    stages = np.zeros((n, 5), np.int64)
    stages[:, :4] = 1
    parts = [(1, 1, False)] * n
    pos = 0
    auction = [0] * AUCTION_SIZE
    for g, rec in enumerate(recs):
        start[g] = pos
        r = rec.rules
        if r.has_stages or r.landlord_draw or r.must_call != "off" or rec.shows or rec.doubles or rec.draws:
            # Stages before the play: replayed by the Game (a handful of actions).
            try:
                game = game_before_play(rec)
            except StageError as exc:
                skip[g] = 1
                game = exc.game
                if exc.status == "incomplete":
                    out[g, OUT_STATUS], out[g, OUT_INDEX] = S_INCOMPLETE, -1
                else:
                    phase_bid[g] = _PHASE_NAMES.index(exc.phase)
                    out[g, OUT_STATUS] = _STATUS_OF.get(exc.code, S_BAD_BID)
                    out[g, OUT_INDEX] = -1 if exc.index is None else exc.index
            if not skip[g] and game.phase != PLAYING:
                skip[g] = 1
                _no_landlord(out[g], bool(rec.plays))
            if not skip[g]:
                landlord[g], base[g] = game.landlord, game.base
                hands[g, :game.seats] = game.hands
                bonus = game.bottom_bonus_now()
                stages[g] = (game.show_multiple * bonus, *(d or 1 for d in game.doubles),
                             DOUBLING_MODES[r.doubling])
                parts[g] = (game.show_multiple, bonus, r.has_stages)
        else:
            # The auction rule itself on a state list (what Game.bid runs, without its messages).
            _auction_start(auction, BIDDING_MODES[rec.rules.bidding], rec.first_bidder, int(rec.all_pass == "seat0"))
            _auction_seats(auction, r.seats)
            for i, (s, b) in enumerate(rec.bids):
                err = _bid_error(auction, s, b if type(b) is int else -1)
                if err != BID_OK:
                    skip[g], phase_bid[g] = 1, PHASE_BID
                    out[g, OUT_STATUS], out[g, OUT_INDEX] = _BID_STATUS[err], i
                    break
                _auction_bid(auction, s, b)
            if not skip[g] and auction[A_OUTCOME] != AUCTION_WON:
                skip[g] = 1
                _no_landlord(out[g], bool(rec.plays))
            if not skip[g]:
                ll = auction[A_LANDLORD]
                landlord[g], base[g] = ll, auction[A_BASE]
                for s in range(r.seats):
                    hands[g, s] = rec.hands[s] + (rec.bottom if s == ll else 0)
        if not skip[g]:
            fl = rec.rules.flags
            flags[g] = fl
            spring_any[g] = rec.rules.spring == "any-player"
            rules = rec.rules
            for i, (s, t) in enumerate(rec.plays):
                c, k, st = _parse_play_text(t, rules, fl)
                seats[pos + i], cards[pos + i], kinds[pos + i] = s, c, k
                if st and pre_index[g] < 0:
                    pre_status[g], pre_index[g] = st, i
            pos += len(rec.plays)
        res = rec.result
        if res is not None:
            try:
                sc = res.get("scores", [_NOCMP] * r.seats)
                if len(sc) != r.seats:
                    raise ValueError("scores of another table")
                sc = list(sc) + [_NOCMP] * (MAX_SEATS - r.seats)
                winner = res.get("winner", _NOCMP)
                stored[g] = (1, _NOCMP if rec.landlord is None else rec.landlord,
                             _NOCMP if winner == _NOCMP else {"landlord": 1, "farmers": 0}.get(winner, -1),
                             res.get("base", _NOCMP), res.get("multiplier", _NOCMP), res.get("bombs", _NOCMP),
                             int(res.get("spring", _NOCMP)), int(res.get("anti_spring", _NOCMP)), *sc,
                             res.get("show_multiple", _NOCMP), res.get("bottom_bonus", _NOCMP))
            except (TypeError, ValueError):
                stored[g, 0] = 2      # unreadable stored result: always a mismatch
        else:
            stored[g, 1:] = _NOCMP
            if rec.landlord is not None:
                stored[g, 0], stored[g, 1] = 1, rec.landlord
    start[n] = pos
    return GameBatch(hands, landlord, base, flags, spring_any, start, seats[:pos], cards[:pos], kinds[:pos],
                     pre_status, pre_index, skip, out, phase_bid, stored, [r.id for r in recs], stages, parts,
                     nseats)


@dataclasses.dataclass
class BatchResult:
    """Per-game arrays from :func:`validate_batch`.

    ``status`` indexes :data:`STATUS_NAMES` (0 ok, 1 incomplete, then the
    error codes); ``index`` is the bid (``phase_bid`` 1) or play index of
    the first error, -1 if none; ``landlord`` is -1 and ``base`` 0 when the
    bidding gave no landlord; ``winner`` the seat that went out (-1 if none);
    ``scores`` an (n, 3) array, or (n, 4) when some game has four seats (a
    three-seat game's fourth score is 0; ``nseats`` says each game's table);
    ``mismatch`` 1 when a finished game's stored result or landlord disagrees.
    """

    status: np.ndarray
    index: np.ndarray
    phase_bid: np.ndarray
    landlord: np.ndarray
    base: np.ndarray
    winner: np.ndarray
    bombs: np.ndarray
    spring: np.ndarray
    anti_spring: np.ndarray
    multiplier: np.ndarray
    scores: np.ndarray
    mismatch: np.ndarray
    ids: list
    #: Per game: (show multiple, bottom bonus, staged) and the seats' doubles.
    stage_parts: "list | None" = None
    doubles: "np.ndarray | None" = None
    #: Per game: the seats at its table (3 when None).
    nseats: "np.ndarray | None" = None

    def __len__(self) -> int:
        return self.status.shape[0]

    def status_name(self, g: int) -> str:
        """``ok``, ``mismatch``, ``invalid`` or ``incomplete``, as :class:`ReplayResult`."""
        st = int(self.status[g])
        if st == S_OK:
            return "mismatch" if self.mismatch[g] else "ok"
        return "incomplete" if st == S_INCOMPLETE else "invalid"

    def code(self, g: int) -> "str | None":
        st = int(self.status[g])
        return None if st in (S_OK, S_INCOMPLETE) else STATUS_NAMES[st]

    def results(self) -> list:
        """Per game, the recomputed :class:`~ddz_tools.game.Result` of a game
        played to the end (status ``ok`` or ``mismatch``), else ``None``."""
        status, landlord, winner = self.status.tolist(), self.landlord.tolist(), self.winner.tolist()
        base, mult, bombs = self.base.tolist(), self.multiplier.tolist(), self.bombs.tolist()
        spring, anti, scores = self.spring.tolist(), self.anti_spring.tolist(), self.scores.tolist()
        parts = self.stage_parts or [(1, 1, False)] * len(status)
        doubles = self.doubles.tolist() if self.doubles is not None else [[1, 1, 1]] * len(status)
        nseats = self.nseats.tolist() if self.nseats is not None else [3] * len(status)
        return [Result("landlord" if winner[g] == landlord[g] else "farmers", winner[g], landlord[g], base[g],
                       mult[g], bombs[g], spring[g] == 1, anti[g] == 1, tuple(scores[g][:nseats[g]]), parts[g][0],
                       parts[g][1], tuple(doubles[g]) if nseats[g] == 3 else (1,) * nseats[g], parts[g][2])
                if status[g] == S_OK else None for g in range(len(status))]

    def replay_result(self, g: int, record: Record, result: "Result | None" = None) -> ReplayResult:
        """Game ``g`` (of ``record``) as a :class:`ReplayResult`: the verdict
        of :func:`replay_record`, with terser reasons (the error code and the
        move index).  ``result`` is ``results()[g]`` when already computed."""
        status, code = self.status_name(g), self.code(g)
        landlord = int(self.landlord[g])
        rep = ReplayResult(record.id, status, record.rules.describe(), code=code, n_plays=len(record.plays),
                           landlord=landlord if landlord >= 0 else None, base=int(self.base[g]),
                           stored=record.result)
        if code is not None:
            rep.phase = _PHASE_NAMES[int(self.phase_bid[g])]
            rep.index = int(self.index[g])
            field = {"show": "show", "double": "doubles"}.get(rep.phase, rep.phase + "s")
            rep.reason = (f"{field}[{rep.index}]: " if rep.index >= 0 else f"{field}: ") + code.replace('_', ' ')
            if rep.index < 0:
                rep.index = None
        elif status == "incomplete":
            rep.reason = "nobody went out" if self.base[g] else "no landlord (bidding unfinished or void)"
        else:
            rep.result = result if result is not None else self.results()[g]
            if status == "mismatch":
                rep.reason = "stored result disagrees"
        return rep


def run_batch(batch: GameBatch) -> np.ndarray:
    """Run the kernel on a packed batch; returns the raw (n, 11) output rows."""
    out = batch.out.copy()
    stages = batch.stages
    if stages is None:
        stages = np.zeros((len(batch), 5), np.int64)
        stages[:, :4] = 1
    nseats = batch.nseats if batch.nseats is not None else np.full(len(batch), 3, np.int64)
    _validate_games(batch.hands, nseats, batch.landlord, batch.base, batch.flags, batch.spring_any, batch.start,
                    batch.seats, batch.cards, batch.kinds, batch.pre_status, batch.pre_index, batch.skip, out,
                    stages)
    return out


def validate_batch(games: "GameBatch | Iterable[Record | dict | str]") -> BatchResult:
    """Validate and score many games with one kernel call.

    ``games`` is a :class:`GameBatch` or records (parsed, dicts or JSON
    lines).  The result agrees with :func:`replay_record` game by game
    (tested), except that card ids (suits) are not checked here.

    >>> from ddz_tools.game import random_game
    >>> res = validate_batch([record_from_game(random_game(s)) for s in range(3)])
    >>> [res.status_name(g) for g in range(3)], int(res.scores.sum())
    (['ok', 'ok', 'ok'], 0)
    """
    batch = games if isinstance(games, GameBatch) else pack_games(games)
    out = run_batch(batch)
    st = batch.stored
    fin = out[:, OUT_STATUS] == S_OK
    ll_win = (out[:, OUT_WINNER] == batch.landlord).astype(np.int64)
    has = st[:, 0] == 1
    parts = np.array([p[:2] for p in batch.stage_parts] if batch.stage_parts else np.ones((len(batch), 2)),
                     np.int64).reshape(len(batch), 2)
    mine = np.column_stack([batch.landlord, ll_win, batch.base, out[:, OUT_MULT], out[:, OUT_BOMBS],
                            out[:, OUT_SPRING], out[:, OUT_ANTI], out[:, OUT_S0:OUT_S0 + MAX_SEATS], parts])
    theirs = st[:, 1:]
    differ = np.any((theirs != _NOCMP) & (theirs != mine), axis=1)
    mismatch = (fin & ((has & differ) | (st[:, 0] == 2))).astype(np.int64)
    nseats = batch.nseats if batch.nseats is not None else np.full(len(batch), 3, np.int64)
    width = int(nseats.max()) if len(batch) else 3
    return BatchResult(out[:, OUT_STATUS].copy(), out[:, OUT_INDEX].copy(), batch.phase_bid, batch.landlord,
                       batch.base, out[:, OUT_WINNER].copy(), out[:, OUT_BOMBS].copy(), out[:, OUT_SPRING].copy(),
                       out[:, OUT_ANTI].copy(), out[:, OUT_MULT].copy(), out[:, OUT_S0:OUT_S0 + width].copy(),
                       mismatch, batch.ids, batch.stage_parts,
                       batch.stages[:, 1:4].copy() if batch.stages is not None else None, nseats)
