"""Cards: notation, packed hands and the user-facing :class:`Hand`.

Ranks and notation
------------------
Suits never matter in Dou Dizhu, so a hand is a multiset of 15 ranks, low to
high ``3 4 5 6 7 8 9 T J Q K A 2 X D`` (``X`` small joker, ``D`` big joker).
Rank indices run 0 (``3``) to 14 (``D``).  The canonical text of a hand or play
lists its ranks sorted low to high with no separators (``33456789TJQKA22XD``).
The parser also takes ``10`` for ``T``, lower case, spaces and commas, and the
aliases ``B`` (black = small joker) and ``R`` (red = big joker).

Packed layout
-------------
A packed hand is one non-negative Python / int64 integer holding the count of
each rank in 4 bits::

    bits 4r .. 4r+3  = number of cards of rank r   (r = 0 for "3" ... 14 for "D")

so 15 ranks use the low 60 bits.  Adding two disjoint hands is ``a + b``,
playing cards is ``hand - play`` (for ``play`` contained in ``hand``), and the
integer is its own exact hash key.  ``card_count`` is a sum of nibbles.  A
packed value is legal when every nibble of ranks 0..12 is at most 4 and the two
joker nibbles are at most 1 (:func:`is_valid_packed`, O(1) with the nibble
trick below); with two decks (four-player Dou Dizhu, ``decks=2``) at most 8
and 2.  Every function that checks cards takes ``decks``; the rules say how
many (:attr:`ddz_tools.core.rules.Rules.decks`).

Card ids
--------
Botzone numbers the 54 physical cards 0..53: ``id // 4`` is the rank index for
ids 0..51, 52 is the small joker and 53 the big one.  DouZero uses the ints
3..14 for 3..A, 17 for 2, 20 and 30 for the jokers.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from ._jit import interpreted, kernel
from .errors import CardError

RANKS = "3456789TJQKA2XD"
NUM_RANKS = 15
RANK_2 = 12
RANK_A = 11
RANK_X = 13  # small (black) joker
RANK_D = 14  # big (red) joker

NIBBLE = 0xF
#: 1 in the low bit of every rank's nibble.
ONES = sum(1 << (4 * r) for r in range(NUM_RANKS))
#: The full 54-card deck, packed.
FULL_DECK = 4 * sum(1 << (4 * r) for r in range(13)) + (1 << (4 * RANK_X)) + (1 << (4 * RANK_D))
_THREES = 3 * ONES
_SEVENS = 7 * ONES
_EIGHTS = 8 * ONES
#: Even nibbles each in a byte, and bit 6 of every byte (the borrow guard of :func:`packed_contains`).
_BYTE_NIBBLES = 0x0F0F0F0F0F0F0F0F
_BYTE_GUARD = 0x4040404040404040
_LIMIT = 1 << (4 * NUM_RANKS)

_ALIASES = {"B": "X", "R": "D"}
_RANK_OF_CHAR = {c: i for i, c in enumerate(RANKS)}


def full_deck(decks: int = 1) -> int:
    """The packed full deck of ``decks`` decks (54 or 108 cards)."""
    return decks * FULL_DECK


def rank_limit(rank: int, decks: int = 1) -> int:
    """How many cards of ``rank`` the deck holds: 4 a deck, 1 a deck of each joker."""
    return decks if rank >= RANK_X else 4 * decks


def count_of(packed: int, rank: int) -> int:
    """How many cards of ``rank`` the packed hand holds."""
    return (packed >> (4 * rank)) & NIBBLE


def counts_of(packed: int) -> list[int]:
    """The 15 rank counts of a packed hand, rank 3 first."""
    return [(packed >> (4 * r)) & NIBBLE for r in range(NUM_RANKS)]


def pack_counts(counts: Iterable[int]) -> int:
    """Pack a sequence of up to 15 rank counts (no validation)."""
    packed = 0
    for r, c in enumerate(counts):
        packed |= c << (4 * r)
    return packed


# Packed-hand primitives: kernels (int64 in and out) and their Python forms --------


@kernel
def packed_count(h):
    """Number of cards of a packed hand (kernel).

    The 15 nibbles are summed into bytes, then the bytes by shifts; the usual
    last step, a multiply by 0x0101..., would overflow int64, which is
    undefined behaviour in Numba's code (its multiply is no-signed-wrap).
    """
    h = h & 0xFFFFFFFFFFFFFFF
    a = (h & 0x0F0F0F0F0F0F0F0F) + ((h >> 4) & 0x0F0F0F0F0F0F0F0F)
    a += a >> 32
    a += a >> 16
    a += a >> 8
    return a & 0xFF


@kernel
def packed_contains(hand, cards):
    """True when ``cards`` is a sub-multiset of ``hand``, both legal packed
    hands of one or two decks (kernel).  The even and the odd nibbles are
    spread one to a byte; every byte of ``hand`` with its bit 6 set, minus
    the card byte, does not borrow and keeps bit 6 exactly when the hand
    holds enough cards of that rank (a nibble is at most 15)."""
    even = ((hand & _BYTE_NIBBLES) | _BYTE_GUARD) - (cards & _BYTE_NIBBLES)
    odd = (((hand >> 4) & _BYTE_NIBBLES) | _BYTE_GUARD) - ((cards >> 4) & _BYTE_NIBBLES)
    return (even & odd & _BYTE_GUARD) == _BYTE_GUARD


@kernel
def packed_valid(h):
    """True when ``h`` is a legal card multiset: at most 4 of a rank, at most
    1 of each joker (kernel).

    A nibble n is at most 4 exactly when neither n nor n + 3 has its bit 3 set;
    adding 3 to every nibble at once cannot carry out of a nibble <= 12, and a
    nibble >= 8 is caught by the first term before any carry matters.
    """
    if h < 0 or h >= _LIMIT:
        return False
    if ((h + _THREES) | h) & _EIGHTS:
        return False
    return (h >> (4 * RANK_X)) & NIBBLE <= 1 and (h >> (4 * RANK_D)) & NIBBLE <= 1


@kernel
def packed_valid_decks(h, decks):
    """:func:`packed_valid` for ``decks`` decks (1 or 2; kernel).  Two decks:
    at most 8 of a rank and 2 of each joker.  A nibble is above 8 exactly
    when its bit 3 is set and one of its low three bits is: adding 7 to the
    low three bits carries into bit 3 exactly when one of them is set."""
    if decks == 1:
        return packed_valid(h)
    if h < 0 or h >= _LIMIT:
        return False
    if h & _EIGHTS & ((h & _SEVENS) + _SEVENS):
        return False
    return (h >> (4 * RANK_X)) & NIBBLE <= 2 and (h >> (4 * RANK_D)) & NIBBLE <= 2


_count_py = interpreted(packed_count)
_contains_py = interpreted(packed_contains)
_valid_py = interpreted(packed_valid)
_valid_decks_py = interpreted(packed_valid_decks)


def card_count(packed: int) -> int:
    """Number of cards in a packed hand (:func:`packed_count`)."""
    return _count_py(packed)


def contains(hand: int, cards: int) -> bool:
    """True when the packed ``cards`` are part of the packed ``hand``, both
    legal (:func:`packed_contains`)."""
    return _contains_py(hand, cards)


def is_valid_packed(packed: int, decks: int = 1) -> bool:
    """True when ``packed`` is a legal card multiset of ``decks`` decks (<= 4
    per rank and <= 1 per joker a deck, :func:`packed_valid_decks`); False
    for anything but an int."""
    if decks == 1:
        return isinstance(packed, int) and _valid_py(packed)
    return isinstance(packed, int) and _valid_decks_py(packed, decks)


def _check_packed(packed: int, what: str, decks: int = 1) -> None:
    _check_counts(counts_of(packed), what, decks)


def _check_counts(counts: "list[int]", what: str, decks: int = 1) -> None:
    """Raise :class:`CardError` naming the first rank of which ``counts``
    (15 counts, any size: a count of 16 or more does not fit a nibble) hold
    more cards than ``decks`` decks have."""
    for r, c in enumerate(counts):
        limit = rank_limit(r, decks)
        if c > limit:
            name = {RANK_X: "small jokers", RANK_D: "big jokers"}.get(r, f"{RANKS[r]}s")
            where = "" if decks == 1 else f" in {decks} decks"
            raise CardError(f"{what} has {c} {name}; at most {limit} exist{where}")


#: Packed value of one card per character (both cases and the joker aliases);
#: the separators count zero.
_CARD_VALUE = {c: 1 << (4 * r) for r, c in enumerate(RANKS)}
_CARD_VALUE.update({c.lower(): v for c, v in _CARD_VALUE.items()})
_CARD_VALUE.update({a: _CARD_VALUE[c] for a, c in _ALIASES.items()})
_CARD_VALUE.update({a.lower(): _CARD_VALUE[c] for a, c in _ALIASES.items()})
_CARD_VALUE.update({" ": 0, ",": 0, "\t": 0})
_NIBBLES_EVEN = 0x0F0F0F0F0F0F0F0F
_BYTES_EVEN = 0x00FF00FF00FF00FF
_LANES = 0x0001000100010001
_JOKER_EXTRA = 0xE << (4 * RANK_X) | 0xE << (4 * RANK_D)


def parse_cards(text: str, decks: int = 1) -> int:
    """Parse card text into a packed hand of ``decks`` decks (1, or 2 for
    four-player Dou Dizhu: up to 8 of a rank and 2 of each joker).

    >>> format_cards(parse_cards("10 j q k a, 2 b r"))
    'TJQKA2XD'
    >>> parse_cards("33333")
    Traceback (most recent call last):
    ...
    ddz_tools.core.errors.CardError: '33333' has 5 3s; at most 4 exist
    """
    if not isinstance(text, str):
        raise CardError(f"cards must be text, not {type(text).__name__}")
    if decks != 1:
        return _parse_cards_loop(text, decks)
    # Fast path: the sum of one packed card per character, then one check of
    # every nibble at once.  Text with "10" or an unknown character, or too
    # many of one rank, takes the loop below, which names the problem.
    if "1" not in text:
        try:
            packed = sum(map(_CARD_VALUE.__getitem__, text))
        except KeyError:
            packed = -1
        if 0 <= packed < _LIMIT and not (((packed + _THREES) | packed) & _EIGHTS or packed & _JOKER_EXTRA):
            if len(text) < 16:
                return packed
            # 16 or more of one rank would have carried into the next nibble:
            # then fewer cards are counted than there are card characters.
            pairs = (packed & _NIBBLES_EVEN) + ((packed >> 4) & _NIBBLES_EVEN)
            quads = (pairs & _BYTES_EVEN) + ((pairs >> 8) & _BYTES_EVEN)
            total = (quads * _LANES >> 48) & 0xFFFF
            if total == len(text) or total == len(text) - text.count(" ") - text.count(",") - text.count("\t"):
                return packed
    return _parse_cards_loop(text)


def _parse_cards_loop(text: str, decks: int = 1) -> int:
    # Counted rank by rank, and checked once every card is read: the error
    # gives the true number of cards of the rank (not the count at which the
    # limit was passed, nor a nibble that 16 cards would overflow).
    counts = [0] * NUM_RANKS
    i = 0
    n = len(text)
    upper = text.upper()
    while i < n:
        ch = upper[i]
        if ch in " ,\t":
            i += 1
            continue
        if ch == "1" and i + 1 < n and upper[i + 1] == "0":
            ch = "T"
            i += 1
        ch = _ALIASES.get(ch, ch)
        rank = _RANK_OF_CHAR.get(ch)
        if rank is None:
            raise CardError(f"{text!r}: unknown card character {text[i]!r} (use 3456789TJQKA2XD)")
        counts[rank] += 1
        i += 1
    _check_counts(counts, repr(text), decks)
    return pack_counts(counts)


def format_cards(packed: int) -> str:
    """Canonical text of a packed hand: ranks low to high, no separators."""
    return "".join(RANKS[r] * ((packed >> (4 * r)) & NIBBLE) for r in range(NUM_RANKS))


def to_packed(hand, what: str = "a hand", decks: int = 1) -> int:
    """The packed int of a hand given as a :class:`Hand`, card text or a packed
    int (checked with :func:`is_valid_packed` for ``decks`` decks); raises
    :class:`CardError` for bad cards and ``TypeError`` for anything else.

    >>> to_packed("33X") == to_packed(Hand("33X")) == parse_cards("33X")
    True
    """
    if type(hand) is str:  # the common text path first
        return parse_cards(hand, decks)
    if isinstance(hand, int) and not isinstance(hand, bool):
        if not is_valid_packed(hand, decks):
            raise CardError(f"{hand:#x} is not a legal packed hand")
        return hand
    if isinstance(hand, str):
        return parse_cards(hand, decks)
    if isinstance(hand, Hand):
        return hand.packed
    if hasattr(hand, "__index__") and not isinstance(hand, bool):  # a NumPy integer
        return to_packed(int(hand), what, decks)
    raise TypeError(f"{what} must be a Hand, card text or a packed int, not {type(hand).__name__}")


# Card ids ------------------------------------------------------------------


def rank_of_card_id(card_id: int) -> int:
    """Rank index of a Botzone card id (0..53)."""
    if not isinstance(card_id, int) or isinstance(card_id, bool) or not 0 <= card_id <= 53:
        raise CardError(f"card id {card_id!r} is out of range 0..53")
    if card_id >= 52:
        return RANK_X + (card_id - 52)
    return card_id // 4


def pack_card_ids(ids: Iterable[int]) -> int:
    """Pack Botzone card ids (0..53), rejecting repeats."""
    seen = set()
    packed = 0
    for cid in ids:
        if cid in seen:
            raise CardError(f"card id {cid} appears twice")
        seen.add(cid)
        packed += 1 << (4 * rank_of_card_id(cid))
    return packed


_DOUZERO_TO_RANK = {v: i for i, v in enumerate([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30])}
_RANK_TO_DOUZERO = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]


def pack_douzero(values: Iterable[int]) -> int:
    """Pack a list of DouZero card ints (3..14, 17, 20, 30)."""
    counts = [0] * NUM_RANKS
    for v in values:
        rank = _DOUZERO_TO_RANK.get(v) if isinstance(v, int) and not isinstance(v, bool) else None
        if rank is None:
            raise CardError(f"{v!r} is not a DouZero card value (3..14, 17, 20, 30)")
        counts[rank] += 1
    _check_counts(counts, "DouZero card list")
    return pack_counts(counts)


def douzero_values(packed: int) -> list[int]:
    """The DouZero ints of a packed hand, sorted."""
    out = []
    for r in range(NUM_RANKS):
        out.extend([_RANK_TO_DOUZERO[r]] * count_of(packed, r))
    return out


# The user-facing class -----------------------------------------------------


class Hand:
    """An immutable multiset of cards, wrapping a packed int.

    >>> h = Hand.parse("3 3 4 5 X D")
    >>> str(h), len(h), "X" in h, h.packed == Hand(h.packed).packed
    ('3345XD', 6, True, True)
    >>> str(h - Hand("33"))
    '45XD'
    >>> Hand("345") | Hand("56")
    Hand('3456')
    """

    __slots__ = ("_packed", "_decks")

    def __init__(self, cards: "Hand | int | str | Iterable[str]" = 0, decks: int = 1):
        if isinstance(cards, Hand):
            packed = cards._packed
            decks = max(decks, cards._decks)
        elif isinstance(cards, int) and not isinstance(cards, bool):
            if not is_valid_packed(cards, decks):
                detail = ""
                if 0 <= cards < _LIMIT:
                    try:
                        _check_packed(cards, "it", decks)
                    except CardError as exc:
                        detail = f": {exc}"
                raise CardError(f"{cards:#x} is not a legal packed hand{detail}")
            packed = cards
        elif isinstance(cards, str):
            packed = parse_cards(cards, decks)
        else:
            packed = parse_cards("".join(cards), decks)
        self._packed = packed
        self._decks = decks

    @classmethod
    def parse(cls, text: str, decks: int = 1) -> "Hand":
        """Parse card text (see :func:`parse_cards`)."""
        return cls(parse_cards(text, decks), decks)

    @classmethod
    def from_card_ids(cls, ids: Iterable[int]) -> "Hand":
        """Hand from Botzone card ids 0..53."""
        return cls(pack_card_ids(ids))

    @property
    def packed(self) -> int:
        """The packed-int form used by the kernels."""
        return self._packed

    def count(self, rank: "int | str") -> int:
        """Number of cards of a rank (index 0..14 or a rank character)."""
        if isinstance(rank, str):
            r = _RANK_OF_CHAR.get(_ALIASES.get(rank.upper(), rank.upper()))
            if r is None:
                raise CardError(f"unknown rank {rank!r}")
            rank = r
        return count_of(self._packed, rank)

    def counts(self) -> list[int]:
        """The 15 rank counts, rank 3 first."""
        return counts_of(self._packed)

    def __len__(self) -> int:
        return card_count(self._packed)

    def __iter__(self) -> Iterator[str]:
        return iter(format_cards(self._packed))

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Hand):
            return item <= self
        if isinstance(item, str):
            try:
                return Hand.parse(item, self._decks) <= self
            except CardError:
                return False
        return False

    def __bool__(self) -> bool:
        return self._packed != 0

    # Multiset operators: | is the union (max of counts), & the intersection
    # (min), + the sum, - the difference (clipped at zero).
    def _combine(self, other: object, op) -> "Hand":
        if not isinstance(other, Hand):
            other = Hand(other, self._decks)  # type: ignore[arg-type]
        a, b = counts_of(self._packed), counts_of(other._packed)
        return Hand(pack_counts(op(x, y) for x, y in zip(a, b)), max(self._decks, other._decks))

    def __or__(self, other):
        return self._combine(other, max)

    def __and__(self, other):
        return self._combine(other, min)

    def __add__(self, other):
        return self._combine(other, lambda x, y: x + y)

    def __sub__(self, other):
        return self._combine(other, lambda x, y: max(0, x - y))

    def __le__(self, other) -> bool:
        if not isinstance(other, Hand):
            other = Hand(other, self._decks)
        return all(x <= y for x, y in zip(counts_of(self._packed), counts_of(other._packed)))

    def __ge__(self, other) -> bool:
        if not isinstance(other, Hand):
            other = Hand(other, self._decks)
        return other <= self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and other._packed == self._packed

    def __hash__(self) -> int:
        return hash(self._packed)

    def __str__(self) -> str:
        return format_cards(self._packed)

    def __repr__(self) -> str:
        return f"Hand({format_cards(self._packed)!r})"
