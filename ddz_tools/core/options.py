"""Rule options: the :class:`Rules` object every tool takes, its presets and
its text form (``standard,four_with_one=on``).

Each disputed detail of the rules is a named option (``docs/rules.md`` lists
them); :attr:`Rules.flags` packs the play options and the wild ranks into the
int the kernels take, :attr:`Rules.game_flags` adds how a deal draws its wild
ranks, :attr:`Rules.stage_flags` the stake stages.  :mod:`ddz_tools.core.rules`
is the public face of this module and :mod:`.plays`.
"""

from __future__ import annotations

import dataclasses
import functools

from .cards import (
    NUM_RANKS,
    RANK_2,
    RANK_X,
    RANKS,
)
from .errors import RulesError
from .gamerules import (
    DOUBLING_MODES,
    MUST_CALL_MODES,
    S_BONUS,
    S_DOUBLING,
    S_DRAW,
    S_MERGE_PRODUCT,
    S_MUST,
    S_NO_BOTTOM,
    S_SHOW,
    S_SPLIT,
    S_SUPER,
    SHOW_MODES,
)
from .kinds import (
    F_BOMB_ORDER_RANK,
    F_BOMBS_LADDER,
    F_BOMBS_SIX_PLUS,
    F_CHAINS_WITH_TWO,
    F_FOUR,
    F_FOUR_WITH_ONE,
    F_JOKERS_AS_KICKERS,
    F_JOKERS_IN_FOUR_TWO,
    F_KICKERS_DISTINCT,
    F_LAIZI_ALONE_ANY,
    F_LAIZI_NO_FOUR_TWO,
    F_LONG_BOMBS,
    F_NATURAL_FIRST,
    F_NO_MIXED_PURE,
    F_PURE_BOMB_SOFT,
    F_SHANGHAI,
    F_STAKE_TIERS,
    F_TOP_BOMB8,
    F_WING_CONSECUTIVE,
    wild_flags,
)

__all__ = ["Rules", "PRESETS", "STANDARD", "add_preset", "parse_wild", "format_wild", "LAIZI_OPTIONS", "STAGE_OPTIONS",
           "FOUR_OPTIONS", "NOT_FOUR_OPTIONS", "AXIS_OPTIONS"]

# Rule options ------------------------------------------------------------------

#: On/off play options whose flag bit is set when the option is on.
_PLAY_OPTIONS = {
    "kickers_distinct": F_KICKERS_DISTINCT,
    "jokers_as_kickers": F_JOKERS_AS_KICKERS,
    "jokers_in_four_two": F_JOKERS_IN_FOUR_TWO,
    "four_with_one": F_FOUR_WITH_ONE,
    "chains_with_two": F_CHAINS_WITH_TWO,
    "natural_first": F_NATURAL_FIRST,
    "long_bombs": F_LONG_BOMBS,
    "wing_pairs_consecutive": F_WING_CONSECUTIVE,
}
#: On/off play options (Laizi) whose flag bit is set when the option is off,
#: so that the default leaves the flags as they were.
_PLAY_OPTIONS_OFF = {
    "laizi_alone_as_self": F_LAIZI_ALONE_ANY,
    "laizi_in_four_two": F_LAIZI_NO_FOUR_TWO,
    "mixed_pure_bomb": F_NO_MIXED_PURE,
}
#: Play options with named values: value -> flag bits.
_PLAY_CHOICES = {
    "bomb_order": {"tiered": 0, "rank": F_BOMB_ORDER_RANK},
    "pure_bomb": {"top": 0, "soft": F_PURE_BOMB_SOFT},
    "chains": {"classic": 0, "shanghai": F_SHANGHAI},
    "top_bomb": {"jokers": 0, "bomb8": F_TOP_BOMB8},
    "bomb_doubles": {"all": 0, "six-plus": F_BOMBS_SIX_PLUS, "ladder": F_BOMBS_LADDER},
}
_GAME_OPTIONS = {
    "bidding": ("single-round", "until-two-pass", "call-grab", "first-call"),
    "first_bidder": ("random", "left-of-dealer"),
    "spring": ("landlord", "any-player"),
    "laizi_multipliers": ("hlddz", "flat"),
    "laizi_reveal": ("after-landlord", "before-bidding"),
    "show": ("off", "qq", "dianle"),
    "show_merge": ("max", "product"),
    "doubling": ("off", "per-pair", "global"),
    "bottom_bonus": ("off", "table"),
    "must_call": ("off", "jokers", "jokers+2s"),
}
#: Stake-stage options whose value sets a flag bit of :attr:`Rules.stage_flags`.
_STAGE_BITS = {"show_merge": {"max": 0, "product": S_MERGE_PRODUCT}, "super_double": {False: 0, True: S_SUPER},
               "bottom_bonus": {"off": 0, "table": S_BONUS}, "landlord_draw": {False: 0, True: S_DRAW}}
#: On/off game options.
_GAME_BOOLS = ("super_double", "landlord_draw")
#: Whole-number game options: name -> (lowest, highest).
_GAME_INTS = {"show_split": (1, 17)}
_BOOL_OPTIONS = {**_PLAY_OPTIONS, **_PLAY_OPTIONS_OFF, **{name: 0 for name in _GAME_BOOLS}}
_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}
#: Options that only Laizi presets use (left out of a classic rule set's description).
LAIZI_OPTIONS = ("laizi_alone_as_self", "laizi_in_four_two", "bomb_order", "pure_bomb", "natural_first",
                 "long_bombs", "mixed_pure_bomb", "laizi_multipliers", "laizi_reveal")
#: Options of the stake stages and the deal (Happy Dou Dizhu, no bottom), left
#: out of the description of a rule set whose preset does not use them.
STAGE_OPTIONS = ("show", "show_split", "show_merge", "doubling", "super_double", "bottom_bonus", "must_call",
                 "landlord_draw")
#: Options of four-player Dou Dizhu (two decks), left out of the description
#: of a three-player rule set; every one but the deal's is refused there.
FOUR_OPTIONS = ("chains", "wing_pairs_consecutive", "top_bomb", "bomb_doubles")
#: Options that do not apply to the four-player plays (no solo kickers, no
#: four + kickers, no chain through the 2 but under ``chains=shanghai``).
NOT_FOUR_OPTIONS = ("kickers_distinct", "jokers_as_kickers", "jokers_in_four_two", "four_with_one",
                    "chains_with_two")
#: The options of each part of the game (:meth:`Rules.axes`): a rule set's
#: description leaves out the options of the parts its preset does not play.
AXIS_OPTIONS = {
    "laizi": LAIZI_OPTIONS + ("wild_ranks",),
    "stages": STAGE_OPTIONS + ("bottom_cards",),
    "four": FOUR_OPTIONS + ("decks", "seats"),
    "three": NOT_FOUR_OPTIONS + STAGE_OPTIONS + ("bidding", "laizi_multipliers", "laizi_reveal") + LAIZI_OPTIONS,
}


@dataclasses.dataclass(frozen=True)
class Rules:
    """A complete rule set: play options plus game options, and for Laizi
    rules the wild ranks of the deal being played.

    Build one from a preset name with single-option overrides:

    >>> Rules.parse("standard").describe()
    'standard'
    >>> r = Rules.parse("douzero,four_with_one=on")
    >>> r.kickers_distinct, r.four_with_one, r.describe()
    (False, True, 'douzero,four_with_one=on')

    The presets ``laizi`` and ``tiandi`` draw one or two wild ranks a deal
    (``wild_ranks``); which ranks they are is part of the deal, not of the
    rules, and is given with :meth:`with_wild`:

    >>> r = Rules.parse("laizi,natural_first=on").with_wild("9")
    >>> r.describe(), r.wild_text()
    ('laizi,natural_first=on', '9')
    """

    kickers_distinct: bool = True
    jokers_as_kickers: bool = False
    jokers_in_four_two: bool = True
    four_with_one: bool = False
    chains_with_two: bool = False
    laizi_alone_as_self: bool = True
    laizi_in_four_two: bool = True
    bomb_order: str = "tiered"
    pure_bomb: str = "top"
    natural_first: bool = False
    long_bombs: bool = False
    mixed_pure_bomb: bool = True
    bidding: str = "single-round"
    first_bidder: str = "random"
    spring: str = "landlord"
    laizi_multipliers: str = "hlddz"
    laizi_reveal: str = "after-landlord"
    show: str = "off"
    show_split: int = 8
    show_merge: str = "max"
    doubling: str = "off"
    super_double: bool = False
    bottom_bonus: str = "off"
    must_call: str = "off"
    landlord_draw: bool = False
    chains: str = "classic"
    wing_pairs_consecutive: bool = False
    top_bomb: str = "jokers"
    bomb_doubles: str = "all"
    #: Decks dealt: 1, or 2 (108 cards) for four-player Dou Dizhu.
    decks: int = 1
    #: Seats at the table: 3, or 4 (``four``: the landlord against three farmers).
    seats: int = 3
    #: How many wild ranks a deal draws: 0 (classic), 1 (``laizi``), 2 (``tiandi``).
    wild_ranks: int = 0
    #: Cards in the bottom: 3, 0 under ``notalon`` (18 cards a seat), 8 under ``four``.
    bottom_cards: int = 3
    preset: str = "standard"
    #: The deal's wild ranks (rank indices; under ``tiandi`` 天 then 地), none before they are drawn.
    wild: tuple = ()

    @functools.cached_property
    def flags(self) -> int:
        """The play options and the wild ranks as the int bit set the kernels
        take (computed once; see :mod:`ddz_tools.core.kinds`)."""
        f = 0
        for name, bit in _PLAY_OPTIONS.items():
            if getattr(self, name):
                f |= bit
        for name, bit in _PLAY_OPTIONS_OFF.items():
            if not getattr(self, name):
                f |= bit
        for name, values in _PLAY_CHOICES.items():
            f |= values[getattr(self, name)]
        if self.is_laizi and self.laizi_multipliers == "hlddz":
            f |= F_STAKE_TIERS
        if self.seats == 4:
            f |= F_FOUR
        return f | wild_flags(self.wild)

    @functools.cached_property
    def game_flags(self) -> int:
        """:attr:`flags` with how a deal draws its wild ranks, for the game
        kernels (:func:`ddz_tools.core.gamerules.draw_wild`); the same as
        :attr:`flags` under classic rules."""
        f = self.flags
        if self.is_laizi:
            f |= self.wild_ranks << 24
            if self.laizi_reveal == "before-bidding":
                f |= 1 << 26
        return f

    @functools.cached_property
    def stage_flags(self) -> int:
        """The stake-stage and deal options as the int the game kernels take
        (the ``S_*`` fields of :mod:`ddz_tools.core.gamerules`)."""
        f = SHOW_MODES[self.show] << S_SHOW
        f |= self.show_split << S_SPLIT
        f |= DOUBLING_MODES[self.doubling] << S_DOUBLING
        f |= MUST_CALL_MODES[self.must_call] << S_MUST
        for name, bits in _STAGE_BITS.items():
            f |= bits[getattr(self, name)]
        return f | (S_NO_BOTTOM if not self.bottom_cards else 0)

    @property
    def hand_cards(self) -> int:
        """Cards dealt to each seat: 17, 18 with no bottom, 25 with four players."""
        return (54 * self.decks - self.bottom_cards) // self.seats

    @property
    def deck_size(self) -> int:
        """Cards in the deck: 54, or 108 with two decks."""
        return 54 * self.decks

    @property
    def landlord_cards(self) -> int:
        """Cards the landlord holds after taking the bottom (20, 18 or 33)."""
        return self.hand_cards + self.bottom_cards

    @property
    def is_four(self) -> bool:
        """True for four-player Dou Dizhu (two decks, three farmers)."""
        return self.seats == 4

    @property
    def has_stages(self) -> bool:
        """True when a hand has stake stages beyond the classic ones: shows,
        doubles or a bottom bonus."""
        return self.show != "off" or self.doubling != "off" or self.bottom_bonus != "off"

    def play_only(self) -> "Rules":
        """These rules for the play of a hand alone, as a tool replays plays
        from a hand already settled: no shows, doubles, bottom bonus,
        must-call or draws (the combinations, the auction and the spring
        are kept).

        >>> Rules.parse("happy").play_only().has_stages
        False
        """
        if not (self.has_stages or self.must_call != "off" or self.landlord_draw):
            return self
        return dataclasses.replace(self, show="off", doubling="off", bottom_bonus="off", must_call="off",
                                   landlord_draw=False)

    @property
    def is_laizi(self) -> bool:
        """True for the Laizi presets (a deal draws wild ranks)."""
        return self.wild_ranks > 0

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
            if key in _GAME_INTS:
                lo, hi = _GAME_INTS[key]
                if not value_l.isdigit() or not lo <= int(value_l) <= hi:
                    raise RulesError(f"rules option {key} takes a whole number {lo}..{hi}, not {value!r}")
                changes[key] = int(value_l)
            elif key in _BOOL_OPTIONS:
                if value_l in _TRUE:
                    changes[key] = True
                elif value_l in _FALSE:
                    changes[key] = False
                else:
                    raise RulesError(f"rules option {key} takes on or off, not {value!r}")
            elif key in _PLAY_CHOICES or key in _GAME_OPTIONS:
                values = tuple(_PLAY_CHOICES[key]) if key in _PLAY_CHOICES else _GAME_OPTIONS[key]
                if value_l not in values:
                    raise RulesError(f"rules option {key} takes one of {', '.join(values)}, not {value!r}")
                changes[key] = value_l
            elif key == "wild":
                raise RulesError("the wild rank is part of the deal, not of the rules: give it as wild "
                                 "(a position's, view's or record's 'wild')", param=("rules", "wild"))
            else:
                known = ", ".join(list(_BOOL_OPTIONS) + list(_PLAY_CHOICES) + list(_GAME_OPTIONS) + list(_GAME_INTS))
                raise RulesError(f"unknown rules option {key!r} (known: {known})")
        rules = dataclasses.replace(base, **changes)
        _check_seats(rules, changes)
        return rules

    @classmethod
    def from_dict(cls, d: "dict | str | None") -> "Rules":
        """From a record's ``rules`` field: a spec string or ``{"preset": ..., option: value}``
        (a ``wild`` key there is the deal's wild ranks, as :meth:`with_wild` takes them)."""
        if d is None or isinstance(d, str):
            return cls.parse(d)
        if not isinstance(d, dict):
            raise RulesError(f"rules must be a name or an object, not {type(d).__name__}")
        items = dict(d)
        items.pop("spec", None)
        wild = items.pop("wild", None)
        spec = [str(items.pop("preset", "standard"))]
        base = PRESETS.get(spec[0].lower())
        for k, v in items.items():
            if k in ("wild_ranks", "bottom_cards", "decks", "seats") and base is not None and v == getattr(base, k):
                continue
            if isinstance(v, bool):
                v = "on" if v else "off"
            spec.append(f"{k}={v}")
        r = cls.parse(",".join(spec))
        return r.with_wild(wild) if wild else r

    def with_wild(self, wild) -> "Rules":
        """These rules with the deal's wild ranks: rank text (``"9"``, ``"5,9"``,
        天 then 地), a list of rank names or of rank indices; ``None`` or ``""``
        for none.  Under ``tiandi`` one rank alone is 天 before 地 is drawn.

        >>> Rules.parse("tiandi").with_wild("5,9").wild
        (2, 6)
        >>> Rules.parse("standard").with_wild("9")
        Traceback (most recent call last):
        ...
        ddz_tools.core.errors.RulesError: standard rules have no laizi, so no wild 9 (laizi are played under rules laizi or tiandi)
        """
        ranks = parse_wild(wild)
        if ranks == self.wild:
            return self
        if ranks and not self.is_laizi:
            raise RulesError(f"{self.preset} rules have no laizi, so no wild {format_wild(ranks)} "
                             f"(laizi are played under rules laizi or tiandi)", param=("wild", "rules"))
        if len(ranks) > self.wild_ranks:
            raise RulesError(f"{self.preset} rules draw {self.wild_ranks} laizi rank"
                             f"{'s' if self.wild_ranks > 1 else ''} a deal, not the {len(ranks)} of "
                             f"wild {format_wild(ranks)}", param="wild")
        return dataclasses.replace(self, wild=ranks)

    def require_wild(self) -> "Rules":
        """These rules, after checking that a Laizi rule set has its wild rank(s)
        (a :class:`~ddz_tools.core.errors.RulesError` naming ``--wild`` if not)."""
        if self.is_laizi and not self.wild:
            example = "5,9" if self.wild_ranks == 2 else "9"
            raise RulesError(f"{self.preset} rules need the deal's laizi rank{'s' if self.wild_ranks > 1 else ''}: "
                             f"give wild (e.g. {example})", param="wild")
        return self

    @property
    def wild_at_bidding(self) -> int:
        """How many wild ranks are turned up before the bidding: every one
        under ``laizi_reveal=before-bidding``; else none under ``laizi`` and
        the 天 rank under ``tiandi`` (0 under classic rules)."""
        if not self.is_laizi:
            return 0
        return self.wild_ranks if self.laizi_reveal == "before-bidding" else self.wild_ranks - 1

    def at_bidding(self) -> "Rules":
        """These rules as the bidders see them: with only the wild ranks
        turned up before the bidding (:attr:`wild_at_bidding`).

        >>> Rules.parse("tiandi").with_wild("5,9").at_bidding().wild_text()
        '5'
        """
        if len(self.wild) <= self.wild_at_bidding:
            return self
        return dataclasses.replace(self, wild=self.wild[:self.wild_at_bidding])

    def wild_field(self) -> dict:
        """``{"wild": ...}`` (the deal's wild ranks as text) under Laizi rules,
        ``{}`` under classic ones: the field a JSON result of these rules holds.

        >>> Rules.parse("laizi").with_wild("9").wild_field(), Rules.parse("standard").wild_field()
        ({'wild': '9'}, {})
        """
        return {"wild": self.wild_text()} if self.wild_ranks else {}

    def wild_text(self) -> str:
        """The wild ranks as text (``"5,9"``), ``""`` for none."""
        return format_wild(self.wild)

    def overrides(self) -> dict:
        """Options that differ from this rule set's preset."""
        base = PRESETS[self.preset]
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name not in ("preset", "wild") and getattr(self, f.name) != getattr(base, f.name)
        }

    def describe(self) -> str:
        """The spec string that :meth:`parse` turns back into this rule set
        (the wild ranks, part of the deal, are not in it: :meth:`wild_text`)."""
        parts = [self.preset]
        for k, v in self.overrides().items():
            parts.append(f"{k}={('on' if v else 'off') if isinstance(v, bool) else v}")
        return ",".join(parts)

    def axes(self) -> frozenset:
        """The parts of the game these rules play beyond the classic three-seat
        hand, each with options of its own (:data:`AXIS_OPTIONS`): ``laizi``
        (wild cards), ``stages`` (stake stages or a deal without a bottom) and
        ``four`` (four seats, two decks); ``three`` is every three-seat table.

        >>> sorted(Rules.parse("happy").axes()), sorted(Rules.parse("four").axes())
        (['stages', 'three'], ['four'])
        """
        staged = self.has_stages or self.must_call != "off" or self.landlord_draw or self.bottom_cards == 0
        return frozenset(name for name, on in (("laizi", self.wild_ranks > 0), ("stages", staged),
                                               ("four", self.seats == 4), ("three", self.seats == 3)) if on)

    def to_dict(self) -> dict:
        """Every option by name, for JSON output: the options of the parts of
        the game the preset plays (:meth:`axes`), the others only where
        changed (and never another table's); under Laizi rules also ``wild``
        (the deal's wild ranks as text)."""
        d = dataclasses.asdict(self)
        d.pop("wild")
        changed, axes = self.overrides(), self.axes()
        for axis, names in AXIS_OPTIONS.items():
            if axis not in PRESETS[self.preset].axes():
                for k in names:
                    if k not in changed or axis in ("three", "four"):
                        d.pop(k, None)
        if "laizi" in axes:
            d["wild"] = self.wild_text()
        if "four" in axes:
            d["bottom_cards"] = self.bottom_cards
        d["spec"] = self.describe()
        return d


def _check_seats(rules: Rules, changes: dict) -> None:
    """Refuse options that do not apply to the number of seats: the four-player
    options at a three-player table, and the three-player ones at four."""
    if rules.seats == 4:
        for k in NOT_FOUR_OPTIONS:
            if k in changes:
                raise RulesError(f"rules option {k} does not apply to four-player rules (no solo kickers, no four + "
                                 f"kickers, chains through A and 2 only with chains=shanghai)")
        for k in STAGE_OPTIONS + ("bidding",):
            if k in changes and changes[k] != getattr(PRESETS["four"], k):
                raise RulesError(f"rules option {k} is not played with four players (single-round bidding, "
                                 f"no shows or doubles)")
        for k in LAIZI_OPTIONS:
            if k in changes and changes[k] != getattr(PRESETS["four"], k):
                raise RulesError(f"rules option {k} is a Laizi option; the four-player game has no wild cards")
    else:
        for k in FOUR_OPTIONS:
            if k in changes and changes[k] != getattr(PRESETS["standard"], k):
                raise RulesError(f"rules option {k} is a four-player option: use it with rules four")


def parse_wild(wild) -> tuple:
    """Wild ranks from text (``"9"``, ``"5,9"``, ``"T"`` or ``"10"``), a list
    of rank names or rank indices: a tuple of rank indices 0..12.  A joker, an
    unknown rank or the same rank twice raises :class:`RulesError`."""
    if wild is None or wild == "" or wild == ():
        return ()
    if isinstance(wild, str):
        items = [w for w in wild.replace(" ", ",").split(",") if w]
    elif isinstance(wild, (list, tuple)):
        items = list(wild)
    else:
        raise RulesError(f"wild must be rank text such as \"9\" or \"5,9\", not {type(wild).__name__}",
                         param="wild")
    out = []
    for w in items:
        if isinstance(w, int) and not isinstance(w, bool):
            r = w
        elif isinstance(w, str):
            t = w.strip().upper()
            t = "T" if t == "10" else t
            r = RANKS.find(t) if len(t) == 1 else -1
            if t in ("B", "R"):
                r = RANK_X
        else:
            r = -1
        if not 0 <= r < NUM_RANKS:
            raise RulesError(f"wild: {w!r} is no rank (a laizi rank is one of 3..A, 2)", param="wild")
        if r > RANK_2:
            raise RulesError(f"wild {RANKS[r]}: a joker is never a laizi (a laizi rank is one of 3..A, 2)",
                             param="wild")
        if r in out:
            raise RulesError(f"wild: the rank {RANKS[r]} is given twice (天 and 地 are two different ranks)",
                             param="wild")
        out.append(r)
    if len(out) > 2:
        raise RulesError(f"wild: {len(out)} ranks given; a deal has at most two laizi ranks (天 and 地)",
                         param="wild")
    return tuple(out)


def format_wild(wild) -> str:
    """Rank indices as ``--wild`` text: ``(2, 6)`` -> ``"5,9"``."""
    return ",".join(RANKS[r] for r in wild)


@functools.lru_cache(maxsize=256)
def _parse_spec(spec: str) -> Rules:
    return Rules._parse_uncached(spec)


PRESETS = {
    "standard": Rules(),
    "douzero": Rules(kickers_distinct=False, jokers_as_kickers=True, preset="douzero"),
    "encyclopedia": Rules(four_with_one=True, chains_with_two=True, preset="encyclopedia"),
    "laizi": Rules(wild_ranks=1, preset="laizi"),
    "tiandi": Rules(wild_ranks=2, long_bombs=True, preset="tiandi"),
    "happy": Rules(bidding="call-grab", show="qq", doubling="per-pair", super_double=True, preset="happy"),
    "notalon": Rules(bidding="first-call", bottom_cards=0, preset="notalon"),
    "four": Rules(decks=2, seats=4, bottom_cards=8, bomb_doubles="six-plus", preset="four"),
}
STANDARD = PRESETS["standard"]


def add_preset(name: str, rules: Rules) -> None:
    """Make ``name`` a preset for ``rules`` (whose ``preset`` is ``name``):
    :func:`ddz_tools.variants.register` calls it for a new variant."""
    if rules.preset != name:
        raise RulesError(f"the rules of preset {name!r} must name it as their preset, not {rules.preset!r}")
    PRESETS[name] = rules
    _parse_spec.cache_clear()
