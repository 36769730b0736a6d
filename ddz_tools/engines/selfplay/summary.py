"""The figures of self-play: :class:`SelfplayStats` (a run's sums, from
:func:`~ddz_tools.engines.selfplay.selfplay_stats`), :class:`SimulationSummary`
(the same figures from records as they stream past: what ``ddz simulate``
prints) and the stake buckets both count the farmers' stakes in
(:func:`stake_bucket`).
"""

from __future__ import annotations

import dataclasses

from ...variants import variant_of
from ..stats import wilson_interval
from .kernel import STAKE_BUCKETS

__all__ = ["SelfplayStats", "SimulationSummary", "stake_bucket", "stake_bucket_label", "stake_distribution", "Z95"]

#: The normal quantile of self-play's 95% intervals (:func:`~ddz_tools.engines.stats.wilson_interval`),
#: rounded as they always were.
Z95 = 1.96


def stake_bucket(stake: int) -> int:
    """The bucket of a stake (:data:`STAKE_BUCKETS`): the least ``b`` with
    ``stake <= 2 ** b``, at most ``STAKE_BUCKETS - 1``.

    >>> [stake_bucket(s) for s in (1, 2, 3, 4, 5, 8, 9)]
    [0, 1, 2, 2, 3, 3, 4]
    """
    return min(max(0, (int(stake) - 1).bit_length()), STAKE_BUCKETS - 1)


def stake_bucket_label(b: int) -> str:
    """The stakes bucket ``b`` holds, as text: ``1``, ``2``, ``3-4``, ``5-8``, ...

    >>> [stake_bucket_label(b) for b in (0, 1, 2, 3, STAKE_BUCKETS - 1)]
    ['1', '2', '3-4', '5-8', '65537+']
    """
    if b == 0:
        return "1"
    if b == 1:
        return "2"
    lo = (1 << (b - 1)) + 1
    if b == STAKE_BUCKETS - 1:
        return f"{lo}+"
    return f"{lo}-{1 << b}"


def stake_distribution(counts) -> dict:
    """Bucket counts (by :func:`stake_bucket`) as ``{label: count}``, the
    non-empty buckets in order."""
    return {stake_bucket_label(b): int(c) for b, c in enumerate(counts) if c}


@dataclasses.dataclass
class SelfplayStats:
    """Aggregate figures of a batch of self-play games.

    The stake-stage figures (Happy Dou Dizhu): ``doubled_games``, games in
    which at least one seat doubled (x2 or x4); ``multiplier_sum``, the sum
    of the public multiples (show multiple x bottom bonus x 2 per bomb,
    rocket, spring, anti-spring); ``show_games``, games with a show;
    ``stake_counts``, how many farmer-landlord pairs settled a stake in each
    bucket (:func:`stake_bucket`; two pairs a game, the base included).
    """

    games: int
    landlord_wins: int
    bombs: int
    springs: int
    anti_springs: int
    moves: int
    landlord_score: int
    redeals: int
    seat_wins: tuple
    doubled_games: int = 0
    multiplier_sum: int = 0
    show_games: int = 0
    stake_counts: tuple = ()

    @property
    def landlord_win_rate(self) -> float:
        return self.landlord_wins / self.games if self.games else 0.0

    @property
    def landlord_win_interval(self) -> tuple:
        """The 95% Wilson interval of the landlord's win rate."""
        return wilson_interval(self.landlord_wins, self.games, z=Z95)

    @property
    def double_rate(self) -> float:
        """The share of games in which at least one seat doubled."""
        return self.doubled_games / self.games if self.games else 0.0

    @property
    def mean_multiplier(self) -> float:
        """The mean public multiple."""
        return self.multiplier_sum / self.games if self.games else 0.0

    @property
    def stakes(self) -> dict:
        """The farmer-pair stakes by bucket, ``{label: pairs}`` (:func:`stake_distribution`)."""
        return stake_distribution(self.stake_counts)

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["seat_wins"] = list(self.seat_wins)
        d["stake_counts"] = list(self.stake_counts)
        d["landlord_win_rate"] = self.landlord_win_rate
        d["landlord_win_interval"] = list(self.landlord_win_interval)
        d["double_rate"] = self.double_rate
        d["mean_multiplier"] = self.mean_multiplier
        d["stakes"] = self.stakes
        return d


@dataclasses.dataclass
class SimulationSummary:
    """Summary figures of self-play records as they stream past (what
    ``ddz simulate`` prints): add each ``ddz-record/1`` dict with :meth:`add`.

    >>> from ddz_tools.engines.selfplay import simulate
    >>> s = SimulationSummary()
    >>> for rec in simulate(10, "random", seed=1):
    ...     s.add(rec)
    >>> s.games, sum(s.seat_scores), s.figures()["landlord_wins"] == s.landlord_wins
    (10, 0, True)
    """

    games: int = 0
    landlord_wins: int = 0
    bombs: int = 0
    springs: int = 0
    anti_springs: int = 0
    moves: int = 0
    landlord_score: int = 0
    seat_scores: list = dataclasses.field(default_factory=lambda: [0, 0, 0])
    #: Games in which a seat doubled (x2 or x4; records with ``doubles``).
    doubled_games: int = 0
    #: Sum of the public multiples (``result.multiplier``).
    multiplier_sum: int = 0
    #: Games with a show (records with a non-empty ``show``).
    show_games: int = 0
    #: Farmer-pair stakes by :func:`stake_bucket` (two a game).
    stake_counts: list = dataclasses.field(default_factory=lambda: [0] * STAKE_BUCKETS)

    def add(self, record: dict) -> None:
        """Count one finished game record."""
        res = record["result"]
        self.games += 1
        self.landlord_wins += res["winner"] == "landlord"
        self.bombs += res["bombs"]
        self.springs += res["spring"]
        self.anti_springs += res["anti_spring"]
        self.moves += len(record["plays"])
        scores = res["scores"]
        ll = record["landlord"]
        self.landlord_score += scores[ll]
        if len(scores) > len(self.seat_scores):   # four players
            self.seat_scores += [0] * (len(scores) - len(self.seat_scores))
        for seat in range(len(scores)):
            self.seat_scores[seat] += scores[seat]
            if seat != ll:
                self.stake_counts[stake_bucket(abs(scores[seat]))] += 1
        self.multiplier_sum += res["multiplier"]
        if any(d > 1 for d in record.get("doubles") or ()):
            self.doubled_games += 1
        if record.get("show"):
            self.show_games += 1

    def rows(self, rules=None) -> list:
        """The figures as ``ddz simulate`` prints them, ``(label, text)`` rows:
        the classic ones, then those the variant of ``rules`` adds
        (:attr:`~ddz_tools.variants.Variant.summary_figures`)."""
        variant = variant_of(rules)
        f = self.figures()
        n = self.games
        rows = [("landlord win rate", f"{f['landlord_win_rate']:.3f}" if n else "-"),
                (f"{variant.bombs_counted} per game", f"{f['bombs_per_game']:.3f}" if n else "-"),
                ("springs / anti-springs", f"{self.springs} / {self.anti_springs}"),
                ("moves per game", f"{f['moves_per_game']:.1f}" if n else "-"),
                ("landlord mean score", f"{f['landlord_mean_score']:+.3f}" if n else "-"),
                ("score per seat", " ".join(f"{x:+d}" for x in self.seat_scores))]
        extra = variant.summary_figures if n else ()
        if "multiplier" in extra:
            rows.append(("mean multiplier", f"{f['mean_multiplier']:.3f}"))
        if "stages" in extra:
            rows += [("games with a double", f"{f['double_rate']:.3f} ({self.doubled_games})"),
                     ("games with a show", f"{self.show_games / n:.3f} ({self.show_games})"),
                     ("mean public multiplier", f"{f['mean_multiplier']:.2f}"),
                     ("stakes per farmer pair", " ".join(f"{k}:{v}" for k, v in f["stakes"].items()))]
        return rows

    def figures(self) -> dict:
        """Rates and totals by name (rates are ``None`` before any game)."""
        n = self.games
        return {
            "landlord_win_rate": self.landlord_wins / n if n else None, "landlord_wins": self.landlord_wins,
            "landlord_win_interval": list(wilson_interval(self.landlord_wins, n, z=Z95)) if n else None,
            "bombs_per_game": self.bombs / n if n else None, "springs": self.springs,
            "anti_springs": self.anti_springs, "moves_per_game": self.moves / n if n else None,
            "landlord_mean_score": self.landlord_score / n if n else None, "seat_scores": list(self.seat_scores),
            "double_rate": self.doubled_games / n if n else None, "doubled_games": self.doubled_games,
            "show_games": self.show_games, "mean_multiplier": self.multiplier_sum / n if n else None,
            "stakes": stake_distribution(self.stake_counts),
        }

