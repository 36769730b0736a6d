"""Reading the parts of a view: the seats and cards of the rules' table, and
the text of cards, seats, plays, bids, draws and doubles, checked against it.

The seats, the cards each holds before the first play, the deck and who sees
the bottom come from the rules' variant (:func:`~ddz_tools.variants.variant_of`:
its roles, its table's hand and bottom sizes and decks); this module asks it
and nothing else does.  The seats are ``landlord``, ``farmer1``, ``farmer2``
in turn order, and ``farmer3`` under four-player rules; the two-player form
has ``me`` and ``opponent`` (:data:`TWO_SEATS`).

Each reader turns one option of a view (text, a list or pairs) into what
:mod:`~ddz_tools.analysis.advise.view` builds the view from, or raises a
one-line :class:`~ddz_tools.core.errors.ViewError` naming the option.

>>> seats_of("four")
('landlord', 'farmer1', 'farmer2', 'farmer3')
>>> parse_bids("farmer2:pass, landlord:3")
[('farmer2', 0), ('landlord', 3)]
"""

from __future__ import annotations

from typing import Sequence

from ...core._jit import interpreted
from ...core.cards import NUM_RANKS, RANK_X, RANKS, card_count, counts_of, full_deck, pack_counts, parse_cards
from ...core.errors import DdzError, PlayError, ViewError
from ...core.gamerules import double_ok
from ...core.rules import Play, Rules, play_on_table
from ...engines.game import Auction, IllegalAction
from ...variants import FOUR, THREE, Variant, variant_of

__all__ = ["THREE_SEATS", "FOUR_SEATS", "TWO_SEATS", "seats_of", "start_cards", "parse_played", "parse_bids"]

#: The seats of the three-player table, in turn order from the landlord.
THREE_SEATS = THREE.roles
#: Four-player rules: the landlord and three farmers, in turn order.
FOUR_SEATS = FOUR.roles
#: The two-player form: me against one opponent.
TWO_SEATS = ("me", "opponent")

_double_ok = interpreted(double_ok)

#: Numbers as the messages spell them.
NUMBER = {1: "one", 2: "two", 3: "three", 4: "four"}


def rules_arg(rules) -> Rules:
    """The rule set of ``rules``: a :class:`~ddz_tools.core.rules.Rules`, its
    text, a ``ddz-record/1`` rules object, or None (standard)."""
    return Rules.from_dict(rules) if isinstance(rules, dict) else Rules.parse(rules)


def seats_of(rules) -> tuple:
    """The seats of a table under ``rules`` (a rule set, its text or a
    ``ddz-record/1`` rules object), in turn order from the landlord: the
    variant's roles.

    >>> seats_of(Rules.parse("four"))
    ('landlord', 'farmer1', 'farmer2', 'farmer3')
    """
    return variant_of(rules_arg(rules)).roles


def start_cards(rules) -> tuple:
    """Cards each seat holds before the first play, landlord first (his include
    the bottom): (20, 17, 17), or (33, 25, 25, 25) under four-player rules;
    without a bottom (``notalon``) (18, 18, 18), or (20, 17, 17) when the
    landlord drew a card from each farmer (``landlord_draw=on``).

    >>> start_cards(Rules.parse("notalon,landlord_draw=on"))
    (20, 17, 17)
    """
    return dealt_cards(variant_of(rules_arg(rules)))


# The helpers below take the variant (:func:`~ddz_tools.variants.variant_of`
# of the view's rules), asked once by each caller.


def landlord_draws(v: Variant) -> bool:
    """Does the landlord draw a card from each farmer (``landlord_draw=on``, no bottom)?"""
    return v.stake.draws and v.table.bottom_cards == 0


def dealt_cards(v: Variant) -> tuple:
    """:func:`start_cards` of the variant ``v``."""
    t = v.table
    if landlord_draws(v):
        return (t.hand_cards + 2,) + (t.hand_cards - 1,) * t.farmers
    return (t.landlord_cards,) + (t.hand_cards,) * t.farmers


def bottom_seen(v: Variant, landlord: bool) -> bool:
    """Does a seat (the landlord, or a farmer) see the bottom once the
    auction is over: the rules deal one, and it is public or the seat is the
    landlord's (:attr:`Table.bottom_public <ddz_tools.variants.Table.bottom_public>`)?"""
    return v.table.bottom_cards > 0 and (landlord or v.table.bottom_public)


def deck_counts(v: Variant) -> list:
    """Cards of each rank in the deck (or decks) of the variant ``v``."""
    return counts_of(full_deck(v.table.decks))


def or_list(names) -> str:
    """``a, b or c``."""
    return ", ".join(names[:-1]) + f" or {names[-1]}"


def ranks_list(packed: int) -> list:
    """The rank of each card of ``packed``, lowest first."""
    return [r for r, c in enumerate(counts_of(packed)) for _ in range(c)]


def minus(a: int, b: int) -> int:
    """``a - b`` rank by rank, never below zero."""
    return pack_counts(max(0, x - y) for x, y in zip(counts_of(a), counts_of(b)))


def holds(big: int, small: int) -> bool:
    """Does ``big`` hold every card of ``small``?"""
    return all(x >= y for x, y in zip(counts_of(big), counts_of(small)))


# Cards ---------------------------------------------------------------------------------


def card_arg(value, what: str, decks: int = 1) -> int:
    """Packed cards from card text (of ``decks`` decks), a packed int or a :class:`~ddz_tools.core.cards.Hand`."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if hasattr(value, "packed"):
        return int(value.packed)
    if not isinstance(value, str):
        raise ViewError(f"{what} must be card text, not {type(value).__name__}")
    try:
        return parse_cards(value, decks)
    except DdzError as exc:
        raise ViewError(f"{what}: {exc}") from None


def _rank_name(r: int) -> str:
    return {RANK_X: "small joker", RANK_X + 1: "big joker"}.get(r, RANKS[r])


def check_deck(parts: Sequence, what: str, v: Variant) -> None:
    """No rank held more often by ``parts`` together than the deck (or decks) of ``v`` has."""
    deck = deck_counts(v)
    total = [0] * NUM_RANKS
    for p in parts:
        total = [a + b for a, b in zip(total, counts_of(p))]
    n = v.table.decks
    for r in range(NUM_RANKS):
        if total[r] > deck[r]:
            decks = "deck has" if n == 1 else f"{n} decks have"
            raise ViewError(f"{what} hold {total[r]} x {_rank_name(r)}; the {decks} {deck[r]}")


def bottom_arg(bottom, v: Variant) -> "int | None":
    """The packed bottom of ``bottom`` (None: not given); giving one under
    rules that deal none is an error."""
    bot = None if bottom is None else card_arg(bottom, "bottom", v.table.decks)
    if bot is not None and v.bottom_given:
        raise ViewError(v.bottom_given, param="bottom")
    return bot


def check_bottom(bot: "int | None", seat: str, me: int, v: Variant) -> None:
    """That ``seat`` (index ``me``) sees the bottom ``bot`` it was given, and
    that it has the table's number of cards."""
    if bot is None:
        return
    if me != 0 and not v.table.bottom_public:
        raise ViewError(f"{seat} does not see the bottom: under {v.describe()} rules only the landlord "
                        f"does (leave out bottom)", param="bottom")
    n = v.table.bottom_cards
    if card_count(bot) != n:
        raise ViewError(f"the bottom has {card_count(bot)} cards, not {n}")


def base_arg(base) -> int:
    """``base``, checked to be a positive integer."""
    if isinstance(base, bool) or not isinstance(base, int) or base < 1:
        raise ViewError(f"base must be a positive integer, not {base!r}")
    return base


# Seats ---------------------------------------------------------------------------------


def seat_arg(seat, seats: tuple = THREE_SEATS) -> str:
    """``seat``, one of ``seats``, in lower case."""
    if isinstance(seat, str) and seat.strip().lower() in seats:
        return seat.strip().lower()
    raise ViewError(f"seat must be one of {', '.join(seats)}, not {seat!r}")


def relabel(message: str, seats: tuple = THREE_SEATS) -> str:
    """A game's message with its seat numbers named by ``seats``."""
    for i, name in enumerate(seats):
        message = message.replace(f"seat {i}", name)
    return message


def _seat_items(value, key: str, example: str, seats: tuple = THREE_SEATS) -> list:
    """``(index, item, seat, right)`` for each ``"seat:right"`` string or
    ``(seat, right)`` pair of ``value`` (text split on commas, or a list),
    each seat one of ``seats``; ``key`` names the list in errors."""
    if value is None:
        return []
    if isinstance(value, str):
        items = [x for x in (t.strip() for t in value.split(",")) if x]
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        raise ViewError(f"{key} must be text or a list, not {type(value).__name__}")
    out = []
    what = key.rstrip("s").upper() if key != "played" else "PLAY"
    for i, item in enumerate(items):
        if isinstance(item, str):
            seat, sep, right = item.partition(":")
            if not sep:
                raise ViewError(f"{key}[{i}] {item!r} is not SEAT:{what} (e.g. {example})")
        elif isinstance(item, (list, tuple)) and len(item) == 2:
            seat, right = item
        else:
            raise ViewError(f"{key}[{i}] must be 'SEAT:{what}', not {item!r}")
        seat = seat.strip().lower() if isinstance(seat, str) else seat
        if seat not in seats:
            raise ViewError(f"{key}[{i}] {item!r}: seat must be one of {', '.join(seats)}")
        out.append((i, item, seat, right))
    return out


# Plays, bids, draws, doubles ------------------------------------------------------------


def parse_played(played, rules=None) -> list:
    """The history as ``(seat, text)`` pairs from ``"landlord:333-4,farmer1:pass"``
    or a list of ``"seat:play"`` strings or ``(seat, play)`` pairs; the seats
    are those of ``rules`` (``farmer3`` too under four-player rules).

    >>> parse_played("landlord:333-4, farmer1:pass,farmer2:")
    [('landlord', '333-4'), ('farmer1', 'pass'), ('farmer2', 'pass')]
    """
    out = []
    for i, item, seat, text in _seat_items(played, "played", "landlord:333-4 or farmer1:pass", seats_of(rules)):
        text = text.notation(rules) if isinstance(text, Play) else text   # under rules: a reading's suffix kept
        if not isinstance(text, str):
            raise ViewError(f"played[{i}]: the play must be text, not {type(text).__name__}")
        text = text.strip()
        out.append((seat, "pass" if text.lower() in ("", "pass", "p", "-") else text))
    return out


def parse_bids(bids, rules=None) -> list:
    """The auction as ``(seat, bid)`` pairs (0 a pass) from
    ``"farmer1:pass,farmer2:1,landlord:3"`` or a list of ``"seat:bid"``
    strings or ``(seat, bid)`` pairs; the seats are those of ``rules``.
    Under call-grab and first-call bidding a call or a grab is 1 (``call``,
    ``grab``).

    >>> parse_bids("farmer2:pass, landlord:3")
    [('farmer2', 0), ('landlord', 3)]
    >>> parse_bids("farmer1:pass,farmer2:pass,landlord:call", "notalon")
    [('farmer1', 0), ('farmer2', 0), ('landlord', 1)]
    """
    out = []
    for i, item, seat, value in _seat_items(bids, "bids", "farmer1:pass or landlord:2", seats_of(rules)):
        if isinstance(value, str):
            value = value.strip().lower()
            value = (0 if value in ("pass", "p", "0") else int(value) if value in ("1", "2", "3")
                     else 1 if value in ("call", "grab") else value)
        if isinstance(value, bool) or value not in (0, 1, 2, 3):
            raise ViewError(f"bids[{i}] {item!r}: a bid is pass (0), 1, 2 or 3 (call or grab: 1)")
        out.append((seat, value))
    return out


def replay_bids(bids: list, v: Variant) -> Auction:
    """The auction of ``bids`` (seat 0 the landlord if all pass, as under Botzone's
    rule); an error unless it is complete and made the landlord seat the landlord."""
    seats = v.roles
    a = Auction(seats.index(bids[0][0]), v.rules.bidding, "seat0", seats=v.seats)
    for i, (seat, value) in enumerate(bids):
        try:
            a.bid(seats.index(seat), value)
        except IllegalAction as exc:
            raise ViewError(f"bids[{i}] {seat}:{value or 'pass'}: {relabel(str(exc), seats)}") from None
    if not a.done:
        raise ViewError("the bids leave the auction unfinished")
    if a.landlord != 0:
        raise ViewError(f"the bids make {seats[a.landlord]} the landlord, not the landlord seat")
    return a


def parse_draws(draws, v: Variant) -> list:
    """The landlord's draws a view knows (``landlord_draw=on``) as ``(farmer
    index, packed card)`` pairs, from ``{"farmer1": "K"}``,
    ``"farmer1:K,farmer2:5"`` or ``(farmer, card)`` pairs."""
    if draws is None or draws == {} or draws == "" or draws == [] or draws == ():
        return []
    if not landlord_draws(v):
        raise ViewError(f"draws: under rules {v.describe()} the landlord draws no cards (landlord_draw=on "
                        f"without a bottom)", param="draws")
    items = list(draws.items()) if isinstance(draws, dict) else draws
    seats = v.roles
    out = []
    for i, item, seat, card in _seat_items(items, "draws", "farmer1:K", seats):
        k = seats.index(seat)
        if k == 0:
            raise ViewError(f"draws[{i}] {item!r}: the landlord draws from the farmers, not from himself")
        if any(f == k for f, _ in out):
            raise ViewError(f"draws[{i}] {item!r}: the landlord draws one card from {seat}")
        c = card_arg(card, f"draws[{i}]")
        if card_count(c) != 1:
            raise ViewError(f"draws[{i}] {item!r}: a draw is one card, not {card_count(c)}")
        out.append((k, c))
    return out


def parse_doubles(doubles, v: Variant) -> tuple:
    """The seats' doubles (landlord, farmer1, farmer2), checked against the rules; () for none."""
    if doubles is None or doubles == () or doubles == []:
        return ()
    seats = v.roles
    if not isinstance(doubles, (list, tuple)) or len(doubles) != len(seats):
        raise ViewError(f"doubles must be {NUMBER[len(seats)]} factors ({', '.join(seats)}), not {doubles!r}")
    allowed = [f for f in (1, 2, 4) if _double_ok(v.rules.stage_flags, f)]
    for f in doubles:
        if isinstance(f, bool) or f not in allowed:
            raise ViewError(f"doubles: {f!r} is not one of {', '.join(map(str, allowed))} under {v.describe()}")
    return tuple(int(f) for f in doubles)


def play_to_answer(after, by, seat, rules, seats=THREE_SEATS, default_by=None):
    """The play to answer and its seat (:func:`~ddz_tools.core.rules.play_on_table`), errors as :class:`ViewError`."""
    if isinstance(by, str):
        by = by.strip().lower()
    try:
        return play_on_table(after, by, seat, seats, rules, default_by=default_by)
    except PlayError as exc:
        raise ViewError(str(exc), param=exc.param) from None
