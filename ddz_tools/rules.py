"""Rules: combination types, readings, comparison and rule options.

The rules in plain English (``docs/rules.md`` is the full text)
---------------------------------------------------------------
Three players, 54 cards (ranks ``3..A 2`` four times, two jokers ``X`` < ``D``).
A play is one *combination*: solo, pair, trio, trio + solo, trio + pair, chain
(5..12 consecutive singles, 3..A), pair chain (3+ consecutive pairs, 3..A),
airplane (2+ consecutive trios, 3..A), airplane + solo wings (k trios + k solos),
airplane + pair wings (k trios + k pairs), four + two solos, four + two pairs,
bomb (four of a rank) and rocket (both jokers).  A kicker never has a rank of
the combination's body.  A play is answered by the same type with the same
length and a higher main rank (the highest body rank); a bomb beats every
non-bomb and any lower bomb; the rocket beats everything.

Rule options (each a flag, see :class:`Rules`) decide the disputed details:
``kickers_distinct``, ``jokers_as_kickers``, ``jokers_in_four_two``,
``four_with_one`` and ``chains_with_two``; the presets ``standard`` (default),
``douzero`` and ``encyclopedia`` name sets of them.  Game options (``bidding``,
``first_bidder``, ``spring``) live on the same object.

Encoding used by the kernels
----------------------------
A play is two int64s: ``cards`` (a packed hand, see :mod:`ddz_tools.cards`)
and ``kind``::

    kind = type | main << 5 | length << 9

``type`` is one of the ``T_*`` constants, ``main`` the highest rank index of
the body and ``length`` the number of body ranks (1 except for chains and
airplanes).  A multiset with two readings (``333444555666`` as a 4-trio
airplane, and under ``douzero`` also as a 3-trio airplane with solo wings) is
one play per reading: same ``cards``, different ``kind``.
"""

from __future__ import annotations

import dataclasses
import functools

from .cards import (
    NUM_RANKS,
    RANK_2,
    RANK_A,
    RANK_D,
    RANK_X,
    RANKS,
    card_count,
    counts_of,
    format_cards,
    pack_counts,
    parse_cards,
)
from .errors import DdzError, PlayError, RulesError

# Combination types -----------------------------------------------------------

T_PASS = 0
T_SOLO = 1
T_PAIR = 2
T_TRIO = 3
T_TRIO_SOLO = 4
T_TRIO_PAIR = 5
T_CHAIN = 6
T_PAIR_CHAIN = 7
T_AIRPLANE = 8
T_AIRPLANE_SOLO = 9
T_AIRPLANE_PAIR = 10
T_FOUR_TWO_SOLO = 11
T_FOUR_TWO_PAIR = 12
T_BOMB = 13
T_ROCKET = 14
T_FOUR_SOLO = 15
T_FOUR_PAIR = 16
NUM_TYPES = 17

TYPE_NAMES = (
    "pass", "solo", "pair", "trio", "trio_solo", "trio_pair", "chain", "pair_chain",
    "airplane", "airplane_solo", "airplane_pair", "four_two_solo", "four_two_pair",
    "bomb", "rocket", "four_solo", "four_pair",
)
TYPE_OF_NAME = {name: i for i, name in enumerate(TYPE_NAMES)}

#: Cards of each body rank, per type.
BODY_COUNT = (0, 1, 2, 3, 3, 3, 1, 2, 3, 3, 3, 4, 4, 4, 1, 4, 4)
#: (kicker cards per body rank, kicker is a pair) for types with kickers.
KICKERS = {
    T_TRIO_SOLO: (1, False), T_TRIO_PAIR: (1, True), T_AIRPLANE_SOLO: (1, False),
    T_AIRPLANE_PAIR: (1, True), T_FOUR_TWO_SOLO: (2, False), T_FOUR_TWO_PAIR: (2, True),
    T_FOUR_SOLO: (1, False), T_FOUR_PAIR: (1, True),
}

KIND_PASS = 0


def make_kind(ptype: int, main: int, length: int) -> int:
    """Pack a play's type, main rank and length into its ``kind`` int."""
    return ptype | (main << 5) | (length << 9)


def kind_type(kind: int) -> int:
    return kind & 31


def kind_main(kind: int) -> int:
    return (kind >> 5) & 15


def kind_length(kind: int) -> int:
    return kind >> 9


def beats(kind: int, prev_kind: int) -> bool:
    """True when a play of ``kind`` may answer a play of ``prev_kind``.

    >>> beats(make_kind(T_BOMB, 0, 1), make_kind(T_SOLO, 14, 1))
    True
    >>> beats(make_kind(T_BOMB, 12, 1), make_kind(T_ROCKET, 14, 1))
    False
    """
    t, pt = kind & 31, prev_kind & 31
    if t == T_PASS or pt == T_PASS or pt == T_ROCKET:
        return False
    if t == T_ROCKET:
        return True
    if t == T_BOMB:
        return pt != T_BOMB or kind_main(kind) > kind_main(prev_kind)
    return t == pt and kind_length(kind) == kind_length(prev_kind) and kind_main(kind) > kind_main(prev_kind)


# Rule options ------------------------------------------------------------------

F_KICKERS_DISTINCT = 1
F_JOKERS_AS_KICKERS = 2
F_JOKERS_IN_FOUR_TWO = 4
F_FOUR_WITH_ONE = 8
F_CHAINS_WITH_TWO = 16

_PLAY_OPTIONS = {
    "kickers_distinct": F_KICKERS_DISTINCT,
    "jokers_as_kickers": F_JOKERS_AS_KICKERS,
    "jokers_in_four_two": F_JOKERS_IN_FOUR_TWO,
    "four_with_one": F_FOUR_WITH_ONE,
    "chains_with_two": F_CHAINS_WITH_TWO,
}
_GAME_OPTIONS = {
    "bidding": ("single-round", "until-two-pass", "call-grab"),
    "first_bidder": ("random", "left-of-dealer"),
    "spring": ("landlord", "any-player"),
}
_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


@dataclasses.dataclass(frozen=True)
class Rules:
    """A complete rule set: play options plus game options.

    Build one from a preset name with single-option overrides:

    >>> Rules.parse("standard").describe()
    'standard'
    >>> r = Rules.parse("douzero,four_with_one=on")
    >>> r.kickers_distinct, r.four_with_one, r.describe()
    (False, True, 'douzero,four_with_one=on')
    """

    kickers_distinct: bool = True
    jokers_as_kickers: bool = False
    jokers_in_four_two: bool = True
    four_with_one: bool = False
    chains_with_two: bool = False
    bidding: str = "single-round"
    first_bidder: str = "random"
    spring: str = "landlord"
    preset: str = "standard"

    @functools.cached_property
    def flags(self) -> int:
        """The play options as the int bit set the kernels take (computed once)."""
        f = 0
        for name, bit in _PLAY_OPTIONS.items():
            if getattr(self, name):
                f |= bit
        return f

    @classmethod
    def parse(cls, spec: "str | Rules | None") -> "Rules":
        """``NAME[,option=value...]``; ``None`` or ``""`` is ``standard``.

        Rule sets are immutable, so a spec string is parsed once and the
        result reused (the text path of every public function passes one).
        """
        if isinstance(spec, Rules):
            return spec
        if spec is None:
            return PRESETS["standard"]
        return _parse_spec(spec if isinstance(spec, str) else str(spec))

    @classmethod
    def _parse_uncached(cls, spec: str) -> "Rules":
        if not spec.strip():
            return PRESETS["standard"]
        parts = [p.strip() for p in spec.split(",") if p.strip()]
        head = parts[0]
        if "=" in head:
            base = PRESETS["standard"]
        else:
            base = PRESETS.get(head.lower())
            if base is None:
                raise RulesError(f"unknown rules preset {head!r} (choose from {', '.join(PRESETS)})")
            parts = parts[1:]
        changes = {}
        for part in parts:
            if "=" not in part:
                raise RulesError(f"rules option {part!r} needs a value, as in {part}=on")
            key, value = (x.strip() for x in part.split("=", 1))
            key = key.lower().replace("-", "_")
            value_l = value.lower()
            if key in _PLAY_OPTIONS:
                if value_l in _TRUE:
                    changes[key] = True
                elif value_l in _FALSE:
                    changes[key] = False
                else:
                    raise RulesError(f"rules option {key} takes on or off, not {value!r}")
            elif key in _GAME_OPTIONS:
                if value_l not in _GAME_OPTIONS[key]:
                    raise RulesError(f"rules option {key} takes one of {', '.join(_GAME_OPTIONS[key])}, not {value!r}")
                changes[key] = value_l
            else:
                known = ", ".join(list(_PLAY_OPTIONS) + list(_GAME_OPTIONS))
                raise RulesError(f"unknown rules option {key!r} (known: {known})")
        return dataclasses.replace(base, **changes)

    @classmethod
    def from_dict(cls, d: "dict | str | None") -> "Rules":
        """From a record's ``rules`` field: a spec string or ``{"preset": ..., option: value}``."""
        if d is None or isinstance(d, str):
            return cls.parse(d)
        if not isinstance(d, dict):
            raise RulesError(f"rules must be a name or an object, not {type(d).__name__}")
        items = dict(d)
        spec = [str(items.pop("preset", "standard"))]
        for k, v in items.items():
            if isinstance(v, bool):
                v = "on" if v else "off"
            spec.append(f"{k}={v}")
        return cls.parse(",".join(spec))

    def overrides(self) -> dict:
        """Options that differ from this rule set's preset."""
        base = PRESETS[self.preset]
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name != "preset" and getattr(self, f.name) != getattr(base, f.name)
        }

    def describe(self) -> str:
        """The spec string that :meth:`parse` turns back into this rule set."""
        parts = [self.preset]
        for k, v in self.overrides().items():
            parts.append(f"{k}={('on' if v else 'off') if isinstance(v, bool) else v}")
        return ",".join(parts)

    def to_dict(self) -> dict:
        """Every option by name, for JSON output."""
        d = dataclasses.asdict(self)
        d["spec"] = self.describe()
        return d


@functools.lru_cache(maxsize=256)
def _parse_spec(spec: str) -> Rules:
    return Rules._parse_uncached(spec)


PRESETS = {
    "standard": Rules(),
    "douzero": Rules(kickers_distinct=False, jokers_as_kickers=True, preset="douzero"),
    "encyclopedia": Rules(four_with_one=True, chains_with_two=True, preset="encyclopedia"),
}
STANDARD = PRESETS["standard"]


# Readings ------------------------------------------------------------------------


def _kickers_ok(rest: list[int], n_kick: int, pairs: bool, flags: int, four: bool) -> bool:
    """Is ``rest`` (rank counts outside the body) a legal kicker set?"""
    if sum(rest) != (2 * n_kick if pairs else n_kick):
        return False
    if pairs:
        ranks = [r for r in range(NUM_RANKS) if rest[r]]
        return len(ranks) == n_kick and all(rest[r] == 2 and r <= RANK_2 for r in ranks)
    if four and not (flags & F_JOKERS_IN_FOUR_TWO) and (rest[RANK_X] or rest[RANK_D]):
        return False
    if rest[RANK_X] and rest[RANK_D] and not (flags & F_JOKERS_AS_KICKERS):
        return False
    if flags & F_KICKERS_DISTINCT and max(rest) > 1:
        return False
    return True


def readings(cards: int, flags: int) -> list[tuple[int, int]]:
    """Every ``(cards, kind)`` reading of a packed multiset as one play.

    Sorted by kind.  Empty when the cards form no legal play.
    """
    c = counts_of(cards)
    n = sum(c)
    out: list[int] = []
    if n == 0:
        return []
    ranks = [r for r in range(NUM_RANKS) if c[r]]
    top_chain = RANK_2 if flags & F_CHAINS_WITH_TWO else RANK_A
    # Kicker-free types: one count repeated over consecutive ranks.
    if len(set(c[r] for r in ranks)) == 1:
        k = c[ranks[0]]
        m = len(ranks)
        consecutive = ranks[-1] - ranks[0] == m - 1
        if m == 1:
            out.append(make_kind((0, T_SOLO, T_PAIR, T_TRIO, T_BOMB)[k], ranks[0], 1))
        elif consecutive:
            if k == 1 and 5 <= m <= 12 and ranks[-1] <= RANK_A:
                out.append(make_kind(T_CHAIN, ranks[-1], m))
            if k == 2 and 3 <= m <= 10 and ranks[-1] <= top_chain:
                out.append(make_kind(T_PAIR_CHAIN, ranks[-1], m))
            if k == 3 and 2 <= m <= 6 and ranks[-1] <= top_chain:
                out.append(make_kind(T_AIRPLANE, ranks[-1], m))
    if c == [0] * 13 + [1, 1]:
        out.append(make_kind(T_ROCKET, RANK_D, 1))
    # Types with kickers: try every body.
    for r in range(RANK_2 + 1):
        if c[r] >= 3:
            rest = list(c)
            rest[r] -= 3
            if rest[r] == 0:
                if n == 4 and _kickers_ok(rest, 1, False, flags, False):
                    out.append(make_kind(T_TRIO_SOLO, r, 1))
                if n == 5 and _kickers_ok(rest, 1, True, flags, False):
                    out.append(make_kind(T_TRIO_PAIR, r, 1))
        if c[r] == 4:
            rest = list(c)
            rest[r] = 0
            if n == 6 and _kickers_ok(rest, 2, False, flags, True):
                out.append(make_kind(T_FOUR_TWO_SOLO, r, 1))
            if n == 8 and _kickers_ok(rest, 2, True, flags, True):
                out.append(make_kind(T_FOUR_TWO_PAIR, r, 1))
            if flags & F_FOUR_WITH_ONE:
                if n == 5 and _kickers_ok(rest, 1, False, flags, True):
                    out.append(make_kind(T_FOUR_SOLO, r, 1))
                if n == 6 and _kickers_ok(rest, 1, True, flags, True):
                    out.append(make_kind(T_FOUR_PAIR, r, 1))
    # Airplanes with wings: k consecutive ranks holding exactly three each.
    for k in range(2, 6):
        for wing_pairs in (False, True):
            if n != (5 if wing_pairs else 4) * k or (wing_pairs and k > 4):
                continue
            for low in range(0, top_chain - k + 2):
                body = range(low, low + k)
                if all(c[r] == 3 for r in body):
                    rest = list(c)
                    for r in body:
                        rest[r] = 0
                    if _kickers_ok(rest, k, wing_pairs, flags, False):
                        t = T_AIRPLANE_PAIR if wing_pairs else T_AIRPLANE_SOLO
                        out.append(make_kind(t, low + k - 1, k))
    return [(cards, kind) for kind in sorted(set(out))]


def body_of(cards: int, kind: int) -> int:
    """The packed body (main part) of a play; the kickers are ``cards - body``."""
    t = kind & 31
    if t == T_PASS:
        return 0
    if t == T_ROCKET:
        return cards
    main, length, per = kind_main(kind), kind_length(kind), BODY_COUNT[t]
    return sum(per << (4 * r) for r in range(main - length + 1, main + 1))


class Play:
    """One play: its cards and its reading (type, main rank, length).

    >>> p = Play.parse("333444-56")
    >>> p.type_name, p.main_rank, p.length, str(p), p.notation()
    ('airplane_solo', '4', 2, '33344456', '333444-56')
    >>> Play.parse("34567").beats(Play.parse("34567"))
    False
    """

    __slots__ = ("cards", "kind")

    def __init__(self, cards: int, kind: int):
        self.cards = cards
        self.kind = kind

    @classmethod
    def pass_(cls) -> "Play":
        return cls(0, KIND_PASS)

    @classmethod
    def parse(cls, text: str, rules: "Rules | str | None" = None) -> "Play":
        """Parse a play; ``-`` separates the body from the kickers.

        Without ``-``, the kicker-free reading is taken when there is one;
        otherwise the cards must have exactly one reading.  A ``:type`` suffix
        (``3333-55:four_two_solo``) picks the reading by type name; it is only
        ever needed where two readings share body and kickers (four + two solos
        of one rank against four + one pair, with ``kickers_distinct`` off and
        ``four_with_one`` on), and :meth:`notation` writes it there.  ``""``,
        ``pass`` and ``-`` alone are the pass.
        """
        rules = Rules.parse(rules)
        t = text.strip()
        if t == "" or t.lower() in ("pass", "-", "p"):
            return cls.pass_()
        want_type = None
        if ":" in t:
            t, _, tname = t.partition(":")
            want_type = TYPE_OF_NAME.get(tname.strip().lower())
            if want_type is None:
                raise PlayError(f"{text!r}: unknown combination type {tname.strip()!r}")
        if "-" in t:
            body_text, _, kick_text = t.partition("-")
            body, kick = parse_cards(body_text), parse_cards(kick_text)
            cards = _checked_sum(body, kick, text)
            found = [rk for rk in readings(cards, rules.flags) if body_of(*rk) == body]
        else:
            cards = parse_cards(t)
            found = readings(cards, rules.flags)
        if want_type is not None:
            found = [rk for rk in found if kind_type(rk[1]) == want_type]
        if not found:
            raise PlayError(f"{text!r} is not a legal play under {rules.describe()} rules")
        if len(found) > 1:
            # The notation without a suffix names the reading that needs none.
            plain = [rk for rk in found if not _needs_type_suffix(*rk, rules.flags)]
            if "-" not in t:
                plain = [rk for rk in plain if kind_type(rk[1]) not in KICKERS]
                if not plain:
                    options = " or ".join(cls(*rk).notation(rules) for rk in found)
                    raise PlayError(f"{text!r} has several readings: write {options}")
            found = plain or found
        return cls(*found[0])

    @property
    def type(self) -> int:
        return self.kind & 31

    @property
    def type_name(self) -> str:
        return TYPE_NAMES[self.kind & 31]

    @property
    def main(self) -> int:
        return kind_main(self.kind)

    @property
    def main_rank(self) -> str:
        return RANKS[kind_main(self.kind)] if self.kind else ""

    @property
    def length(self) -> int:
        return kind_length(self.kind)

    @property
    def is_pass(self) -> bool:
        return self.kind == KIND_PASS

    def body(self) -> int:
        return body_of(self.cards, self.kind)

    def kickers(self) -> int:
        return self.cards - body_of(self.cards, self.kind)

    def notation(self, rules: "Rules | str | int | None" = None) -> str:
        """Body, then ``-`` and the kickers if there are any; ``pass`` for a pass.

        Under rules where the same text is also four + one pair
        (``four_with_one`` on, ``kickers_distinct`` off), four + two solos of
        one rank get ``:four_two_solo``, so that :meth:`parse` under those
        rules gives this play back.
        """
        if self.kind == KIND_PASS:
            return "pass"
        kick = self.kickers()
        body = format_cards(self.body())
        text = f"{body}-{format_cards(kick)}" if kick else body
        if rules is not None and _needs_type_suffix(
                self.cards, self.kind, rules if isinstance(rules, int) else Rules.parse(rules).flags):
            text += ":" + TYPE_NAMES[self.kind & 31]
        return text

    def beats(self, other: "Play") -> bool:
        return beats(self.kind, other.kind)

    def num_cards(self) -> int:
        return card_count(self.cards)

    def to_dict(self, rules: "Rules | str | None" = None) -> dict:
        return {"cards": str(self), "notation": self.notation(rules), "type": self.type_name,
                "main": self.main_rank, "length": self.length}

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"Play.parse({self.notation()!r})" if self.kind else "Play.pass_()"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and other.cards == self.cards and other.kind == self.kind

    def __hash__(self) -> int:
        return hash((self.cards, self.kind))


def play_to_answer(after: "str | Play | None", rules: "Rules | str | None" = None,
                   name: str = "after") -> "Play | None":
    """The play on the table that the side to move must answer, from its text
    (or a :class:`Play`); None (a free lead) when ``after`` is None.

    Every tool that takes a play to answer (a position's ``last_play``, the
    advisor's ``after``, ``ddz moves --after``) reads it here.  A pass, text
    that is no legal play, or anything but text raises
    :class:`~ddz_tools.errors.PlayError`, its message led by ``name``.

    >>> play_to_answer("333444-56").notation(), play_to_answer(None)
    ('333444-56', None)
    >>> play_to_answer("pass", name="last_play")
    Traceback (most recent call last):
    ...
    ddz_tools.errors.PlayError: last_play must be a play, not a pass (leave it out for a free lead)
    """
    if after is None:
        return None
    if isinstance(after, Play):
        play = after
    elif isinstance(after, str):
        try:
            play = Play.parse(after, rules)
        except DdzError as exc:
            raise PlayError(f"{name}: {exc}") from None
    else:
        raise PlayError(f"{name} must be play text or null, not {type(after).__name__}")
    if play.is_pass:
        raise PlayError(f"{name} must be a play, not a pass (leave it out for a free lead)")
    return play


def play_on_table(after: "str | Play | None", by: "str | None", to_move: str, seats,
                  rules: "Rules | str | None" = None,
                  names: "tuple[str, str]" = ("after", "by"),
                  default_by: "str | None" = None) -> "tuple[Play | None, str | None]":
    """The play that ``to_move`` must answer and the seat that made it:
    ``(play, by)``, or ``(None, None)`` for a free lead.

    ``after`` is play text or a :class:`Play` (None or blank text: a free
    lead), read by :func:`play_to_answer`; ``by`` must be one of ``seats``
    and not ``to_move``, given exactly when ``after`` is (``default_by``, if
    given, stands for a missing ``by`` when there is a play).  Every tool that
    takes the play on the table with its maker reads them here (a position's
    ``last_play``/``last_by``, the advisor's ``after``/``by``): ``names`` are
    the two fields as the caller calls them, and each error, a
    :class:`~ddz_tools.errors.PlayError`, names the field it is about (also
    in its ``param``).

    >>> play, by = play_on_table("QQ", "farmer1", "farmer2", ("landlord", "farmer1", "farmer2"))
    >>> play.notation(), by
    ('QQ', 'farmer1')
    >>> play_on_table(" ", None, "me", ("me", "opponent"))
    (None, None)
    >>> play_on_table("QQ", "farmer2", "farmer2", ("landlord", "farmer1", "farmer2"), names=("last_play", "last_by"))
    Traceback (most recent call last):
    ...
    ddz_tools.errors.PlayError: last_by is farmer2, the side to move: a player never answers their own play
    """
    what, who = names
    if isinstance(after, str) and after.strip() == "":
        after = None
    try:
        play = play_to_answer(after, rules, what)
    except PlayError as exc:
        raise PlayError(str(exc), param=what) from None
    if play is None:
        if by is not None:
            raise PlayError(f"{who} needs {what}, the play that seat made: give both, or neither for a free lead",
                            param=(who, what))
        return None, None
    if isinstance(after, Play):   # text was read under the rules; a Play object is checked against them
        rules = Rules.parse(rules)
        if (play.cards, play.kind) not in readings(play.cards, rules.flags):
            raise PlayError(f"{what} {play.notation()} is not legal under {rules.describe()} rules", param=what)
    if by is None:
        by = default_by
    if by is None:
        raise PlayError(f"{what} needs {who}, the seat that made it: give both, or neither for a free lead",
                        param=(what, who))
    if by not in seats:
        raise PlayError(f"{who} must be one of {', '.join(seats)}, not {by!r}", param=who)
    if by == to_move:
        raise PlayError(f"{who} is {by}, the side to move: a player never answers their own play", param=who)
    return play, by


def play_text_cards(text: str) -> int:
    """The packed cards of play text in any notation (``333444-56``,
    ``3333-55:four_two_solo``, bare cards), without choosing a reading.

    Raises :class:`~ddz_tools.errors.CardError` for impossible cards
    (a sum over 4 of a rank is reported as a :class:`PlayError`).
    """
    core = text.partition(":")[0]
    if "-" in core:
        body, _, kick = core.partition("-")
        return _checked_sum(parse_cards(body), parse_cards(kick), text)
    return parse_cards(core)


def has_fixed_reading(text: str) -> bool:
    """True when play text names its reading (body-kicker notation or a type suffix)."""
    return "-" in text.strip().strip("-") or ":" in text


def _needs_type_suffix(cards: int, kind: int, flags: int) -> bool:
    """Four + two solos whose two kickers share a rank read like four + one pair."""
    if kind & 31 != T_FOUR_TWO_SOLO or not flags & F_FOUR_WITH_ONE or flags & F_KICKERS_DISTINCT:
        return False
    kick = cards - body_of(cards, kind)
    return max(counts_of(kick)) == 2


def _checked_sum(a: int, b: int, text: str) -> int:
    total = pack_counts(x + y for x, y in zip(counts_of(a), counts_of(b)))
    for r, x in enumerate(counts_of(total)):
        if x > (1 if r >= RANK_X else 4):
            raise PlayError(f"{text!r} holds {x} cards of rank {RANKS[r]}")
    return total


def classify_report(text: str, rules: "Rules | str | None" = None) -> dict:
    """The readings of card text as the JSON-ready object of ``ddz classify
    --format json``: ``cards`` (canonical text; dashes in ``text`` are
    ignored), ``rules`` (spec) and ``readings`` (each :meth:`Play.to_dict`).

    >>> r = classify_report("333-4")
    >>> r["cards"], [p["type"] for p in r["readings"]]
    ('3334', ['trio_solo'])
    """
    rules = Rules.parse(rules)
    text = text.replace("-", "")
    return {"cards": format_cards(parse_cards(text)), "rules": rules.describe(),
            "readings": [p.to_dict(rules) for p in classify(text, rules)]}


def classify(text_or_cards: "str | int", rules: "Rules | str | None" = None) -> list[Play]:
    """Every reading of a set of cards as one play (empty if none).

    >>> [p.notation() for p in classify("333444555666", "douzero")]
    ['333444555-666', '444555666-333', '333444555666']
    """
    rules = Rules.parse(rules)
    cards = parse_cards(text_or_cards) if isinstance(text_or_cards, str) else text_or_cards
    return [Play(c, k) for c, k in readings(cards, rules.flags)]

