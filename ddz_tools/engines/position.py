"""Endgame positions: the ``ddz-position/1`` format.

A position is everything a perfect-information endgame (残局) needs: the open
hands, the rules, the side to move, and either a free lead or the play to
answer together with who made it.  Two forms exist:

* two-player: seats ``me`` and ``opponent`` (whoever empties their hand first
  wins; after one pass the other side leads);
* three-player: seats ``landlord``, ``farmer1``, ``farmer2`` in turn order
  (the farmers win together; after two consecutive passes the last player who
  played leads);
* four-player rules (``rules four``, two decks): the landlord and one, two or
  three farmers, seats ``landlord``, ``farmer1``, ``farmer2``, ``farmer3``
  in turn order (two, three or four hands; the farmers win together; a play
  stands until the turn comes back to its maker, so three passes with four
  hands), or ``me`` and ``opponent``.

One JSON object per line::

    {"schema": "ddz-position/1", "id": "example-1", "rules": "standard",
     "hands": {"me": "33JJQK2", "opponent": "4455A"},
     "to_move": "me", "last_play": null, "last_by": null}

Unknown keys are kept (in :attr:`Position.extra`) and written back unchanged.

Validation (each failure a :class:`~ddz_tools.core.errors.PositionError` naming the
problem): the schema tag; exactly the seats of one form (``farmer3`` only under
four-player rules); every hand legal card text with at least one card and at
most 20 (under four-player rules at most the landlord's 33, a farmer's 25); no
rank held more often across all hands and the play on the table than the deck
has (two decks under four-player rules); ``to_move`` a seat;
``last_play`` and ``last_by`` both null or both given; the play legal under the
rules (written ``body-kickers`` if its cards have several readings);
``last_by`` a seat other than the side to move (the last three read by
:func:`~ddz_tools.core.rules.play_on_table`, as the advisor reads its play to answer).

>>> p = Position.from_json('{"schema": "ddz-position/1", "id": "p1", "hands": '
...                        '{"me": "33JJQK2", "opponent": "4455A"}, "to_move": "me"}')
>>> p.seats, p.hand("me"), p.is_lead
(('me', 'opponent'), '33JJQK2', True)
>>> Position.two_player("3", "XD", after="2").to_dict()["last_by"]
'opponent'
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from ..core.cards import NUM_RANKS, RANK_X, RANKS, counts_of, format_cards, full_deck, parse_cards
from ..core.errors import DdzError, PlayError, PositionError, RecordError, RulesError, StageError
from ..core._jit import interpreted
from ..core.gamerules import next_seat, trick_after
from ..moves.movegen import generate
from ..core.rules import Play, Rules, play_on_table
from ..variants import variant_of
from ..variants.table import FOUR, THREE
from .game.phases import seat_table

_next_seat = interpreted(next_seat)
_trick_after = interpreted(trick_after)

SCHEMA = "ddz-position/1"
TWO_SEATS = ("me", "opponent")
#: The seats of three players by role, in turn order (:attr:`Table.roles
#: <ddz_tools.variants.table.Table.roles>`).
THREE_SEATS = THREE.roles
#: The seats under four-player rules (``rules four``), in turn order; a
#: position there holds the first two, three or all four.
FOUR_SEATS = FOUR.roles
#: The most cards a hand can hold in a real game of three seats (the landlord's 20).
MAX_HAND = 20
_KNOWN_KEYS = {"schema", "id", "rules", "wild", "hands", "to_move", "last_play", "last_by"}


@dataclasses.dataclass(frozen=True)
class Position:
    """One open-hand endgame position (immutable).

    ``hands`` maps each seat, in turn order, to a packed hand; ``last_play`` is
    the :class:`~ddz_tools.core.rules.Play` to answer (``None`` for a free lead) and
    ``last_by`` the seat that made it.
    """

    hands: tuple[tuple[str, int], ...]
    to_move: str
    rules: Rules = Rules()
    last_play: "Play | None" = None
    last_by: "str | None" = None
    id: "str | None" = None
    extra: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self):
        _validate(self)

    # Construction ---------------------------------------------------------

    @classmethod
    def two_player(cls, me, opponent, to_move: str = "me", after: "str | Play | None" = None,
                   rules: "Rules | str | None" = None, id: "str | None" = None) -> "Position":
        """Me against one opponent; ``after`` is the opponent's play to answer
        when ``to_move`` is ``"me"`` (and mine when it is ``"opponent"``)."""
        if to_move not in TWO_SEATS:
            raise PositionError(f"to_move must be one of {', '.join(TWO_SEATS)}, not {to_move!r}")
        play, by = _on_table(after, None, to_move, TWO_SEATS, rules, ("after", "by"), _before(to_move, TWO_SEATS))
        return cls.build({"me": me, "opponent": opponent}, to_move, play, by, rules, id)

    @classmethod
    def three_player(cls, landlord, farmer1, farmer2, to_move: str = "landlord",
                     after: "str | Play | None" = None, by: "str | None" = None,
                     rules: "Rules | str | None" = None, id: "str | None" = None) -> "Position":
        """The landlord against two farmers (turn order landlord, farmer1, farmer2)."""
        play, by = _on_table(after, by, to_move, THREE_SEATS, rules, ("after", "by"))
        return cls.build({"landlord": landlord, "farmer1": farmer1, "farmer2": farmer2},
                         to_move, play, by, rules, id)

    @classmethod
    def four_player(cls, landlord, farmer1, farmer2=None, farmer3=None, to_move: str = "landlord",
                    after: "str | Play | None" = None, by: "str | None" = None,
                    rules: "Rules | str | None" = None, id: "str | None" = None) -> "Position":
        """The landlord against one, two or three farmers under four-player
        rules (``rules`` default ``four``; turn order landlord, farmer1,
        farmer2, farmer3; give ``farmer2`` and ``farmer3`` for three and four
        hands).

        >>> p = Position.four_player("3", "44", "55", "66")
        >>> p.seats, p.players, p.rules.describe()
        (('landlord', 'farmer1', 'farmer2', 'farmer3'), 4, 'four')
        """
        rules = "four" if rules is None else rules
        hands = {"landlord": landlord, "farmer1": farmer1}
        if farmer2 is not None:
            hands["farmer2"] = farmer2
        if farmer3 is not None:
            hands["farmer3"] = farmer3
        seats = _seats_of(tuple(hands), Rules.parse(rules))
        play, by = _on_table(after, by, to_move, seats, rules, ("after", "by"), _before(to_move, seats))
        return cls.build(hands, to_move, play, by, rules, id)

    @classmethod
    def from_hands(cls, me=None, opponent=None, landlord=None, farmer1=None, farmer2=None, farmer3=None,
                   to_move: "str | None" = None, after: "str | Play | None" = None, by: "str | None" = None,
                   rules: "Rules | str | None" = None, id: "str | None" = None) -> "Position":
        """The position of whichever seats' hands are given (the options of
        ``ddz solve``): ``me`` and ``opponent`` for two-player, where
        ``to_move`` defaults to ``"me"`` and ``by`` (if given) must be the other
        side; or ``landlord``, ``farmer1`` and ``farmer2``, where ``to_move`` is
        required and ``by`` defaults to the seat before the side to move.
        Under four-player rules the landlord and one to three farmers
        (``landlord``, ``farmer1``, then ``farmer2`` and ``farmer3``).
        Errors name the parameters (:attr:`~ddz_tools.core.errors.DdzError.param`).

        >>> Position.from_hands(landlord="3KK", farmer1="44", farmer2="A2", to_move="farmer1", after="3").last_by
        'landlord'
        >>> Position.from_hands(landlord="3KK", farmer1="44", to_move="landlord", rules="four").seats
        ('landlord', 'farmer1')
        """
        given = {"me": me, "opponent": opponent, "landlord": landlord, "farmer1": farmer1, "farmer2": farmer2,
                 "farmer3": farmer3}
        two = me is not None or opponent is not None
        three = landlord is not None or farmer1 is not None or farmer2 is not None or farmer3 is not None
        if two and three:
            raise PositionError("give me/opponent or the landlord and the farmers, not both", param=tuple(given))
        if three and (farmer3 is not None or landlord is None or farmer1 is None or farmer2 is None):
            # Not the three-player form: four-player rules only.
            try:
                four = Rules.parse(rules) if not isinstance(rules, dict) else Rules.from_dict(rules)
            except DdzError as exc:
                raise PositionError(f"rules: {exc}", param="rules") from None
            if _four_seated(four):
                return cls._four_from_hands(landlord, farmer1, farmer2, farmer3, to_move, after, by, four, id)
            if farmer3 is not None:
                raise PositionError(f"farmer3 is a four-player seat: rules {four.describe()} seat three players "
                                    f"(give rules four)", param="farmer3")
        if two:
            if me is None or opponent is None:
                raise PositionError("a two-player position needs both me and opponent", param=TWO_SEATS)
            to_move = to_move or "me"
            if to_move not in TWO_SEATS:
                raise PositionError(f"to_move must be me or opponent here, not {to_move}", param="to_move")
            after, by = _on_table(after, by, to_move, TWO_SEATS, rules, ("after", "by"), _before(to_move, TWO_SEATS))
            return cls.two_player(me, opponent, to_move=to_move, after=after, rules=rules, id=id)
        if three:
            if landlord is None or farmer1 is None or farmer2 is None:
                raise PositionError("a three-player position needs landlord, farmer1 and farmer2",
                                    param=THREE_SEATS)
            if to_move is None:
                raise PositionError("a three-player position needs to_move, the seat to move", param="to_move")
            if to_move not in THREE_SEATS:
                raise PositionError(f"to_move must be landlord, farmer1 or farmer2, not {to_move}",
                                    param="to_move")
            # by: the natural default is the seat before the side to move.
            after, by = _on_table(after, by, to_move, THREE_SEATS, rules, ("after", "by"),
                                  _before(to_move, THREE_SEATS))
            return cls.three_player(landlord, farmer1, farmer2, to_move=to_move, after=after, by=by,
                                    rules=rules, id=id)
        raise PositionError("give the hands: me and opponent, or landlord, farmer1 and farmer2", param=tuple(given))

    @classmethod
    def _four_from_hands(cls, landlord, farmer1, farmer2, farmer3, to_move, after, by, rules, id) -> "Position":
        """:meth:`from_hands` under four-player rules: the landlord and the
        first one, two or three farmers in turn order."""
        hands = {"landlord": landlord, "farmer1": farmer1, "farmer2": farmer2, "farmer3": farmer3}
        n = 4 if farmer3 is not None else (3 if farmer2 is not None else 2)
        seats = variant_of(rules).roles[:n]
        missing = [s for s in seats if hands[s] is None]
        if missing:
            raise PositionError(f"a four-player position gives exactly two, three or four hands: the landlord and "
                                f"farmer1, then farmer2 and farmer3 in turn order; {' and '.join(missing)} missing",
                                param=tuple(missing))
        if to_move is None:
            raise PositionError("a landlord-and-farmers position needs to_move, the seat to move", param="to_move")
        if to_move not in seats:
            raise PositionError(f"to_move must be {', '.join(seats[:-1])} or {seats[-1]} here, not {to_move}",
                                param="to_move")
        after, by = _on_table(after, by, to_move, seats, rules, ("after", "by"), _before(to_move, seats))
        return cls.build({s: hands[s] for s in seats}, to_move, after, by, rules, id)

    @classmethod
    def build(cls, hands: dict, to_move: str, after=None, by=None, rules=None, id=None,
              extra: "dict | None" = None) -> "Position":
        """From hands given as text, packed ints or :class:`~ddz_tools.core.cards.Hand`
        (under Laizi rules, ``rules`` carries the deal's wild ranks: :meth:`Rules.with_wild`)."""
        rules = Rules.parse(rules) if not isinstance(rules, dict) else Rules.from_dict(rules)
        try:
            rules.require_wild()
        except RulesError as exc:
            raise PositionError(f"{exc} (--wild, or the position's 'wild')", param="wild") from None
        if not isinstance(hands, dict):
            raise PositionError(f"hands must be an object of seat -> cards, not {type(hands).__name__}")
        keys = tuple(hands)
        seats = _seats_of(keys, rules)
        packed = []
        for seat in seats:
            h = hands[seat]
            try:
                if isinstance(h, str):
                    v = parse_cards(h, rules.decks)
                elif isinstance(h, int) and not isinstance(h, bool):
                    v = h
                elif hasattr(h, "packed"):
                    v = h.packed
                else:
                    raise PositionError(f"hand of {seat} must be card text, not {type(h).__name__}")
            except DdzError as exc:
                raise PositionError(f"hand of {seat}: {exc}") from None
            packed.append((seat, v))
        play, by = _on_table(after, by, to_move, seats, rules, ("last_play", "last_by"))
        return cls(tuple(packed), to_move, rules, play, by, id, tuple((extra or {}).items()))

    @classmethod
    def from_dict(cls, d: dict, default_id: "str | None" = None) -> "Position":
        """From a parsed ``ddz-position/1`` object; ``default_id`` is the id
        when the object names none (``ddz solve --file`` gives ``line N``)."""
        if not isinstance(d, dict):
            raise PositionError(f"a position must be a JSON object, not {type(d).__name__}")
        schema = d.get("schema")
        if schema != SCHEMA:
            raise PositionError(f"schema must be {SCHEMA!r}, not {schema!r}")
        for key in ("hands", "to_move"):
            if key not in d:
                raise PositionError(f"missing key {key!r}")
        pid = d.get("id")
        if pid is not None and not isinstance(pid, (str, int)):
            raise PositionError(f"id must be a string, not {type(pid).__name__}")
        try:
            rules = Rules.from_dict(d.get("rules"))
        except DdzError as exc:
            raise PositionError(f"rules: {exc}") from None
        if d.get("wild") is not None:
            try:
                rules = rules.with_wild(d["wild"])
            except DdzError as exc:
                raise PositionError(f"wild: {exc}") from None
        hands = d["hands"]
        if isinstance(hands, dict):
            for seat, h in hands.items():
                if not isinstance(h, str):
                    raise PositionError(f"hand of {seat} must be card text, not {type(h).__name__}")
        extra = {k: v for k, v in d.items() if k not in _KNOWN_KEYS}
        last_play = d.get("last_play")
        if last_play is not None and not isinstance(last_play, str):
            raise PositionError(f"last_play must be play text or null, not {type(last_play).__name__}")
        return cls.build(d["hands"], d["to_move"], last_play, d.get("last_by"), rules,
                         default_id if pid is None else str(pid), extra)

    @classmethod
    def from_json(cls, text: str, default_id: "str | None" = None) -> "Position":
        """From one JSON line (``default_id``: see :meth:`from_dict`)."""
        try:
            d = json.loads(text)
        except json.JSONDecodeError as exc:
            raise PositionError(f"not valid JSON: {exc.msg} at column {exc.colno}") from None
        return cls.from_dict(d, default_id)

    # Access ------------------------------------------------------------------

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(s for s, _ in self.hands)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def is_lead(self) -> bool:
        return self.last_play is None

    def packed(self, seat: str) -> int:
        for s, h in self.hands:
            if s == seat:
                return h
        raise PositionError(f"no seat {seat!r} in this position (seats: {', '.join(self.seats)})")

    def hand(self, seat: str) -> str:
        return format_cards(self.packed(seat))

    def seat_index(self, seat: str) -> int:
        return self.seats.index(seat)

    def team_of(self, seat: str) -> str:
        """The seat itself with two hands (``"me"``/``"opponent"``, or the
        landlord and farmer1 under four-player rules), ``"landlord"``/``"farmers"``
        with three or four."""
        if self.players == 2:
            return seat
        return "landlord" if seat == "landlord" else "farmers"

    @property
    def is_over(self) -> bool:
        """True when a hand is empty (only :meth:`push` makes such a position)."""
        return any(h == 0 for _, h in self.hands)

    # Moves -------------------------------------------------------------------

    def parse_play(self, text: "str | Play") -> Play:
        """The play of the side to move from its text (``pass`` too), read
        under the position's rules and checked legal here, unlike
        :meth:`push`: a combination in the hand that beats the play to answer,
        or a pass when answering.  Raises
        :class:`~ddz_tools.core.errors.PlayError` (or a ``CardError``) saying why.

        >>> p = Position.two_player("33JJ", "4455A", after="A")
        >>> p.parse_play("pass").is_pass
        True
        >>> p.parse_play("33")
        Traceback (most recent call last):
        ...
        ddz_tools.core.errors.PlayError: 33 is not a legal play here
        """
        play = text if isinstance(text, Play) else Play.parse(text, self.rules)
        if play.is_pass:
            if self.last_play is None:
                raise PlayError(f"{self.to_move} leads: a pass is not legal here")
            return play
        if play not in list(generate(self.packed(self.to_move), after=self.last_play, rules=self.rules)):
            raise PlayError(f"{play.notation(self.rules)} is not a legal play here")
        return play

    def push(self, play: Play) -> "Position":
        """The position after the side to move makes ``play`` (a pass included).

        Like python-chess's ``Board.push`` it trusts its input: the play is not
        checked against the hand or the play to answer, and nothing is
        validated (the fast way to walk a line; parse and check plays before).
        A Position is immutable, so the new one is returned.  The turn rule:
        a play stands until it comes back round to the seat that made it,
        which then leads; in two-player one pass gives the lead back.  A play
        that empties the hand gives a position that :attr:`is_over`.

        >>> p = Position.three_player("3", "44", "55", to_move="landlord")
        >>> q = p.push(Play.parse("3"))
        >>> q.is_over
        True
        >>> r = Position.three_player("36", "44", "55", to_move="landlord").push(Play.parse("3"))
        >>> r.to_move, r.last_by, r.push(Play.pass_()).push(Play.pass_()).is_lead
        ('farmer1', 'landlord', True)
        """
        seats = self.seats
        i = seats.index(self.to_move)
        nxt = seats[_next_seat(i, len(seats))]
        if play.is_pass:
            lb = seats.index(self.last_by) if self.last_by is not None else 0
            pk, _ = _trick_after(0, i, self.last_play.kind if self.last_play is not None else 0, lb, len(seats))
            last, by = (self.last_play, self.last_by) if pk else (None, None)
            hands = self.hands
        else:
            hands = tuple((s, h - play.cards) if s == self.to_move else (s, h) for s, h in self.hands)
            last, by = play, self.to_move
        new = object.__new__(Position)
        for name, value in (("hands", hands), ("to_move", nxt), ("rules", self.rules), ("last_play", last),
                            ("last_by", by), ("id", self.id), ("extra", self.extra)):
            object.__setattr__(new, name, value)
        return new

    # Output --------------------------------------------------------------------

    def to_dict(self) -> dict:
        d = {"schema": SCHEMA, "id": self.id, "rules": self.rules.describe()}
        d.update(self.rules.wild_field())
        d.update({
            "hands": {s: format_cards(h) for s, h in self.hands},
            "to_move": self.to_move,
            "last_play": self.last_play.notation(self.rules) if self.last_play is not None else None,
            "last_by": self.last_by,
        })
        d.update(dict(self.extra))
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(", ", ": "), ensure_ascii=False)

    def describe(self) -> str:
        """One line for humans."""
        hands = ", ".join(f"{s} {format_cards(h)}" for s, h in self.hands)
        what = ("leads" if self.last_play is None
                else f"answers {self.last_play.notation(self.rules)} by {self.last_by}")
        return f"{hands}; {self.to_move} {what}"


def seat_roles(landlord: int, seats: int = 3) -> tuple:
    """The role of each seat ``0 .. seats-1`` when ``landlord`` is the
    landlord's seat: the landlord, ``farmer1`` who plays after him, then
    ``farmer2`` (and ``farmer3`` at a four-player table) in turn order.

    >>> seat_roles(2), seat_roles(1, 4)
    (('farmer1', 'farmer2', 'landlord'), ('farmer3', 'landlord', 'farmer1', 'farmer2'))
    """
    roles = seat_table(seats).seat_roles(landlord)
    return tuple(roles[s] for s in range(seats))


@dataclasses.dataclass(frozen=True)
class RecordedTurn:
    """A recorded game just before one of its moves, its seats named by role
    (see :func:`seat_roles`): what :func:`from_record` and
    :func:`ddz_tools.analysis.advise.view_from_record` are built from.  ``game`` is
    the :class:`~ddz_tools.engines.game.Game` in play (from :func:`game_before_move`),
    ``move`` the move about to be made (numbered from 1) and ``roles`` the
    role of each seat."""

    record: Any
    game: Any
    move: int
    roles: tuple

    @property
    def to_move(self) -> str:
        """The role of the seat to move."""
        return self.roles[self.game.turn]

    @property
    def hands(self) -> dict:
        """Role -> the packed hand it holds now, in turn order (landlord first)."""
        return {r: self.game.hands[self.roles.index(r)] for r in self.game.variant.roles}

    @property
    def last_play(self) -> "Play | None":
        """The play to answer (None for a free lead)."""
        return self.game.last_play

    @property
    def last_by(self) -> "str | None":
        """The role of the seat that made :attr:`last_play`."""
        return None if self.game.last_play is None else self.roles[self.game.last_seat]

    @property
    def plays(self) -> list:
        """Every play so far as ``(role, Play)`` pairs, passes included."""
        return [(self.roles[s], p) for s, p in self.game.plays]

    @property
    def bids(self) -> list:
        """The auction as ``(role, bid)`` pairs, 0 a pass."""
        return [(self.roles[s], v) for s, v in self.game.bids]


def record_turn(record, move: "int | None" = None) -> RecordedTurn:
    """The turn of ``record`` (a :class:`~ddz_tools.engines.records.Record`) just
    before its move ``move``, replayed by :func:`game_before_move` (same
    numbering and errors), its seats named by role.

    >>> from ddz_tools.engines.game import Game
    >>> from ddz_tools.engines.records import record_from_game
    >>> g = Game(seed=3, first_bidder=0); g.bid(3); _ = g.play("3")
    >>> t = record_turn(record_from_game(g, id="g"), 2)
    >>> t.to_move, t.last_by, t.plays[0][1].notation(), t.bids
    ('farmer1', 'landlord', '3', [('landlord', 3)])
    """
    g = game_before_move(record, move)
    roles = g.variant.seat_roles(g.landlord)
    return RecordedTurn(record, g, 1 if move is None else move, tuple(roles[s] for s in range(g.seats)))


def from_record(record, move: "int | None" = None) -> Position:
    """The open-hand position of a recorded game before its move ``move``.

    ``record`` is a :class:`~ddz_tools.engines.records.Record` (from
    :func:`~ddz_tools.engines.records.parse_record` or a Botzone import).  Its bids
    and its plays before move ``move`` are replayed by :func:`record_turn`
    (so an illegal action is an error, never trusted).  Moves are numbered from 1, passes included, as ``ddz analyze``
    numbers them (move 1 is the landlord's first lead), so the position of a
    move that analysis flags is ``from_record(record, that_move)``; None or 1
    is the position after the auction (the landlord, holding the bottom, to
    lead).  Seats are named by role: the
    landlord, farmer1 after him, farmer2 before him.  The position's ``id`` is
    the record's; ``extra`` holds ``record`` (the id) and ``move``.

    >>> from ddz_tools.engines.game import Game
    >>> from ddz_tools.engines.records import record_from_game
    >>> g = Game(seed=3, first_bidder=0); g.bid(3); _ = g.play("3")
    >>> p = from_record(record_from_game(g, id="g"), 2)
    >>> p.to_move, p.last_play.notation(), p.last_by, len(p.hand("landlord"))
    ('farmer1', '3', 'landlord', 19)
    """
    t = record_turn(record, move)
    rid = None if record.id is None else str(record.id)
    return Position.build(t.hands, t.to_move, t.last_play, t.last_by, record.rules, rid,
                          {"record": rid, "move": t.move})


def game_before_move(record, move: "int | None" = None):
    """The :class:`~ddz_tools.engines.game.Game` of ``record`` just before its move ``move``.

    The record's stages before the play (the shows, the bids, the landlord's
    draws, the doubles: :func:`ddz_tools.engines.records.game_before_play`) and its
    plays before ``move`` are replayed through
    :class:`~ddz_tools.engines.game.Game`, so an illegal action is an error, never
    trusted.  Moves are numbered from 1, passes included, as ``ddz analyze``
    numbers them; None or 1 is the game just after the auction.  The game
    returned is in play (``phase`` ``"playing"``) with ``turn`` the seat to
    move.  :func:`record_turn` (and through it :func:`from_record` and
    :func:`ddz_tools.analysis.advise.view_from_record`) starts from it.

    Raises :class:`~ddz_tools.core.errors.PositionError` naming the record and what
    is wrong: a move that is not a positive integer or is past the record's
    last play, an illegal bid or play, an auction that makes no landlord, or a
    game over before ``move``.

    >>> from ddz_tools.engines.game import Game
    >>> from ddz_tools.engines.records import record_from_game
    >>> g = Game(seed=3, first_bidder=0); g.bid(3); _ = g.play("3")
    >>> h = game_before_move(record_from_game(g, id="g"), 2)
    >>> h.turn == (h.landlord + 1) % 3, h.last_play.notation()
    (True, '3')
    """
    from .game import FINISHED, PLAYING, IllegalAction

    move = 1 if move is None else move
    if not isinstance(move, int) or isinstance(move, bool) or move < 1:
        raise PositionError(f"move must be a positive integer (moves count from 1), not {move!r}")
    if move > len(record.plays) + 1:
        raise PositionError(f"record {record.id}: move {move} is past its last play "
                            f"(it has {len(record.plays)} plays, numbered from 1)")
    from .records import game_before_play

    try:
        # The shows, bids, draws and doubles (Happy Dou Dizhu) before the first play.
        g = game_before_play(record)
    except StageError as exc:
        raise PositionError(f"record {record.id}: {exc}") from None
    try:
        if g.phase != PLAYING:
            raise PositionError(f"record {record.id}: the auction does not end with a landlord")
        for i, (seat, text) in enumerate(record.plays[:move - 1]):
            if g.phase == FINISHED:
                raise PositionError(f"record {record.id}: the game is over before move {move}")
            try:
                g.play(text, seat)
            except IllegalAction as exc:
                raise PositionError(f"record {record.id}: plays[{i}]: {exc}") from None
    except IllegalAction as exc:
        raise PositionError(f"record {record.id}: {exc}") from None
    if g.phase != PLAYING:
        raise PositionError(f"record {record.id}: the game is over before move {move}")
    return g


def read_game_records(path: str, rules=None):
    """Yield ``(label, record, error)`` for every game of a file: ``ddz-record/1``
    JSON Lines, a Botzone judge log or a Botzone transcript (through the
    readers of :mod:`ddz_tools.engines.records` and :mod:`ddz_tools.engines.botzone`).
    ``label`` is ``file:line``; a game that cannot be read has ``record``
    None and ``error`` the reason; ``rules`` apply where a game names none.
    """
    from . import botzone
    from .records import parse_record
    from .sources import FMT_BOTZONE_LOG, FMT_BOTZONE_TRANSCRIPT, FMT_RECORD, read_items

    rules = Rules.parse(rules)
    try:
        items = list(read_items(path))
    except OSError as exc:
        raise RecordError(f"{path}: {exc.strerror or exc}") from None
    for item in items:
        label = f"{item.file}:{item.line}"
        if item.error is not None:
            yield label, None, item.error
            continue
        try:
            if item.fmt == FMT_RECORD:
                data = item.data
                if isinstance(data, dict) and "rules" not in data:
                    data = dict(data, rules=rules.describe())
                yield label, parse_record(data), None
            elif item.fmt == FMT_BOTZONE_LOG:
                yield label, botzone.import_judge_log(item.data, rules=rules), None
            elif item.fmt == FMT_BOTZONE_TRANSCRIPT:
                yield label, botzone.import_file(item.file, rules=rules)[0], None
            else:
                yield label, None, f"{item.fmt} holds deals without their auction and plays, not game records"
        except (DdzError, OSError) as exc:
            yield label, None, str(exc)


def _on_table(after, by, to_move, seats, rules, names, default_by=None):
    """:func:`~ddz_tools.core.rules.play_on_table`, its errors as :class:`PositionError`."""
    try:
        return play_on_table(after, by, to_move, seats, rules, names, default_by)
    except PlayError as exc:
        raise PositionError(str(exc), param=exc.param) from None


def _before(seat: str, seats: tuple) -> "str | None":
    """The seat before ``seat`` in turn order (None if ``seat`` is none of ``seats``)."""
    return seats[(seats.index(seat) - 1) % len(seats)] if seat in seats else None


def _four_seated(rules: "Rules | None") -> bool:
    """Whether a position under ``rules`` takes the four-player form: the
    variant's solver is the four-player one (:attr:`Variant.kernels
    <ddz_tools.variants.Variant.kernels>`), whose positions seat the landlord
    and up to three farmers."""
    return rules is not None and variant_of(rules).kernels["solver_key"] == "four"


def _seats_of(keys: tuple, rules: "Rules | None" = None) -> tuple[str, ...]:
    """The seats, in turn order, of a position whose hands name ``keys``
    under ``rules`` (under four-player rules also the landlord and one or
    three farmers)."""
    ks = set(keys)
    if ks == set(TWO_SEATS):
        return TWO_SEATS
    if ks == set(THREE_SEATS):
        return THREE_SEATS
    named = ", ".join(map(str, keys))
    if _four_seated(rules):
        roles = variant_of(rules).roles
        for n in range(2, len(roles) + 1):
            if ks == set(roles[:n]):
                return roles[:n]
        raise PositionError(
            f"under four-player rules hands must name exactly two, three or four hands: {{landlord, farmer1}}, "
            f"then farmer2 and farmer3 in turn order (or {{{', '.join(TWO_SEATS)}}}), not {{{named}}}")
    if "farmer3" in ks:
        what = f"rules {rules.describe()} seat" if rules is not None else "these rules seat"
        raise PositionError(f"farmer3 is a four-player seat: {what} three players (give rules four)")
    raise PositionError(
        f"hands must name exactly {{{', '.join(TWO_SEATS)}}} or {{{', '.join(THREE_SEATS)}}}, "
        f"not {{{named}}}")


def _max_cards(seat: str, rules: Rules) -> int:
    """The most cards a hand of ``seat`` may hold: a farmer's hand as dealt,
    any other the landlord's with the bottom (the table's), and never fewer
    than 20, the landlord's of three seats, draws included (under four-player
    rules the landlord's 33, ``me``/``opponent`` too, and a farmer's 25)."""
    t = variant_of(rules).table
    return max(MAX_HAND, t.hand_cards if seat.startswith("farmer") else t.landlord_cards)


def _validate(p: Position) -> None:
    if not isinstance(p.rules, Rules):
        raise PositionError("rules must be a Rules object")
    seats = _seats_of(tuple(s for s, _ in p.hands), p.rules)
    if tuple(s for s, _ in p.hands) != seats:
        raise PositionError(f"hands must be in turn order {', '.join(seats)}")
    total = [0] * NUM_RANKS
    for seat, h in p.hands:
        if not isinstance(h, int) or isinstance(h, bool) or h < 0 or h >= 1 << 60:
            raise PositionError(f"hand of {seat} is not a packed hand")
        c = counts_of(h)
        n = sum(c)
        if n == 0:
            raise PositionError(f"hand of {seat} is empty: the game is already over")
        most = _max_cards(seat, p.rules)
        if n > most:
            raise PositionError(f"hand of {seat} has {n} cards; at most {most} are possible")
        total = [a + b for a, b in zip(total, c)]
    if p.last_play is not None:
        total = [a + b for a, b in zip(total, counts_of(p.last_play.cards))]
    deck = counts_of(full_deck(p.rules.decks))
    for r in range(NUM_RANKS):
        if total[r] > deck[r]:
            name = {RANK_X: "small joker", RANK_X + 1: "big joker"}.get(r, RANKS[r])
            where = "the hands and the play on the table" if p.last_play is not None else "the hands"
            raise PositionError(f"{where} hold {total[r]} x {name}; the deck has {deck[r]}")
    if p.to_move not in seats:
        raise PositionError(f"to_move must be one of {', '.join(seats)}, not {p.to_move!r}")
    _on_table(p.last_play, p.last_by, p.to_move, seats, p.rules, ("last_play", "last_by"))
