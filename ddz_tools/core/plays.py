"""Plays: the readings of a set of cards as a combination, and :class:`Play`,
one play with its reading, parsed and written in the project's notation
(``333444-56``; ``CARDS=FACES`` under Laizi rules) and compared.

The combinations and the comparison are described in plain English in
:mod:`ddz_tools.core.rules`, the public face of this module and
:mod:`.options`.
"""

from __future__ import annotations


from .cards import (
    NUM_RANKS,
    RANK_2,
    RANK_X,
    RANKS,
    card_count,
    counts_of,
    format_cards,
    pack_counts,
    parse_cards,
)
from .errors import DdzError, PlayError
from .faces import play_faces, play_notation, readings_of_faces, reads_as_itself, wild_readings
from .kinds import (
    BODY_COUNT,
    F_FOUR,
    F_FOUR_WITH_ONE,
    F_KICKERS_DISTINCT,
    KICKERS,
    KIND_PASS,
    T_BOMB,
    T_FOUR_TWO_SOLO,
    T_PASS,
    T_ROCKET,
    TIER_NAMES,
    TYPE_NAMES,
    TYPE_OF_NAME,
    WILD_MASK,
    beats,
    classic_readings,
    kind_length,
    kind_main,
    kind_tier,
    kind_type,
    place_rank,
)
from .options import Rules

__all__ = ["Play", "readings", "body_of", "classify", "classify_report", "has_fixed_reading", "play_on_table",
           "play_text_cards", "play_to_answer"]

# Readings ------------------------------------------------------------------------


def readings(cards: int, flags: int, hand: "int | None" = None) -> list[tuple[int, int]]:
    """Every ``(cards, kind)`` reading of a packed multiset as one play under
    the rule ``flags`` (:attr:`Rules.flags`), sorted by kind; empty when the
    cards form no legal play.  With wild ranks in the flags a laizi may stand
    for other faces (:func:`ddz_tools.core.faces.wild_readings`; ``hand``, the
    whole hand, matters only to ``natural_first``)."""
    if flags & WILD_MASK:
        return wild_readings(cards, flags, hand)
    return classic_readings(cards, flags)


def body_of(cards: int, kind: int, flags: int = 0) -> int:
    """The packed body (main part) of a play; the kickers are ``cards - body``
    (the cards that leave the hand: with wild ranks in ``flags``, a laizi of
    the body counts at its own rank)."""
    if flags & WILD_MASK:
        return play_faces(cards, kind, flags)[0]
    t = kind & 31
    if t == T_PASS:
        return 0
    if t == T_ROCKET or t == T_BOMB:
        return cards
    main, length, per = kind_main(kind), kind_length(kind), BODY_COUNT[t]
    top = -1 if main == 15 else main   # AAA222 under chains=shanghai (kinds.chain_place)
    return sum(per << (4 * place_rank(p)) for p in range(top - length + 1, top + 1))


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
    def parse(cls, text: str, rules: "Rules | str | None" = None, hand: "int | None" = None) -> "Play":
        """Parse a play; ``-`` separates the body from the kickers.

        Without ``-``, the kicker-free reading is taken when there is one;
        otherwise the cards must have exactly one reading.  A ``:type`` suffix
        (``3333-55:four_two_solo``) picks the reading by type name; it is only
        ever needed where two readings share body and kickers (four + two solos
        of one rank against four + one pair, with ``kickers_distinct`` off and
        ``four_with_one`` on), and :meth:`notation` writes it there.  ``""``,
        ``pass`` and ``-`` alone are the pass.

        Under Laizi rules with the wild ranks given (:meth:`Rules.with_wild`),
        ``CARDS=FACES`` pins what the laizi stand for (``34569=34567`` with 9
        wild; each side may have its ``-``); plain cards read each card as
        itself where that is a play, else their one reading.  ``hand`` (the
        whole hand) matters only to ``natural_first``.

        >>> r = Rules.parse("laizi").with_wild("9")
        >>> [Play.parse(t, r).notation(r) for t in ("34569", "5559", "5559=5555", "99")]
        ['34569=34567', '555-9', '5559=5555', '99']
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
        flags = rules.flags
        faces_text = None
        if "=" in t:
            t, _, faces_text = t.partition("=")
            if not flags & WILD_MASK:
                raise PlayError(f"{text!r}: '=FACES' is for wild cards, and {rules.describe()} rules have none"
                                + (" given (--wild)" if rules.is_laizi else ""))
        decks = rules.decks
        if "-" in t:
            body_text, _, kick_text = t.partition("-")
            body, kick = parse_cards(body_text, decks), parse_cards(kick_text, decks)
            cards = _checked_sum(body, kick, text, decks)
            found = [rk for rk in readings(cards, flags, hand) if body_of(*rk, flags) == body]
        else:
            cards = parse_cards(t, decks)
            found = readings(cards, flags, hand)
        if faces_text is not None:
            fb, _, fk = faces_text.strip().partition("-")
            by_faces = readings_of_faces(cards, _parse_faces(fb, text), _parse_faces(fk, text) if "-" in faces_text
                                         else None, flags, hand)
            found = [rk for rk in found if rk in by_faces]
            if not found:
                raise PlayError(f"{text!r}: {faces_text.strip()} is not a reading of {format_cards(cards)} "
                                f"under {rules.describe()} rules with {rules.wild_text()} wild")
        elif flags & WILD_MASK and found:
            itself = [rk for rk in found if reads_as_itself(*rk, flags)]
            if itself:
                found = itself
            elif len(found) > 1:
                options = " or ".join(cls(*rk).notation(rules) for rk in found)
                raise PlayError(f"{text!r} has several readings: write {options}")
        if want_type is not None:
            found = [rk for rk in found if kind_type(rk[1]) == want_type]
        if not found:
            wild = f" with {rules.wild_text()} wild" if rules.wild else ""
            raise PlayError(f"{text!r} is not a legal play under {rules.describe()} rules{wild}")
        if len(found) > 1:
            # The notation without a suffix names the reading that needs none.
            plain = [rk for rk in found if not _needs_type_suffix(*rk, flags)]
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
        main = kind_main(self.kind)
        return RANKS[RANK_2 if main == 15 else main] if self.kind else ""

    @property
    def length(self) -> int:
        return kind_length(self.kind)

    @property
    def is_pass(self) -> bool:
        return self.kind == KIND_PASS

    @property
    def tier(self) -> int:
        """A bomb's tier (``TIER_HARD``, ``TIER_SOFT``, ``TIER_PURE``, ``TIER_MIXED``); 0 otherwise."""
        return kind_tier(self.kind)

    def body(self, rules: "Rules | str | int | None" = None) -> int:
        return body_of(self.cards, self.kind, _flags_of(rules))

    def kickers(self, rules: "Rules | str | int | None" = None) -> int:
        return self.cards - body_of(self.cards, self.kind, _flags_of(rules))

    def faces(self, rules: "Rules | str | int | None" = None) -> str:
        """What the cards stand for (body, ``-``, kickers): the cards
        themselves unless a laizi stands for another rank."""
        flags = _flags_of(rules)
        if self.kind == KIND_PASS:
            return "pass"
        if flags & WILD_MASK:
            from .faces import faces_text
            return faces_text(self.cards, self.kind, flags)
        return self.notation(None)

    def notation(self, rules: "Rules | str | int | None" = None) -> str:
        """Body, then ``-`` and the kickers if there are any; ``pass`` for a pass.

        Under rules where the same text is also four + one pair
        (``four_with_one`` on, ``kickers_distinct`` off), four + two solos of
        one rank get ``:four_two_solo``, so that :meth:`parse` under those
        rules gives this play back.
        """
        if self.kind == KIND_PASS:
            return "pass"
        flags = _flags_of(rules)
        if flags & WILD_MASK:
            text = play_notation(self.cards, self.kind, flags)
        else:
            kick = self.kickers()
            body = format_cards(self.body())
            text = f"{body}-{format_cards(kick)}" if kick else body
        if rules is not None and _needs_type_suffix(self.cards, self.kind, flags):
            text += ":" + TYPE_NAMES[self.kind & 31]
        return text

    def beats(self, other: "Play", rules: "Rules | str | int | None" = None) -> bool:
        """May this play answer ``other``?  (``rules`` order the bombs of Laizi rules.)"""
        return beats(self.kind, other.kind, _flags_of(rules))

    def num_cards(self) -> int:
        return card_count(self.cards)

    def to_dict(self, rules: "Rules | str | None" = None) -> dict:
        """The play for JSON: ``cards``, ``notation``, ``type``, ``main``,
        ``length``; under Laizi rules with wild ranks also ``faces`` (what the
        cards stand for) and, for a bomb, ``tier`` and ``size``; under the
        four-player rules a bomb's ``size`` (its cards; its length is the
        size less 3)."""
        d = {"cards": str(self), "notation": self.notation(rules), "type": self.type_name,
             "main": self.main_rank, "length": self.length}
        flags = _flags_of(rules)
        if flags & WILD_MASK:
            d["faces"] = self.faces(flags)
            if self.type == T_BOMB:
                d["tier"] = TIER_NAMES[self.tier]
                d["size"] = self.length + 3
        elif flags & F_FOUR and self.type == T_BOMB:
            d["size"] = self.length + 3
        return d

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"Play.parse({self.notation()!r})" if self.kind else "Play.pass_()"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and other.cards == self.cards and other.kind == self.kind

    def __hash__(self) -> int:
        return hash((self.cards, self.kind))


def _parse_faces(text: str, play: str) -> int:
    """The packed faces of the ``=FACES`` side of a play: card text, but a
    face may appear up to 12 times (the long bombs of 天地癞子)."""
    t = text.strip().upper().replace("10", "T")
    counts = [0] * NUM_RANKS
    for ch in t:
        r = RANKS.find({"B": "X", "R": "D"}.get(ch, ch))
        if r < 0:
            raise PlayError(f"{play!r}: {ch!r} is not a rank")
        counts[r] += 1
        if counts[r] > (1 if r >= RANK_X else 12):
            raise PlayError(f"{play!r}: {counts[r]} faces {RANKS[r]} are more than any play holds")
    return pack_counts(counts)


def _flags_of(rules: "Rules | str | int | None") -> int:
    """The kernel flags of ``rules`` given as a rule set, spec or flags int (None: standard)."""
    if rules is None:
        return 0
    return rules if isinstance(rules, int) else Rules.parse(rules).flags


def play_to_answer(after: "str | Play | None", rules: "Rules | str | None" = None,
                   name: str = "after") -> "Play | None":
    """The play on the table that the side to move must answer, from its text
    (or a :class:`Play`); None (a free lead) when ``after`` is None.

    Every tool that takes a play to answer (a position's ``last_play``, the
    advisor's ``after``, ``ddz moves --after``) reads it here.  A pass, text
    that is no legal play, or anything but text raises
    :class:`~ddz_tools.core.errors.PlayError`, its message led by ``name``.

    >>> play_to_answer("333444-56").notation(), play_to_answer(None)
    ('333444-56', None)
    >>> play_to_answer("pass", name="last_play")
    Traceback (most recent call last):
    ...
    ddz_tools.core.errors.PlayError: last_play must be a play, not a pass (leave it out for a free lead)
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
    :class:`~ddz_tools.core.errors.PlayError`, names the field it is about (also
    in its ``param``).

    >>> play, by = play_on_table("QQ", "farmer1", "farmer2", ("landlord", "farmer1", "farmer2"))
    >>> play.notation(), by
    ('QQ', 'farmer1')
    >>> play_on_table(" ", None, "me", ("me", "opponent"))
    (None, None)
    >>> play_on_table("QQ", "farmer2", "farmer2", ("landlord", "farmer1", "farmer2"), names=("last_play", "last_by"))
    Traceback (most recent call last):
    ...
    ddz_tools.core.errors.PlayError: last_by is farmer2, the side to move: a player never answers their own play
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


def play_text_cards(text: str, decks: int = 1) -> int:
    """The packed cards of play text in any notation (``333444-56``,
    ``3333-55:four_two_solo``, ``34569=34567``, bare cards), without
    choosing a reading.

    Raises :class:`~ddz_tools.core.errors.CardError` for impossible cards
    (a sum over 4 of a rank is reported as a :class:`PlayError`).
    """
    core = text.partition(":")[0].partition("=")[0]
    if "-" in core:
        body, _, kick = core.partition("-")
        return _checked_sum(parse_cards(body, decks), parse_cards(kick, decks), text, decks)
    return parse_cards(core, decks)


def has_fixed_reading(text: str) -> bool:
    """True when play text names its reading (body-kicker notation, a type
    suffix or the faces of its laizi)."""
    return "-" in text.strip().strip("-") or ":" in text or "=" in text


def _needs_type_suffix(cards: int, kind: int, flags: int) -> bool:
    """Four + two solos whose two kickers share a rank read like four + one pair."""
    if kind & 31 != T_FOUR_TWO_SOLO or not flags & F_FOUR_WITH_ONE or flags & F_KICKERS_DISTINCT:
        return False
    kick = cards - body_of(cards, kind)
    return max(counts_of(kick)) == 2


def _checked_sum(a: int, b: int, text: str, decks: int = 1) -> int:
    total = pack_counts(x + y for x, y in zip(counts_of(a), counts_of(b)))
    for r, x in enumerate(counts_of(total)):
        if x > (decks if r >= RANK_X else 4 * decks):
            raise PlayError(f"{text!r} holds {x} cards of rank {RANKS[r]}")
    return total


def classify_report(text: str, rules: "Rules | str | None" = None) -> dict:
    """The readings of card text as the JSON-ready object of ``ddz classify
    --format json``: ``cards`` (canonical text; the ``-`` and a ``:type`` of
    play notation are ignored, a ``=FACES`` keeps the one reading it names),
    ``rules`` (spec) and ``readings`` (each :meth:`Play.to_dict`).

    >>> r = classify_report("333-4")
    >>> r["cards"], [p["type"] for p in r["readings"]]
    ('3334', ['trio_solo'])
    """
    rules = Rules.parse(rules).require_wild()
    cards = play_text_cards(text, rules.decks)
    out = {"cards": format_cards(cards), "rules": rules.describe()}
    out.update(rules.wild_field())
    # Under wild ranks ``CARDS=FACES`` pins one reading (an error when it is none).
    plays = [Play.parse(text, rules)] if "=" in text else classify(cards, rules)
    out["readings"] = [p.to_dict(rules) for p in plays]
    return out


def classify(text_or_cards: "str | int", rules: "Rules | str | None" = None) -> list[Play]:
    """Every reading of a set of cards as one play (empty if none).

    >>> [p.notation() for p in classify("333444555666", "douzero")]
    ['333444555-666', '444555666-333', '333444555666']
    """
    rules = Rules.parse(rules)
    cards = parse_cards(text_or_cards, rules.decks) if isinstance(text_or_cards, str) else text_or_cards
    return [Play(c, k) for c, k in readings(cards, rules.flags)]
