"""The advisor as a self-play policy: games with the advisor in some seats.

:func:`play_game` deals game ``index`` of ``ddz simulate --seed``, runs the
auction and the stake stages by the heuristic and lets each seat play by its
role's policy, ``advisor`` among them (:func:`~.advisor.advise` on the seat's
own view, as the variant lets it see the table); :func:`simulate_advised`
yields such games' records.
"""

from __future__ import annotations

import dataclasses
import random
import time
from typing import Callable

import numpy as np

from ...core.errors import ArgumentError
from ...core.rules import Play, Rules
from ...engines.game import Game
from ...engines.kernels import BUFFER, new_table, policy_bid, policy_call, policy_double, policy_play
from ...engines.policies import POLICIES, POLICY_HEURISTIC, seed_rng
from ...variants import variant_of
from ..bid import sample_key, seed_key
from .advisor import DEFAULT_EXACT_CARDS, DEFAULT_NODES, DEFAULT_SAMPLES, advise
from .parse import bottom_seen, rules_arg
from .view import history_view

__all__ = ["GAME_POLICIES", "AdvisorOptions", "play_game", "simulate_advised"]

#: Play policies of :func:`play_game` (per role).
GAME_POLICIES = ("heuristic", "heuristic-solo", "random", "advisor")


@dataclasses.dataclass(frozen=True)
class AdvisorOptions:
    """The advisor's budget in self-play (see :func:`advise`)."""

    samples: int = DEFAULT_SAMPLES
    nodes: int = DEFAULT_NODES
    exact_cards: int = DEFAULT_EXACT_CARDS
    workers: int = 1
    auction: bool = True
    objective: str = "win"
    #: Weigh the deals by the other seats' actions (:mod:`.inference`).
    inference: bool = False


def _decision_seed(seed: int, game: int, move: int) -> int:
    return sample_key(sample_key(seed_key(seed), game, 0x5EED), move)


def _policy_play(g: Game, seat: int, policy: str, rules: Rules, seed: "int | None", table, bufc, bufk) -> Play:
    """The play of ``policy`` (heuristic or random, seeded by ``seed``) for
    ``seat`` of the game ``g`` in play, at a table of any size: the kernel
    :func:`~ddz_tools.engines.policies.policy_play`, as :func:`ddz_tools.engines.policies.choose`
    calls it for three seats."""
    if seed is not None:
        seed_rng(int(seed))
    prev_kind = 0 if g.last_play is None else g.last_play.kind
    prev_seat = g.landlord if g.last_seat is None else g.last_seat
    c, k = policy_play(np.array(g.hands, np.int64), seat, g.landlord, prev_kind, prev_seat, POLICIES[policy],
                       rules.flags, table, bufc, bufk)
    return Play(int(c), int(k))


def play_game(index: int, seed: int = 0, landlord_policy: str = "heuristic", farmer_policy: str = "heuristic",
              rules=None, options: AdvisorOptions = AdvisorOptions(), stats: "dict | None" = None,
              agents: "dict | None" = None) -> dict:
    """One self-play game with a policy per role; its ``ddz-record/1`` dict.

    The deal is :func:`ddz_tools.engines.selfplay.deal_cards` of
    :func:`~ddz_tools.engines.selfplay.game_seed` ``(seed, index)`` (the deal of game
    ``index`` of ``ddz simulate --seed``), the first bidder is ``index % 3``
    (``index % 4`` under four-player rules) and every seat bids by the
    heuristic bid rule, or under call-grab and first-call bidding its call
    rule (if all pass, seat 0 is landlord with base 1); under
    ``landlord_draw=on`` the landlord draws a random card from each farmer
    (the game's generator, seeded by the game), and where the rules have
    doubles each seat doubles by the heuristic's rule.  Then each seat plays by its role's
    policy: ``heuristic`` or ``random`` (the kernel of :func:`ddz_tools.engines.policies.choose`) or
    ``advisor`` (:func:`advise` on the seat's own view: under four-player
    rules a farmer's view has no bottom), each seeded by the game and the move.
    The record's ``players`` name each seat's policy.  ``stats`` (a dict), if
    given, collects ``decisions`` and ``seconds`` of the advisor.  ``agents``
    maps a policy name to a callable ``(game, seat) -> Play`` for players from
    outside the package (a benchmark's peer); its name goes in the record.
    """
    from ...engines.records import record_from_game, record_to_dict
    from ...engines.selfplay import deal_cards, game_seed

    agents = agents or {}
    for name, pol in (("landlord_policy", landlord_policy), ("farmer_policy", farmer_policy)):
        if pol not in GAME_POLICIES and pol not in agents:
            raise ArgumentError(f"{name} must be one of {', '.join(GAME_POLICIES)}, not {pol!r}", param=name)
    rules = rules_arg(rules)
    variant = variant_of(rules)
    n = variant.seats
    hands, bottom = deal_cards(game_seed(seed, index), rules=rules)
    g = Game(hands=hands, bottom=bottom, rules=rules, first_bidder=index % n, all_pass="seat0",
             rng=random.Random(game_seed(seed, index)))
    table, bufc, bufk = new_table(12), np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64)
    calls = variant.stake.auction == "call"
    while g.phase in ("bidding", "drawing", "doubling"):
        if g.phase == "drawing":
            g.draw()
        elif g.phase == "doubling":
            s = g.turn
            g.double(int(policy_double(g.hands[s], POLICY_HEURISTIC, rules.flags, rules.stage_flags,
                                       int(s == g.landlord), table)))
        elif calls:
            a = g.auction
            level = 0 if a.caller is None else 1 + a.grabs
            v = int(policy_call(g.hands[g.turn], POLICY_HEURISTIC, rules.flags, level, table))
            g.bid(v if v in g.legal_bids() else 1)      # a seat that must call calls
        else:
            g.bid(int(policy_bid(g.hands[g.turn], POLICY_HEURISTIC, rules.flags, g.auction.high, table)))
    if g.phase != "playing":
        raise RuntimeError(f"game {index}: the bidding did not make a landlord")  # all_pass="seat0" always does
    ll = g.landlord
    name = variant.seat_roles(ll)                 # seat -> role, from the landlord on
    pols = [landlord_policy if s == ll else farmer_policy for s in range(n)]
    move = 0
    while g.phase == "playing":
        s = g.turn
        if pols[s] in agents:
            p = agents[pols[s]](g, s)
        elif pols[s] != "advisor":
            p = _policy_play(g, s, pols[s], rules, _decision_seed(seed, index, move) if pols[s] == "random" else None,
                             table, bufc, bufk)
        else:
            history = [(name[t], q) for t, q in g.plays]
            view = history_view(g.hands[s], name[s], history,
                                bottom if bottom_seen(variant, s == ll) else None,
                                rules=rules, bids=[(name[t], v) for t, v in g.bids],
                                draws=[(name[f], c) for f, c in g.draws if s == ll or f == s] or None,
                                doubles=[g.doubles[t] for t in name] if variant.stake.doubles else None,
                                stage_multiple=g.show_multiple * g.bottom_bonus_now())
            cands = view.candidates()
            if len(cands) == 1:
                p = cands[0]
            else:
                t0 = time.perf_counter()
                a = advise(view, samples=options.samples, seed=_decision_seed(seed, index, move),
                           workers=options.workers, nodes=options.nodes, exact_cards=options.exact_cards,
                           auction=options.auction, objective=options.objective, inference=options.inference)
                p = Play.pass_() if a.recommendation == "pass" else Play.parse(a.recommendation, rules)
                if stats is not None:
                    stats["decisions"] = stats.get("decisions", 0) + 1
                    stats["seconds"] = stats.get("seconds", 0.0) + time.perf_counter() - t0
        g.play(p, seat=s)
        move += 1
    rec = record_to_dict(record_from_game(g, id=f"advised-{seed}-{index}", players=pols))
    return rec


def simulate_advised(games: int, seed: int = 0, landlord_policy: str = "heuristic",
                     farmer_policy: str = "heuristic", rules=None, options: AdvisorOptions = AdvisorOptions(),
                     start: int = 0, progress: "Callable[[int, int], None] | None" = None):
    """Yield the records of games ``start .. start+games-1`` of :func:`play_game`."""
    for k in range(games):
        yield play_game(start + k, seed, landlord_policy, farmer_policy, rules, options)
        if progress is not None:
            progress(k + 1, games)
