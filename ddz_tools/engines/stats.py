"""The statistics the engines and the analyses share: the normal quantile
of a confidence (:func:`normal_z`) and the Wilson score interval of a rate
(:func:`wilson_interval`), the one home of both (self-play's figures, the bid
and play evaluators).

>>> round(normal_z(0.95), 3)
1.96
>>> [round(x, 3) for x in wilson_interval(650, 1000, z=1.96)]
[0.62, 0.679]
"""

from __future__ import annotations

import math
from statistics import NormalDist

__all__ = ["normal_z", "wilson_interval"]


def normal_z(confidence: float) -> float:
    """The two-sided normal quantile of ``confidence`` (1.96 at 0.95): the
    half-width, in standard errors, of the intervals here.

    >>> round(normal_z(0.95), 3)
    1.96
    """
    return NormalDist().inv_cdf(1 - (1 - confidence) / 2)


def wilson_interval(successes: int, n: int, confidence: float = 0.95,
                    z: "float | None" = None) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion: ``successes`` of
    ``n``, at ``confidence`` (or with the normal quantile ``z`` itself, which
    then overrides it: self-play's figures use the rounded 1.96).  The bounds
    stay within [0, 1] and are exactly 0 with no success and 1 with no
    failure; ``(0.0, 1.0)`` when ``n`` is 0.

    >>> lo, hi = wilson_interval(80, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.7112, 0.8666)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return (0.0, 1.0)
    if z is None:
        z = normal_z(confidence)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)
