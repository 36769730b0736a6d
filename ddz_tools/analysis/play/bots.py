"""The bots in the other seats: the heuristic, or the advisor.

Every bot bids, calls, doubles and shows by the heuristic's rules (the
policy kernels of :mod:`ddz_tools.engines.policies`, as self-play does); it
plays by the heuristic (``heuristic``) or by the advisor on its own view
(``advisor``, ``advisor:N`` with at most N deals a decision;
:func:`~ddz_tools.analysis.advise.advise`).  The heuristic reads only what
its seat may know; the advisor sees its own view and nothing else.  Each
advisor decision is seeded by the session's seed, the game and the move, so
a game replays the same.

>>> parse_opponents("advisor:32")
('advisor', 32)
>>> parse_opponents("heuristic")
('heuristic', 0)
"""

from __future__ import annotations

import numpy as np

from ...core.errors import ArgumentError
from ...core.gamerules import SHOW_FIRST_PLAY
from ...core.rules import Play
from ...engines.game import BIDDING, DOUBLING, Game
from ...engines.kernels import BUFFER, new_table, policy_bid, policy_call, policy_double, policy_play, policy_show
from ...engines.policies import POLICY_HEURISTIC
from ..advise import advise, game_view
from ..bid import sample_key, seed_key

__all__ = ["OPPONENTS", "DEFAULT_ADVISOR_SAMPLES", "parse_opponents", "Bot"]

#: The kinds of bot.
OPPONENTS = ("heuristic", "advisor")
#: The advisor bot's deals a decision when ``advisor`` names no number.
DEFAULT_ADVISOR_SAMPLES = 32


def parse_opponents(text: str) -> tuple:
    """``heuristic``, ``advisor`` or ``advisor:N`` as ``(kind, samples)``
    (0 samples for the heuristic); an
    :class:`~ddz_tools.core.errors.ArgumentError` otherwise."""
    t = str(text).strip().lower()
    kind, _, n = t.partition(":")
    if kind == "heuristic" and not n:
        return "heuristic", 0
    if kind == "advisor":
        if not n:
            return "advisor", DEFAULT_ADVISOR_SAMPLES
        if n.isdigit() and int(n) >= 1:
            return "advisor", int(n)
    raise ArgumentError(f"opponents must be heuristic, advisor or advisor:N (N deals a decision, N >= 1), "
                        f"not {text!r}", param="opponents")


class Bot:
    """The players of the other seats (see the module doc)."""

    def __init__(self, opponents: str = "heuristic", seed: int = 0):
        self.kind, self.samples = parse_opponents(opponents)
        self.seed = seed
        self.table = new_table(12)
        self.bufc = np.empty(BUFFER, np.int64)
        self.bufk = np.empty(BUFFER, np.int64)

    @property
    def name(self) -> str:
        """The bot as the records name it."""
        return "heuristic" if self.kind == "heuristic" else f"advisor:{self.samples}"

    def shows(self, g: Game, seat: int) -> bool:
        """Whether the landlord ``seat`` shows his hand at his first play."""
        r = g.rules
        return bool(policy_show(g.hands[seat], POLICY_HEURISTIC, r.flags, r.stage_flags, SHOW_FIRST_PLAY, 1,
                                self.table))

    def action(self, g: Game, seat: int, move: int, game: int) -> tuple:
        """The action of ``seat``, to move in ``g``, as the session logs it:
        ``(kind, seat, value)`` (``move`` and ``game`` seed the advisor)."""
        r = g.rules
        if g.phase == BIDDING:
            if g.variant.stake.auction == "call":
                a = g.auction
                level = 0 if a.caller is None else 1 + a.grabs
                v = int(policy_call(g.hands[seat], POLICY_HEURISTIC, r.flags, level, self.table))
                return "bid", seat, v if v in g.legal_bids() else 1      # a seat that must call calls
            return "bid", seat, int(policy_bid(g.hands[seat], POLICY_HEURISTIC, r.flags, g.auction.high, self.table))
        if g.phase == DOUBLING:
            return "double", seat, int(policy_double(g.hands[seat], POLICY_HEURISTIC, r.flags, r.stage_flags,
                                                     int(seat == g.landlord), self.table))
        return "play", seat, self.play(g, seat, move, game)

    def play(self, g: Game, seat: int, move: int = 0, game: int = 0) -> Play:
        """The play of ``seat`` in the play phase."""
        if self.kind == "advisor":
            view = game_view(g)
            cands = view.candidates()
            if len(cands) == 1:
                return cands[0]
            seed = sample_key(sample_key(seed_key(self.seed), game, 0xB07), move) & 0x7FFFFFFF
            a = advise(view, samples=self.samples, seed=seed, workers=1)
            return Play.pass_() if a.recommendation == "pass" else Play.parse(a.recommendation, g.rules)
        prev_kind = 0 if g.last_play is None else g.last_play.kind
        prev_seat = g.landlord if g.last_seat is None else g.last_seat
        c, k = policy_play(np.array(g.hands, np.int64), seat, g.landlord, prev_kind, prev_seat, POLICY_HEURISTIC,
                           g.rules.flags, self.table, self.bufc, self.bufk)
        return Play(int(c), int(k))
