"""The decomposer's Python functions: the fewest plays of a hand, its best split.

:func:`min_plays` and :func:`decompose` check their input (a hand of the
variant's decks, at most its landlord's cards), keep a memo table per thread
and rule set (:func:`~.memo.shared_table`) and call the kernels;
:class:`Decomposition` is what :func:`decompose` reports, its plays in
:func:`lead_order`.

>>> min_plays("33344455566677788QQQQQQXXDD", "four")   # two decks: up to 33 cards
4
>>> decompose("33XD").to_dict()["plays"]   # the rocket keeps the lead, 33 goes out
['XD', '33']
"""

from __future__ import annotations

import dataclasses

from ...core.cards import RANK_2, RANK_D, RANK_X, card_count, count_of, format_cards, to_packed
from ...core.errors import ArgumentError, CardError
from ...core.rules import T_BOMB, T_ROCKET, Play, Rules
from ...variants import variant_of
from .memo import shared_table
from .search import min_plays_memo
from .splits import SplitSearch

__all__ = ["min_plays", "decompose", "Decomposition", "lead_order", "DEFAULT_SPLIT_LIMIT", "MAX_CARDS",
           "STANDARD_FLAGS"]

STANDARD_FLAGS = Rules().flags

#: Most cards the public functions take: a landlord's hand (20; under the
#: four-player rules 33, :attr:`Table.landlord_cards
#: <ddz_tools.variants.table.Table.landlord_cards>`).  The search is exact
#: for any hand, but its time grows quickly past 20 cards of one deck (about
#: 6 ms median at 30 cards, 35 ms at 34, far longer for a whole deck).
MAX_CARDS = 20


def _limits(rules: Rules) -> tuple:
    """``(flags, decks, most)`` under ``rules``: the kernels' flags, the decks
    the variant's table deals, and the most cards a hand may have (its
    landlord's hand, and never fewer than :data:`MAX_CARDS`)."""
    table = variant_of(rules).table
    return rules.flags, table.decks, max(MAX_CARDS, table.landlord_cards)


_limits_of: dict = {None: _limits(Rules())}


def _rules_limits(rules) -> tuple:
    """:func:`_limits` of ``Rules.parse(rules)``, remembered per spec (str or Rules)."""
    try:
        return _limits_of[rules]
    except (KeyError, TypeError):
        got = _limits(Rules.parse(rules))
        if isinstance(rules, (str, Rules)) and len(_limits_of) < 1024:
            _limits_of[rules] = got
        return got


def _checked_hand(hand, decks: int, most: int) -> int:
    """``hand`` packed (of ``decks`` decks), refused past ``most`` cards."""
    h = to_packed(hand, decks=decks)
    n = card_count(h)
    if n > most:
        raise CardError(f"{format_cards(h)!r} has {n} cards; a hand to decompose has at most {most}")
    return h


def min_plays(hand, rules=None) -> int:
    """The exact minimum number of plays of ``hand`` (card text, Hand or packed int).

    Results are memoised in a per-thread table per rule set, so repeated
    and related hands get faster.

    >>> min_plays("3456789TJQKA2XD")  # chain 3..A, 2, rocket
    3
    >>> min_plays("")
    0
    """
    flags, decks, most = _rules_limits(rules)
    h = _checked_hand(hand, decks, most)
    return int(min_plays_memo(h, flags, shared_table(flags)))


#: Default cap on the minimal splits listed by ``decompose(all_splits=True)``.
DEFAULT_SPLIT_LIMIT = 100


@dataclasses.dataclass
class Decomposition:
    """The result of :func:`decompose`.

    ``plays`` is the chosen minimal split in lead order; ``uncontrolled`` and
    ``uncontrolled_any`` count its plays that the outside cards could beat
    with a same-type play (bombs: a higher bomb or the rocket) or with any
    answer including bombs and the rocket.  ``splits_count`` is the exact
    number of distinct minimal splits (splits differing only in how the same
    groups of cards are read count once); ``splits`` lists up to ``limit`` of
    them when asked, each in lead order.
    """

    hand: str
    rules: Rules
    min_plays: int
    plays: list
    uncontrolled: int
    uncontrolled_any: int
    uncontrolled_plays: list
    twos: int
    jokers: int
    bombs: list
    rocket: bool
    splits_count: int
    splits: "list | None" = None

    @property
    def control_cards(self) -> int:
        """2s and jokers held (the six control cards)."""
        return self.twos + self.jokers

    def bomb_texts(self) -> list:
        """The bombs held, as card text (``['3333', ...]``)."""
        return [format_cards(b) for b in self.bombs]

    def to_dict(self) -> dict:
        """JSON-ready fields (the ``ddz decompose --format json`` object)."""
        d = {
            "hand": self.hand,
            "rules": self.rules.describe(),
            "min_plays": self.min_plays,
            "plays": [p.notation(self.rules) for p in self.plays],
            "types": [p.type_name for p in self.plays],
            "uncontrolled": self.uncontrolled,
            "uncontrolled_any": self.uncontrolled_any,
            "uncontrolled_plays": [p.notation(self.rules) for p in self.uncontrolled_plays],
            "controls": {"twos": self.twos, "jokers": self.jokers,
                         "bombs": self.bomb_texts(), "rocket": self.rocket},
            "splits_count": self.splits_count,
        }
        if self.splits is not None:
            d["splits"] = [[p.notation(self.rules) for p in s] for s in self.splits]
        if self.rules.wild:
            d["wild"] = self.rules.wild_text()
            d["faces"] = [p.faces(self.rules) for p in self.plays]
        return d


def lead_order(plays: list, uncontrolled: "set | list") -> list:
    """A sensible order to lead a split in (documented heuristic).

    ``uncontrolled`` holds the plays that can be beaten.  With at most one of
    them: every controlled play first (each keeps the lead), bombs and the
    rocket next, the uncontrolled play last (it goes out).  Otherwise: the
    uncontrolled plays from the lowest main rank up (more cards first on a
    tie), then the controlled plays low to high, then bombs and the rocket,
    so the hand ends on plays that win the lead back.
    """
    unc = [p for p in plays if p in uncontrolled]
    bombs = [p for p in plays if p.type in (T_BOMB, T_ROCKET) and p not in uncontrolled]
    ctrl = [p for p in plays if p not in uncontrolled and p.type not in (T_BOMB, T_ROCKET)]

    def key(p):
        return (p.main, -p.num_cards(), p.type, p.cards)

    unc.sort(key=key)
    ctrl.sort(key=key)
    bombs.sort(key=lambda p: (p.type == T_ROCKET, p.length, p.main))
    if len(unc) <= 1:
        return ctrl + bombs + unc
    return unc + ctrl + bombs


def _controls(hand: int, decks: int) -> tuple:
    """2s and jokers held, the bombs (each rank held 4 times or more, whole)
    and whether the rocket is held (both jokers; with two decks all four)."""
    twos = count_of(hand, RANK_2)
    jokers = count_of(hand, RANK_X) + count_of(hand, RANK_D)
    bombs = [count_of(hand, r) << (4 * r) for r in range(13) if count_of(hand, r) >= 4]
    rocket = count_of(hand, RANK_X) == decks and count_of(hand, RANK_D) == decks
    return twos, jokers, bombs, rocket


def decompose(hand, rules=None, all_splits: bool = False, limit: int = DEFAULT_SPLIT_LIMIT) -> Decomposition:
    """Split ``hand`` into the fewest plays, with the control statistics.

    Among the minimal splits, the one with the fewest uncontrolled plays is
    chosen (then the fewest ``uncontrolled_any``); ``all_splits=True`` also
    lists up to ``limit`` distinct minimal splits (``splits_count`` always
    says how many there are).

    >>> d = decompose("3334445556667779XD")
    >>> d.min_plays, d.splits_count
    (3, 55)
    >>> decompose("789TJ5AA").min_plays
    3
    """
    rules = Rules.parse(rules)
    _, decks, most = _rules_limits(rules)
    h = _checked_hand(hand, decks, most)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise ArgumentError(f"limit must be a positive int, not {limit!r}", param="limit")
    twos, jokers, bombs, rocket = _controls(h, decks)
    if h == 0:
        return Decomposition(format_cards(h), rules, 0, [], 0, 0, [], twos, jokers, bombs, rocket, 1,
                             [[]] if all_splits else None)
    s = SplitSearch(h, rules)
    (unc_same, unc_any), best = s.best(h)
    plays = [Play(c, k) for c, k in best]
    unc = {p for p in plays if s.cost(p.cards, p.kind)[0]}
    # A split whose order matters (natural_first) keeps the order it is legal in.
    order = (lambda ps, u: ps) if s.sequenced(h) else lead_order
    ordered = order(plays, unc)
    splits = None
    if all_splits:
        splits = []
        for split in s.enumerate(h, limit):
            ps = [Play(c, k) for c, k in split]
            splits.append(order(ps, {p for p in ps if s.cost(p.cards, p.kind)[0]}))
    return Decomposition(
        hand=format_cards(h), rules=rules, min_plays=len(plays), plays=ordered,
        uncontrolled=unc_same, uncontrolled_any=unc_any,
        uncontrolled_plays=[p for p in ordered if p in unc],
        twos=twos, jokers=jokers, bombs=bombs, rocket=rocket,
        splits_count=s.count(h), splits=splits)
