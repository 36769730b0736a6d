"""The ``ddz-record/1`` format: a record's JSON object checked into a
:class:`Record`, and a :class:`Record` (or a game) written back.

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
chosen as :mod:`ddz_tools.engines.game` documents.  Optional: ``id``, ``players``,
``hand_ids``/``bottom_ids`` and per-play ``ids`` (Botzone card ids 0-53;
suits never change a result), ``all_pass`` (``"redeal"``, the default, or
``"seat0"``: Botzone's rule that seat 0 becomes landlord with base 1 when
everyone passes).  Under Laizi rules (presets ``laizi`` and ``tiandi``)
``deal.wild`` is the deal's wild rank(s) (``"9"``; ``"5,9"``, 天 then 地),
and a play may pin what its laizi stand for (``34569=34567``).  Unknown keys
are kept and ignored.

:func:`parse_record` checks a record's structure only (the shape of the
deal for the rules' table, the seats, the fields' types); whether its moves
are legal is the replay's (:mod:`ddz_tools.engines.records.walk`).
"""

from __future__ import annotations

import dataclasses
import json
import os
from typing import IO

from ...core.cards import card_count, format_cards, pack_card_ids, parse_cards, rank_of_card_id
from ...core.errors import CardError, RecordError, RulesError
from ...core.rules import Play, Rules, readings
from ...variants.table import Table
from ...variants.variant import Variant, variant_of
from ..game import ALL_PASS_OPTIONS, Game, show_stage_code, show_stage_text

__all__ = ["SCHEMA", "RESULT_FIELDS", "Record", "parse_record", "record_to_dict", "record_from_game",
           "write_record", "play_text", "rules_field"]

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

    @property
    def variant(self) -> Variant:
        """The variant the record is played under (its table, cards and
        stake): :func:`~ddz_tools.variants.variant.variant_of` its rules."""
        return _variant(self.rules)


_BY_RULES: dict = {}


def _by_rules(rules: Rules, key, make):
    """``make()``, memoised by the rule set object itself and ``key``: the
    records of a file share their rule sets (:func:`_rules_of`, and
    :func:`_with_wild` for the deals' wild ranks), and hashing a rule set
    costs more than the record checks that ask."""
    hit = _BY_RULES.get((id(rules), key))
    if hit is None or hit[0] is not rules:
        if len(_BY_RULES) >= 1000:
            _BY_RULES.clear()
        hit = _BY_RULES[id(rules), key] = (rules, make())    # the rules held, so their id is not reused
    return hit[1]


def _variant(rules: Rules) -> Variant:
    return _by_rules(rules, "variant", lambda: variant_of(rules))


def _with_wild(rules: Rules, wild: "str | None") -> Rules:
    """``rules.with_wild(wild)``, memoised (a Laizi file's deals share a dozen wild ranks)."""
    return _by_rules(rules, ("wild", wild), lambda: rules.with_wild(wild))


def _seat(value, where: str, table: Table) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < table.seats:
        raise RecordError(f"{where} must be a seat {table.seat_numbers}, not {value!r}")
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
    key = json.dumps(spec, sort_keys=True) if isinstance(spec, (dict, list)) else spec
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

    Raises :class:`~ddz_tools.core.errors.RecordError` naming the first problem.
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
    variant = _variant(rules)
    t = variant.table
    seats, decks = t.seats, t.decks
    hands_t = deal.get("hands")
    if not isinstance(hands_t, list) or len(hands_t) != seats or not all(isinstance(h, str) for h in hands_t):
        raise RecordError(f"deal.hands must be a list of {seats} card strings (rules {rules.preset}: {seats} seats)")
    if not isinstance(deal.get("bottom"), str):
        raise RecordError("deal.bottom must be a card string")
    try:
        hands = tuple(parse_cards(h, decks) for h in hands_t)
        bottom = parse_cards(deal["bottom"], decks)
    except CardError as exc:
        raise RecordError(f"deal: {exc}") from None
    n, nb = t.hand_cards, t.bottom_cards
    for i, h in enumerate(hands):
        if card_count(h) != n:
            raise RecordError(f"deal.hands[{i}] has {card_count(h)} cards, not {n}")
    if card_count(bottom) != nb:
        raise RecordError(f"deal.bottom has {card_count(bottom)} cards, not {nb}"
                          + (f" (no bottom under rules {rules.preset})" if nb == 0 else ""))
    problem = t.deck_problem(hands + (bottom,))
    if problem:
        raise RecordError(f"deal: the hands and the bottom are not {t.deck_words}: {problem}")
    wild = deal.get("wild")
    if wild is not None and not isinstance(wild, str):
        raise RecordError(f"deal.wild must be rank text such as \"9\" or \"5,9\", not {type(wild).__name__}")
    try:
        rules = _with_wild(rules, wild)
    except RulesError as exc:
        raise RecordError(f"deal.wild: {exc}") from None
    ranks = variant.cards.ranks
    if len(rules.wild) != ranks:
        raise RecordError(f"deal.wild: a {rules.preset} deal has {ranks} wild rank"
                          f"{'s' if ranks > 1 else ''}, the record gives {len(rules.wild)}")
    hand_ids = bottom_ids = None
    if deal.get("hand_ids") is not None or deal.get("bottom_ids") is not None:
        if t.card_ids_refusal:
            raise RecordError(f"deal.hand_ids: {t.card_ids_refusal} (rules {rules.preset}: leave hand_ids and "
                              f"bottom_ids null)")
        if not isinstance(deal.get("hand_ids"), list) or len(deal["hand_ids"]) != seats:
            raise RecordError(f"deal.hand_ids must be {seats} lists of {n} card ids (or null)")
        hand_ids = [_ids(h, n, f"deal.hand_ids[{i}]") for i, h in enumerate(deal["hand_ids"])]
        bottom_ids = _ids(deal.get("bottom_ids") if nb else (deal.get("bottom_ids") or []), nb, "deal.bottom_ids")
        try:
            pack_card_ids([c for h in hand_ids for c in h] + bottom_ids)
        except CardError as exc:
            raise RecordError(f"deal ids: {exc}") from None
        for i in range(seats):
            if pack_card_ids(hand_ids[i]) != hands[i]:
                raise RecordError(f"deal.hand_ids[{i}] are not the cards of deal.hands[{i}]")
        if pack_card_ids(bottom_ids) != bottom:
            raise RecordError("deal.bottom_ids are not the cards of deal.bottom")
    first_bidder = _seat(obj.get("first_bidder"), "first_bidder", t)
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
        bids.append((_seat(b.get("seat"), f"bids[{i}].seat", t), bid))
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
            _seat(seat, f"plays[{i}].seat", t)
        append((seat, p["cards"]))
        if len(p) > 2 and p.get("ids") is not None:
            if t.card_ids_refusal:
                raise RecordError(f"plays[{i}].ids: {t.card_ids_refusal} (rules {rules.preset})")
            if play_ids is None:
                play_ids = [None] * len(plays_raw)
            ids = p["ids"]
            if not isinstance(ids, list):
                raise RecordError(f"plays[{i}].ids must be a list of card ids")
            play_ids[i] = _ids(ids, len(ids), f"plays[{i}].ids")
    landlord = obj.get("landlord")
    if landlord is not None:
        landlord = _seat(landlord, "landlord", t)
    result = obj.get("result")
    if result is not None and not isinstance(result, dict):
        raise RecordError("result must be an object or null")
    players = obj.get("players")
    if players is not None and (not isinstance(players, list) or len(players) != seats):
        raise RecordError(f"players must be a list of {seats} names")
    rid = obj.get("id")
    extra = {k: v for k, v in obj.items() if k not in _KNOWN}
    shows, doubles, draws = _parse_stages(obj, t)
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


def _parse_stages(obj: dict, table: Table) -> tuple:
    """The structure of the ``show``, ``doubles`` and ``draws`` fields (their
    legality is the replay's) at ``table``."""
    seats = table.seats
    shows = []
    for i, x in _objects(obj, "show", "stage", "seat, stage"):
        if show_stage_code(x["stage"]) < 0:
            raise RecordError(f"show[{i}].stage {x['stage']!r} is not before-deal, deal:N or first-play")
        shows.append((_seat(x.get("seat"), f"show[{i}].seat", table), x["stage"].strip().lower()))
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
        draws.append((_seat(x.get("from"), f"draws[{i}].from", table), card))
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
    variant = rec.variant
    if variant.cards.wild:
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
    if variant.stake.shows or rec.shows:
        d["show"] = [{"seat": seat, "stage": stage} for seat, stage in rec.shows]
    if rec.doubles is not None:
        d["doubles"] = list(rec.doubles)
    if variant.stake.draws or rec.draws:
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

