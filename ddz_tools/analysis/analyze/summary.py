"""The summary of a run: :func:`summarize` folds the analyses of many games
into one dict of figures (games, valid / invalid / incomplete, landlord win
rate, mean multiplier, bombs, springs, mistakes, reviewed stake decisions,
per-player figures when the records name their players), and
:func:`summary_rows` lays it out as CSV rows.
"""

from __future__ import annotations

import itertools
from typing import Iterable

from ..review import add_to_totals, new_totals
from .model import (ROLES, STATUS_DEAL, STATUS_INCOMPLETE, STATUS_INVALID, STATUS_VALID, GameAnalysis, Mistake,
                    player_names)


def summarize(analyses: Iterable[GameAnalysis]) -> dict:
    """Figures across games (each field is described in the README, "Summary").

    >>> g = GameAnalysis("f", 1, "ddz-record/1", "valid", landlord=0, players=["a", "b", "c"],
    ...                  result={"winner": "landlord", "multiplier": 2, "bombs": 1, "spring": False,
    ...                          "anti_spring": False, "scores": [4, -2, -2]})
    >>> s = summarize([g])
    >>> s["games"], s["valid"], s["landlord_win_rate"], s["players"]["a"]["wins"]
    (1, 1, 1.0, 1)
    """
    s = {
        "files": 0, "games": 0, "valid": 0, "invalid": 0, "incomplete": 0, "deals": 0,
        "result_disagrees": 0, "landlord_wins": 0, "farmer_wins": 0, "landlord_win_rate": None,
        "mean_multiplier": None, "bombs": 0, "stake_bombs": 0, "springs": 0, "anti_springs": 0,
        "mistakes": 0, "games_with_mistakes": 0, "mistakes_by_role": {r: 0 for r in ROLES},
        "positions_solved": 0, "positions_unchecked": 0, "bids_reviewed": 0, "bids_agreeing": 0,
        "bid_cost": 0.0, "doubles_reviewed": 0, "doubles_agreeing": 0, "double_cost": 0.0,
        "shows_reviewed": 0, "shows_agreeing": 0, "show_cost": 0.0,
        "stake_decisions": 0, "stake_against": 0,
        "review": new_totals(), "rules": {}, "players": {},
    }
    files = set()
    mult_sum = 0
    players: dict = {}
    for g in analyses:
        files.add(g.file)
        s["games"] += 1
        if g.status == STATUS_VALID:
            s["valid"] += 1
        elif g.status == STATUS_INVALID:
            s["invalid"] += 1
        elif g.status == STATUS_INCOMPLETE:
            s["incomplete"] += 1
        elif g.status == STATUS_DEAL:
            s["deals"] += 1
        if g.rules:
            s["rules"][g.rules] = s["rules"].get(g.rules, 0) + 1
        if g.result_disagrees:
            s["result_disagrees"] += 1
        if g.result and len(g.result.get("scores") or ()) == 4:
            s["mistakes_by_role"].setdefault("farmer3", 0)   # a four-player game: three farmers
        s["positions_solved"] += g.positions_solved
        s["positions_unchecked"] += g.positions_unchecked
        if g.mistakes:
            s["games_with_mistakes"] += 1
        for m in g.mistakes:
            s["mistakes"] += 1
            role = m.role if isinstance(m, Mistake) else m["role"]
            s["mistakes_by_role"][role] = s["mistakes_by_role"].get(role, 0) + 1
        names = player_names(g)
        if g.review:
            add_to_totals(s["review"], g.review)
            for seat, n in enumerate(names or ()):
                add_to_totals(players.setdefault(n, _new_player()).setdefault("review", new_totals()),
                              g.review, (seat,))
        for b in g.double_review or []:
            s["doubles_reviewed"] += 1
            s["doubles_agreeing"] += bool(b.get("agrees"))
            s["double_cost"] += b.get("cost") or 0.0
        for b in g.show_review or []:
            s["shows_reviewed"] += 1
            s["shows_agreeing"] += bool(b.get("agrees"))
            s["show_cost"] += b.get("cost") or 0.0
        for b in g.bid_review or []:
            s["bids_reviewed"] += 1
            s["bids_agreeing"] += bool(b.get("agrees"))
            s["bid_cost"] += b.get("cost") or 0.0
            if names:
                p = players.setdefault(names[b["seat"]], _new_player())
                p["bids_reviewed"] += 1
                p["bids_agreeing"] += bool(b.get("agrees"))
        # Stake decisions: every bid, call or grab, double and show decision the
        # evaluators reviewed; one is against the evaluator when the choice made
        # is not the evaluator's recommendation.  (Mistakes are plays only.)
        for b in itertools.chain(g.bid_review or (), g.double_review or (), g.show_review or ()):
            against = not b.get("agrees")
            s["stake_decisions"] += 1
            s["stake_against"] += against
            if names:
                p = players.setdefault(names[b["seat"]], _new_player())
                p["stake_decisions"] += 1
                p["stake_against"] += against
        if g.status != STATUS_VALID or not g.result:
            if names and g.status == STATUS_INCOMPLETE:
                for n in names:
                    players.setdefault(n, _new_player())["incomplete"] += 1
            continue
        r = g.result
        won_landlord = r.get("winner") == "landlord"
        s["landlord_wins" if won_landlord else "farmer_wins"] += 1
        mult_sum += r.get("multiplier") or 0
        s["stake_bombs"] += r.get("bombs") or 0
        s["bombs"] += (r.get("bombs") or 0) if g.bombs_played is None else g.bombs_played
        s["springs"] += bool(r.get("spring"))
        s["anti_springs"] += bool(r.get("anti_spring"))
        if names and g.landlord is not None:
            scores = r.get("scores") or [0, 0, 0]
            for seat, n in enumerate(names):
                p = players.setdefault(n, _new_player())
                is_ll = seat == g.landlord
                won = is_ll == won_landlord
                p["games"] += 1
                p["wins"] += won
                p["landlord_games"] += is_ll
                p["landlord_wins"] += is_ll and won
                p["score"] += scores[seat]
            for m in g.mistakes:
                seat = m.seat if isinstance(m, Mistake) else m["seat"]
                players[names[seat]]["mistakes"] += 1
    decided = s["landlord_wins"] + s["farmer_wins"]
    if decided:
        s["landlord_win_rate"] = round(s["landlord_wins"] / decided, 4)
        s["mean_multiplier"] = round(mult_sum / decided, 4)
    for p in players.values():
        p["win_rate"] = round(p["wins"] / p["games"], 4) if p["games"] else None
    s["bid_cost"] = round(s["bid_cost"], 4)
    s["double_cost"] = round(s["double_cost"], 4)
    s["show_cost"] = round(s["show_cost"], 4)
    s["players"] = dict(sorted(players.items()))
    s["files"] = len(files)
    return s


def _new_player() -> dict:
    return {"games": 0, "wins": 0, "win_rate": None, "landlord_games": 0, "landlord_wins": 0,
            "score": 0, "mistakes": 0, "incomplete": 0, "bids_reviewed": 0, "bids_agreeing": 0,
            "stake_decisions": 0, "stake_against": 0}

def summary_rows(s: dict) -> list[tuple[str, str, object]]:
    """The summary as ``(section, key, value)`` rows, for CSV."""
    rows = []
    for k, v in s.items():
        if isinstance(v, dict):
            continue
        rows.append(("summary", k, "" if v is None else v))
    for role, n in s["mistakes_by_role"].items():
        rows.append(("mistakes_by_role", role, n))
    for k, v in s["review"].items():
        rows.append(("review", k, "" if v is None else v))
    for spec, n in s["rules"].items():
        rows.append(("rules", spec, n))
    for name, p in s["players"].items():
        for k, v in p.items():
            if isinstance(v, dict):
                rows.extend((f"player:{name}:{k}", k2, "" if v2 is None else v2) for k2, v2 in v.items())
            else:
                rows.append((f"player:{name}", k, "" if v is None else v))
    return rows
