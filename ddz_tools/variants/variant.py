"""A variant of Dou Dizhu: one object that answers for itself.

A variant is composed along three axes, each a small object of its own
module: the :class:`~.table.Table` (three seats with a bottom, three without,
four with two decks), the :class:`~.wild.WildCards` (natural cards, Laizi,
天地癞子) and the :class:`~.stake.Stake` (the classic auction and stake, or
Happy Dou Dizhu's stages).  :func:`variant_of` builds the variant of any
:class:`~ddz_tools.core.rules.Rules`; every tool asks it (the deal's sizes,
the seats' names, the settlement, the wild draw, whether a decision exists,
the kernels' parameters) instead of asking which variant it holds.

The registry :data:`VARIANTS` holds the named variants, one per rule preset;
:func:`register` adds one (a rule preset plus its axes) so that ``--rules
NAME`` and every tool know it, with no other change:

>>> v = variant_of("four")
>>> v.name, v.table.seats, v.hand_sizes, v.roles[-1]
('four', 4, (25, 25, 25, 25, 8), 'farmer3')
>>> print(v.supports("double"))
the doubling decision is a three-player one: four-player Dou Dizhu (four) has no doubles; evaluate the bid
>>> variant_of("happy").supports("double") is None
True
>>> sorted(VARIANTS)[:4]
['douzero', 'encyclopedia', 'four', 'happy']
"""

from __future__ import annotations

import dataclasses
import functools
import re

import numpy as np

from ..core.errors import RulesError
from ..core.gamerules import BIDDING_MODES, SPRING_MODES
from ..core.rules import PRESETS, Rules, add_preset
from .stake import BID_AUCTIONS, Stake
from .table import FOUR, NO_BOTTOM, THREE, Table
from .wild import WILD_CARDS, WildCards

__all__ = ["Variant", "variant_of", "find_variant", "register", "support_table", "VARIANTS", "DECISIONS",
           "P_FLAGS", "P_GAME_FLAGS", "P_STAGE_FLAGS", "P_SEATS", "P_DECKS", "P_HAND", "P_BOTTOM", "P_WILD_RANKS",
           "P_BIDDING", "P_SPRING", "PARAMS_SIZE"]

#: The decisions a tool may ask a variant about (:meth:`Variant.supports`):
#: ``bid`` (pass, 1, 2 or 3), ``call`` (pass, call or grab), ``double``
#: (x1, x2, x4 after the bottom), ``show`` (show the hand), ``advise`` (the
#: best play with hidden cards), ``advise-endgame`` (the same, two hands and
#: no seats), ``agents`` (our players in other engines' harnesses),
#: ``botzone`` (a Botzone log of the game).
DECISIONS = ("bid", "call", "double", "show", "advise", "advise-endgame", "agents", "botzone")

# The kernel parameters (:attr:`Variant.params`): one int64 array, these fields.
P_FLAGS = 0          # the play flags (Rules.flags)
P_GAME_FLAGS = 1     # the play flags with the wild draw (Rules.game_flags)
P_STAGE_FLAGS = 2    # the stake stages and the deal (Rules.stage_flags)
P_SEATS = 3
P_DECKS = 4
P_HAND = 5           # cards dealt to each seat
P_BOTTOM = 6         # cards in the bottom
P_WILD_RANKS = 7     # wild ranks a deal draws
P_BIDDING = 8        # the auction (the ``bidding`` option's kernel code, BIDDING_MODES)
P_SPRING = 9         # the spring rule (SPRING_MODES: 1 when any farmer's silence counts)
PARAMS_SIZE = 10


@dataclasses.dataclass(frozen=True, eq=False)
class Variant:
    """The variant a rule set plays: its table, its cards and its stake."""

    rules: Rules
    table: Table
    cards: WildCards
    stake: Stake

    @property
    def name(self) -> str:
        """The rule preset's name (``standard``, ``four``, ...)."""
        return self.rules.preset

    def describe(self) -> str:
        """The rule set as ``--rules`` text."""
        return self.rules.describe()

    # The deal and the seats.
    @property
    def seats(self) -> int:
        """Seats at the table."""
        return self.table.seats

    @property
    def roles(self) -> tuple:
        """The roles in turn order from the landlord."""
        return self.table.roles

    @property
    def hand_sizes(self) -> tuple:
        """Cards dealt to each seat, then the bottom's."""
        return (self.table.hand_cards,) * self.table.seats + (self.table.bottom_cards,)

    def seat_roles(self, landlord: int) -> dict:
        """Each seat's role once ``landlord`` is known."""
        return self.table.seat_roles(landlord)

    def settle(self, landlord: int, landlord_won: bool, stake: int, doubles=None) -> tuple:
        """Each seat's score of a hand whose stake (base times public multiple)
        is ``stake``, with the seats' doubles where the rules have them."""
        return self.table.settle(landlord, landlord_won, stake, doubles, self.rules.doubling)

    @property
    def bombs_counted(self) -> str:
        """What a result's ``bombs`` counts, as a summary labels it: every bomb
        and rocket, or at a four-player table the bombs that raised the stake."""
        return "stake bombs" if self.table.seats == 4 else "bombs + rockets"

    @property
    def summary_figures(self) -> tuple:
        """The figures a summary of this variant's games adds to the classic
        ones: ``multiplier`` (the mean multiplier, which the four-player bomb
        rules make uneven) and ``stages`` (the Happy stages: doubles, shows,
        the public multiplier and the stakes)."""
        return (("multiplier",) if self.table.seats == 4 else ()) + (("stages",) if self.rules.has_stages else ())

    def needs_bottom(self, tool: str) -> "str | None":
        """None when the table deals a bottom, else why ``tool`` (which needs
        one) cannot run here: the one message."""
        return f"rules {self.describe()} have no bottom: {tool} needs one" if self.table.bottom_cards == 0 else None

    @property
    def bottom_given(self) -> "str | None":
        """None when a bottom may be given (the table deals one), else why not."""
        return f"rules {self.describe()} deal no bottom: leave out bottom" if self.table.bottom_cards == 0 else None

    # Wild cards.
    def draw_wild(self, rng) -> tuple:
        """A deal's wild ranks, drawn with ``rng`` (none with natural cards)."""
        return self.cards.draw(rng)

    def wild_shown(self, wild: tuple, landlord_known: bool) -> tuple:
        """The wild ranks the table sees by now."""
        return self.cards.shown(wild, landlord_known, self.rules.wild_at_bidding)

    # Decisions.
    def supports(self, decision: str) -> "str | None":
        """None when ``decision`` (one of :data:`DECISIONS`) exists under these
        rules and the tools answer it; else the reason, the one message every
        tool gives."""
        if decision not in DECISIONS:
            raise ValueError(f"unknown decision {decision!r} (one of {', '.join(DECISIONS)})")
        return next((why for refused, why in self._refusals()[decision] if refused), None)

    def _refusals(self) -> dict:
        """Per decision, the checks in order: ``(refused, why)`` pairs."""
        r, t, s = self.rules, self.table, self.stake
        spec = r.describe()
        four = t.seats != 3
        classic = t == THREE and not self.cards.wild and not s.staged
        return {
            "bid": [(s.auction != "bid" or r.bidding not in BID_AUCTIONS,
                     f"the bid evaluator supports bidding={' or '.join(BID_AUCTIONS)}, not {r.bidding}")],
            "call": [(four, f"the call decision is a three-player one (call-grab or first-call bidding): "
                            f"four-player Dou Dizhu ({spec}) bids 1, 2 or 3; evaluate the bid"),
                     (s.auction != "call", f"the call decision is for bidding=call-grab or first-call (rules {spec} "
                                           f"bid {r.bidding}: evaluate the bid instead)")],
            "double": [(four, f"the doubling decision is a three-player one: four-player Dou Dizhu ({spec}) has no "
                              f"doubles; evaluate the bid"),
                       (not s.doubles, f"there is no double to decide under rules {spec} (doubling=off): use rules "
                                       f"happy"),
                       (t.bottom_cards == 0, self.needs_bottom("the doubling evaluator"))],
            "show": [(four, f"the show decision is a Happy Dou Dizhu one: four-player Dou Dizhu ({spec}) has no "
                            f"shows"),
                     (not s.shows, f"there is no show to decide under rules {spec} (show=off): use rules happy")],
            "advise": [],
            "advise-endgame": [(t.decks != 1, f"the two-player form (no seat) is an endgame of one deck, not of "
                                              f"{spec} rules: give the seat")],
            "agents": [(not classic, f"the agents play three-player classic rules, not {spec}")],
            "botzone": [(four, f"Botzone's FightTheLandlord2 seats three players; a {t.seats}-player game has no "
                               f"Botzone log"),
                        (not classic or r.bidding != "single-round",
                         f"Botzone's FightTheLandlord2 plays classic three-player rules with one round of bids "
                         f"(bidding=single-round), not {spec}")],
        }

    def require(self, decision: str, param: "str | None" = "rules") -> "Variant":
        """This variant when it :meth:`supports` ``decision``, else a
        :class:`~ddz_tools.core.errors.RulesError` with the reason."""
        why = self.supports(decision)
        if why is not None:
            raise RulesError(why, param=param)
        return self

    # Kernels.
    @functools.cached_property
    def params(self) -> np.ndarray:
        """The kernel parameters, built once: an int64 array of
        :data:`PARAMS_SIZE` fields ``P_*``."""
        p = np.zeros(PARAMS_SIZE, np.int64)
        p[P_FLAGS] = self.rules.flags
        p[P_GAME_FLAGS] = self.rules.game_flags
        p[P_STAGE_FLAGS] = self.rules.stage_flags
        p[P_SEATS] = self.table.seats
        p[P_DECKS] = self.table.decks
        p[P_HAND] = self.table.hand_cards
        p[P_BOTTOM] = self.table.bottom_cards
        p[P_WILD_RANKS] = self.cards.ranks
        p[P_BIDDING] = BIDDING_MODES[self.rules.bidding]
        p[P_SPRING] = SPRING_MODES[self.rules.spring]
        p.setflags(write=False)
        return p

    @property
    def kernels(self) -> dict:
        """Which kernels serve this variant, by task: ``generator`` (``classic``
        or ``laizi``), ``min_plays`` (``classic``, ``laizi`` or ``two-deck``)
        and ``solver_key`` (``three`` or ``four``).  The kernels switch on the
        flags themselves; this says which path a variant takes."""
        wild = self.cards.wild
        return {"generator": "laizi" if wild else "classic",
                "min_plays": "laizi" if wild else ("two-deck" if self.table.decks == 2 else "classic"),
                "solver_key": "four" if self.table.seats == 4 else "three"}

    def __repr__(self) -> str:
        return (f"Variant({self.describe()!r}: {self.table.name}, {self.cards.name} cards, "
                f"{self.stake.name} stake)")


def _table_of(rules: Rules) -> Table:
    for t in (THREE, NO_BOTTOM, FOUR):
        if (t.seats, t.decks, t.bottom_cards) == (rules.seats, rules.decks, rules.bottom_cards):
            return t
    return Table(f"{rules.seats}-seat", rules.seats, rules.decks, rules.bottom_cards)


@functools.lru_cache(maxsize=512)
def _variant_of(rules: Rules) -> Variant:
    return Variant(rules, _table_of(rules), WILD_CARDS[rules.wild_ranks], Stake.of(rules))


def variant_of(rules: "Rules | str | None") -> Variant:
    """The variant of ``rules`` (a :class:`~ddz_tools.core.rules.Rules` or its
    text); built once per rule set."""
    return _variant_of(Rules.parse(rules))


#: The named variants, one per rule preset.
VARIANTS: dict = {}


def register(name: str, rules: "Rules | str") -> Variant:
    """Add the variant ``name`` played under ``rules`` (a rule set or its text,
    whose options the variant keeps): ``--rules NAME`` then parses to it and
    every tool serves it.  A name already registered is refused."""
    if name in VARIANTS or name in PRESETS:
        raise RulesError(f"a variant named {name!r} exists already")
    base = Rules.parse(rules)
    add_preset(name, dataclasses.replace(base, preset=name))
    VARIANTS[name] = variant_of(name)
    return VARIANTS[name]


def support_table(names=None) -> str:
    """The Markdown table of which decision each registered variant answers
    (``docs/rules.md`` holds it, and a test keeps the two equal), then every
    refusal's reason, the variant's rules written ``R``.

    >>> print(support_table(["standard"]).splitlines()[2])
    | `standard` | yes | no (1) | no (2) | no (3) | yes | yes | yes | yes |
    """
    names = list(VARIANTS) if names is None else list(names)
    rows = ["| variant | " + " | ".join(f"`{d}`" for d in DECISIONS) + " |",
            "|---|" + "---|" * len(DECISIONS)]
    reasons: list = []
    for name in names:
        v = VARIANTS[name]
        cells = []
        for d in DECISIONS:
            why = v.supports(d)
            if why is None:
                cells.append("yes")
                continue
            generic = re.sub(rf"(?<![\w-]){re.escape(v.describe())}(?![\w-])", "R", why)
            if generic not in reasons:
                reasons.append(generic)
            cells.append(f"no ({reasons.index(generic) + 1})")
        rows.append(f"| `{name}` | " + " | ".join(cells) + " |")
    notes = [f"{i}. {r}" for i, r in enumerate(reasons, 1)]
    return "\n".join(rows + [""] + notes)


def find_variant(name: str) -> Variant:
    """The registered variant ``name``; a :class:`~ddz_tools.core.errors.RulesError`
    naming the known ones if none."""
    v = VARIANTS.get(name.lower())
    if v is None:
        raise RulesError(f"unknown variant {name!r} (choose from {', '.join(VARIANTS)})")
    return v


for _name in list(PRESETS):
    VARIANTS[_name] = variant_of(_name)
